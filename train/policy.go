package train

import (
	"fmt"
	"hash"
	"math"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The policy head's loss. The head's logits are one matrix product of the hidden
// activations (batch × hidden) with the head's weights (hidden × cells); the rest is
// one node, policyLossOp, with the head's biases folded into it, and its gradients
// (policyGradOp for the logits, colSumOp for the biases): a masked softmax over each
// row's empty cells and its cross-entropy against the visit shares, which gorgonia's
// own operations would build from a dozen batch × cells nodes (a broadcast addition,
// a masked exponential, a row reduction, a logarithm, their derivatives).

// policyTargets returns the policy head's training targets of ex row by row (Rows()
// × W·H): the visit share of every empty cell, −1 for a stone and for every cell of a
// row without a policy target (no loss).
func policyTargets(ex *Examples) []float32 {
	c := ex.Cells()
	p := make([]float32, ex.Rows()*c)
	for i := 0; i < ex.Rows(); i++ {
		row, x := p[i*c:(i+1)*c], ex.X[i*c:(i+1)*c]
		for k := range row {
			row[k] = -1
			if ex.hasPolicy(i) && x[k] == 0 {
				row[k] = ex.Policy[i*c+k]
			}
		}
	}
	return p
}

// policyLossOp is weight times the mean over a minibatch's rows of the cross-entropy
// −Σ_c p_c·log q_c, where q is the softmax of z = L + BP over the row's legal cells
// (target p_c ≥ 0; a negative target marks a stone, and a row without a legal cell
// adds nothing). Its inputs are the logits without the biases L (batch × cells), the
// biases BP (1 × cells) and the targets P (batch × cells); it returns a scalar. It
// keeps each row's softmax in its scratch for policyGradOp, which takes the loss as an
// input so that the tape machine runs it after this op.
type policyLossOp struct {
	weight float32
	s      *policyScratch
}

// policyScratch is what the forward pass leaves for the gradient: the softmax of every
// row (0 on the masked cells) and each row's sum of targets.
type policyScratch struct {
	q    []float32
	psum []float32
}

func newPolicyLoss(weight float32) policyLossOp {
	return policyLossOp{weight: weight, s: &policyScratch{}}
}

// policyGradOp is d(loss)/dL · grad for inputs L, BP, P, the loss and the scalar
// incoming gradient: weight/batch · (q_c·Σp − p_c) on the legal cells, 0 elsewhere.
// The biases' gradient is its sum over the rows (colSumOp).
type policyGradOp struct {
	weight float32
	s      *policyScratch
}

// colSumOp sums a matrix over its rows, in row order: a 1 × columns matrix.
type colSumOp struct{}

func matrixType() gorgonia.TensorType { return gorgonia.TensorType{Dims: 2, Of: hm.TypeVariable('a')} }

func (policyLossOp) Arity() int { return 3 }
func (policyGradOp) Arity() int { return 5 }
func (colSumOp) Arity() int     { return 1 }

func (policyLossOp) Type() hm.Type {
	t := matrixType()
	return hm.NewFnType(t, t, t, hm.TypeVariable('a'))
}

func (policyGradOp) Type() hm.Type {
	t, a := matrixType(), hm.TypeVariable('a')
	return hm.NewFnType(t, t, t, a, a, t)
}

func (colSumOp) Type() hm.Type {
	t := matrixType()
	return hm.NewFnType(t, t)
}

func (policyLossOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.ScalarShape(), nil
}
func (policyGradOp) InferShape(ns ...gorgonia.DimSizer) (tensor.Shape, error) {
	return sameShape(ns...)
}

func (colSumOp) InferShape(ns ...gorgonia.DimSizer) (tensor.Shape, error) {
	s, err := sameShape(ns...)
	if err != nil {
		return nil, err
	}
	if len(s) != 2 {
		return nil, fmt.Errorf("train: column sum of a %v tensor", s)
	}
	return tensor.Shape{1, s[1]}, nil
}

// policyInputs returns the float32 data of L, BP and P, checked to agree in shape,
// and the number of cells per row.
func policyInputs(vs []gorgonia.Value) (l, bp, p []float32, cells int, err error) {
	if len(vs) < 3 {
		return nil, nil, nil, 0, fmt.Errorf("train: policy loss: %d inputs", len(vs))
	}
	if l, err = f32s(vs[0]); err != nil {
		return nil, nil, nil, 0, err
	}
	if bp, err = f32s(vs[1]); err != nil {
		return nil, nil, nil, 0, err
	}
	if p, err = f32s(vs[2]); err != nil {
		return nil, nil, nil, 0, err
	}
	cells = len(bp)
	if cells == 0 || len(l) != len(p) || len(l)%cells != 0 || len(l) == 0 {
		return nil, nil, nil, 0, fmt.Errorf("train: policy loss: %d logits, %d biases, %d targets", len(l), len(bp), len(p))
	}
	return l, bp, p, cells, nil
}

func (op policyLossOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 3 {
		return nil, fmt.Errorf("train: policy loss: %d inputs", len(vs))
	}
	l, bp, p, cells, err := policyInputs(vs)
	if err != nil {
		return nil, err
	}
	rows := len(l) / cells
	s := op.s
	if len(s.q) != len(l) {
		s.q, s.psum = make([]float32, len(l)), make([]float32, rows)
	}
	var sum float64
	for r := 0; r < rows; r++ {
		z, t, q := l[r*cells:(r+1)*cells], p[r*cells:(r+1)*cells], s.q[r*cells:(r+1)*cells]
		top := math.Inf(-1)
		for c, tc := range t {
			if tc >= 0 {
				top = max(top, float64(z[c]+bp[c]))
			}
		}
		s.psum[r] = 0
		if math.IsInf(top, -1) { // no legal cell: no loss
			clear(q)
			continue
		}
		var e, ps, pz float64
		for c, tc := range t {
			if tc < 0 {
				q[c] = 0
				continue
			}
			zc := float64(z[c]+bp[c]) - top
			ec := math.Exp(zc)
			q[c] = float32(ec)
			e += ec
			ps += float64(tc)
			pz += float64(tc) * zc
		}
		// −Σ p·(z − top − log e) = Σp·log e − Σ p·(z − top)
		sum += ps*math.Log(e) - pz
		inv := float32(1 / e)
		for c := range q {
			q[c] *= inv
		}
		s.psum[r] = float32(ps)
	}
	return gorgonia.NewF32(op.weight * float32(sum/float64(rows))), nil
}

func (op policyGradOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 5 {
		return nil, fmt.Errorf("train: policy loss gradient: %d inputs", len(vs))
	}
	return op.UsePreallocDo(newLike(vs[0]), vs...)
}

// UsePreallocDo writes the gradient with respect to L into prealloc from the softmax
// the forward pass left in the scratch.
func (op policyGradOp) UsePreallocDo(prealloc gorgonia.Value, vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 5 {
		return nil, fmt.Errorf("train: policy loss gradient: %d inputs", len(vs))
	}
	l, _, p, cells, err := policyInputs(vs)
	if err != nil {
		return nil, err
	}
	gs, ok := vs[4].Data().(float32)
	if !ok {
		return nil, fmt.Errorf("train: policy loss gradient: incoming gradient is a %T", vs[4].Data())
	}
	out, err := f32s(prealloc)
	if err != nil {
		return nil, err
	}
	s := op.s
	if len(out) != len(l) || len(s.q) != len(l) {
		return nil, fmt.Errorf("train: policy loss gradient: %d outputs, %d softmax values for %d logits", len(out), len(s.q), len(l))
	}
	rows := len(l) / cells
	scale := gs * op.weight / float32(rows)
	for r := 0; r < rows; r++ {
		t, q, o := p[r*cells:(r+1)*cells], s.q[r*cells:(r+1)*cells], out[r*cells:(r+1)*cells]
		ps := s.psum[r]
		for c, tc := range t {
			if tc < 0 {
				o[c] = 0
				continue
			}
			o[c] = scale * (q[c]*ps - tc)
		}
	}
	return prealloc, nil
}

func (op colSumOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 1 {
		return nil, fmt.Errorf("train: column sum: %d inputs", len(vs))
	}
	s := vs[0].Shape()
	if len(s) != 2 {
		return nil, fmt.Errorf("train: column sum of a %v tensor", s)
	}
	return op.UsePreallocDo(tensor.New(tensor.Of(tensor.Float32), tensor.WithShape(1, s[1])), vs...)
}

// UsePreallocDo writes the column sums into prealloc, adding the rows in order.
func (colSumOp) UsePreallocDo(prealloc gorgonia.Value, vs ...gorgonia.Value) (gorgonia.Value, error) {
	if len(vs) != 1 {
		return nil, fmt.Errorf("train: column sum: %d inputs", len(vs))
	}
	x, err := f32s(vs[0])
	if err != nil {
		return nil, err
	}
	out, err := f32s(prealloc)
	if err != nil {
		return nil, err
	}
	if len(out) == 0 || len(x)%len(out) != 0 {
		return nil, fmt.Errorf("train: column sum of %d values into %d columns", len(x), len(out))
	}
	clear(out)
	for r := 0; r < len(x); r += len(out) {
		row := x[r : r+len(out)]
		for c, v := range row {
			out[c] += v
		}
	}
	return prealloc, nil
}

func (policyLossOp) ReturnsPtr() bool     { return false }
func (policyGradOp) ReturnsPtr() bool     { return false }
func (colSumOp) ReturnsPtr() bool         { return false }
func (policyLossOp) CallsExtern() bool    { return false }
func (policyGradOp) CallsExtern() bool    { return false }
func (colSumOp) CallsExtern() bool        { return false }
func (policyLossOp) OverwritesInput() int { return -1 }
func (policyGradOp) OverwritesInput() int { return -1 }
func (colSumOp) OverwritesInput() int     { return -1 }

func (op policyLossOp) String() string { return fmt.Sprintf("hexlearnPolicyLoss(%g)", op.weight) }
func (op policyGradOp) String() string { return fmt.Sprintf("hexlearnPolicyLossGrad(%g)", op.weight) }
func (colSumOp) String() string        { return "hexlearnColSum" }

func (op policyLossOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op policyGradOp) WriteHash(h hash.Hash) { fmt.Fprint(h, op.String()) }
func (op colSumOp) WriteHash(h hash.Hash)     { fmt.Fprint(h, op.String()) }
func (op policyLossOp) Hashcode() uint32      { return opHash(op.String()) }
func (op policyGradOp) Hashcode() uint32      { return opHash(op.String()) }
func (op colSumOp) Hashcode() uint32          { return opHash(op.String()) }

// DiffWRT: the loss is differentiated with respect to the logits and the biases, not
// the targets.
func (policyLossOp) DiffWRT(int) []bool { return []bool{true, true, false} }

// SymDiff returns policyGradOp(L, BP, P, loss, grad) as L's gradient and its column
// sums as BP's.
func (op policyLossOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if len(inputs) != 3 {
		return nil, fmt.Errorf("train: policy loss: %d inputs", len(inputs))
	}
	dl, err := gorgonia.ApplyOp(policyGradOp(op), inputs[0], inputs[1], inputs[2], output, grad)
	if err != nil {
		return nil, err
	}
	db, err := gorgonia.ApplyOp(colSumOp{}, dl)
	if err != nil {
		return nil, err
	}
	return gorgonia.Nodes{dl, db, nil}, nil
}
