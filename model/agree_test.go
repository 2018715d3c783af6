package model

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// cellWeight values a position by Σ weight(cell) over Black stones minus White's.
type cellWeight struct{ w []float64 }

func (c cellWeight) Evaluate(b *hex.Board) search.Result {
	v := 0.0
	for i, w := range c.w {
		switch b.At(hex.Cell(i)) {
		case hex.Black:
			v += w
		case hex.White:
			v -= w
		}
	}
	return search.Result{Value: v, Winner: b.Winner()}
}

// untracked hides the Tracker methods of an evaluator.
type untracked struct{ e search.Evaluator }

func (u untracked) Evaluate(b *hex.Board) search.Result { return u.e.Evaluate(b) }

func TestBestMove(t *testing.T) {
	b, err := hex.ParseDiagram(`
 . . .
  . B .
   . . W`)
	if err != nil {
		t.Fatal(err)
	}
	w := cellWeight{[]float64{1, 2, 3, 4, 0, 9, 7, 8, 0}}
	// Black to move maximises: c2 (index 5) has weight 9.
	if p := BestMove(b, w); p != 5 {
		t.Fatalf("Black's best move %v, want c2 (5)", p)
	}
	b.SetToMove(hex.White)
	// White minimises Black's value, i.e. takes the largest weight too.
	if p := BestMove(b, w); p != 5 {
		t.Fatalf("White's best move %v, want c2 (5)", p)
	}
}

func TestAgreementTrackerMatchesScratch(t *testing.T) {
	m := randomModel(5, 5, 12, 3, OutputTanh, 21)
	e, err := NewEvaluator(m, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	var boards []*hex.Board
	for i := 0; i < 30; i++ {
		b := hex.MustBoard(5, 5)
		for k := r.IntN(10); k > 0; k-- {
			empty := b.EmptyCells()
			cells := empty.AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[r.IntN(len(cells))])
		}
		if b.Winner() == hex.Empty {
			boards = append(boards, b)
		}
	}
	same, total := Agreement(boards, e, untracked{e})
	if total != len(boards) || same != total {
		t.Fatalf("tracked and untracked learned evaluator agree on %d of %d (want all %d)", same, total, len(boards))
	}
	w := make([]float64, 25)
	for i := range w {
		w[i] = r.Float64()
	}
	same, total = Agreement(boards, e, cellWeight{w})
	t.Logf("random model vs random weights: %d of %d", same, total)
	if same == total {
		t.Fatal("a random model agrees with random weights everywhere: the comparison cannot fail")
	}
}

// constant rates every position the same.
type constant struct{}

func (constant) Evaluate(b *hex.Board) search.Result {
	return search.Result{Value: 1, Winner: b.Winner()}
}

func TestAgreementCountsTies(t *testing.T) {
	b := hex.MustBoard(4, 4)
	w := make([]float64, 16)
	for i := range w {
		w[i] = float64(i)
	}
	// Every move is best for a reference that rates all children equal.
	if same, total := Agreement([]*hex.Board{b}, constant{}, cellWeight{w}); same != 1 || total != 1 {
		t.Fatalf("tied reference: %d of %d", same, total)
	}
	// The reverse is not true: the weights prefer one cell, the constant picks a1.
	if same, total := Agreement([]*hex.Board{b}, cellWeight{w}, constant{}); same != 0 || total != 1 {
		t.Fatalf("weights as reference: %d of %d", same, total)
	}
}
