package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/hexlearn/hexlearn/model"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// ErrDiverged means training produced a NaN or infinite cost.
var ErrDiverged = errors.New("train: training diverged (NaN or infinite cost)")

// netSpec says how to train one network on prepared inputs and scaled targets.
type netSpec struct {
	cells, hidden, epochs, batch int
	learnRate                    float64
	output                       model.Output
	seed                         uint64
	// onEpoch, if set, is called after every epoch with the epoch number (1-based),
	// the mean training cost and a network that aliases the current weights (valid
	// only during the call; without its policy head).
	onEpoch func(epoch int, cost float64, n *model.Net) error
	// init, when set, starts the network from these weights (a network of the same
	// inputs and hidden units) instead of Glorot's initialisation; its policy head,
	// if it has one, starts the policy head.
	init *model.Net
	// policy, when set, trains a policy head too, on these targets (rows × cells, see
	// policyTargets), its loss weighted by policyWeight (policyLossOp). The head
	// starts at zero unless init has one.
	policy       []float32
	policyWeight float32
	// resetMachine makes every step Reset the tape machine and Let the inputs again,
	// as gorgonia documents, instead of rewinding it (see rewinder); the tests use it
	// to check that both give the same bits.
	resetMachine bool
}

// trainNet fits a cells-hidden-1 network on inputs x (rows × cells) and targets y
// with minibatch Adam in gorgonia. One graph and one tape machine serve every
// minibatch: gorgonia computes the forward pass and the gradients, the machine is
// rewound after each step (Reset if it cannot be, see rewinder), and the Adam step
// updates the weights in place (see fast.go for why each piece is cheap).
// Initialisation (Glorot uniform) and the per-epoch shuffles come from spec.seed, so
// the result is a function of the data and the seed.
func trainNet(ctx context.Context, x, y []float32, spec netSpec) (*model.Net, error) {
	rows := len(y)
	if rows == 0 {
		return nil, ErrNoData
	}
	cells, hid := spec.cells, spec.hidden
	batch := spec.batch
	if batch <= 0 {
		batch = 256
	}
	batch = min(batch, rows)
	rng := rand.New(rand.NewPCG(spec.seed, 0x68657874726169)) // "hextrai"

	glorot := func(fanIn, fanOut int, n int) []float32 {
		lim := math.Sqrt(6 / float64(fanIn+fanOut))
		w := make([]float32, n)
		for i := range w {
			w[i] = float32((rng.Float64()*2 - 1) * lim)
		}
		return w
	}
	w1v := glorot(cells, hid, cells*hid)
	w2v := glorot(hid, 1, hid)
	b2v := make([]float32, 1)
	if in := spec.init; in != nil {
		if len(in.W1) != cells*hid || len(in.B1) != hid || len(in.W2) != hid {
			return nil, fmt.Errorf("train: the initial network is %d inputs × %d hidden, not %d × %d", len(in.W1)/max(1, in.Hidden), in.Hidden, cells, hid)
		}
		w1v, w2v, b2v = slices.Clone(in.W1), slices.Clone(in.W2), []float32{in.B2}
	}

	g := gorgonia.NewGraph()
	mat := func(name string, r, c int, backing []float32) *gorgonia.Node { return matrix(g, name, r, c, backing) }
	// The hidden biases are folded into the first layer: every input row ends with a
	// constant 1 and W1 has one more row, which holds B1. Since W1 is stored row-major
	// (cells × hidden, as model.Net.W1), the first cells·hidden values of that matrix are
	// W1 and the last hidden values are B1, so the model aliases them without copying.
	// This spares the graph a broadcast addition and its reduction in the backward pass.
	in := cells + 1
	w1b := make([]float32, in*hid) // B1 starts at 0
	copy(w1b, w1v)
	if spec.init != nil {
		copy(w1b[cells*hid:], spec.init.B1)
	}
	xbuf := make([]float32, batch*in)
	ybuf := make([]float32, batch)
	X := mat("x", batch, in, xbuf)
	Y := mat("y", batch, 1, ybuf)
	W1 := mat("w1", in, hid, w1b)
	W2 := mat("w2", hid, 1, w2v)
	B2 := mat("b2", 1, 1, b2v)
	xT := X.Value().(*tensor.Dense)
	yT := Y.Value().(*tensor.Dense)

	pre, err := gorgonia.Mul(X, W1)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	h, err := fastTanh(pre)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	z, err := gorgonia.Mul(h, W2)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	if z, err = gorgonia.BroadcastAdd(z, B2, nil, []byte{0}); err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	switch spec.output {
	case model.OutputTanh, model.OutputLinear, model.OutputLogistic:
	default:
		return nil, fmt.Errorf("train: unknown output %q", spec.output)
	}
	// The loss (squared error of the output activation, or cross-entropy with logits
	// for a logistic output) is one node: see lossOp.
	cost, err := gorgonia.ApplyOp(lossOp{output: spec.output}, z, Y)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	learn := gorgonia.Nodes{W1, W2, B2}
	ph, err := addPolicyHead(g, h, &cost, spec, rows, batch)
	if err != nil {
		return nil, err
	}
	if ph != nil {
		learn = append(learn, ph.wp, ph.bp)
	}
	if _, err := gorgonia.Grad(cost, learn...); err != nil {
		return nil, fmt.Errorf("train: gradients: %w", err)
	}
	var costVal gorgonia.Value
	gorgonia.Read(cost, &costVal)
	// gorgonia's symbolic differentiation of a matrix product builds the gradient of
	// both operands, so the graph also holds the gradient of the input minibatch (a
	// batch × cells product every step, a third of the multiply work) although nothing
	// reads it. The machine runs only the subgraph that the cost and the learnables'
	// gradients need.
	roots := gorgonia.Nodes{cost}
	for _, n := range learn {
		roots = append(roots, n.Deriv())
	}
	vm := gorgonia.NewTapeMachine(g.SubgraphRoots(roots...), gorgonia.BindDualValues(learn...))
	defer vm.Close()
	rewind := rewinder(vm)
	if spec.resetMachine {
		rewind = nil
	}
	lr := spec.learnRate
	if lr <= 0 {
		lr = 0.003
	}
	opt, err := newAdam(lr, learn)
	if err != nil {
		return nil, err
	}

	perm := make([]int, rows)
	for i := range perm {
		perm[i] = i
	}
	for k := 0; k < batch; k++ {
		xbuf[k*in+cells] = 1 // the bias input
	}
	nb := (rows + batch - 1) / batch
	w1all := W1.Value().Data().([]float32)
	view := func() *model.Net {
		// The learnables' backing arrays are updated in place by the optimiser.
		return &model.Net{MinPly: 0, MaxPly: 0, Hidden: hid,
			W1: w1all[:cells*hid], B1: w1all[cells*hid:],
			W2: W2.Value().Data().([]float32), B2: B2.Value().Data().([]float32)[0]}
	}
	for ep := 1; ep <= spec.epochs; ep++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rng.Shuffle(rows, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		var sum float64
		for b := 0; b < nb; b++ {
			// The last minibatch is topped up from the start of this epoch's order, so
			// every example is seen every epoch and the graph keeps one shape. The rows
			// are copied into the input tensors' own backing arrays.
			for k := 0; k < batch; k++ {
				r := perm[(b*batch+k)%rows]
				copy(xbuf[k*in:k*in+cells], x[r*cells:(r+1)*cells])
				ybuf[k] = y[r]
				if ph != nil {
					copy(ph.pbuf[k*ph.cells:(k+1)*ph.cells], spec.policy[r*ph.cells:(r+1)*ph.cells])
				}
			}
			if rewind == nil {
				if err := gorgonia.Let(X, xT); err != nil {
					return nil, fmt.Errorf("train: bind inputs: %w", err)
				}
				if err := gorgonia.Let(Y, yT); err != nil {
					return nil, fmt.Errorf("train: bind targets: %w", err)
				}
				if ph != nil {
					if err := gorgonia.Let(ph.p, ph.pT); err != nil {
						return nil, fmt.Errorf("train: bind policy targets: %w", err)
					}
				}
			}
			if err := vm.RunAll(); err != nil {
				return nil, fmt.Errorf("train: forward/backward: %w", err)
			}
			if err := opt.step(); err != nil {
				return nil, fmt.Errorf("train: optimiser step: %w", err)
			}
			if rewind != nil {
				rewind()
			} else {
				vm.Reset()
			}
			sum += float64(costVal.Data().(float32))
		}
		mean := sum / float64(nb)
		if math.IsNaN(mean) || math.IsInf(mean, 0) {
			return nil, fmt.Errorf("%w at epoch %d", ErrDiverged, ep)
		}
		if spec.onEpoch != nil {
			if err := spec.onEpoch(ep, mean, view()); err != nil {
				return nil, err
			}
		}
	}
	v := view()
	n := &model.Net{Hidden: hid, W1: append([]float32(nil), v.W1...), B1: append([]float32(nil), v.B1...),
		W2: append([]float32(nil), v.W2...), B2: v.B2}
	if ph != nil {
		n.WP, n.BP = ph.weights(hid)
	}
	return n, nil
}

