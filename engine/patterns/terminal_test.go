package patterns_test

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/search"
)

// The database is the search's terminal test.
var _ search.Terminal = (*patterns.DB)(nil)

type zeroEval struct{ calls int }

func (z *zeroEval) Evaluate(b *hex.Board) search.Result { z.calls++; return search.Result{} }

// TestTerminalInSearch: wrapped as search.WithTerminal, a position matching a stored
// pattern is decided without asking the inner evaluator, for Black and (reflected) for
// White; other positions go to the inner evaluator.
func TestTerminalInSearch(t *testing.T) {
	g, p, err := patterns.ParsePatternDiagram(`
. + + .
 . B . .
  + + . .
   B . . .`)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := patterns.New(g.W, g.H)
	if _, err := d.Add(p); err != nil {
		t.Fatal(err)
	}
	inner := &zeroEval{}
	w := &search.WithTerminal{Inner: inner, Term: d}
	for _, tc := range []struct {
		moves string
		want  hex.Color
	}{
		{"b2 d4 a4", hex.Black},    // the pattern
		{"a4 b2 b4 d1", hex.White}, // b2 and d1 White: the reflected pattern
		{"b2 b1 a4", hex.Empty},    // carrier cell b1 White
	} {
		b, err := hex.ParsePosition(4, 4, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		before := inner.calls
		r := w.Evaluate(b)
		if r.Winner != tc.want {
			t.Errorf("%s: Winner %v, want %v", tc.moves, r.Winner, tc.want)
		}
		if asked := inner.calls > before; asked != (tc.want == hex.Empty) {
			t.Errorf("%s: inner evaluator asked = %v", tc.moves, asked)
		}
	}
}
