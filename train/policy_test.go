package train

import (
	"bytes"
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// withToyPolicy gives every row of ex a one-hot policy target whose best move is
// obvious from the position: the first empty cell in one fixed order of the cells when
// cell 0 holds a Black stone, in another order otherwise (so the head needs the
// hidden layer, not only its biases). Every third row is left without a target.
func withToyPolicy(ex *Examples, seed uint64) *Examples {
	r := rand.New(rand.NewPCG(seed, 5))
	c := ex.Cells()
	black, other := r.Perm(c), r.Perm(c)
	ex.Policy = make([]float32, ex.Rows()*c)
	for i := 0; i < ex.Rows(); i++ {
		x, p := ex.X[i*c:(i+1)*c], ex.Policy[i*c:(i+1)*c]
		if i%3 == 2 {
			for k := range p {
				p[k] = float32(math.NaN())
			}
			continue
		}
		order := other
		if x[0] == model.InputBlack {
			order = black
		}
		for _, k := range order {
			if x[k] == 0 {
				p[k] = 1
				break
			}
		}
	}
	// Full boards have no move: give them no target.
	for i := 0; i < ex.Rows(); i++ {
		if ex.Ply[i] == c {
			for k := range c {
				ex.Policy[i*c+k] = float32(math.NaN())
			}
		}
	}
	return ex
}

// TestTrainPolicy: on the toy task the policy head learns the obvious move: the
// held-out cross-entropy falls far below that of the untrained head (uniform priors)
// and the top move agrees with the target on nearly every held-out row; the value
// still learns; the model writes and reads back with its head; Evaluate reports no
// policy for a model without a head.
func TestTrainPolicy(t *testing.T) {
	ex := withToyPolicy(Synthetic(4, 4, 2400, 3), 1)
	if err := ex.Validate(); err != nil {
		t.Fatal(err)
	}
	trainPart, held, err := SplitHoldout(ex, 0.2, 1)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Hidden: 16, Epochs: 40, Seed: 2, BatchSize: 64, LearnRate: 0.01, Policy: true}
	m, err := Train(context.Background(), trainPart, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !m.HasPolicy() || !strings.Contains(m.Provenance.Config, "policy_weight=1") {
		t.Fatalf("model without a policy head (%q)", m.Provenance.Config)
	}
	mt := Evaluate(m, held)
	// The untrained head (zero weights) gives uniform priors over the empty cells.
	zero := *m
	zero.Nets = slices.Clone(m.Nets)
	zero.Nets[0].WP = make([]float32, len(m.Nets[0].WP))
	zero.Nets[0].BP = make([]float32, len(m.Nets[0].BP))
	m0 := Evaluate(&zero, held)
	t.Logf("held-out policy: %s; untrained head: cross-entropy %.3f, top-1 %.3f", mt, m0.PolicyCrossEntropy, m0.PolicyTop1)
	if mt.PolicyRows == 0 || mt.PolicyRows >= held.Rows() {
		t.Fatalf("%d policy rows of %d", mt.PolicyRows, held.Rows())
	}
	if !(mt.PolicyCrossEntropy < 0.25*m0.PolicyCrossEntropy) || !(mt.PolicyTop1 > 0.9) {
		t.Fatalf("policy not learnt: cross-entropy %.3f (untrained %.3f), top-1 %.3f", mt.PolicyCrossEntropy, m0.PolicyCrossEntropy, mt.PolicyTop1)
	}
	plain, err := Train(context.Background(), trainPart, Config{Hidden: 16, Epochs: 40, Seed: 2, BatchSize: 64, LearnRate: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	if mp := Evaluate(plain, held); plain.HasPolicy() || mp.PolicyRows != 0 || !math.IsNaN(mp.PolicyTop1) {
		t.Fatalf("a model without a head: %+v", mp)
	}
	if !(mt.Spearman > 0.5) {
		t.Fatalf("the value did not learn beside the policy: %s", mt)
	}
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := model.Load(bytes.NewReader(data))
	if err != nil || !back.HasPolicy() {
		t.Fatalf("read back: %v", err)
	}
	if !strings.Contains(mt.String(), "policy cross-entropy") {
		t.Errorf("metrics line without the policy: %s", mt)
	}
}

// TestTrainPolicyErrors: the policy head needs visit shares, and a sane weight.
func TestTrainPolicyErrors(t *testing.T) {
	ex := Synthetic(3, 3, 50, 1)
	if _, err := Train(context.Background(), ex, Config{Hidden: 2, Epochs: 1, Policy: true}); !errors.Is(err, ErrNoData) {
		t.Errorf("no visit shares: %v, want ErrNoData", err)
	}
	withToyPolicy(ex, 1)
	for _, w := range []float64{-1, math.NaN(), 1e6} {
		if _, err := Train(context.Background(), ex, Config{Hidden: 2, Epochs: 1, Policy: true, PolicyWeight: w}); err == nil {
			t.Errorf("policy weight %g accepted", w)
		}
	}
}

// TestPolicyOrderingAfterTraining: trained on a trivial dataset (the search always
// visits one cell only), the policy ordering ranks that cell first on positions where
// it is empty.
func TestPolicyOrderingAfterTraining(t *testing.T) {
	ex := Synthetic(5, 5, 600, 4)
	c := ex.Cells()
	const target = 7
	ex.Policy = make([]float32, ex.Rows()*c)
	for i := range ex.Rows() {
		for k := range c {
			ex.Policy[i*c+k] = float32(math.NaN())
		}
		if ex.X[i*c+target] == 0 {
			clear(ex.Policy[i*c : (i+1)*c])
			ex.Policy[i*c+target] = 1
		}
	}
	m, err := Train(context.Background(), ex, Config{Hidden: 8, Epochs: 40, Seed: 1, LearnRate: 0.01, Policy: true, PolicyWeight: 2})
	if err != nil {
		t.Fatal(err)
	}
	e, err := model.NewEvaluator(m, 5, 5)
	if err != nil {
		t.Fatal(err)
	}
	o, err := model.NewOrdering(e, m.NaturalOrder())
	if err != nil || o.Mode() != model.OrderPolicy {
		t.Fatalf("ordering %v: %v", o, err)
	}
	scores := make([]float64, hex.NumPoints)
	checked := 0
	for i := 0; i < ex.Rows() && checked < 50; i++ {
		if ex.X[i*c+target] != 0 {
			continue
		}
		b, err := ex.Board(i)
		if err != nil {
			t.Fatal(err)
		}
		o.Reset(b)
		o.Evaluate(b)
		o.MoveScores(b, scores)
		em := b.EmptyCells()
		for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
			if p != target && scores[p] >= scores[target] {
				t.Fatalf("row %d: cell %d scores %g, the target %g", i, p, scores[p], scores[target])
			}
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d positions checked", checked)
	}
}

// TestTrainPolicyDeterministic: with a policy head too, the same data and seed give
// the same weights bit for bit, run after run (other allocations shifted), and
// rewinding the tape machine gives the bits of Reset and Let.
func TestTrainPolicyDeterministic(t *testing.T) {
	ex := withToyPolicy(Synthetic(5, 5, 300, 6), 2)
	y, err := targets(ex, Config{Target: model.TargetValue, Output: model.OutputTanh}, ScalingFor(ex.Value, model.OutputTanh))
	if err != nil {
		t.Fatal(err)
	}
	p := policyTargets(ex)
	run := func(reset bool, shift int) *model.Net {
		junk := make([][]float32, shift)
		for i := range junk {
			junk[i] = make([]float32, 1+i)
		}
		n, err := trainNet(t.Context(), ex.X, y, netSpec{cells: 25, hidden: 6, epochs: 2, batch: 64, learnRate: 0.003,
			output: model.OutputTanh, seed: 3, policy: p, policyWeight: 1.5, resetMachine: reset})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	first := run(false, 0)
	if len(first.WP) != 25*6 || len(first.BP) != 25 {
		t.Fatalf("policy head of %d and %d weights", len(first.WP), len(first.BP))
	}
	for i := 1; i < 6; i++ {
		n := run(i%2 == 0, i)
		if !slices.Equal(n.W1, first.W1) || !slices.Equal(n.W2, first.W2) || !slices.Equal(n.WP, first.WP) ||
			!slices.Equal(n.BP, first.BP) || n.B2 != first.B2 {
			t.Fatalf("run %d (reset %v) gave other weights than run 0", i, i%2 == 0)
		}
	}
	cfg := Config{Hidden: 5, Epochs: 2, Seed: 9, Policy: true}
	a, err := Train(context.Background(), ex, cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Train(context.Background(), ex, cfg)
	if err != nil {
		t.Fatal(err)
	}
	da, _ := a.MarshalBinary()
	db, _ := b.MarshalBinary()
	if !bytes.Equal(da, db) {
		t.Fatal("the same data and seed gave other model bytes")
	}
	if a.Provenance.DatasetHash != ex.HashOf(model.TargetValue, true) || ex.HashOf(model.TargetValue, true) == ex.Hash() {
		t.Error("the model's data hash does not cover the visit shares")
	}
}

// TestTrainPolicyInit: fine-tuning continues a model's policy head (with a vanishing
// learning rate the head is the initial one), starts a head at zero from a model
// without one, and drops the head without Policy.
func TestTrainPolicyInit(t *testing.T) {
	ex := withToyPolicy(Synthetic(3, 3, 200, 7), 3)
	plain, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tiny := Config{Hidden: 4, Epochs: 1, Seed: 5, LearnRate: 1e-12, Policy: true, Init: plain}
	fromPlain, err := Train(context.Background(), ex, tiny)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range append(slices.Clone(fromPlain.Nets[0].WP), fromPlain.Nets[0].BP...) {
		if math.Abs(float64(v)) > 1e-6 {
			t.Fatalf("a head started from a model without one has weight %g, want about 0", v)
		}
	}
	headed, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 3, Seed: 2, LearnRate: 0.01, Policy: true})
	if err != nil {
		t.Fatal(err)
	}
	tiny.Init = headed
	tuned, err := Train(context.Background(), ex, tiny)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range headed.Nets[0].WP {
		if d := tuned.Nets[0].WP[i] - w; d > 1e-6 || d < -1e-6 || w == 0 {
			t.Fatalf("WP[%d] %g, initial %g", i, tuned.Nets[0].WP[i], w)
		}
	}
	for i, w := range headed.Nets[0].BP {
		if d := tuned.Nets[0].BP[i] - w; d > 1e-6 || d < -1e-6 {
			t.Fatalf("BP[%d] %g, initial %g", i, tuned.Nets[0].BP[i], w)
		}
	}
	dropped, err := Train(context.Background(), ex, Config{Hidden: 4, Epochs: 1, Seed: 5, Init: headed})
	if err != nil || dropped.HasPolicy() {
		t.Fatalf("trained without Policy from a model with a head: head %v, %v", dropped.HasPolicy(), err)
	}
}

// TestPolicyLossOp checks the policy loss node and its gradients (logits and biases,
// by gorgonia's differentiation) against a float64 computation, on rows with spread
// and one-hot targets, stones and a row without a target.
func TestPolicyLossOp(t *testing.T) {
	const rows, cells, weight = 6, 7, 1.7
	r := rand.New(rand.NewPCG(3, 4))
	l := make([]float32, rows*cells)
	bp := make([]float32, cells)
	p := make([]float32, rows*cells)
	for i := range l {
		l[i] = float32((r.Float64()*2 - 1) * 4)
	}
	for i := range bp {
		bp[i] = float32(r.Float64()*2 - 1)
	}
	for i := 0; i < rows; i++ {
		row := p[i*cells : (i+1)*cells]
		var sum float32
		for k := range row {
			switch {
			case i == 3: // no target
				row[k] = -1
			case (k+i)%3 == 0: // a stone
				row[k] = -1
			case i == 1:
				row[k] = 0
			default:
				row[k] = float32(r.Float64())
				sum += row[k]
			}
		}
		if i == 1 {
			row[2] = 1 // one-hot
		}
		for k := range row {
			if sum > 0 && row[k] > 0 {
				row[k] /= sum
			}
		}
	}
	// The float64 reference.
	var want float64
	wantL := make([]float64, rows*cells)
	wantB := make([]float64, cells)
	for i := 0; i < rows; i++ {
		top := math.Inf(-1)
		for k := 0; k < cells; k++ {
			if p[i*cells+k] >= 0 {
				top = max(top, float64(l[i*cells+k])+float64(bp[k]))
			}
		}
		if math.IsInf(top, -1) {
			continue
		}
		var e float64
		for k := 0; k < cells; k++ {
			if p[i*cells+k] >= 0 {
				e += math.Exp(float64(l[i*cells+k]) + float64(bp[k]) - top)
			}
		}
		for k := 0; k < cells; k++ {
			pk := float64(p[i*cells+k])
			if pk < 0 {
				continue
			}
			z := float64(l[i*cells+k]) + float64(bp[k])
			q := math.Exp(z-top) / e
			want -= weight / rows * pk * (z - top - math.Log(e))
			g := weight / rows * (q - pk) // the shares sum to 1
			wantL[i*cells+k] = g
			wantB[k] += g
		}
	}
	g := gorgonia.NewGraph()
	L := matrix(g, "l", rows, cells, slices.Clone(l))
	B := matrix(g, "bp", 1, cells, slices.Clone(bp))
	P := matrix(g, "p", rows, cells, p)
	cost := gorgonia.Must(gorgonia.ApplyOp(newPolicyLoss(weight), L, B, P))
	if _, err := gorgonia.Grad(cost, L, B); err != nil {
		t.Fatal(err)
	}
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(L, B))
	defer vm.Close()
	if err := vm.RunAll(); err != nil {
		t.Fatal(err)
	}
	if got := float64(cost.Value().Data().(float32)); math.Abs(got-want) > 1e-5*(1+math.Abs(want)) {
		t.Fatalf("loss %g, want %g", got, want)
	}
	for _, tc := range []struct {
		n    *gorgonia.Node
		want []float64
	}{{L, wantL}, {B, wantB}} {
		gv, err := tc.n.Grad()
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range gv.Data().([]float32) {
			if math.Abs(float64(v)-tc.want[i]) > 1e-6 {
				t.Fatalf("%s gradient[%d] %g, want %g", tc.n.Name(), i, v, tc.want[i])
			}
		}
	}
	// A malformed input is an error, not a panic.
	if _, err := newPolicyLoss(1).Do(tensor.New(tensor.WithShape(2, 3), tensor.WithBacking(make([]float32, 6))),
		tensor.New(tensor.WithShape(1, 4), tensor.WithBacking(make([]float32, 4))),
		tensor.New(tensor.WithShape(2, 3), tensor.WithBacking(make([]float32, 6)))); err == nil {
		t.Error("mismatched biases accepted")
	}
}

// TestExamplesPolicy: the visit shares come from the dataset's search targets and
// follow the rows through Subset, Partition and WithRotations (a cell's share moves to
// cell W·H−1−i); Validate refuses bad shares.
func TestExamplesPolicy(t *testing.T) {
	var tab dataset.Table
	b := hex.MustBoard(3, 3)
	for i, mv := range []string{"b2", "a1", "c1"} {
		c, _ := b.Geometry().ParseCell(mv)
		e := dataset.FromBoard(b)
		e.Winner = hex.Black
		switch i {
		case 0: // the empty board, uniform shares: its own image
			pol := make([]float32, 9)
			for k := range pol {
				pol[k] = 1.0 / 9
			}
			e.Search = &dataset.SearchTargets{Value: 0.2, Policy: pol}
		case 1: // a symmetric position (b2), every visit on the move played: not its own image
			pol := make([]float32, 9)
			pol[c] = 1
			e.Search = &dataset.SearchTargets{Value: 0.2, Policy: pol}
		}
		tab.Rows = append(tab.Rows, e)
		b.PlayStone(b.ToMove(), c)
	}
	ex, err := FromTable(&tab, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	if ex.Policy == nil || !ex.hasPolicy(0) || !ex.hasPolicy(1) || ex.hasPolicy(2) || ex.policyRows() != 2 {
		t.Fatalf("policy rows %v", ex.Policy)
	}
	rot := ex.WithRotations()
	if rot.Rows() != 5 {
		t.Fatalf("%d rows after rotation, want 5", rot.Rows())
	}
	for k := 0; k < 9; k++ {
		if rot.Policy[2*9+k] != ex.Policy[1*9+8-k] || rot.X[4*9+k] != ex.X[2*9+8-k] {
			t.Fatalf("rotated cell %d: share %g, want %g", k, rot.Policy[2*9+k], ex.Policy[1*9+8-k])
		}
	}
	if rot.Policy[2*9+8] != 1 || !math.IsNaN(float64(rot.Policy[4*9])) {
		t.Fatalf("rotated shares %v", rot.Policy)
	}
	if err := rot.Validate(); err != nil {
		t.Fatal(err)
	}
	part := ex.Partition(PlyRange{2, 2})
	if part.Rows() != 1 || len(part.Policy) != 9 || !math.IsNaN(float64(part.Policy[0])) {
		t.Fatalf("partition's policy %v", part.Policy)
	}
	for name, f := range map[string]func(e *Examples){
		"share on a stone": func(e *Examples) { e.Policy[9+4], e.Policy[9] = 1, 0 },
		"sum":              func(e *Examples) { e.Policy[0] += 0.5 },
		"negative":         func(e *Examples) { e.Policy[1] = -0.1 },
		"half a row":       func(e *Examples) { e.Policy[2*9+3] = 0 },
		"length":           func(e *Examples) { e.Policy = e.Policy[:20] },
	} {
		bad := ex.Subset([]int{0, 1, 2})
		f(bad)
		if err := bad.Validate(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
