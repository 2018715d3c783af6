package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveTableFile stops a solve at a node limit with --table, resumes it from the
// file, and checks the errors: a table of another board, a file that is no table,
// --table with DFS.
func TestSolveTableFile(t *testing.T) {
	dir := t.TempDir()
	tab := filepath.Join(dir, "a3.tab")
	solve := func(want int, args ...string) (solveJSON, string) {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run(append([]string{"solve"}, args...), &out, &errb); code != want {
			t.Fatalf("%v: exit %d, want %d: %s", args, code, want, errb.String())
		}
		var r solveJSON
		if want == 0 {
			if err := json.Unmarshal(out.Bytes(), &r); err != nil {
				t.Fatalf("%v: bad JSON %q: %v", args, out.String(), err)
			}
		}
		return r, errb.String()
	}
	fresh, _ := solve(0, "--size", "6", "--moves", "a3", "--tt-bits", "16", "--json")
	r, msg := solve(0, "--size", "6", "--moves", "a3", "--tt-bits", "16", "--max-nodes", "1500", "--table", tab, "--json")
	if r.Winner != "unknown" || !strings.Contains(msg, "open positions written") {
		t.Fatalf("limited solve: winner %q, stderr %q", r.Winner, msg)
	}
	r, msg = solve(0, "--size", "6", "--moves", "a3", "--tt-bits", "16", "--table", tab, "--json")
	if r.Winner != fresh.Winner || !strings.Contains(msg, "open positions read") {
		t.Fatalf("resumed solve: winner %q (fresh %q), stderr %q", r.Winner, fresh.Winner, msg)
	}
	if r.Nodes+1500 > fresh.Nodes*11/10 {
		t.Errorf("resumed %d nodes after 1500, a fresh solve %d", r.Nodes, fresh.Nodes)
	}
	// a table that holds the solved root answers at once
	rs, _ := solve(0, "--size", "6", "--moves", "a3", "--tt-bits", "16", "--table", tab, "--json")
	if rs.Nodes != 0 {
		t.Errorf("a solved table searched %d nodes", rs.Nodes)
	}
	if _, msg := solve(1, "--size", "7", "--moves", "a3", "--table", tab); !strings.Contains(msg, "of a 6x6 board, not 7x7") {
		t.Errorf("7x7 on a 6x6 table: %q", msg)
	}
	junk := filepath.Join(dir, "junk.tab")
	if err := os.WriteFile(junk, []byte("not a table"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, msg := solve(1, "--size", "6", "--moves", "a3", "--table", junk); !strings.Contains(msg, "junk.tab") || !strings.Contains(msg, "not a hexlearn table file") {
		t.Errorf("junk table: %q", msg)
	}
	if _, msg := solve(2, "--size", "6", "--moves", "a3", "--algorithm", "dfs", "--table", tab); !strings.Contains(msg, "--table goes with --algorithm dfpn") {
		t.Errorf("dfs with a table: %q", msg)
	}
	if _, msg := solve(1, "--size", "6", "--table", filepath.Join(dir, "none", "t.tab")); !strings.Contains(msg, "cannot write in") {
		t.Errorf("table in a missing directory: %q", msg)
	}
	// a file the run would keep only in part is refused, not overwritten
	before, err := os.ReadFile(tab)
	if err != nil {
		t.Fatal(err)
	}
	if _, msg := solve(1, "--size", "6", "--moves", "a3", "--tt-bits", "16", "--local-dominated", "--table", tab); !strings.Contains(msg, "other pruning settings") {
		t.Errorf("other pruning settings: %q", msg)
	}
	if _, msg := solve(1, "--size", "6", "--moves", "a3", "--tt-bits", "10", "--table", tab); !strings.Contains(msg, "give a larger --tt-bits") {
		t.Errorf("a table too small for the file: %q", msg)
	}
	if after, err := os.ReadFile(tab); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the refused runs changed the file (%v)", err)
	}
	// usage errors come before the file is read
	solve(2, "--openings", "--size", "6", "--moves", "a3", "--table", junk)
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--openings", "--size", "4", "--table", filepath.Join(dir, "o.tab")}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "written") {
		t.Errorf("openings with a table: exit %d, stderr %q", code, errb.String())
	}
}

// TestSolveTableEvery writes the table during the search with --table-every, and
// checks the flag's usage errors.
func TestSolveTableEvery(t *testing.T) {
	tab := filepath.Join(t.TempDir(), "a4.tab")
	var out, errb bytes.Buffer
	args := []string{"solve", "--size", "7", "--moves", "a4", "--timeout", "1500ms", "--tt-bits", "16", "--table", tab, "--table-every", "200ms"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if n := strings.Count(errb.String(), "written during the search"); n < 2 {
		t.Errorf("%d writes during a 1.5 s search every 0.2 s:\n%s", n, errb.String())
	}
	if !strings.Contains(errb.String(), "open positions written") {
		t.Errorf("no final write:\n%s", errb.String())
	}
	for _, bad := range [][]string{
		{"solve", "--size", "5", "--table-every", "1m"},
		{"solve", "--size", "5", "--table", tab, "--table-every", "-1s"},
	} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
}
