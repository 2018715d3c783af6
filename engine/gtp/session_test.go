package gtp

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// randomLine returns one random command line, well-formed or not, and whether it has
// something to run (blank and comment lines get no answer).
func randomLine(rng *rand.Rand, dir string) (string, bool) {
	cells := func() string {
		switch rng.IntN(8) {
		case 0:
			return "swap-pieces"
		case 1:
			return "resign"
		case 2:
			return []string{"z9", "a0", "", "c", "A1", "s19", "t20", "-1", "swap", "north", "\x00a1"}[rng.IntN(11)]
		}
		return fmt.Sprintf("%c%d", 'a'+rng.IntN(12), 1+rng.IntN(12))
	}
	colours := []string{"b", "w", "black", "white", "B", "WHITE", "x", "", "empty"}
	colour := func() string { return colours[rng.IntN(len(colours))] }
	var line string
	switch rng.IntN(16) {
	case 0, 1, 2, 3, 4:
		line = "play " + colour() + " " + cells()
		if rng.IntN(10) == 0 {
			line += " extra"
		}
	case 5:
		line = fmt.Sprintf("boardsize %d", rng.IntN(24)-2)
		if rng.IntN(3) == 0 {
			line += fmt.Sprintf(" %d", rng.IntN(22))
		}
	case 6:
		line = []string{"undo", "undo", "clear_board", "showboard", "final_score"}[rng.IntN(5)]
	case 7:
		line = "genmove " + colour()
	case 8:
		line = []string{"protocol_version", "name", "version", "list_commands", "hexgui-analyze_commands",
			"known_command play", "known_command", "all_legal_moves " + colour()}[rng.IntN(8)]
	case 9:
		files := []string{"good.sgf", "bad.sgf", "missing.sgf", "garbage.sgf"}
		line = "loadsgf " + filepath.Join(dir, files[rng.IntN(len(files))])
		if rng.IntN(3) == 0 {
			line += fmt.Sprintf(" %d", rng.IntN(6)-1)
		}
	case 10:
		line = "savesgf " + filepath.Join(dir, []string{"out.sgf", "no/such/dir/out.sgf"}[rng.IntN(2)])
	case 11:
		words := []string{"frobnicate", "play", "=", "?", "#", "\t", "boardsize", "13", "-", "\x7f", "é", "genmove"}
		n := rng.IntN(5)
		var w []string
		for i := 0; i < n; i++ {
			w = append(w, words[rng.IntN(len(words))])
		}
		line = strings.Join(w, " ")
	case 12:
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = byte(rng.IntN(256))
			if b[i] == '\n' || b[i] == '\r' {
				b[i] = ' '
			}
		}
		line = string(b)
	case 13:
		line = "# just a comment " + cells()
	case 14:
		line = ""
	default:
		line = fmt.Sprintf("%d %s", rng.IntN(1000), []string{"name", "play b a1", "undo", "genmove w", "boardsize 5"}[rng.IntN(5)])
	}
	if rng.IntN(8) == 0 {
		line = "\t " + line + "  # trailing comment"
	}
	_, ok := ParseLine(line)
	return line, ok
}

// TestRandomSession: a seeded GTP session of several hundred random commands,
// well-formed and malformed, served through Serve, gets exactly one well-formed
// answer per command and leaves the engine serving.
func TestRandomSession(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "good.sgf"), []byte("(;FF[4]GM[11]SZ[7];B[d4];W[swap-pieces];B[c5];W[e3])"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.sgf"), []byte("(;FF[4]GM[11]SZ[7];B[d4];W[d4])"), 0o644)
	os.WriteFile(filepath.Join(dir, "garbage.sgf"), []byte("\x00\xff(((;;]]["), 0o644)
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 99))
		var in strings.Builder
		want := 0
		for i := 0; i < 600; i++ {
			line, ok := randomLine(rng, dir)
			in.WriteString(line + "\n")
			if ok {
				want++
			}
		}
		in.WriteString("name\n")
		want++
		e := newSimple()
		var out strings.Builder
		if err := e.Serve(context.Background(), strings.NewReader(in.String()), &out); err != nil {
			t.Fatalf("seed %d: Serve: %v", seed, err)
		}
		resps := strings.SplitAfter(out.String(), "\n\n")
		if resps[len(resps)-1] == "" {
			resps = resps[:len(resps)-1]
		}
		if len(resps) != want {
			t.Fatalf("seed %d: %d answers for %d commands", seed, len(resps), want)
		}
		okCount := 0
		for _, r := range resps {
			if ok, _ := parseResponse(t, r); ok {
				okCount++
			}
		}
		if last := resps[len(resps)-1]; last != "= hexlearn\n\n" {
			t.Fatalf("seed %d: engine not serving at the end: %q", seed, last)
		}
		t.Logf("seed %d: %d commands, %d succeeded, %d refused", seed, want, okCount, want-okCount)
		if okCount < want/5 || okCount > want*9/10 {
			t.Errorf("seed %d: a suspicious mix of answers (%d of %d succeeded)", seed, okCount, want)
		}
	}
}
