package experiments

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// byLast is an evaluator whose result depends only on the last stone played: the
// result for that cell if listed, else def.
type byLast struct {
	at  map[string]search.Result
	def search.Result
}

func (e byLast) Evaluate(b *hex.Board) search.Result {
	if r, ok := e.at[b.Geometry().CellName(b.LastMove().Cell)]; ok {
		return r
	}
	return e.def
}

func TestLookahead(t *testing.T) {
	open := func(v float64) search.Result { return search.Result{Value: v} }
	won := func(c hex.Color) search.Result { return search.Result{Winner: c} }
	tests := []struct {
		name    string
		diagram string
		toMove  hex.Color
		ex, le  byLast
		pe, pl  hex.Color
		proved  bool
	}{
		{name: "a move finishes the chain, whatever the evaluators say", diagram: `
 . B W
  W B .
   . . .`, ex: byLast{def: won(hex.White)}, le: byLast{def: open(-1)}, pe: hex.Black, pl: hex.Black, proved: true},
		{name: "every move is proved lost", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{def: won(hex.White)}, le: byLast{def: open(5)}, pe: hex.White, pl: hex.White, proved: true},
		{name: "one move is proved won", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{at: map[string]search.Result{"c3": won(hex.Black)}, def: open(-1)}, le: byLast{def: open(-1)},
			pe: hex.Black, pl: hex.Black, proved: true},
		{name: "open: each evaluator's best move decides", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{at: map[string]search.Result{"a1": won(hex.White)}, def: open(-1)},
			le: byLast{at: map[string]search.Result{"a1": open(9), "c3": open(0.5)}, def: open(-1)},
			pe: hex.White, pl: hex.Black},
		{name: "white to move maximises its own side of the value", diagram: `
 . . .
  . B .
   . . .`, toMove: hex.White, ex: byLast{def: open(1)}, le: byLast{at: map[string]search.Result{"b3": open(-0.1)}, def: open(2)},
			pe: hex.Black, pl: hex.White},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.ParseDiagram(tc.diagram)
			if err != nil {
				t.Fatal(err)
			}
			if tc.toMove != hex.Empty {
				b.SetToMove(tc.toMove)
			}
			h, side := b.Hash(), b.ToMove()
			pe, pl, proved := lookahead(b, tc.ex, tc.le)
			if pe != tc.pe || pl != tc.pl || proved != tc.proved {
				t.Errorf("lookahead = %v %v %v, want %v %v %v", pe, pl, proved, tc.pe, tc.pl, tc.proved)
			}
			if b.Hash() != h || b.ToMove() != side {
				t.Error("the board is not restored")
			}
		})
	}
}

// TestLookaheadProofsAgreeWithSolver checks the one-ply predictions the connections
// prove against the solver on random 4x4 positions.
func TestLookaheadProofsAgreeWithSolver(t *testing.T) {
	cfg := circuit.SearchExactConfig()
	cfg.FillIn = true
	ex, err := circuit.NewExact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lab := solver.NewLabeler(100_000)
	proved := 0
	for _, b := range randomPositions(4, 80, 7) {
		truth, err := lab.Winner(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		pe, pl, ok := lookahead(b, ex, ex)
		if pe != pl {
			t.Fatalf("same evaluator, different predictions %v %v:\n%s", pe, pl, b.Diagram())
		}
		if ok {
			proved++
			if pe != truth {
				t.Fatalf("proved %v, the solver says %v:\n%s", pe, truth, b.Diagram())
			}
		}
	}
	if proved < 20 {
		t.Fatalf("only %d of 80 positions proved one ply deep", proved)
	}
}
