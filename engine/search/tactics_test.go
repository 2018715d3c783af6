package search_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// blindEval scores every open position 0: a leaf evaluator that knows nothing.
type blindEval struct{}

func (blindEval) Evaluate(b *hex.Board) search.Result {
	return search.Result{Winner: b.Winner()}
}

// countingTactics wraps a tactics evaluator and records the stone counts it was asked
// about.
type countingTactics struct {
	inner search.Evaluator
	calls map[int]int // stones on the board -> calls
}

func (c *countingTactics) Evaluate(b *hex.Board) search.Result {
	c.calls[b.NumStones()]++
	return c.inner.Evaluate(b)
}

func tactics(t *testing.T) *circuit.Tactics {
	t.Helper()
	tc, err := circuit.NewTactics(circuit.SearchExactConfig().VC)
	if err != nil {
		t.Fatal(err)
	}
	return tc
}

// TestTacticsFindWin: a blind leaf evaluator cannot tell the moves apart, but with
// H-search proofs on the first two plies the search plays a move that keeps a proved
// win and reports the win, consulting the tactics only where VCPlies says; without
// tactics it proves nothing.
func TestTacticsFindWin(t *testing.T) {
	for _, c := range []struct {
		name, moves string
	}{
		{"3x3 centre", "b2 a1"},
		{"4x4", "b2 a4 c3 d1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := 3
			if c.name == "4x4" {
				n = 4
			}
			b, err := hex.ParsePosition(n, n, c.moves)
			if err != nil {
				t.Fatal(err)
			}
			tc := &countingTactics{inner: tactics(t), calls: map[int]int{}}
			s := newSearcher(t, blindEval{}, search.Params{Depth: 2, K: 4, VCPlies: 2})
			s.SetTactics(tc)
			out, err := s.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if out.Winner != hex.Black {
				t.Fatalf("winner %v, want Black (tactics calls %v)", out.Winner, tc.calls)
			}
			b.PlayStone(hex.Black, out.Move)
			if r := tactics(t).Evaluate(b); r.Winner != hex.Black {
				t.Fatalf("move %s does not keep a proved win", b.Geometry().CellName(out.Move))
			}
			b.Undo()
			for stones := range tc.calls {
				if ply := stones - b.NumStones(); ply < 0 || ply >= 2 {
					t.Errorf("tactics consulted at ply %d (VCPlies 2)", ply)
				}
			}
			// Without tactics the blind evaluator proves nothing.
			out, err = newSearcher(t, blindEval{}, search.Params{Depth: 2, K: 4}).Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if out.Winner != hex.Empty || out.Tactics != 0 {
				t.Fatalf("without tactics: winner %v, tactics %d", out.Winner, out.Tactics)
			}
		})
	}
}

// TestTacticsMustplay: the opponent's winning semi-connections restrict the root to
// the mustplay region the tactics evaluator finds, even with a blind leaf evaluator. The
// positions are the first seeded random 5x5 positions with an open, proper mustplay.
func TestTacticsMustplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	tc := tactics(t)
	found := 0
	for try := 0; try < 2000 && found < 10; try++ {
		b := hex.MustBoard(5, 5)
		for n := 2 + rng.IntN(8); n > 0 && b.Winner() == hex.Empty; n-- {
			cells := b.EmptyCells().AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
		}
		if b.Winner() != hex.Empty {
			continue
		}
		r := tc.Evaluate(b)
		if r.Winner != hex.Empty || !r.HasMustplay || r.Mustplay.Count() >= b.EmptyCells().Count() {
			continue
		}
		found++
		s := newSearcher(t, blindEval{}, search.Params{Depth: 1, K: 0, VCPlies: 1})
		s.SetTactics(tactics(t))
		out, err := s.Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if !r.Mustplay.Has(out.Move) {
			t.Fatalf("%s: move %s outside the mustplay %v", b.Diagram(), b.Geometry().CellName(out.Move), b.Geometry().CellNames(r.Mustplay))
		}
	}
	if found < 10 {
		t.Fatalf("only %d positions with a mustplay found", found)
	}
}

