package model

import (
	"errors"
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// The policy head (Net.WP, Net.BP): move priors from the hidden layer the value
// output reads. A cell's logit is one dot product of the hidden activations with the
// cell's contiguous weights, so a position's logits cost O(hidden) per empty cell on
// top of the hidden activations (H tanh), which the incremental accumulator already
// holds.

// ErrNoPolicy means a policy was asked of a model without a policy head.
var ErrNoPolicy = errors.New("model: the model has no policy head")

// dot returns x·y (len(y) ≥ len(x)) with four partial sums, four elements a step
// (the slices are re-sliced as they are consumed, so the loop has no bounds checks).
// About 0.34 ns per element on the reference machine: scalar Go is compute-bound
// here, and two cells at a time, eight partial sums or a hidden-major layout with
// four-unit AXPYs all measured the same.
func dot(x, y []float32) float32 {
	var s0, s1, s2, s3 float32
	for len(x) >= 4 && len(y) >= 4 {
		s0 += x[0] * y[0]
		s1 += x[1] * y[1]
		s2 += x[2] * y[2]
		s3 += x[3] * y[3]
		x, y = x[4:], y[4:]
	}
	for i := range x {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// tanhInto writes the fast tanh of every pre-activation into act (len(act) ≥ len(pre)).
func tanhInto(act, pre []float32) {
	act = act[:len(pre)]
	for j, v := range pre {
		act[j] = Tanh(v)
	}
}

// logit returns cell c's policy logit for the hidden activations act.
func (n *Net) logit(c int, act []float32) float32 {
	h := n.Hidden
	return n.BP[c] + dot(n.WP[c*h:c*h+h], act)
}

// PolicyLogits computes network net's policy logits from scratch for the dense input
// x (len Inputs) into logits (resized to Cells; nil allocates) and returns it: one
// logit for every cell, the stones' included. hidden must have room for twice the
// network's hidden units (it is scratch; nil allocates). The error is ErrNoPolicy for
// a model without a policy head.
func (m *Model) PolicyLogits(net int, x, hidden, logits []float32) ([]float32, error) {
	n := &m.Nets[net]
	if !n.HasPolicy() {
		return logits, ErrNoPolicy
	}
	if cap(hidden) < 2*n.Hidden {
		hidden = make([]float32, 2*n.Hidden)
	}
	pre, act := hidden[:n.Hidden], hidden[n.Hidden:2*n.Hidden]
	m.accumulate(n, x, pre)
	tanhInto(act, pre)
	cells := m.Cells()
	if cap(logits) < cells {
		logits = make([]float32, cells)
	}
	logits = logits[:cells]
	for c := range logits {
		logits[c] = n.logit(c, act)
	}
	return logits, nil
}

// PolicyReference is PolicyLogits in float64 with math.Tanh: the slow reference the
// fast paths are tested against (nil for a model without a policy head).
func (m *Model) PolicyReference(net int, x []float32) []float64 {
	n := &m.Nets[net]
	if !n.HasPolicy() {
		return nil
	}
	act := make([]float64, n.Hidden)
	for j := range act {
		a := float64(n.B1[j])
		for i, xi := range x {
			a += float64(xi) * float64(n.W1[i*n.Hidden+j])
		}
		act[j] = math.Tanh(a)
	}
	out := make([]float64, m.Cells())
	for c := range out {
		z := float64(n.BP[c])
		for j, a := range act {
			z += a * float64(n.WP[c*n.Hidden+j])
		}
		out[c] = z
	}
	return out
}

// PolicyLogits writes the policy head's logit of every empty cell p of b into
// logits[p] (len at least W·H; the other entries are left alone), from the same
// hidden layer Evaluate uses: incrementally when b is the tracked position (the
// hidden activations of the accumulator, one tanh per hidden unit, then one dot
// product per empty cell), from scratch otherwise. It allocates nothing. The error is
// ErrNoPolicy for a model without a policy head.
func (e *Evaluator) PolicyLogits(b *hex.Board, logits []float32) error {
	if !e.m.HasPolicy() {
		return ErrNoPolicy
	}
	n := e.activations(b)
	e.logitsOf(n, b, logits)
	return nil
}

// logitsOf writes network n's logits of b's empty cells from the activations in e.act.
func (e *Evaluator) logitsOf(n *Net, b *hex.Board, logits []float32) {
	act := e.act[:n.Hidden]
	logits = logits[:e.m.Cells()]
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		logits[p] = n.logit(int(p), act)
	}
}

// activations writes the hidden activations (tanh) of b's network for b into e.act
// and returns the network.
func (e *Evaluator) activations(b *hex.Board) *Net {
	e.checkBoard(b)
	k := e.netOf[b.NumStones()]
	n := &e.m.Nets[k]
	act := e.act[:n.Hidden]
	if e.enc != nil {
		e.x = e.enc.Encode(b, e.x)
		pre := e.tmp.acc[:n.Hidden]
		e.m.accumulate(n, e.x, pre)
		tanhInto(act, pre)
		return n
	}
	if e.valid && b.Stones(hex.Black) == e.black && b.Stones(hex.White) == e.white {
		a := &e.accs[k]
		ln := len(e.stack)
		if e.synced[k] == ln {
			tanhInto(act, a.acc)
			return n
		}
		// As PreOutput: the accumulator catches up to the move before the last, and
		// the last move's column is added on the fly.
		for _, mv := range e.stack[e.synced[k] : ln-1] {
			a.Add(mv.Color, mv.Cell)
		}
		e.synced[k] = ln - 1
		last := e.stack[ln-1]
		col := n.W1[int(last.Cell)*n.Hidden : int(last.Cell)*n.Hidden+n.Hidden]
		acc := a.acc[:len(col)]
		if last.Color == hex.White {
			for j, w := range col {
				act[j] = Tanh(acc[j] + w)
			}
		} else {
			for j, w := range col {
				act[j] = Tanh(acc[j] - w)
			}
		}
		return n
	}
	e.tmp.net = n
	e.tmp.acc = e.tmp.acc[:n.Hidden]
	e.tmp.SetBoard(b)
	tanhInto(act, e.tmp.acc)
	return n
}
