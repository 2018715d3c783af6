package search

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// cellTerminal decides a position for Black when Black holds a given cell.
type cellTerminal struct{ cell hex.Cell }

func (t cellTerminal) Decided(b *hex.Board) hex.Color {
	if b.At(t.cell) == hex.Black {
		return hex.Black
	}
	return hex.Empty
}

// constEval is a heuristic that knows nothing and counts its calls and hooks.
type constEval struct{ calls, plays, undos, resets int }

func (e *constEval) Evaluate(*hex.Board) Result { e.calls++; return Result{} }
func (e *constEval) Reset(*hex.Board)           { e.resets++ }
func (e *constEval) Play(hex.Color, hex.Cell)   { e.plays++ }
func (e *constEval) Undo(hex.Color, hex.Cell)   { e.undos++ }

func TestWithTerminalDecidesAndPassesHooks(t *testing.T) {
	b, err := hex.ParseDiagram(`
	   a b c
	 1  . . .
	  2  . . .
	   3  . . .`)
	if err != nil {
		t.Fatal(err)
	}
	key := b.Geometry().At(1, 1) // b2
	inner := &constEval{}
	w := &WithTerminal{Inner: inner, Term: cellTerminal{key}, Timed: true}
	if r := w.Evaluate(b); r.Winner != hex.Empty || inner.calls != 1 {
		t.Fatalf("open position: %+v, inner calls %d", r, inner.calls)
	}
	b.PlayStone(hex.Black, key)
	if r := w.Evaluate(b); r.Winner != hex.Black || r.Value <= 0 || inner.calls != 1 {
		t.Fatalf("decided position: %+v, inner calls %d", r, inner.calls)
	}
	if w.Stats.Probes != 2 || w.Stats.Hits != 1 {
		t.Fatalf("stats %+v", w.Stats)
	}
	b.Undo()
	// A depth-2 search from the empty board with Black to move must find the key cell
	// as a win through the terminal test, and must drive the inner tracker.
	s, err := New(w, Params{Depth: 2})
	if err != nil {
		t.Fatal(err)
	}
	out, err := s.Search(t.Context(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Move != key || out.Winner != hex.Black {
		t.Fatalf("search chose %s (winner %v), want b2 won by the terminal test", b.Geometry().CellName(out.Move), out.Winner)
	}
	if inner.resets == 0 || inner.plays == 0 || inner.plays != inner.undos {
		t.Fatalf("tracker hooks not passed through: %+v", inner)
	}
}

// mustTerminal decides nothing and restricts every position to the empty cells of a
// set.
type mustTerminal struct{ set hex.Bitset }

func (t mustTerminal) Decided(*hex.Board) hex.Color { return hex.Empty }

func (t mustTerminal) DecidedMustplay(b *hex.Board) (hex.Color, bool, hex.Bitset) {
	return hex.Empty, true, t.set.And(b.EmptyCells())
}

// mustEval is an evaluator with its own mustplay: the empty cells of a set.
type mustEval struct {
	constEval
	set hex.Bitset
}

func (e *mustEval) Evaluate(b *hex.Board) Result {
	r := e.constEval.Evaluate(b)
	r.HasMustplay, r.Mustplay = true, e.set.And(b.EmptyCells())
	return r
}

func TestWithTerminalMustplay(t *testing.T) {
	b := hex.MustBoard(3, 3)
	g := b.Geometry()
	set := func(names ...string) hex.Bitset {
		var s hex.Bitset
		for _, n := range names {
			p, err := g.ParseCell(n)
			if err != nil {
				t.Fatal(err)
			}
			s.Set(p)
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		inner Evaluator
		term  hex.Bitset
		want  hex.Bitset
	}{
		{"inner without mustplay", &constEval{}, set("c2", "b2"), set("c2", "b2")},
		{"intersected with the inner mustplay", &mustEval{set: set("a1", "c2")}, set("c2", "b2"), set("c2")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &WithTerminal{Inner: tc.inner, Term: mustTerminal{tc.term}}
			r := w.Evaluate(b)
			if !r.HasMustplay || r.Mustplay != tc.want {
				t.Fatalf("mustplay %v %s, want %s", r.HasMustplay, g.FormatCells(r.Mustplay), g.FormatCells(tc.want))
			}
			s, err := New(w, Params{Depth: 2})
			if err != nil {
				t.Fatal(err)
			}
			out, err := s.Search(t.Context(), b)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.want.Has(out.Move) {
				t.Fatalf("search played %s, outside the mustplay %s", g.CellName(out.Move), g.FormatCells(tc.want))
			}
		})
	}
}

// lastOrderer is an evaluator whose Orderer scores one cell, that of the position it
// evaluated last: the number of stones of that position.
type lastOrderer struct{ stones int }

func (e *lastOrderer) Evaluate(b *hex.Board) Result { e.stones = b.NumStones(); return Result{} }
func (e *lastOrderer) MoveScores(b *hex.Board, scores []float64) {
	scores[0] = float64(e.stones)
}

// TestOrderedTerminal: the Orderer of the inner evaluator is forwarded, and after a
// position the terminal test decided it ranks that position (evaluated again), not the
// one the inner evaluator saw before.
func TestOrderedTerminal(t *testing.T) {
	b := hex.MustBoard(3, 3)
	key := b.Geometry().At(1, 1)
	inner := &lastOrderer{}
	w := &OrderedTerminal{WithTerminal: WithTerminal{Inner: inner, Term: cellTerminal{key}}, Order: inner}
	scores := make([]float64, hex.NumPoints)
	for _, tc := range []struct {
		move hex.Cell
		want float64
	}{{hex.NoCell, 0}, {0, 1}, {key, 2}} {
		if tc.move != hex.NoCell {
			b.PlayStone(hex.Black, tc.move)
		}
		w.Evaluate(b)
		w.MoveScores(b, scores)
		if scores[0] != tc.want {
			t.Errorf("after %d stones the Orderer ranked a position of %g", b.NumStones(), scores[0])
		}
	}
	var _ Orderer = w
}
