package solver

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// defaultLocalDom is DefaultConfig with local-domination pruning on.
func defaultLocalDom() Config {
	c := DefaultConfig()
	c.NoLocalDominated = false
	return c
}

// TestLocalDominatedOpenings solves the 4x4 and 5x5 openings with local-domination
// pruning (with and without a Connector, DFPN and DFS) against the table of known
// values, and the 6x6 ones with DefaultConfig's settings plus the pruning.
func TestLocalDominatedOpenings(t *testing.T) {
	cfgs := []Config{
		{NoDominated: true},
		{NoDominated: true, Algorithm: DFS},
		{NoDominated: true, Connector: vc.NewCompact()},
		defaultLocalDom(),
	}
	for n := 4; n <= 5; n++ {
		for _, cfg := range cfgs {
			checkOpenings(t, n, cfg)
		}
	}
	if !testing.Short() {
		checkOpenings(t, 6, defaultLocalDom())
	}
}

// TestLocalDominatedInUse checks that the pruning is in use where the search is not
// decided by connections at once: more moves pruned and fewer candidates left per
// evaluated node than with Config.NoLocalDominated, and the same winner.
func TestLocalDominatedInUse(t *testing.T) {
	tests := []struct {
		n     int
		moves string
		cfg   Config
	}{
		{5, "a3", Config{NoDominated: true}},
		{5, "c3 b4", Config{NoDominated: true, Algorithm: DFS}},
		{6, "a3", defaultLocalDom()},
	}
	for _, tc := range tests {
		b, err := hex.ParsePosition(tc.n, tc.n, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		var rs [2]Result
		for k, off := range []bool{false, true} {
			c := tc.cfg
			c.NoLocalDominated = off
			if rs[k], err = New(c).Solve(context.Background(), b); err != nil {
				t.Fatal(err)
			}
		}
		on, off := rs[0].Stats, rs[1].Stats
		if rs[0].Winner != rs[1].Winner {
			t.Errorf("%dx%d %s: winner %s with local domination, %s without", tc.n, tc.n, tc.moves, rs[0].Winner, rs[1].Winner)
		}
		// evaluated nodes: DFPN's expansions, DFS's nodes
		evals := func(s Stats) int64 {
			if tc.cfg.Algorithm == DFS {
				return s.Nodes
			}
			return s.Expanded
		}
		if on.Pruned <= off.Pruned || on.Candidates*evals(off) >= off.Candidates*evals(on) {
			t.Errorf("%dx%d %s: pruned %d / candidates %d in %d evaluations with local domination, %d / %d in %d without",
				tc.n, tc.n, tc.moves, on.Pruned, on.Candidates, evals(on), off.Pruned, off.Candidates, evals(off))
		}
		t.Logf("%dx%d %s: nodes %d with, %d without", tc.n, tc.n, tc.moves, on.Nodes, off.Nodes)
	}
}