// TestTacticsParams: VCPlies and VCMinDepth are validated, and VCMinDepth consults the
// tactics evaluator at every node with that much depth left.
func TestTacticsParams(t *testing.T) {
	for _, p := range []search.Params{{Depth: 2, VCPlies: -1}, {Depth: 2, VCPlies: 40}, {Depth: 2, VCMinDepth: -2}} {
		if _, err := search.New(blindEval{}, p); !errors.Is(err, search.ErrParams) {
			t.Errorf("%+v: %v", p, err)
		}
	}
	b := hex.MustBoard(7, 7)
	tc := &countingTactics{inner: tactics(t), calls: map[int]int{}}
	s := newSearcher(t, blindEval{}, search.Params{Depth: 3, K: 3, VCMinDepth: 1})
	s.SetTactics(tc)
	if _, err := s.Search(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if tc.calls[0] == 0 || tc.calls[2] == 0 {
		t.Fatalf("VCMinDepth 1 at depth 3: tactics calls per stone count %v, want plies 0..2", tc.calls)
	}
	if tc.calls[3] != 0 {
		t.Fatalf("tactics consulted at a leaf: %v", tc.calls)
	}
}

// TestTacticsRootWinVCPlies1: with the tactics evaluator consulted at the root only,
// a root it proves won for the mover is still answered with a move that keeps the
// proved win (its children are consulted too), not with any move the blind leaf
// evaluator cannot tell apart.
func TestTacticsRootWinVCPlies1(t *testing.T) {
	for _, c := range []struct {
		n     int
		moves string
	}{
		{4, "b2 a4 c3 d1"},
		{5, "c3 b4"},
	} {
		b, err := hex.ParsePosition(c.n, c.n, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range []int{1, 2, 3} {
			s := newSearcher(t, blindEval{}, search.Params{Depth: depth, K: 4, VCPlies: 1})
			s.SetTactics(tactics(t))
			out, err := s.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			me := b.ToMove()
			if out.Winner != me {
				t.Fatalf("%s depth %d: winner %v, want %v", c.moves, depth, out.Winner, me)
			}
			b.PlayStone(me, out.Move)
			r := tactics(t).Evaluate(b)
			b.Undo()
			if r.Winner != me {
				t.Errorf("%s depth %d: move %s does not keep the proved win (%v after it)", c.moves, depth,
					b.Geometry().CellName(out.Move), r.Winner)
			}
		}
	}
}

// lastOrderer is a tactics evaluator and Orderer that checks the search's Orderer
// contract: MoveScores is called on the position Evaluate saw last.
type lastOrderer struct {
	inner     search.Evaluator
	last      uint64
	calls, ok int
}

func (o *lastOrderer) Evaluate(b *hex.Board) search.Result {
	o.last = b.Hash()
	return o.inner.Evaluate(b)
}

func (o *lastOrderer) MoveScores(b *hex.Board, scores []float64) {
	o.calls++
	if b.Hash() == o.last {
		o.ok++
	}
	for i := range scores {
		scores[i] = 0
	}
}

// TestTacticsOrdererContract: the tactics evaluator's Orderer ranks the moves of the
// position it evaluated last, also at nodes whose tactics verdict comes from the
// evaluation cache (deeper iterations, with every move searched so that the root's
// ordering is not cached).
func TestTacticsOrdererContract(t *testing.T) {
	b := hex.MustBoard(7, 7)
	o := &lastOrderer{inner: tactics(t)}
	s := newSearcher(t, blindEval{}, search.Params{Depth: 2, K: 0, VCPlies: 2})
	s.SetTactics(o)
	out, err := s.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Depth != 2 || out.Winner != hex.Empty {
		t.Fatalf("depth %d, winner %v: want two iterations of an open position", out.Depth, out.Winner)
	}
	if o.calls == 0 || o.ok != o.calls {
		t.Fatalf("MoveScores after Evaluate of the same position in %d of %d calls", o.ok, o.calls)
	}
}
