package train

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/model"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// gorgoniaForward runs the trained network's forward pass in gorgonia (the graph the
// trainer uses, without the loss) on rows of x.
func gorgoniaForward(t *testing.T, n *model.Net, o model.Output, x []float32, cells int) []float32 {
	t.Helper()
	rows := len(x) / cells
	g := gorgonia.NewGraph()
	mat := func(name string, r, c int, v []float32) *gorgonia.Node {
		return gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(r, c), gorgonia.WithName(name),
			gorgonia.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(append([]float32(nil), v...)))))
	}
	X := mat("x", rows, cells, x)
	W1 := mat("w1", cells, n.Hidden, n.W1)
	B1 := mat("b1", 1, n.Hidden, n.B1)
	W2 := mat("w2", n.Hidden, 1, n.W2)
	B2 := mat("b2", 1, 1, []float32{n.B2})
	h := gorgonia.Must(gorgonia.Tanh(gorgonia.Must(gorgonia.BroadcastAdd(gorgonia.Must(gorgonia.Mul(X, W1)), B1, nil, []byte{0}))))
	z := gorgonia.Must(gorgonia.BroadcastAdd(gorgonia.Must(gorgonia.Mul(h, W2)), B2, nil, []byte{0}))
	out := z
	switch o {
	case model.OutputTanh:
		out = gorgonia.Must(gorgonia.Tanh(z))
	case model.OutputLogistic:
		out = gorgonia.Must(gorgonia.Sigmoid(z))
	}
	vm := gorgonia.NewTapeMachine(g)
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	return append([]float32(nil), out.Value().Data().([]float32)...)
}

func TestForwardMatchesGorgonia(t *testing.T) {
	for _, tc := range []struct {
		target model.Target
		output model.Output
	}{{model.TargetValue, model.OutputTanh}, {model.TargetValue, model.OutputLinear}, {model.TargetWinner, model.OutputLogistic}} {
		ex := Synthetic(6, 6, 600, 1)
		m, err := Train(context.Background(), ex, Config{Hidden: 30, Epochs: 3, Seed: 4, Target: tc.target, Output: tc.output, BatchSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		want := gorgoniaForward(t, &m.Nets[0], tc.output, ex.X, ex.Cells())
		worst := 0.0
		for i := range want {
			got := m.Forward(0, ex.X[i*36:(i+1)*36])
			worst = max(worst, math.Abs(float64(got-want[i])))
		}
		if worst > 1e-5 {
			t.Fatalf("%s/%s: model inference differs from gorgonia by %g", tc.target, tc.output, worst)
		}
		t.Logf("%s/%s: max |model − gorgonia| = %.2g", tc.target, tc.output, worst)
	}
}

func TestSameSeedSameBytes(t *testing.T) {
	ex := Synthetic(5, 5, 700, 2)
	cfg := Config{Hidden: 8, Epochs: 4, Seed: 9, BatchSize: 100}
	var outs [][]byte
	for i := 0; i < 2; i++ {
		m, err := Train(context.Background(), ex, cfg)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, b)
	}
	if !bytes.Equal(outs[0], outs[1]) {
		t.Fatal("same seed and data gave different model bytes")
	}
	cfg.Seed = 10
	m, _ := Train(context.Background(), ex, cfg)
	b, _ := m.MarshalBinary()
	if bytes.Equal(outs[0], b) {
		t.Fatal("a different seed gave the same model")
	}
}

// TestLearns checks that training reduces the error well below the baseline of
// predicting zero, for each target (a trainer that forgets to step or reset the
// machine fails here).
func TestLearns(t *testing.T) {
	all := Synthetic(5, 5, 4000, 3)
	tr, te := all.Subset(seq(0, 3000)), all.Subset(seq(3000, 4000))
	for _, target := range []model.Target{model.TargetValue, model.TargetWinner} {
		var costs []float64
		meter := &epochMeter{}
		m, err := Train(context.Background(), tr, Config{Hidden: 16, Epochs: 30, Seed: 1, Target: target, LearnRate: 0.01,
			Meter: meter, OnEpoch: func(_, _ int, c float64) { costs = append(costs, c) }})
		if err != nil {
			t.Fatal(err)
		}
		if len(costs) != 30 || !(costs[29] < costs[0]*0.7) {
			t.Fatalf("%s: training cost did not fall: %v", target, costs)
		}
		if meter.total != 30 || meter.last != 30 || meter.sets != 30 || meter.dones != 1 || meter.err != nil {
			t.Errorf("%s: progress %+v, want 30 of 30 epochs, one part", target, meter)
		}
		mt := Evaluate(m, te)
		t.Logf("%s: held-out %+v", target, mt)
		if target == model.TargetValue {
			if !(mt.Spearman > 0.8) {
				t.Fatalf("value model: held-out Spearman %g ≤ 0.8", mt.Spearman)
			}
		} else if !(mt.WinnerAccuracy > 0.75) {
			t.Fatalf("winner model: held-out accuracy %g ≤ 0.75", mt.WinnerAccuracy)
		}
	}
}

func seq(a, b int) []int {
	s := make([]int, 0, b-a)
	for i := a; i < b; i++ {
		s = append(s, i)
	}
	return s
}

func TestDivergenceReported(t *testing.T) {
	ex := Synthetic(4, 4, 300, 5)
	_, err := Train(context.Background(), ex, Config{Hidden: 8, Epochs: 5, Seed: 1, Output: model.OutputLinear, LearnRate: 1e30})
	if !errors.Is(err, ErrDiverged) {
		t.Fatalf("learning rate 1e30: err %v, want ErrDiverged", err)
	}
}

func TestPerPly(t *testing.T) {
	ex := Synthetic(4, 4, 800, 6)
	rs := ex.PlyRanges(5)
	if len(rs) != 4 || rs[0] != (PlyRange{0, 4}) || rs[3] != (PlyRange{15, 16}) {
		t.Fatalf("PlyRanges(5) = %v", rs)
	}
	m, err := Train(context.Background(), ex, Config{Hidden: 6, Epochs: 2, Seed: 1, PlyRanges: rs})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Nets) != 4 || m.Nets[2].MinPly != 10 || m.Nets[2].MaxPly != 14 {
		t.Fatalf("per-ply nets: %d nets, third %d..%d", len(m.Nets), m.Nets[2].MinPly, m.Nets[2].MaxPly)
	}
	if m.NetFor(12) != 2 {
		t.Fatal("NetFor(12) did not pick the 10..14 network")
	}
}

