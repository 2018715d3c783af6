package train

import (
	"encoding/json"
	"fmt"
	"github.com/hexlearn/hexlearn/internal/stats"
	"math"
	"math/rand/v2"

	"github.com/hexlearn/hexlearn/model"
)

// Metrics compares a model's predictions with the exact evaluator on examples.
type Metrics struct {
	Rows int `json:"rows"`
	// RMSE is the root mean squared difference between the model's value and the exact
	// value, in the evaluator's units, over rows with a finite exact value (value
	// models only: NaN for winner models, whose value is a log-odds).
	RMSE float64 `json:"rmse"`
	// Spearman is the rank correlation between the model's value and the exact value
	// (decided positions included: ±Inf rank at the ends).
	Spearman float64 `json:"spearman"`
	// TargetError is the training loss on these rows: the mean squared error of the
	// scaled target for value models, the mean cross-entropy over rows with a known
	// winner for winner models (NaN when there are none).
	TargetError float64 `json:"target_error"`
	// WinnerAccuracy is the fraction of rows with a known winner whose sign the model's
	// value predicts (NaN when no row has a known winner).
	WinnerAccuracy float64 `json:"winner_accuracy"`
	// ExactWinnerAccuracy is the same for the exact evaluator's value.
	ExactWinnerAccuracy float64 `json:"exact_winner_accuracy"`
	// PlayoutRMSE is, for a playouts model on labelled rows, the root mean squared
	// difference between its probability that Black wins a playout and the rows'
	// labels (which carry their own sampling error); NaN otherwise.
	PlayoutRMSE float64 `json:"playout_rmse"`
	// PolicyRows is the number of rows with the search's visit shares on which a
	// model with a policy head was measured; PolicyCrossEntropy the mean
	// cross-entropy of its priors (the softmax of its logits over the empty cells)
	// against those shares, and PolicyTop1 the fraction of those rows whose highest
	// prior is the search's most visited cell (NaN when PolicyRows is 0).
	PolicyRows         int     `json:"policy_rows"`
	PolicyCrossEntropy float64 `json:"policy_cross_entropy"`
	PolicyTop1         float64 `json:"policy_top1"`
}

