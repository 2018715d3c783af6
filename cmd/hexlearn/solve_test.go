package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

func TestSolveCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--size", "4", "--moves", "d1", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r solveJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("bad JSON %q: %v", out.String(), err)
	}
	if r.Winner != "black" || r.ToMove != "white" {
		t.Fatalf("4x4 d1: got winner %q, to move %q", r.Winner, r.ToMove)
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "3", "--to-move", "white"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "winner: white") || !strings.Contains(out.String(), "winning move:") {
		t.Fatalf("3x3 white to move:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--openings", "--size", "4"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "black wins with: d1 c2 b3 a4") {
		t.Fatalf("4x4 openings:\n%s", out.String())
	}
	for _, bad := range [][]string{
		{"solve", "--size", "0"},
		{"solve", "--size", "3", "--moves", "z9"},
		{"solve", "--size", "3", "--to-move", "red"},
		{"solve", "--openings", "--moves", "a1"},
		{"solve", "--tt-bits", "40"},
		{"solve", "extra"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(bad, &out, &errb); code == 0 {
			t.Errorf("%v: exit 0, want an error", bad)
		}
	}
}

// TestSolveLimitIsUnknown: a node or time limit answers winner "unknown" with exit 0
// (text and JSON), not an error.
func TestSolveLimitIsUnknown(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--size", "7", "--moves", "d4", "--max-nodes", "20", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Winner string `json:"winner"`
		Nodes  int64  `json:"nodes"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Winner != "unknown" || rep.Nodes == 0 {
		t.Fatalf("json %v: %s", err, out.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "7", "--moves", "d4", "--timeout", "50ms"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "winner: unknown") {
		t.Fatalf("timeout: exit %d: %s%s", code, out.String(), errb.String())
	}
}
