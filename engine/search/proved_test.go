package search_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// perfectEval proves the true winner of every position (brute-force minimax): the
// extreme of an evaluator that proves many positions won before they are finished.
type perfectEval struct{ memo map[uint64]bool }

func (p perfectEval) Evaluate(b *hex.Board) search.Result {
	if w := b.Winner(); w != hex.Empty {
		return search.Result{Winner: w}
	}
	w := b.ToMove()
	if !brute.Wins(b, p.memo) {
		w = w.Opp()
	}
	return search.Result{Winner: w}
}

// TestPrefersFinishingWin: when many moves keep a proved win (a perfect evaluator, or
// the exact evaluator after ICE fill-in, which proves every child that keeps the
// captured sets), the search plays a move that finishes the game when there is one,
// and otherwise a move that keeps the win. A finished win at ply 1 scores
// WinScore - 1, a proved one WinScore - 1 - ProvedMargin.
func TestPrefersFinishingWin(t *testing.T) {
	exact := func(fill bool) func(t *testing.T) search.Evaluator {
		return func(t *testing.T) search.Evaluator {
			cfg := circuit.SearchExactConfig()
			cfg.FillIn = fill
			x, err := circuit.NewExact(cfg)
			if err != nil {
				t.Fatal(err)
			}
			return x
		}
	}
	perfect := func(*testing.T) search.Evaluator { return perfectEval{map[uint64]bool{}} }
	// Black joins north-south, White west-east; Black moves when the counts are equal.
	blackFinishes := `
	  a b c d
	1  . B . .
	 2  . B . .
	  3  W B W W
	   4  . . . .`
	whiteFinishes := `
	  a b c d
	1  . . . .
	 2  W W W .
	  3  . B B B
	   4  B . . .`
	blackWinsLater := `
	  a b c d
	1  W . . .
	 2  . . B .
	  3  . . . .
	   4  . . . .`
	cases := []struct {
		name    string
		diagram string
		ev      func(*testing.T) search.Evaluator
		want    []string // the finishing moves; nil: any move that keeps the win
	}{
		{"perfect, black finishes", blackFinishes, perfect, []string{"a4", "b4"}},
		{"perfect, white finishes", whiteFinishes, perfect, []string{"d1", "d2"}},
		{"perfect, black wins later", blackWinsLater, perfect, nil},
		{"exact, black finishes", blackFinishes, exact(false), []string{"a4", "b4"}},
		{"exact fill-in, black finishes", blackFinishes, exact(true), []string{"a4", "b4"}},
		{"exact fill-in, white finishes", whiteFinishes, exact(true), []string{"d1", "d2"}},
		{"exact fill-in, black wins later", blackWinsLater, exact(true), nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, err := hex.ParseDiagram(c.diagram)
			if err != nil {
				t.Fatal(err)
			}
			me := b.ToMove()
			for _, depth := range []int{1, 3} {
				s := newSearcher(t, c.ev(t), search.Params{Depth: depth})
				out, err := s.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				mv := b.Geometry().CellName(out.Move)
				b.PlayStone(me, out.Move)
				finished := b.Winner() == me
				keeps := finished || !brute.Wins(b, map[uint64]bool{})
				b.Undo()
				switch {
				case c.want != nil && !slices.Contains(c.want, mv):
					t.Errorf("depth %d: played %s, want one of %v (score %v)", depth, mv, c.want, out.Score)
				case c.want != nil && math.Abs(out.Score-(search.WinScore-1)) > 1e-9:
					t.Errorf("depth %d: score %v, want WinScore-1", depth, out.Score)
				case !keeps:
					t.Errorf("depth %d: %s loses the won position", depth, mv)
				case out.Winner != me:
					t.Errorf("depth %d: winner %v, want %v", depth, out.Winner, me)
				}
			}
		})
	}
}
