package solver

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestHistoryPerSearch: the history heuristic counts only the current search's
// wins, so a solver whose history holds counts from other searches (here made up:
// large counts on the cells that the move order would try last) searches a position
// exactly as a fresh solver does, with DFPN and with DFS.
func TestHistoryPerSearch(t *testing.T) {
	g := hex.MustGeometry(6, 6)
	for _, alg := range []Algorithm{DFPN, DFS} {
		for _, moves := range []string{"a2", "c3", "f1 c4"} {
			b := hex.NewBoardGeometry(g)
			ms, err := g.ParseMoves(moves)
			if err != nil {
				t.Fatal(err)
			}
			if err := b.PlayMoves(ms); err != nil {
				t.Fatal(err)
			}
			mk := func() *Solver {
				cfg := DefaultConfig()
				cfg.Algorithm, cfg.TTBits = alg, 12
				return New(cfg)
			}
			fresh, stale := mk(), mk()
			want, err := fresh.Solve(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			stale.setup(g)
			for c := hex.Black; c <= hex.White; c++ {
				for m := range stale.hist[c] {
					x, y := g.XY(hex.Cell(m))
					if x == 0 || y == 0 || x == g.W-1 || y == g.H-1 {
						stale.hist[c][m] = 1000 // a border cell that "won" elsewhere
					}
				}
			}
			got, err := stale.Solve(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if got.Winner != want.Winner || got.Proof != want.Proof || got.Stats.Nodes != want.Stats.Nodes {
				t.Errorf("%v %s: with stale history %v in %d nodes (proof %v), fresh %v in %d nodes (proof %v)",
					alg, moves, got.Winner, got.Stats.Nodes, got.Proof.Count(), want.Winner, want.Stats.Nodes, want.Proof.Count())
			}
		}
	}
}
