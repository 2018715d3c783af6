package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestSolveTTBits: without --tt-bits the table is sized to the memory (solveTTBits,
// reported as tt_bits), with it the flag's size is used, and sizes 1..9 are usage
// errors naming the flag.
func TestSolveTTBits(t *testing.T) {
	defer func(f func() (uint64, bool)) { availableMemory = f }(availableMemory)
	e := solver.TableBytes(solver.DFPN, 64, 0) // bytes per 8x8 entry
	for _, tc := range []struct {
		name  string
		avail uint64 // memory reported (0: the system does not say)
		args  []string
		want  int
	}{
		{"plenty: the 8x8 cap", 1 << 40, nil, 23},
		{"a quarter holds 2 x 2^21 entries", 4 * 2 * e << 21, []string{"--workers", "2"}, 21},
		{"one worker gets twice the entries", 4 * 2 * e << 21, nil, 22},
		{"memory unknown", 0, nil, autoTTBitsDefault},
		{"the flag wins", 1 << 40, []string{"--tt-bits", "12"}, 12},
	} {
		availableMemory = func() (uint64, bool) { return tc.avail, tc.avail > 0 }
		var out, errb bytes.Buffer
		args := append([]string{"solve", "--size", "8", "--moves", "d4", "--max-nodes", "5", "--json"}, tc.args...)
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%s: %v: exit %d: %s", tc.name, args, code, errb.String())
		}
		var r solveJSON
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("%s: bad JSON %q: %v", tc.name, out.String(), err)
		}
		if r.TTBits != tc.want {
			t.Errorf("%s: tt_bits %d, want %d", tc.name, r.TTBits, tc.want)
		}
	}
	var out, errb bytes.Buffer
	for _, bad := range []string{"9", "27", "-1"} {
		errb.Reset()
		if code := run([]string{"solve", "--size", "4", "--tt-bits", bad}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--tt-bits "+bad+": want 0 (sized to memory) or 10..26") {
			t.Errorf("--tt-bits %s: exit %d, %q; want 2 and a message naming the flag", bad, code, errb.String())
		}
	}
	errb.Reset()
	if code := run([]string{"solve", "--openings", "--size", "3"}, &out, &errb); code != 0 || !strings.Contains(errb.String(), "transposition table: 2^") {
		t.Errorf("openings: exit %d, standard error %q; want the table size reported", code, errb.String())
	}
}