// policyHead is the policy head's part of a training graph.
type policyHead struct {
	cells  int
	wp, bp *gorgonia.Node // weights (hidden × cells: the model's WP transposed) and biases (1 × cells)
	p      *gorgonia.Node // the minibatch's targets (batch × cells), backed by pbuf
	pT     *tensor.Dense
	pbuf   []float32
}

// matrix returns an r × c float32 matrix node of g named name, backed by backing.
func matrix(g *gorgonia.ExprGraph, name string, r, c int, backing []float32) *gorgonia.Node {
	return gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(r, c), gorgonia.WithName(name),
		gorgonia.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(backing))))
}

// addPolicyHead adds spec's policy head to the graph g on the hidden activations h
// (batch × hidden) and its loss to *cost; nil without spec.policy.
func addPolicyHead(g *gorgonia.ExprGraph, h *gorgonia.Node, cost **gorgonia.Node, spec netSpec, rows, batch int) (*policyHead, error) {
	if spec.policy == nil {
		return nil, nil
	}
	hid := spec.hidden
	nc := len(spec.policy) / rows
	if nc < 1 || nc*rows != len(spec.policy) {
		return nil, fmt.Errorf("train: %d policy targets for %d rows", len(spec.policy), rows)
	}
	wpt := make([]float32, hid*nc) // the head starts at zero ...
	bp := make([]float32, nc)
	if in := spec.init; in != nil && in.HasPolicy() { // ... or at the initial network's
		if len(in.WP) != nc*hid || len(in.BP) != nc {
			return nil, fmt.Errorf("train: the initial network's policy head has %d weights, not %d × %d", len(in.WP), nc, hid)
		}
		for c := 0; c < nc; c++ {
			for j := 0; j < hid; j++ {
				wpt[j*nc+c] = in.WP[c*hid+j]
			}
		}
		copy(bp, in.BP)
	}
	ph := &policyHead{cells: nc, pbuf: make([]float32, batch*nc)}
	ph.wp, ph.bp, ph.p = matrix(g, "wp", hid, nc, wpt), matrix(g, "bp", 1, nc, bp), matrix(g, "p", batch, nc, ph.pbuf)
	ph.pT = ph.p.Value().(*tensor.Dense)
	logits, err := gorgonia.Mul(h, ph.wp)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	pc, err := gorgonia.ApplyOp(newPolicyLoss(spec.policyWeight), logits, ph.bp, ph.p)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	if *cost, err = gorgonia.Add(*cost, pc); err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	return ph, nil
}

// weights returns copies of the head's weights in the model's layout (model.Net.WP:
// cell by cell) and its biases.
func (ph *policyHead) weights(hid int) (wp, bp []float32) {
	wpt := ph.wp.Value().Data().([]float32)
	wp = make([]float32, ph.cells*hid)
	for c := 0; c < ph.cells; c++ {
		for j := 0; j < hid; j++ {
			wp[c*hid+j] = wpt[j*ph.cells+c]
		}
	}
	return wp, append([]float32(nil), ph.bp.Value().Data().([]float32)...)
}
