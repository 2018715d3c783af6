package search_test

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// interruptedWinner searches b (Depth 12) with the context cancelled after budget
// evaluations and reports the outcome, and whether it was interrupted.
func interruptedWinner(t *testing.T, ev search.Evaluator, b *hex.Board, budget int) (search.Outcome, bool) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	be := &budgetEval{inner: ev, left: budget, cancel: cancel}
	out, err := newSearcher(t, be, search.Params{Depth: 12}).Search(ctx, b)
	if err != nil {
		return out, false
	}
	return out, out.Stats.TimedOut
}

// TestInterruptedIterationWinner: an interrupted iteration must not report the side to
// move lost (Outcome.Winner) from the moves it finished, since a move it did not
// reach may win. The table holds 4x4 positions where the first move of the
// interrupted iteration (the previous best) was found lost while another move wins;
// then random positions and budgets; every decision is checked by brute force.
func TestInterruptedIterationWinner(t *testing.T) {
	ev := resistance(t)
	memo := map[uint64]bool{}
	check := func(b *hex.Board, budget int) bool {
		out, stopped := interruptedWinner(t, ev, b, budget)
		if !stopped || out.Winner == hex.Empty {
			return false
		}
		if want := brute.MoverWins(b, memo); (out.Winner == b.ToMove()) != want {
			t.Errorf("budget %d: interrupted search (depth %d done) reports %s the winner (score %v, move %s, partial %v) of\n%s",
				budget, out.Stats.Depth, out.Winner, out.Score, b.Geometry().CellName(out.Move), out.Stats.PartialMove, b.Diagram())
		}
		return true
	}
	tests := []struct {
		moves  string
		budget int
	}{
		{"b2 b3 d1 b1 a4", 1652},
		{"c3 c2 d1 d4 c1 d2", 425},
	}
	for _, tc := range tests {
		b, err := hex.ParsePosition(4, 4, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		if !brute.MoverWins(b, memo) {
			t.Fatalf("%s: the side to move should win", tc.moves)
		}
		check(b, tc.budget)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	decided := 0
	for i := 0; i < 200; i++ {
		b := hex.MustBoard(4, 4)
		for j := 0; j < 3+rng.IntN(6); j++ {
			em := b.EmptyCells()
			cells := em.AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
		}
		if b.Winner() == hex.Empty && check(b, 5+rng.IntN(2000)) {
			decided++
		}
	}
	t.Logf("%d random interrupted searches reported a winner", decided)
}
