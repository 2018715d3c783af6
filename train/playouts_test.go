package train

import (
	"context"
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// TestLabelPlayouts: a row's label is the share of its own seeded playouts that
// Black wins (counted for the side to move and turned round for White), the same
// with one worker or many, and another seed gives other labels; Subset keeps the
// labels with their rows.
func TestLabelPlayouts(t *testing.T) {
	ex := Synthetic(5, 5, 300, 7)
	if err := ex.LabelPlayouts(context.Background(), 64, 3); err != nil {
		t.Fatal(err)
	}
	if err := ex.Validate(); err != nil {
		t.Fatal(err)
	}
	po := search.NewPlayouts(0)
	for _, i := range []int{0, 1, 17, 299} {
		b, err := ex.Board(i)
		if err != nil {
			t.Fatal(err)
		}
		po.Reseed(3 ^ uint64(i+1)*0x9E3779B97F4A7C15)
		want := float32(po.Run(b, 64)) / 64
		if b.ToMove() == hex.White {
			want = 1 - want
		}
		if ex.Playout[i] != want {
			t.Fatalf("row %d: label %g, want %g", i, ex.Playout[i], want)
		}
	}
	one := Synthetic(5, 5, 300, 7)
	prev := runtime.GOMAXPROCS(1)
	err := one.LabelPlayouts(context.Background(), 64, 3)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	other := Synthetic(5, 5, 300, 7)
	if err := other.LabelPlayouts(context.Background(), 64, 4); err != nil {
		t.Fatal(err)
	}
	differ := 0
	for i := range ex.Playout {
		if one.Playout[i] != ex.Playout[i] {
			t.Fatalf("row %d: %g with one worker, %g with %d", i, one.Playout[i], ex.Playout[i], prev)
		}
		if other.Playout[i] != ex.Playout[i] {
			differ++
		}
	}
	if differ == 0 {
		t.Fatal("another seed gave the same labels")
	}
	s := ex.Subset([]int{17, 0})
	if s.Playout[0] != ex.Playout[17] || s.Playout[1] != ex.Playout[0] {
		t.Fatal("Subset lost the playouts labels")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Synthetic(5, 5, 3000, 1).LabelPlayouts(ctx, 64, 1); err == nil {
		t.Fatal("a cancelled labelling succeeded")
	}
}

// TestPlayoutsTarget trains a playouts model: Train labels the rows itself, the model
// is logistic, records the playout count and a hash over the labels, and its
// probability is closer to the held-out rows' labels than the labels' mean is.
func TestPlayoutsTarget(t *testing.T) {
	all := Synthetic(5, 5, 3000, 11)
	if err := all.LabelPlayouts(context.Background(), 128, 1); err != nil {
		t.Fatal(err)
	}
	tr, te := all.Subset(seq(0, 2500)), all.Subset(seq(2500, 3000))
	bare := *tr
	bare.Playout = nil
	cfg := Config{Hidden: 16, Epochs: 30, Seed: 1, Target: model.TargetPlayouts, Playouts: 128, LearnRate: 0.01, Features: model.FeaturesTwoDist}
	m, err := Train(context.Background(), &bare, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Target != model.TargetPlayouts || m.Output != model.OutputLogistic {
		t.Fatalf("model target %s output %s", m.Target, m.Output)
	}
	var mean, sd float64
	for _, p := range te.Playout {
		mean += float64(p)
	}
	mean /= float64(te.Rows())
	for _, p := range te.Playout {
		sd += (float64(p) - mean) * (float64(p) - mean)
	}
	sd = math.Sqrt(sd / float64(te.Rows()))
	mt := Evaluate(m, te)
	if !(mt.PlayoutRMSE < 0.8*sd) {
		t.Fatalf("held-out playout RMSE %.4f, labels' sd %.4f", mt.PlayoutRMSE, sd)
	}
	if math.IsNaN(mt.TargetError) {
		t.Fatal("no held-out target error")
	}
	// Labelled by Train (seed 1, 128 playouts, its own row order) or beforehand with
	// the same settings: the same model.
	m2, err := Train(context.Background(), tr, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if m.Provenance.DatasetHash != m2.Provenance.DatasetHash || m.Provenance.DatasetHash == tr.Hash() {
		t.Fatal("the model's data hash does not cover the playouts labels")
	}
	if got := m.Provenance.Config; !strings.Contains(got, "playouts=128") {
		t.Fatalf("provenance %q does not record the playouts", got)
	}
	if mt := Evaluate(m, Synthetic(5, 5, 10, 2)); !math.IsNaN(mt.PlayoutRMSE) {
		t.Fatal("a playout RMSE without labels")
	}
}
