package train

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	"github.com/hexlearn/hexlearn/model"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// lossOp is the training loss of a minibatch in one graph node: the mean over the
// rows of the squared error of the output activation (tanh or linear) against the
// target, or, for a logistic output, the cross-entropy with logits softplus(z) − y·z.
// Its inputs are the output pre-activations z (batch × 1) and the targets y (batch ×
// 1); it returns a scalar. lossGradOp is its derivative with respect to z. Built from
// gorgonia's elementwise operations the same loss takes about ten nodes forward and
// backward, each a pass over a batch-long vector with its dispatch overhead.
type lossOp struct{ output model.Output }

// lossGradOp is d(loss)/dz · grad for inputs z, y and the scalar incoming gradient.
type lossGradOp struct{ output model.Output }

func lossType(extra int) hm.Type {
	a := hm.TypeVariable('a')
	t := gorgonia.TensorType{Dims: 2, Of: a}
	if extra == 0 {
		return hm.NewFnType(t, t, a)
	}
	return hm.NewFnType(t, t, a, t)
}

func (lossOp) Arity() int        { return 2 }
func (lossGradOp) Arity() int    { return 3 }
func (lossOp) Type() hm.Type     { return lossType(0) }
func (lossGradOp) Type() hm.Type { return lossType(1) }

func (lossOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}
func (lossGradOp) InferShape(ns ...gorgonia.DimSizer) (tensor.Shape, error) { return sameShape(ns...) }

// zy returns the float32 data of the first two inputs, checked to have one length.
func zy(vs []gorgonia.Value, want int) (z, y []float32, err error) {
	if len(vs) != want {
		return nil, nil, fmt.Errorf("train: loss: %d inputs, want %d", len(vs), want)
	}
	if z, err = f32s(vs[0]); err != nil {
		return nil, nil, err
	}
	if y, err = f32s(vs[1]); err != nil {
		return nil, nil, err
	}
	if len(z) != len(y) || len(z) == 0 {
		return nil, nil, fmt.Errorf("train: loss: %d outputs for %d targets", len(z), len(y))
	}
	return z, y, nil
}

// act returns the output activation of z (tanh keeps NaN).
func act(o model.Output, z float32) float32 {
	if o == model.OutputTanh && z == z {
		return model.Tanh(z)
	}
	return z
}

func (op lossOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	z, y, err := zy(vs, 2)
	if err != nil {
		return nil, err
	}
	var sum float64
	for i, zi := range z {
		if op.output == model.OutputLogistic {
			sum += softplus(float64(zi)) - float64(y[i])*float64(zi)
		} else {
			d := float64(act(op.output, zi) - y[i])
			sum += d * d
		}
	}
	return gorgonia.NewF32(float32(sum / float64(len(z)))), nil
}

func (op lossGradOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 3 {
		return nil, fmt.Errorf("train: loss gradient: %d inputs", len(vs))
	}
	return op.UsePreallocDo(newLike(vs[0]), vs...)
}

// UsePreallocDo writes the gradient with respect to z into prealloc.
func (op lossGradOp) UsePreallocDo(prealloc gorgonia.Value, vs ...gorgonia.Value) (gorgonia.Value, error) {
	z, y, err := zy(vs, 3)
	if err != nil {
		return nil, err
	}
	gs, ok := vs[2].Data().(float32)
	if !ok {
		return nil, fmt.Errorf("train: loss gradient: incoming gradient is a %T", vs[2].Data())
	}
	out, err := f32s(prealloc)
	if err != nil {
		return nil, err
	}
	if len(out) != len(z) {
		return nil, fmt.Errorf("train: loss gradient: %d outputs for %d rows", len(out), len(z))
	}
	scale := gs / float32(len(z))
	for i, zi := range z {
		var d float32
		switch op.output {
		case model.OutputLogistic:
			d = float32(1/(1+math.Exp(-float64(zi)))) - y[i]
		case model.OutputTanh:
			t := act(op.output, zi)
			d = 2 * (t - y[i]) * (1 - t*t)
		default:
			d = 2 * (zi - y[i])
		}
		out[i] = d * scale
	}
	return prealloc, nil
}

func (lossOp) ReturnsPtr() bool         { return false }
func (lossGradOp) ReturnsPtr() bool     { return false }
func (lossOp) CallsExtern() bool        { return false }
func (lossGradOp) CallsExtern() bool    { return false }
func (lossOp) OverwritesInput() int     { return -1 }
func (lossGradOp) OverwritesInput() int { return -1 }
func (op lossOp) String() string        { return "hexlearnLoss(" + string(op.output) + ")" }
func (op lossGradOp) String() string    { return "hexlearnLossGrad(" + string(op.output) + ")" }

func (op lossOp) WriteHash(h hash.Hash)     { fmt.Fprint(h, op.String()) }
func (op lossGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op lossOp) Hashcode() uint32          { return opHash(op.String()) }
func (op lossGradOp) Hashcode() uint32      { return opHash(op.String()) }

// DiffWRT: the loss is differentiated with respect to z, not the targets.
func (lossOp) DiffWRT(int) []bool { return []bool{true, false} }

// SymDiff returns lossGradOp(z, y, grad) as z's gradient.
func (op lossOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(inputs) != 2 {
		return nil, fmt.Errorf("train: loss: %d inputs", len(inputs))
	}
	d, err := gorgonia.ApplyOp(lossGradOp(op), inputs[0], inputs[1], grad)
	if err != nil {
		return nil, err
	}
	return gorgonia.Nodes{d, nil}, nil
}