// Evaluate computes Metrics of m on ex (which must be for m's board size).
func Evaluate(m *model.Model, ex *Examples) Metrics {
	n, c := ex.Rows(), ex.Cells()
	pred := make([]float64, n)
	hid := make([]float32, 0, 2*4096) // PolicyLogits uses twice the hidden units
	var se, te float64
	var fin int
	var won, wonExact, known, teRows int
	var pse float64
	soft := m.Target == model.TargetPlayouts && len(ex.Playout) == n
	enc, _ := model.NewEncoder(m) // nil for a model Validate refuses
	var buf, logits []float32
	var pce float64
	var prows, ptop int
	for i := 0; i < n; i++ {
		k := m.NetFor(ex.Ply[i])
		x := ex.X[i*c : (i+1)*c]
		if m.Inputs() != c && enc != nil {
			if b, err := ex.Board(i); err == nil { // i is in range: no error
				buf = enc.Encode(b, buf)
				x = buf
			}
		}
		z := m.PreOutput(k, x, hid)
		if m.HasPolicy() && ex.hasPolicy(i) {
			logits, _ = m.PolicyLogits(k, x, hid, logits) // m has a head: no error
			ce, top := policyScore(logits, ex.X[i*c:(i+1)*c], ex.Policy[i*c:(i+1)*c])
			pce += ce
			prows++
			if top {
				ptop++
			}
		}
		v := m.ValueOf(z)
		pred[i] = v
		exact := float64(ex.Value[i])
		if !math.IsInf(exact, 0) {
			se += (v - exact) * (v - exact)
			fin++
		}
		switch {
		case soft:
			y := float64(ex.Playout[i])
			te += softplus(float64(z)) - y*float64(z)
			teRows++
			d := 1/(1+math.Exp(-float64(z))) - y
			pse += d * d
		case m.Target == model.TargetPlayouts:
			// rows without playouts labels: no target error
		case m.Target.Logistic():
			labels := ex.Winner
			if m.Target == model.TargetOutcome || m.Target == model.TargetSearch {
				labels = ex.Outcome // the search target: the cross-entropy against the games' results
			}
			if labels != nil && labels[i] != 0 {
				y := 0.0
				if labels[i] > 0 {
					y = 1
				}
				te += softplus(float64(z)) - y*float64(z)
				teRows++
			}
		default:
			d := float64(m.Activate(z)) - float64(m.Scaling.ToTarget(exact, m.Output))
			te += d * d
			teRows++
		}
		if ex.Winner != nil && ex.Winner[i] != 0 {
			known++
			if (v > 0) == (ex.Winner[i] > 0) {
				won++
			}
			if (exact > 0) == (ex.Winner[i] > 0) {
				wonExact++
			}
		}
	}
	mt := Metrics{Rows: n, RMSE: math.NaN(), WinnerAccuracy: math.NaN(), ExactWinnerAccuracy: math.NaN(), PlayoutRMSE: math.NaN(),
		PolicyRows: prows, PolicyCrossEntropy: math.NaN(), PolicyTop1: math.NaN()}
	if prows > 0 {
		mt.PolicyCrossEntropy, mt.PolicyTop1 = pce/float64(prows), float64(ptop)/float64(prows)
	}
	if soft {
		mt.PlayoutRMSE = math.Sqrt(pse / float64(n))
	}
	if fin > 0 && !m.Target.Logistic() {
		mt.RMSE = math.Sqrt(se / float64(fin))
	}
	mt.TargetError = math.NaN()
	if teRows > 0 {
		mt.TargetError = te / float64(teRows)
	}
	if known > 0 {
		mt.WinnerAccuracy = float64(won) / float64(known)
		mt.ExactWinnerAccuracy = float64(wonExact) / float64(known)
	}
	exact := make([]float64, n)
	for i, v := range ex.Value {
		exact[i] = float64(v)
	}
	mt.Spearman = Spearman(pred, exact)
	return mt
}

// policyScore returns the cross-entropy −Σ p·log q of the softmax q of logits over the
// empty cells of the row x against the visit shares p, and whether the empty cell of
// the highest logit is the most visited one (the first of each on ties).
func policyScore(logits, x, p []float32) (ce float64, top bool) {
	top1, best := -1, -1
	zmax := math.Inf(-1)
	for k, xk := range x {
		if xk != 0 {
			continue
		}
		if z := float64(logits[k]); z > zmax {
			zmax, top1 = z, k
		}
		if best < 0 || p[k] > p[best] {
			best = k
		}
	}
	if top1 < 0 {
		return 0, false
	}
	var e float64
	for k, xk := range x {
		if xk == 0 {
			e += math.Exp(float64(logits[k]) - zmax)
		}
	}
	lse := zmax + math.Log(e)
	for k, xk := range x {
		if xk == 0 && p[k] > 0 {
			ce += float64(p[k]) * (lse - float64(logits[k]))
		}
	}
	return ce, top1 == best
}

func softplus(z float64) float64 {
	if z > 30 {
		return z
	}
	return math.Log1p(math.Exp(z))
}

// validationError is the loss of network n (output o) on inputs x and scaled targets y.
func validationError(n *model.Net, o model.Output, x, y []float32, cells int, hid []float32) float64 {
	m := model.Model{Output: o, Nets: []model.Net{*n}}
	var sum float64
	for i := range y {
		z := m.PreOutput(0, x[i*cells:(i+1)*cells], hid)
		if o == model.OutputLogistic {
			sum += softplus(float64(z)) - float64(y[i])*float64(z)
		} else {
			d := float64(m.Activate(z)) - float64(y[i])
			sum += d * d
		}
	}
	return sum / float64(len(y))
}

// Spearman returns the Spearman rank correlation of a and b (average ranks for ties);
// NaN when fewer than two rows or a constant column. It is internal/stats.Spearman.
func Spearman(a, b []float64) float64 { return stats.Spearman(a, b) }

