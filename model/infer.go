package model

import (
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Fast tanh: a table of tanh on [−tanhMax, tanhMax] at 1/tanhRes steps with linear
// interpolation. Its absolute error is below 1e-6 everywhere (interpolation plus float32 rounding) (|tanh(8)| differs from 1
// by 2.3e-7), far inside the 1e-5 agreement required with the training forward pass.
const (
	tanhRes = 512
	tanhMax = 8
	tanhLen = 2 * tanhMax * tanhRes
)

// The array is a power of two long so masked indices need no bounds checks; entries
// beyond tanhLen+1 are unused.
var tanhTab [tanhTabSize]float32

const tanhTabSize = 1 << 14

func init() {
	for i := 0; i <= tanhLen+1; i++ {
		tanhTab[i] = float32(math.Tanh(float64(i)/tanhRes - tanhMax))
	}
}

// Tanh is the fast float32 tanh used by inference (table with linear interpolation,
// absolute error < 1e-6).
func Tanh(x float32) float32 {
	t := (x + tanhMax) * tanhRes
	if !(t > 0) { // also catches NaN
		return -1
	}
	if t >= tanhLen {
		return 1
	}
	i := int(t)
	f := t - float32(i)
	a := tanhTab[i&(tanhTabSize-1)]
	return a + f*(tanhTab[(i+1)&(tanhTabSize-1)]-a)
}

// Encode writes the network input of board b into dst (resized to Inputs): for the
// cells feature set +1 for a White stone, −1 for a Black stone, 0 for an empty cell;
// for other sets see Features (each call then allocates its scratch space: use an
// Encoder for repeated calls).
func (m *Model) Encode(b *hex.Board, dst []float32) []float32 {
	if m.Features == "" || m.Features == FeaturesCells {
		return m.encodeCells(b, dst)
	}
	e, err := NewEncoder(m)
	if err != nil { // an unknown feature set: Validate refuses such a model
		return dst[:0]
	}
	return e.Encode(b, dst)
}

func (m *Model) encodeCells(b *hex.Board, dst []float32) []float32 {
	n := m.Cells()
	if cap(dst) < n {
		dst = make([]float32, n)
	}
	dst = dst[:n]
	for i := range dst {
		switch b.At(hex.Cell(i)) {
		case hex.White:
			dst[i] = InputWhite
		case hex.Black:
			dst[i] = InputBlack
		default:
			dst[i] = InputEmpty
		}
	}
	return dst
}

// PreOutput computes network net's output pre-activation z from scratch for the dense
// input x (len Inputs), using the fast tanh in the hidden layer. hidden must have room
// for the network's hidden units (it is used as scratch; nil allocates).
func (m *Model) PreOutput(net int, x, hidden []float32) float32 {
	n := &m.Nets[net]
	if cap(hidden) < n.Hidden {
		hidden = make([]float32, n.Hidden)
	}
	acc := hidden[:n.Hidden]
	m.accumulate(n, x, acc)
	return outputFromAcc(n, acc)
}

// accumulate writes network n's hidden pre-activations for the dense input x into acc
// (len n.Hidden).
func (m *Model) accumulate(n *Net, x, acc []float32) {
	copy(acc, n.B1)
	// The non-zero inputs are added four at a time in one pass over the hidden units
	// (a quarter of the loads and stores of acc), each unit still summing its terms in
	// input order, so the result is the same float32 as adding one input at a time.
	h := n.Hidden
	var xs [4]float32
	var is [4]int
	k := 0
	for i, xi := range x {
		if xi == 0 {
			continue
		}
		xs[k], is[k] = xi, i
		if k++; k == 4 {
			add4(acc, xs, n.W1[is[0]*h:], n.W1[is[1]*h:], n.W1[is[2]*h:], n.W1[is[3]*h:])
			k = 0
		}
	}
	for _, i := range is[:k] {
		addCol(acc, x[i], n.W1[i*h:(i+1)*h])
	}
}

// addCol adds xi·col to acc.
func addCol(acc []float32, xi float32, col []float32) {
	col = col[:len(acc)]
	for j, w := range col {
		acc[j] += xi * w
	}
}

// add4Go is add4: four inputs at a time over every hidden unit.
func add4Go(acc []float32, xs [4]float32, a, b, c, d []float32) {
	a, b, c, d = a[:len(acc)], b[:len(acc)], c[:len(acc)], d[:len(acc)]
	x0, x1, x2, x3 := xs[0], xs[1], xs[2], xs[3]
	for j := range acc {
		v := acc[j] + x0*a[j]
		v += x1 * b[j]
		v += x2 * c[j]
		acc[j] = v + x3*d[j]
	}
}

// Forward returns network net's output (after the output activation) for the dense
// input x, computed from scratch with the fast tanh.
func (m *Model) Forward(net int, x []float32) float32 {
	return m.Activate(m.PreOutput(net, x, nil))
}

// ForwardReference is Forward in float64 with math.Tanh: the slow reference the fast
// paths are tested against.
func (m *Model) ForwardReference(net int, x []float32) float64 {
	n := &m.Nets[net]
	z := float64(n.B2)
	for j := 0; j < n.Hidden; j++ {
		a := float64(n.B1[j])
		for i, xi := range x {
			a += float64(xi) * float64(n.W1[i*n.Hidden+j])
		}
		z += float64(n.W2[j]) * math.Tanh(a)
	}
	switch m.Output {
	case OutputTanh:
		return math.Tanh(z)
	case OutputLogistic:
		return 1 / (1 + math.Exp(-z))
	}
	return z
}

// Activate applies the output activation to a pre-activation z.
func (m *Model) Activate(z float32) float32 {
	switch m.Output {
	case OutputTanh:
		return float32(math.Tanh(float64(z)))
	case OutputLogistic:
		return float32(1 / (1 + math.Exp(-float64(z))))
	}
	return z
}

// ValueOf converts a pre-activation output z to the evaluator value from Black's point
// of view (positive = good for Black): for value models the evaluator's own units
// (undoing the target scaling), for winner and outcome models the log-odds that Black wins.
func (m *Model) ValueOf(z float32) float64 {
	if m.Target.Logistic() {
		return float64(z)
	}
	return m.Scaling.FromTarget(m.Activate(z))
}

// outputFromAcc finishes the forward pass from hidden pre-activations.
func outputFromAcc(n *Net, acc []float32) float32 {
	w2 := n.W2[:len(acc)]
	var z0, z1 float32
	j := 0
	for ; j+1 < len(acc); j += 2 {
		z0 += w2[j] * Tanh(acc[j])
		z1 += w2[j+1] * Tanh(acc[j+1])
	}
	if j < len(acc) {
		z0 += w2[j] * Tanh(acc[j])
	}
	return n.B2 + z0 + z1
}

// Accumulator holds one network's hidden-layer pre-activations for a position and
// updates them per stone in O(hidden).
type Accumulator struct {
	net *Net
	acc []float32
}

// NewAccumulator returns an accumulator for network net on the empty board. Only
// models of the cells feature set can be evaluated incrementally.
func (m *Model) NewAccumulator(net int) *Accumulator {
	n := &m.Nets[net]
	a := &Accumulator{net: n, acc: make([]float32, n.Hidden)}
	a.Clear()
	return a
}

// Clear resets the accumulator to the empty board.
func (a *Accumulator) Clear() { copy(a.acc, a.net.B1) }

// SetBoard recomputes the accumulator for the stones of b.
func (a *Accumulator) SetBoard(b *hex.Board) {
	a.Clear()
	for _, c := range [2]hex.Color{hex.Black, hex.White} {
		s := b.Stones(c)
		for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
			if p.IsEdge() {
				continue
			}
			a.Add(c, p)
		}
	}
}