func TestBadInput(t *testing.T) {
	ex := Synthetic(4, 4, 50, 1)
	for name, f := range map[string]func() error{
		"no hidden": func() error { _, err := Train(context.Background(), ex, Config{Epochs: 1}); return err },
		"no epochs": func() error { _, err := Train(context.Background(), ex, Config{Hidden: 2}); return err },
		"winner+tanh": func() error {
			_, err := Train(context.Background(), ex, Config{Hidden: 2, Epochs: 1, Target: model.TargetWinner, Output: model.OutputTanh})
			return err
		},
		"bad input": func() error {
			bad := ex.Subset(seq(0, 50))
			bad.X[3] = 0.5
			_, err := Train(context.Background(), bad, Config{Hidden: 2, Epochs: 1})
			return err
		},
		"no winners": func() error {
			nw := ex.Subset(seq(0, 50))
			nw.Winner = nil
			_, err := Train(context.Background(), nw, Config{Hidden: 2, Epochs: 1, Target: model.TargetWinner})
			return err
		},
		"empty": func() error {
			_, err := Train(context.Background(), &Examples{W: 4, H: 4}, Config{Hidden: 2, Epochs: 1})
			return err
		},
	} {
		if err := f(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Train(ctx, ex, Config{Hidden: 2, Epochs: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}

func TestSpearman(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	if s := Spearman(a, []float64{10, 20, 30, 40, 50}); math.Abs(s-1) > 1e-12 {
		t.Fatalf("monotone: %g", s)
	}
	if s := Spearman(a, []float64{5, 4, 3, 2, 1}); math.Abs(s+1) > 1e-12 {
		t.Fatalf("reversed: %g", s)
	}
	// Ties get average ranks: ranks of b are 1.5 1.5 3 4 5.
	if s := Spearman(a, []float64{math.Inf(-1), math.Inf(-1), 0, 1, math.Inf(1)}); math.Abs(s-0.9746794344808963) > 1e-12 {
		t.Fatalf("ties: %g", s)
	}
}

func TestSweep(t *testing.T) {
	ex := Synthetic(4, 4, 900, 8)
	sc := SweepConfig{Folds: 3, Hidden: []int{2, 12}, Epochs: 6, Base: Config{Seed: 3, LearnRate: 0.01}, Workers: 2}
	m := &epochMeter{}
	sc.Meter = m
	r, err := Sweep(context.Background(), ex, sc)
	if err != nil {
		t.Fatal(err)
	}
	if m.last != 36 || m.total != 36 || m.sets != 36 || m.dones != 1 || m.err != nil {
		t.Fatalf("progress %+v, want 36 of 36 epochs, one part", m)
	}
	// Results do not depend on the number of workers.
	sc.Workers, sc.Meter = 1, nil
	r1, err := Sweep(context.Background(), ex, sc)
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Err {
		for f := range r.Err[i] {
			for e := range r.Err[i][f] {
				if r.Err[i][f][e] != r1.Err[i][f][e] {
					t.Fatalf("validation error differs between 2 workers and 1 worker at %d/%d/%d", i, f, e)
				}
			}
		}
	}
	// Validation error falls with training, and the selection is the grid minimum.
	for i := range r.Hidden {
		if !(r.Mean[i][5] < r.Mean[i][0]) {
			t.Errorf("hidden %d: mean validation error did not fall: %v", r.Hidden[i], r.Mean[i])
		}
	}
	for i := range r.Mean {
		for e, m := range r.Mean[i] {
			if m < r.BestMean {
				t.Fatalf("selected mean %g but hidden %d epoch %d has %g", r.BestMean, r.Hidden[i], e+1, m)
			}
		}
	}
	dir := t.TempDir()
	paths, err := r.WriteReport(dir, "sweep")
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) != 4 {
		t.Fatalf("report files %v", paths)
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || st.Size() == 0 {
			t.Fatalf("report file %s: %v", p, err)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back SweepResult
	if err := json.Unmarshal(js, &back); err != nil || back.BestHidden != r.BestHidden || back.BestEpochs != r.BestEpochs ||
		back.Mean[1][5] != r.Mean[1][5] {
		t.Fatalf("sweep JSON round trip: %v", err)
	}
	csvData, _ := os.ReadFile(filepath.Join(dir, "sweep.csv"))
	if n := strings.Count(string(csvData), "\n"); n != 1+2*6 {
		t.Fatalf("sweep.csv has %d lines, want 13", n)
	}
}

func TestSelect(t *testing.T) {
	mean := [][]float64{{0.5, 0.30, 0.31}, {0.4, 0.301, 0.35}}
	std := [][]float64{{0.1, 0.05, 0.01}, {0.1, 0.001, 0.1}}
	if i, e := Select(mean, std, 0); i != 0 || e != 1 {
		t.Fatalf("exact rule picked %d,%d, want 0,1", i, e)
	}
	// Within 1% the smaller standard deviation wins.
	if i, e := Select(mean, std, 0.01); i != 1 || e != 1 {
		t.Fatalf("tolerant rule picked %d,%d, want 1,1", i, e)
	}
	// Exact ties: smaller standard deviation.
	if i, e := Select([][]float64{{1, 1}}, [][]float64{{0.5, 0.2}}, 0); i != 0 || e != 1 {
		t.Fatalf("tie picked %d,%d, want 0,1", i, e)
	}
}

func TestFoldOf(t *testing.T) {
	f := FoldOf(103, 10, 1)
	count := make([]int, 10)
	for _, k := range f {
		count[k]++
	}
	for k, c := range count {
		if c != 10 && c != 11 {
			t.Fatalf("fold %d has %d rows", k, c)
		}
	}
}

func TestWinnerTargetUsesKnownRows(t *testing.T) {
	ex := Synthetic(4, 4, 400, 9)
	for i := 0; i < ex.Rows(); i += 3 {
		ex.Winner[i] = 0
	}
	known, err := ex.WithWinners()
	if err != nil {
		t.Fatal(err)
	}
	if known.Rows() != 266 {
		t.Fatalf("%d rows with a known winner, want 266", known.Rows())
	}
	m, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 2, Seed: 1, Target: model.TargetWinner})
	if err != nil {
		t.Fatal(err)
	}
	if m.Provenance.DatasetHash != known.Hash() {
		t.Fatal("the model does not record the hash of the rows it was trained on")
	}
	r, err := Sweep(context.Background(), ex, SweepConfig{Folds: 2, Hidden: []int{3}, Epochs: 2, Base: Config{Target: model.TargetWinner}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Rows != 266 {
		t.Fatalf("sweep used %d rows, want 266", r.Rows)
	}
	if _, _, _, err := HoldoutCheck(context.Background(), ex, r, Config{Target: model.TargetWinner}); err != nil {
		t.Fatal(err)
	}
}

func TestOpenKeepsUndecidedRows(t *testing.T) {
	ex := Synthetic(3, 3, 50, 1)
	for i := range ex.Value {
		switch i % 3 {
		case 0:
			ex.Value[i] = 40
		case 1:
			ex.Value[i] = -25
		default:
			ex.Value[i] = float32(i) / 100
		}
	}
	open := ex.Open(20)
	if open.Rows() != 16 {
		t.Fatalf("kept %d rows, want 16", open.Rows())
	}
	for i, v := range open.Value {
		if v >= 20 || v <= -20 {
			t.Fatalf("row %d kept with value %v", i, v)
		}
		if open.Ply[i] != ex.Ply[3*i+2] {
			t.Fatalf("row %d: ply %d, want %d", i, open.Ply[i], ex.Ply[3*i+2])
		}
	}
	if err := open.Validate(); err != nil {
		t.Fatal(err)
	}
}

// epochMeter records the progress reports of one part.
type epochMeter struct {
	total, last, sets int64
	dones             int
	err               error
}

func (m *epochMeter) Start(_ string, total int64, _ string) { m.total = total }
func (m *epochMeter) Set(d int64)                           { m.last = d; m.sets++ }
func (m *epochMeter) Count(int64, string)                   {}
func (m *epochMeter) Done(err error)                        { m.dones++; m.err = err }
