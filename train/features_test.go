package train

import (
	"context"
	"math"
	"testing"

	"github.com/hexlearn/hexlearn/model"
)

// TestTwoDistFeatures trains a twodist model and checks that the file-level model, the
// search evaluator and Evaluate agree on its values, and that it learns.
func TestTwoDistFeatures(t *testing.T) {
	all := Synthetic(4, 4, 1500, 8)
	tr, te := all.Subset(seq(0, 1200)), all.Subset(seq(1200, 1500))
	m, err := Train(context.Background(), tr, Config{Hidden: 8, Epochs: 20, Seed: 1, LearnRate: 0.01,
		Features: model.FeaturesTwoDist})
	if err != nil {
		t.Fatal(err)
	}
	if m.Features != model.FeaturesTwoDist || len(m.Nets[0].W1) != m.Inputs()*8 {
		t.Fatalf("features %q, %d first-layer weights", m.Features, len(m.Nets[0].W1))
	}
	ev, err := model.NewEvaluator(m, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ {
		b, _ := te.Board(i)
		want := m.ValueOf(m.PreOutput(m.NetFor(te.Ply[i]), m.Encode(b, nil), nil))
		if got := ev.Evaluate(b).Value; math.Abs(got-want) > 1e-9 {
			t.Fatalf("row %d: evaluator %g, model %g", i, got, want)
		}
	}
	mt := Evaluate(m, te)
	if !(mt.Spearman > 0.5) {
		t.Errorf("held-out Spearman %g", mt.Spearman)
	}
	if _, err := Train(context.Background(), tr, Config{Hidden: 2, Epochs: 1, Features: "pagerank"}); err == nil {
		t.Error("an unknown feature set was accepted")
	}
}
