package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/internal/gtpfake"
)

// TestMatchAdjudicates: an engine that dies in positions it has won is credited with
// those games (JSON counts and records, the text's lines and summary, SGF results);
// with --adjudicate-time 0 it forfeits them.
func TestMatchAdjudicates(t *testing.T) {
	base := []string{"match", "--a", gtpfake.Command("first"), "--name-a", "good", "--b", gtpfake.Command("diewon"),
		"--name-b", "dier", "--size", "4", "--openings", "4", "--seed", "2"}
	var out, errb bytes.Buffer
	if code := run(append(base, "--json"), &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	var res struct {
		Records []struct{ Winner, Result, End, Reason string } `json:"game_records"`
	}
	var counts map[string]any
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(out.Bytes(), &counts); err != nil {
		t.Fatal(err)
	}
	adj := 0
	for _, r := range res.Records {
		if r.End == "adjudicated" {
			adj++
			if !strings.Contains(r.Reason, "died, adjudicated: solved win for") || r.Result[1] != '+' {
				t.Errorf("record %+v", r)
			}
		}
	}
	if adj == 0 || counts["adjudicated"] != float64(adj) || counts["no_result"] != float64(0) || counts["forfeits"] != float64(0) ||
		counts["adjudicate_seconds"] != float64(60) || len(res.Records) != 8 {
		t.Fatalf("%d adjudicated records; output:\n%s", adj, out.String())
	}

	dir := t.TempDir()
	out.Reset()
	if code := run(append(base, "--sgf", dir), &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	if n := strings.Count(out.String(), "died, adjudicated: solved win for"); n != adj || !strings.Contains(out.String(), "; adjudicated ") {
		t.Errorf("%d adjudicated lines, want %d:\n%s", n, adj, out.String())
	}
	sgfs, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	adjSGF := 0
	for _, f := range sgfs {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte("adjudicated: solved win for")) {
			adjSGF++
		}
	}
	if len(sgfs) != 8 || adjSGF != adj {
		t.Errorf("%d SGF files, %d adjudicated; want 8, %d", len(sgfs), adjSGF, adj)
	}

	out.Reset()
	if code := run(append(base, "--adjudicate-time", "0", "--json"), &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	counts = nil
	if err := json.Unmarshal(out.Bytes(), &counts); err != nil {
		t.Fatal(err)
	}
	if counts["forfeits"] != float64(adj) || counts["adjudicated"] != float64(0) {
		t.Errorf("adjudication off: %s", out.String())
	}
}

// TestAdjudicateTimeFlag: a bad --adjudicate-time is a one-line usage error (exit 2).
func TestAdjudicateTimeFlag(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never")
	for _, cmd := range [][]string{
		{"match", "--a", "true", "--b", "true", "--size", "3", "--sgf", dir},
		{"experiment", "strength", "--size", "3", "--players", "exact,exact-xh", "--out", dir},
	} {
		for _, v := range []string{"-1", "x", "NaN", "1e12", "Inf"} {
			var out, errb bytes.Buffer
			code := run(append(append([]string{}, cmd...), "--adjudicate-time", v), &out, &errb)
			first, _, _ := strings.Cut(errb.String(), "\n")
			if code != 2 || !strings.Contains(first, "-adjudicate-time") {
				t.Errorf("%s --adjudicate-time %s: exit %d, stderr %q", cmd[0], v, code, errb.String())
			}
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a rejected command created %s", dir)
	}
}
