package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/sysmem"
)

// TestSolveTTBits: without --tt-bits the table is sized to the memory (solveTTBits,
// reported as tt_bits), with it the flag's size is used, and sizes 1..9 are usage
// errors naming the flag.
func TestSolveTTBits(t *testing.T) {
	want := autoTTBitsDefault
	if avail, ok := sysmem.Available(); ok {
		want = solver.TTBitsFor(solver.DFPN, 16, 1, avail/4)
	}
	for _, tc := range []struct {
		args []string
		want int
	}{
		{nil, want},
		{[]string{"--tt-bits", "12"}, 12},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"solve", "--size", "4", "--moves", "d1", "--json"}, tc.args...)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var r solveJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%v: bad JSON %q: %v", args, out.String(), err)
		}
		if r.TTBits != tc.want || r.Winner != "black" {
			t.Errorf("%v: tt_bits %d winner %q, want %d and black", args, r.TTBits, r.Winner, tc.want)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--size", "4", "--tt-bits", "9"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--tt-bits 9") {
		t.Errorf("--tt-bits 9: exit %d, %q; want 2 and a message naming the flag", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"solve", "--openings", "--size", "3"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "transposition table: 2^") {
		t.Errorf("openings: exit %d, standard error %q; want the table size reported", code, errb.String())
	}
}
