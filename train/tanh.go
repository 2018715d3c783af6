package train

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"github.com/hexlearn/hexlearn/model"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// fastTanh applies tanhOp to x: the network's tanh with model.Tanh (the table tanh of
// the inference code, error < 1e-6) instead of gorgonia's math32.Tanh, which is built
// on Exp and cost about a sixth of a training step. Its derivative is computed from
// the output y as grad·(1 − y²) by tanhGradOp.
func fastTanh(x *gorgonia.Node) (*gorgonia.Node, error) { return gorgonia.ApplyOp(tanhOp{}, x) }

// tanhOp is y = tanh(x) elementwise on a float32 tensor. NaN stays NaN (model.Tanh
// would map it to −1 and hide a diverging run from the cost check).
type tanhOp struct{}

// tanhGradOp is grad·(1 − y²) elementwise, the derivative of tanhOp given its output
// y and the incoming gradient.
type tanhGradOp struct{}

func (tanhOp) Arity() int     { return 1 }
func (tanhGradOp) Arity() int { return 2 }

func (tanhOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a)
}

func (tanhGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a, a)
}

func sameShape(ns ...gorgonia.DimSizer) (tensor.Shape, error) {
	if len(ns) == 0 {
		return nil, fmt.Errorf("train: tanh: no input")
	}
	s, ok := ns[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("train: tanh: input shape is a %T", ns[0])
	}
	return s.Clone(), nil
}

func (tanhOp) InferShape(ns ...gorgonia.DimSizer) (tensor.Shape, error)     { return sameShape(ns...) }
func (tanhGradOp) InferShape(ns ...gorgonia.DimSizer) (tensor.Shape, error) { return sameShape(ns...) }

// f32s returns the float32 data of v, or an error naming what it is instead.
func f32s(v gorgonia.Value) ([]float32, error) {
	d, ok := v.(*tensor.Dense)
	if !ok {
		return nil, fmt.Errorf("train: tanh: value is a %T, not a dense tensor", v)
	}
	f, ok := d.Data().([]float32)
	if !ok {
		return nil, fmt.Errorf("train: tanh: tensor of %v, not float32", d.Dtype())
	}
	return f, nil
}

func newLike(v gorgonia.Value) gorgonia.Value {
	return tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(v.Shape().Clone()...))
}

func (op tanhOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 1 {
		return nil, fmt.Errorf("train: tanh: %d inputs", len(vs))
	}
	return op.UsePreallocDo(newLike(vs[0]), vs...)
}

func (op tanhGradOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 2 {
		return nil, fmt.Errorf("train: tanh gradient: %d inputs", len(vs))
	}
	return op.UsePreallocDo(newLike(vs[0]), vs...)
}

// UsePreallocDo writes tanh of the input into prealloc (the tape machine's register).
func (tanhOp) UsePreallocDo(prealloc gorgonia.Value, vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 1 {
		return nil, fmt.Errorf("train: tanh: %d inputs", len(vs))
	}
	x, err := f32s(vs[0])
	if err != nil {
		return nil, err
	}
	y, err := f32s(prealloc)
	if err != nil {
		return nil, err
	}
	if len(y) != len(x) {
		return nil, fmt.Errorf("train: tanh: output has %d elements for %d inputs", len(y), len(x))
	}
	for i, v := range x {
		if v != v {
			y[i] = v
			continue
		}
		y[i] = model.Tanh(v)
	}
	return prealloc, nil
}

// UsePreallocDo writes grad·(1 − y²) into prealloc; the inputs are y and grad.
func (tanhGradOp) UsePreallocDo(prealloc gorgonia.Value, vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 2 {
		return nil, fmt.Errorf("train: tanh gradient: %d inputs", len(vs))
	}
	y, err := f32s(vs[0])
	if err != nil {
		return nil, err
	}
	g, err := f32s(vs[1])
	if err != nil {
		return nil, err
	}
	out, err := f32s(prealloc)
	if err != nil {
		return nil, err
	}
	if len(g) != len(y) || len(out) != len(y) {
		return nil, fmt.Errorf("train: tanh gradient: sizes %d, %d, %d differ", len(y), len(g), len(out))
	}
	for i, yi := range y {
		out[i] = g[i] * (1 - yi*yi)
	}
	return prealloc, nil
}

func (tanhOp) ReturnsPtr() bool         { return false }
func (tanhGradOp) ReturnsPtr() bool     { return false }
func (tanhOp) CallsExtern() bool        { return false }
func (tanhGradOp) CallsExtern() bool    { return false }
func (tanhOp) OverwritesInput() int     { return -1 }
func (tanhGradOp) OverwritesInput() int { return -1 }
func (tanhOp) String() string           { return "hexlearnTanh" }
func (tanhGradOp) String() string       { return "hexlearnTanhGrad" }

func (op tanhOp) WriteHash(h hash.Hash)     { fmt.Fprint(h, op.String()) }
func (op tanhGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }

func opHash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func (op tanhOp) Hashcode() uint32     { return opHash(op.String()) }
func (op tanhGradOp) Hashcode() uint32 { return opHash(op.String()) }

// DiffWRT: tanh is differentiable in its input.
func (tanhOp) DiffWRT(int) []bool { return []bool{true} }

// SymDiff returns grad·(1 − y²) as the input's gradient.
func (tanhOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	d, err := gorgonia.ApplyOp(tanhGradOp{}, output, grad)
	if err != nil {
		return nil, err
	}
	return gorgonia.Nodes{d}, nil
}