// Add accounts for a stone of colour c placed on cell p.
func (a *Accumulator) Add(c hex.Color, p hex.Cell) {
	h := a.net.Hidden
	col := a.net.W1[int(p)*h : int(p)*h+h]
	acc := a.acc[:len(col)]
	if c == hex.White {
		for j, w := range col {
			acc[j] += w
		}
	} else {
		for j, w := range col {
			acc[j] -= w
		}
	}
}

// Remove accounts for a stone of colour c taken off cell p.
func (a *Accumulator) Remove(c hex.Color, p hex.Cell) {
	if c == hex.White {
		a.Add(hex.Black, p)
	} else {
		a.Add(hex.White, p)
	}
}

// PreOutput returns the network's output pre-activation for the current position.
func (a *Accumulator) PreOutput() float32 { return outputFromAcc(a.net, a.acc) }

// PreOutputWith returns the output pre-activation of the position with one more stone
// of colour c on p, without changing the accumulator: the fused form of Add, PreOutput
// and Remove, one pass over the hidden units (what a search pays per leaf).
func (a *Accumulator) PreOutputWith(c hex.Color, p hex.Cell) float32 {
	n := a.net
	h := n.Hidden
	col := n.W1[int(p)*h : int(p)*h+h]
	acc := a.acc[:len(col)]
	w2 := n.W2[:len(col)]
	var z0, z1 float32
	j := 0
	if c == hex.White {
		for ; j+1 < len(col); j += 2 {
			z0 += w2[j] * Tanh(acc[j]+col[j])
			z1 += w2[j+1] * Tanh(acc[j+1]+col[j+1])
		}
		if j < len(col) {
			z0 += w2[j] * Tanh(acc[j]+col[j])
		}
	} else {
		for ; j+1 < len(col); j += 2 {
			z0 += w2[j] * Tanh(acc[j]-col[j])
			z1 += w2[j+1] * Tanh(acc[j+1]-col[j+1])
		}
		if j < len(col) {
			z0 += w2[j] * Tanh(acc[j]-col[j])
		}
	}
	return n.B2 + z0 + z1
}
