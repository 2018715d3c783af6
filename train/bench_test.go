package train

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/model"
)

// BenchmarkEpoch measures one training epoch (minibatch 256, Adam) on corpora of the
// paper's size: 112,737 rows on 6x6 with 30 hidden units and 142,383 rows on 11x11
// with 50 hidden units; "+policy" trains a policy head too (two thirds of the rows with
// a target). One benchmark op is one epoch; cpu-s/op is the process CPU time per epoch
// (all threads).
func BenchmarkEpoch(b *testing.B) {
	for _, tc := range []struct {
		name         string
		n, rows, hid int
		policy       bool
	}{{"6x6-36-30-1-112737rows", 6, 112737, 30, false}, {"11x11-121-50-1-142383rows", 11, 142383, 50, false},
		{"11x11-121-50-1+policy-142383rows", 11, 142383, 50, true}} {
		b.Run(tc.name, func(b *testing.B) {
			ex := Synthetic(tc.n, tc.n, tc.rows, 1)
			s := ScalingFor(ex.Value, model.OutputTanh)
			y, _ := targets(ex, Config{Target: model.TargetValue, Output: model.OutputTanh}, s)
			spec := netSpec{cells: ex.Cells(), hidden: tc.hid, epochs: b.N, batch: 256, learnRate: 0.001, output: model.OutputTanh, seed: 1}
			if tc.policy {
				spec.policy, spec.policyWeight = policyTargets(withToyPolicy(ex, 1)), 1
			}
			c0, _ := processCPU()
			b.ResetTimer()
			_, err := trainNet(context.Background(), ex.X, y, spec)
			b.StopTimer()
			reportCPU(b, c0)
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// BenchmarkSweep measures a 10-fold cross-validation sweep of 36-30-1 on the paper's
// 6x6 corpus size (112,737 rows), 3 epochs per run, runs on all cores, validation
// after every epoch. One op is the whole sweep (30 run-epochs); cpu-s/run-epoch is the
// process CPU time per epoch of one run (training on 9/10 of the rows, validation on
// the rest, and each run's share of copying its fold), wall-s/run-epoch the wall time.
func BenchmarkSweep(b *testing.B) {
	ex := Synthetic(6, 6, 112737, 1)
	sc := SweepConfig{Folds: 10, Hidden: []int{30}, Epochs: 3, Base: Config{Seed: 1}}
	c0, _ := processCPU()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Sweep(context.Background(), ex, sc); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runEpochs := float64(b.N * sc.Folds * sc.Epochs * len(sc.Hidden))
	if t, ok := processCPU(); ok {
		b.ReportMetric((t-c0).Seconds()/runEpochs, "cpu-s/run-epoch")
	}
	b.ReportMetric(b.Elapsed().Seconds()/runEpochs, "wall-s/run-epoch")
}
