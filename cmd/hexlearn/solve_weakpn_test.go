package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestSolveWeakPN: --weak-pn reaches the solver (6x6 a3 takes a different number of
// nodes at 0 and 1, with the same winner) and a value outside [0, 1] is a usage error
// naming the flag.
func TestSolveWeakPN(t *testing.T) {
	nodes := map[string]int64{}
	for _, w := range []string{"0", "1"} {
		var out, errb bytes.Buffer
		if code := run([]string{"solve", "--size", "6", "--moves", "a3", "--weak-pn", w, "--json"}, &out, &errb); code != 0 {
			t.Fatalf("--weak-pn %s: exit %d: %s", w, code, errb.String())
		}
		var r solveJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("--weak-pn %s: bad JSON %q: %v", w, out.String(), err)
		}
		if r.Winner != "black" {
			t.Errorf("--weak-pn %s: winner %q, want black (6x6 a3)", w, r.Winner)
		}
		nodes[w] = r.Nodes
	}
	if nodes["0"] == nodes["1"] {
		t.Errorf("--weak-pn 0 and 1 both took %d nodes: the flag did not reach the solver", nodes["0"])
	}
	for _, bad := range []string{"-0.5", "1.5", "NaN"} {
		var out, errb bytes.Buffer
		if code := run([]string{"solve", "--size", "4", "--weak-pn", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--weak-pn") {
			t.Errorf("--weak-pn %s: exit %d, %q; want 2 and a message naming the flag", bad, code, errb.String())
		}
	}
}
