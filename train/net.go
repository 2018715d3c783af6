package train

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

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
	// only during the call).
	onEpoch func(epoch int, cost float64, n *model.Net) error
}

// trainNet fits a cells-hidden-1 network on inputs x (rows × cells) and targets y
// with minibatch Adam in gorgonia. One graph and one tape machine serve every
// minibatch; the machine is Reset after each step. Initialisation (Glorot uniform) and
// the per-epoch shuffles come from spec.seed, so the result is a function of the data
// and the seed.
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
	b1v := make([]float32, hid)
	b2v := make([]float32, 1)

	g := gorgonia.NewGraph()
	mat := func(name string, r, c int, backing []float32) *gorgonia.Node {
		return gorgonia.NewMatrix(g, tensor.Float32, gorgonia.WithShape(r, c), gorgonia.WithName(name),
			gorgonia.WithValue(tensor.New(tensor.WithShape(r, c), tensor.WithBacking(backing))))
	}
	xbuf := make([]float32, batch*cells)
	ybuf := make([]float32, batch)
	X := mat("x", batch, cells, xbuf)
	Y := mat("y", batch, 1, ybuf)
	W1 := mat("w1", cells, hid, w1v)
	B1 := mat("b1", 1, hid, b1v)
	W2 := mat("w2", hid, 1, w2v)
	B2 := mat("b2", 1, 1, b2v)
	xT := X.Value().(*tensor.Dense)
	yT := Y.Value().(*tensor.Dense)

	pre, err := gorgonia.Mul(X, W1)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	if pre, err = gorgonia.BroadcastAdd(pre, B1, nil, []byte{0}); err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	h, err := gorgonia.Tanh(pre)
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
	var loss *gorgonia.Node
	switch spec.output {
	case model.OutputTanh, model.OutputLinear:
		out := z
		if spec.output == model.OutputTanh {
			if out, err = gorgonia.Tanh(z); err != nil {
				return nil, fmt.Errorf("train: build graph: %w", err)
			}
		}
		d, err := gorgonia.Sub(out, Y)
		if err != nil {
			return nil, fmt.Errorf("train: build graph: %w", err)
		}
		if loss, err = gorgonia.Square(d); err != nil {
			return nil, fmt.Errorf("train: build graph: %w", err)
		}
	case model.OutputLogistic:
		// Cross-entropy with logits: softplus(z) − y·z, y ∈ {0, 1}.
		sp, err := gorgonia.Softplus(z)
		if err != nil {
			return nil, fmt.Errorf("train: build graph: %w", err)
		}
		yz, err := gorgonia.HadamardProd(Y, z)
		if err != nil {
			return nil, fmt.Errorf("train: build graph: %w", err)
		}
		if loss, err = gorgonia.Sub(sp, yz); err != nil {
			return nil, fmt.Errorf("train: build graph: %w", err)
		}
	default:
		return nil, fmt.Errorf("train: unknown output %q", spec.output)
	}
	cost, err := gorgonia.Mean(loss)
	if err != nil {
		return nil, fmt.Errorf("train: build graph: %w", err)
	}
	learn := gorgonia.Nodes{W1, B1, W2, B2}
	if _, err := gorgonia.Grad(cost, learn...); err != nil {
		return nil, fmt.Errorf("train: gradients: %w", err)
	}
	var costVal gorgonia.Value
	gorgonia.Read(cost, &costVal)
	vm := gorgonia.NewTapeMachine(g, gorgonia.BindDualValues(learn...))
	defer vm.Close()
	lr := spec.learnRate
	if lr <= 0 {
		lr = 0.003
	}
	solver := gorgonia.NewAdamSolver(gorgonia.WithLearnRate(lr))
	vgs := gorgonia.NodesToValueGrads(learn)

	perm := make([]int, rows)
	for i := range perm {
		perm[i] = i
	}
	nb := (rows + batch - 1) / batch
	view := func() *model.Net {
		// The learnables' backing arrays are updated in place by the solver.
		return &model.Net{MinPly: 0, MaxPly: 0, Hidden: hid,
			W1: W1.Value().Data().([]float32), B1: B1.Value().Data().([]float32),
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
			// every example is seen every epoch and the graph keeps one shape.
			for k := 0; k < batch; k++ {
				r := perm[(b*batch+k)%rows]
				copy(xbuf[k*cells:(k+1)*cells], x[r*cells:(r+1)*cells])
				ybuf[k] = y[r]
			}
			if err := gorgonia.Let(X, xT); err != nil {
				return nil, fmt.Errorf("train: bind inputs: %w", err)
			}
			if err := gorgonia.Let(Y, yT); err != nil {
				return nil, fmt.Errorf("train: bind targets: %w", err)
			}
			if err := vm.RunAll(); err != nil {
				return nil, fmt.Errorf("train: forward/backward: %w", err)
			}
			if err := solver.Step(vgs); err != nil {
				return nil, fmt.Errorf("train: optimiser step: %w", err)
			}
			vm.Reset()
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
	return n, nil
}
