package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestAnalyzeCommand(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games")
	if err := os.MkdirAll(filepath.Join(games, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) string {
		t.Helper()
		p := filepath.Join(games, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("g1.sgf", "(;FF[4]GM[11]SZ[6]PB[one]PW[two]RE[W+R];B[a1];W[c4];B[a2])")
	write("sub/g2.sgf", "(;FF[4]GM[11]SZ[6]PB[two]PW[one];B[c5];W[e1];B[b5];W[a6];B[c2])")
	write("notes.txt", "not a game")

	var out, errb bytes.Buffer
	if code := run([]string{"analyze", games}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, s := range []string{"g1.sgf", "sub/g2.sgf", "one moved into a proved loss with a2 (1 of 34 moves not proved lost)",
		"two found a proved win with c2", "thrown away"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}

	// setup stones after moves, a swap, a resignation (the SGF reader's test files)
	out.Reset()
	if code := run([]string{"analyze", "../../engine/hex/testdata"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "hexgui.sgf") {
		t.Fatalf("the SGF test files: exit %d: %s%s", code, errb.String(), out.String())
	}

	out.Reset()
	if code := run([]string{"analyze", "--json", "--deep", filepath.Join(games, "sub", "g2.sgf")}, &out, &errb); code != 0 {
		t.Fatalf("--json: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"missed_defences": 1`) {
		t.Errorf("--deep: no missed_defences count:\n%s", out.String())
	}
	var js struct {
		Games []struct {
			Kind         string `json:"kind"`
			DecidedAt    int    `json:"decided_at"`
			Move         string `json:"move"`
			Alternatives *int   `json:"alternatives"`
		} `json:"games"`
		Players []struct {
			Name   string `json:"name"`
			Finds  int    `json:"finds"`
			Missed int    `json:"missed_defences"`
		} `json:"players"`
	}
	if err := json.Unmarshal(out.Bytes(), &js); err != nil {
		t.Fatalf("%v:\n%s", err, out.String())
	}
	if len(js.Games) != 1 || js.Games[0].Kind != "found" || js.Games[0].DecidedAt != 5 || js.Games[0].Move != "c2" ||
		js.Games[0].Alternatives == nil || *js.Games[0].Alternatives != 7 || len(js.Players) != 2 || js.Players[0].Finds != 1 || js.Players[1].Missed != 1 {
		t.Errorf("--json --deep: %s", out.String())
	}

	bad := write("bad.sgf", "(;FF[4]GM[11]SZ[6];B[zz9])")
	empty := filepath.Join(dir, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"analyze"}, 2, "give at least one SGF file or directory"},
		{[]string{"analyze", "--depth", "3", games}, 2, "--depth"},
		{[]string{"analyze", filepath.Join(dir, "missing.sgf")}, 1, "missing.sgf"},
		{[]string{"analyze", bad}, 1, "bad.sgf"},
		{[]string{"analyze", empty}, 1, "no .sgf files"},
	} {
		out.Reset()
		errb.Reset()
		code := run(tc.args, &out, &errb)
		first := strings.SplitN(errb.String(), "\n", 2)[0]
		if code != tc.code || !strings.Contains(first, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
		if tc.code == 1 && strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%v: the error takes more than one line: %q", tc.args, errb.String())
		}
	}
}
