package train

import (
	"context"
	"math"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// TestSearchLabel: the search target's label is the proved winner where known, else
// mix·z + (1−mix)·q mapped to [0, 1], either alone where the other is missing.
func TestSearchLabel(t *testing.T) {
	nan := float32(math.NaN())
	ex := &Examples{W: 1, H: 1,
		Winner:  []int8{1, 0, 0, 0, 0, -1},
		Outcome: []int8{1, 1, -1, 0, 1, 1},
		Search:  []float32{-1, 0.5, 0.5, -0.5, nan, 1},
	}
	for i, want := range []float32{1, (1 + 0.25*1 + 0.75*0.5) / 2, (1 - 0.25 + 0.75*0.5) / 2, 0.25, 1, 0} {
		if got := searchLabel(ex, i, 0.25); math.Abs(float64(got-want)) > 1e-6 {
			t.Errorf("row %d: label %g, want %g", i, got, want)
		}
	}
}

// TestTrainSearchTarget: a network of the search target trains on rows with a result
// or a search value (rows with neither are left out), has a logistic output, records
// the mix, and its data hash changes with the search values.
func TestTrainSearchTarget(t *testing.T) {
	var tab dataset.Table
	b := hex.MustBoard(3, 3)
	for i, mv := range []string{"b2", "a1", "c1", "a3"} {
		c, _ := b.Geometry().ParseCell(mv)
		e := dataset.FromBoard(b)
		e.Winner = hex.Black
		if i%2 == 0 {
			e.Search = &dataset.SearchTargets{Value: 0.6}
		}
		tab.Rows = append(tab.Rows, e)
		b.PlayStone(b.ToMove(), c)
	}
	ex, err := FromTable(&tab, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Search == nil || !math.IsNaN(float64(ex.Search[1])) || ex.Search[0] != 0.6 {
		t.Fatalf("search values %v", ex.Search)
	}
	cfg := Config{Hidden: 3, Epochs: 2, Seed: 1, Target: model.TargetSearch, SearchMix: 0.3}
	m, err := Train(context.Background(), ex, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Output != model.OutputLogistic || m.Target != model.TargetSearch || m.Provenance.Config == "" {
		t.Fatalf("model %s %s %q", m.Target, m.Output, m.Provenance.Config)
	}
	h := ex.HashFor(model.TargetSearch)
	ex.Search[0] = -0.6
	if ex.HashFor(model.TargetSearch) == h || ex.HashFor(model.TargetValue) != ex.Hash() {
		t.Error("the search target's hash does not follow the search values")
	}
	if _, err := Train(context.Background(), ex, Config{Hidden: 3, Epochs: 1, Target: model.TargetSearch, SearchMix: 1.5}); err == nil {
		t.Error("a mix of 1.5 accepted")
	}
}

// TestTrainInit: training from an initial model starts from its weights (with a
// vanishing learning rate the result is the initial network), and an initial model of
// another shape is refused.
func TestTrainInit(t *testing.T) {
	var tab dataset.Table
	b := hex.MustBoard(3, 3)
	for _, mv := range []string{"b2", "a1", "c1", "a3", "c3"} {
		c, _ := b.Geometry().ParseCell(mv)
		e := dataset.FromBoard(b)
		e.Winner = hex.White
		tab.Rows = append(tab.Rows, e)
		b.PlayStone(b.ToMove(), c)
	}
	ex, err := FromTable(&tab, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 3, Seed: 1, Target: model.TargetOutcome})
	if err != nil {
		t.Fatal(err)
	}
	tuned, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 1, Seed: 9, LearnRate: 1e-12, Target: model.TargetSearch, Init: base})
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range base.Nets[0].W1 {
		if d := tuned.Nets[0].W1[i] - w; d > 1e-6 || d < -1e-6 {
			t.Fatalf("W1[%d] %g, initial %g", i, tuned.Nets[0].W1[i], w)
		}
	}
	if _, err := Train(context.Background(), ex, Config{Hidden: 5, Epochs: 1, Target: model.TargetSearch, Init: base}); err == nil {
		t.Error("an initial model of 4 hidden units accepted for 5")
	}
}