// Synthetic returns rows random positions on a w x h board labelled by a fixed random
// "teacher" (a hidden 1-layer network of 8 units plus a material term, scaled to
// about ±5, with ±Inf for 1% of rows as decided positions) and a winner that agrees
// with the teacher's sign 90% of the time. It stands in for real data in tests and
// the training benchmarks (the paper's corpus sizes: 112,737 × 36, 142,383 × 121).
func Synthetic(w, h, rows int, seed uint64) *Examples {
	r := rand.New(rand.NewPCG(seed, 0x73796e7468))
	c := w * h
	const th = 8
	tw := make([]float64, c*th)
	for i := range tw {
		tw[i] = r.NormFloat64() / math.Sqrt(float64(c)) * 2
	}
	ex := &Examples{W: w, H: h, X: make([]float32, rows*c), Value: make([]float32, rows), Ply: make([]int, rows), Winner: make([]int8, rows)}
	perm := make([]int, c)
	for i := range perm {
		perm[i] = i
	}
	for i := 0; i < rows; i++ {
		x := ex.X[i*c : (i+1)*c]
		ply := r.IntN(c + 1)
		r.Shuffle(c, func(a, b int) { perm[a], perm[b] = perm[b], perm[a] })
		for k := 0; k < ply; k++ {
			if k%2 == 0 {
				x[perm[k]] = -1 // Black moves first
			} else {
				x[perm[k]] = 1
			}
		}
		ex.Ply[i] = ply
		v := 0.0
		for j := 0; j < th; j++ {
			a := 0.0
			for q, xq := range x {
				a += float64(xq) * tw[q*th+j]
			}
			v += math.Tanh(a) * (1 - 0.2*float64(j%3))
		}
		v *= 1.2
		switch {
		case r.IntN(100) == 0 && v > 0:
			ex.Value[i] = float32(math.Inf(1))
		case r.IntN(100) == 0 && v < 0:
			ex.Value[i] = float32(math.Inf(-1))
		default:
			ex.Value[i] = float32(v)
		}
		win := int8(1)
		if v < 0 {
			win = -1
		}
		if r.IntN(10) == 0 {
			win = -win
		}
		ex.Winner[i] = win
	}
	return ex
}

// MarshalJSON writes the metrics with NaN (not measured) as null.
func (m Metrics) MarshalJSON() ([]byte, error) {
	f := func(v float64) any {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil
		}
		return v
	}
	out := map[string]any{
		"rows": m.Rows, "rmse": f(m.RMSE), "spearman": f(m.Spearman), "target_error": f(m.TargetError),
		"winner_accuracy": f(m.WinnerAccuracy), "exact_winner_accuracy": f(m.ExactWinnerAccuracy),
	}
	if m.PolicyRows > 0 { // present only for a policy head measured on visit shares
		out["policy_rows"], out["policy_cross_entropy"], out["policy_top1"] = m.PolicyRows, f(m.PolicyCrossEntropy), f(m.PolicyTop1)
	}
	return json.Marshal(out)
}

// String formats the metrics on one line.
func (m Metrics) String() string {
	s := fmt.Sprintf("%d rows: ", m.Rows)
	if !math.IsNaN(m.RMSE) {
		s += fmt.Sprintf("RMSE %.4g, ", m.RMSE)
	}
	s += fmt.Sprintf("Spearman %.4f, target error %.4g", m.Spearman, m.TargetError)
	if !math.IsNaN(m.PlayoutRMSE) {
		s += fmt.Sprintf(", playout RMSE %.4f", m.PlayoutRMSE)
	}
	if !math.IsNaN(m.WinnerAccuracy) {
		s += fmt.Sprintf(", winner accuracy %.3f (exact evaluator %.3f)", m.WinnerAccuracy, m.ExactWinnerAccuracy)
	}
	if m.PolicyRows > 0 {
		s += fmt.Sprintf(", policy cross-entropy %.4g and top-1 %.3f on %d rows", m.PolicyCrossEntropy, m.PolicyTop1, m.PolicyRows)
	}
	return s
}
