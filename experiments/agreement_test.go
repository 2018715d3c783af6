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
// result for that cell if listed, else def; the position the test starts from (with
// rootStones stones) gets root.
type byLast struct {
	rootStones int
	root       search.Result
	at         map[string]search.Result
	def        search.Result
}

func (e byLast) Evaluate(b *hex.Board) search.Result {
	if b.NumStones() == e.rootStones {
		return e.root
	}
	if r, ok := e.at[b.Geometry().CellName(b.LastMove().Cell)]; ok {
		return r
	}
	return e.def
}

func TestLookahead(t *testing.T) {
	open := func(v float64) search.Result { return search.Result{Value: v} }
	won := func(c hex.Color) search.Result {
		return search.Result{Winner: c, Value: circuit.WinValue(c)}
	}
	must := func(cells ...string) search.Result {
		r := search.Result{HasMustplay: true}
		g := hex.MustGeometry(3, 3)
		for _, c := range cells {
			p, err := g.ParseCell(c)
			if err != nil {
				t.Fatal(err)
			}
			r.Mustplay.Set(p)
		}
		return r
	}
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
		{name: "the root proved: no move is looked at", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{root: won(hex.White), def: won(hex.Black)}, le: byLast{def: open(5)}, pe: hex.White, pl: hex.White, proved: true},
		{name: "moves outside the mustplay are not looked at", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{root: must("a1", "b1"), at: map[string]search.Result{"c3": won(hex.Black)}, def: won(hex.White)},
			le: byLast{def: open(3)}, pe: hex.White, pl: hex.White, proved: true},
		{name: "a best value of 0 is a loss", diagram: `
 . . .
  . W .
   . . .`, ex: byLast{def: open(0)}, le: byLast{at: map[string]search.Result{"b1": open(1e-9)}, def: open(0)},
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
			tc.ex.rootStones, tc.le.rootStones = b.NumStones(), b.NumStones()
			pe, pl, proved, err := lookahead(b, tc.ex, tc.le)
			if err != nil {
				t.Fatal(err)
			}
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
	cfg.FillIn, cfg.VC.EdgeTemplates = true, true
	ex, err := circuit.NewExact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// A learned stand-in that always favours Black: it must never change a proof.
	le := byLast{rootStones: -1, def: search.Result{Value: 1}}
	lab := solver.NewLabeler(100_000)
	proved, open := 0, 0
	for _, b := range randomPositions(4, 200, 7) {
		truth, err := lab.Winner(context.Background(), b)
		if err != nil || truth == hex.Empty {
			t.Fatalf("the solver did not solve a 4x4 position: %v %v", truth, err)
		}
		h := b.Hash()
		pe, pl, ok, err := lookahead(b, ex, le)
		if err != nil {
			t.Fatal(err)
		}
		if b.Hash() != h {
			t.Fatalf("the board is not restored:\n%s", b.Diagram())
		}
		if !ok {
			open++
			continue
		}
		proved++
		if pe != truth || pl != truth {
			t.Fatalf("proved %v (learned %v), the solver says %v:\n%s", pe, pl, truth, b.Diagram())
		}
	}
	t.Logf("%d positions proved one ply deep, %d left to the values", proved, open)
	if proved < 100 {
		t.Fatalf("only %d of 200 positions proved one ply deep", proved)
	}
}
