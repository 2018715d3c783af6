package solver

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestResistant: after a position is proved lost, Resistant names a legal move that
// loses (checked by a fresh solve), whose refutation's proof set is the largest among
// the refuted root moves the table holds; it names none for a won position, before
// any solve and for the DFS solver.
func TestResistant(t *testing.T) {
	ctx := context.Background()
	lost, choices := 0, 0 // lost positions; those with more than one refuted move known
	for _, pos := range []string{"c3", "b2", "c3 c2 b4", "a1 c3 c2", "e1", "b3 c3 d2", "c2 c4", "d2"} {
		b, err := hex.ParsePosition(5, 5, pos)
		if err != nil {
			t.Fatal(err)
		}
		s := New(DefaultConfig())
		if _, ok := s.Resistant(b); ok {
			t.Fatalf("%s: a move before any solve", pos)
		}
		r, err := s.Solve(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		m, ok := s.Resistant(b)
		if r.Winner == b.ToMove() {
			if ok {
				t.Errorf("%s: won, yet a resistant move %s", pos, b.Geometry().CellName(m))
			}
			continue
		}
		if !ok {
			continue // decided at the root by connections: nothing to choose from
		}
		lost++
		if b.At(m) != hex.Empty {
			t.Fatalf("%s: resistant move %d is taken", pos, m)
		}
		c := b.Clone()
		c.PlayStone(b.ToMove(), m)
		if cr, err := New(DefaultConfig()).Solve(ctx, c); err != nil || cr.Winner != b.ToMove().Opp() {
			t.Fatalf("%s: after the resistant move %s the winner is %v (%v), want the opponent", pos, b.Geometry().CellName(m), cr.Winner, err)
		}
		// The chosen refutation's proof is the largest the table holds.
		best, sizes := -1, 0
		s.refutedRootMoves(b, func(p hex.Cell, e *pnEntry) {
			sizes++
			if p == m {
				best = e.kids.Count()
			}
		})
		s.refutedRootMoves(b, func(p hex.Cell, e *pnEntry) {
			if n := e.kids.Count(); n > best {
				t.Errorf("%s: %s's refutation has %d cells, more than the chosen %s's %d", pos, b.Geometry().CellName(p), n, b.Geometry().CellName(m), best)
			}
		})
		if best < 0 {
			t.Errorf("%s: the chosen move's refutation is not in the table", pos)
		}
		if sizes >= 2 {
			choices++
		}
	}
	if lost < 3 || choices < 2 {
		t.Fatalf("%d lost positions with refuted moves, %d with a choice: the test checks too little", lost, choices)
	}
	cfg := DefaultConfig()
	cfg.Algorithm = DFS
	s := New(cfg)
	b, _ := hex.ParsePosition(5, 5, "c3")
	if _, err := s.Solve(ctx, b); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Resistant(b); ok {
		t.Error("a resistant move from the DFS solver, which keeps no proof table")
	}
}
