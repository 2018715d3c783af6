package train

import (
	"context"
	"errors"
	"math"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// TestFromTableOutcome checks the outcome label's precedence: the solver's winner,
// then a winning connection, then the game's result.
func TestFromTableOutcome(t *testing.T) {
	row := func(game, truth hex.Color, bvc, wvc bool, v float64) dataset.Example {
		return dataset.Example{Width: 2, Height: 2, ToMove: hex.Black, Cells: make([]int8, 4), Value: v,
			Winner: game, TrueWinner: truth, BlackWinsVC: bvc, WhiteWinsVC: wvc}
	}
	for _, tc := range []struct {
		name string
		rows []dataset.Example
		want []int8 // nil: no outcome labels
	}{
		{"game result", []dataset.Example{row(hex.Black, hex.Empty, false, false, -1), row(hex.White, hex.Empty, false, false, 1)}, []int8{1, -1}},
		{"solver first", []dataset.Example{row(hex.Black, hex.White, true, false, 1)}, []int8{-1}},
		{"connection before game", []dataset.Example{row(hex.White, hex.Empty, true, false, 3), row(hex.Black, hex.Empty, false, true, -3)}, []int8{1, -1}},
		{"decided value", []dataset.Example{row(hex.White, hex.Empty, false, false, math.Inf(1))}, []int8{1}},
		{"unknown game", []dataset.Example{row(hex.Empty, hex.Empty, false, false, 0), row(hex.Black, hex.Empty, false, false, 0)}, []int8{0, 1}},
		{"no game results", []dataset.Example{row(hex.Empty, hex.Empty, false, false, 0)}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex, err := FromTable(&dataset.Table{Rows: tc.rows}, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if ex.Outcome != nil {
					t.Fatalf("outcome %v, want none", ex.Outcome)
				}
				return
			}
			if len(ex.Outcome) != len(tc.want) {
				t.Fatalf("outcome %v, want %v", ex.Outcome, tc.want)
			}
			for i := range tc.want {
				if ex.Outcome[i] != tc.want[i] {
					t.Fatalf("outcome %v, want %v", ex.Outcome, tc.want)
				}
			}
		})
	}
}

// TestOutcomeTarget trains on the outcome labels (rows without one are dropped),
// records the target and a data hash that covers the labels, and learns them.
func TestOutcomeTarget(t *testing.T) {
	all := Synthetic(5, 5, 4000, 3)
	all.Outcome = append([]int8(nil), all.Winner...)
	all.Winner = nil // outcome labels alone suffice
	for i := 0; i < 3000; i += 7 {
		all.Outcome[i] = 0
	}
	tr, te := all.Subset(seq(0, 3000)), all.Subset(seq(3000, 4000))
	m, err := Train(context.Background(), tr, Config{Hidden: 16, Epochs: 30, Seed: 1, Target: model.TargetOutcome, LearnRate: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if m.Target != model.TargetOutcome || m.Output != model.OutputLogistic {
		t.Fatalf("model target %s output %s", m.Target, m.Output)
	}
	known, err := tr.Labelled(model.TargetOutcome)
	if err != nil {
		t.Fatal(err)
	}
	if known.Rows() != 3000-429 {
		t.Fatalf("%d labelled rows, want %d", known.Rows(), 3000-429)
	}
	if m.Provenance.DatasetHash != known.HashFor(model.TargetOutcome) || m.Provenance.DatasetHash == known.Hash() {
		t.Fatal("the model does not record the hash of its rows and labels")
	}
	mt := Evaluate(m, te)
	if !(mt.TargetError < math.Ln2*0.8) {
		t.Fatalf("held-out cross-entropy %g, not below 0.8·ln 2", mt.TargetError)
	}
	// The pure-Go value of an outcome model is the log-odds that Black wins.
	z := m.PreOutput(0, te.X[:25], nil)
	if m.ValueOf(z) != float64(z) {
		t.Fatal("an outcome model's value is not its log-odds")
	}
	none := Synthetic(4, 4, 50, 1)
	if _, err := Train(context.Background(), none, Config{Hidden: 2, Epochs: 1, Target: model.TargetOutcome}); !errors.Is(err, ErrNoData) {
		t.Fatalf("outcome target without game results: %v, want ErrNoData", err)
	}
	if _, err := Train(context.Background(), all, Config{Hidden: 2, Epochs: 1, Target: model.TargetOutcome, Output: model.OutputTanh}); err == nil {
		t.Fatal("an outcome target with a tanh output was accepted")
	}
}

// TestKnowsSideToMove checks that a network needs no extra input to know whose move it
// is: with cells encoded +1/−1/0, the sum of the inputs is nw − nb, which is −1 when
// White is to move and 0 when Black is, so the first layer sees the side to move. A
// winner model learns the label "the side to move wins" almost perfectly.
func TestKnowsSideToMove(t *testing.T) {
	ex := Synthetic(5, 5, 3000, 11)
	for i := range ex.Winner {
		ex.Winner[i] = 1 // Black to move (even ply) wins
		if ex.Ply[i]%2 == 1 {
			ex.Winner[i] = -1
		}
	}
	tr, te := ex.Subset(seq(0, 2500)), ex.Subset(seq(2500, 3000))
	m, err := Train(context.Background(), tr, Config{Hidden: 8, Epochs: 40, Seed: 1, Target: model.TargetWinner, LearnRate: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if mt := Evaluate(m, te); !(mt.WinnerAccuracy > 0.97) {
		t.Fatalf("side to move learned with accuracy %.3f, want > 0.97", mt.WinnerAccuracy)
	}
}
