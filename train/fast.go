package train

import (
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// This file holds what keeps a gorgonia training step cheap: rewinding the tape
// machine instead of resetting it, an allocation-free Adam step over the graph's
// gradients, and a BLAS whose Sgemm never spawns goroutines.

// rewinder returns a function that rewinds gorgonia's tape machine vm to its first
// instruction while keeping its registers, or nil if vm is not the tape machine this
// package was written against (gorgonia v0.9.18; the caller then uses Reset).
//
// Reset also drops every register, so each step's alloc instructions allocate every
// intermediate tensor afresh (~100 MB per 6x6 epoch). With the registers kept, an
// alloc instruction finds a tensor of the right type and shape and reuses it, and the
// operations overwrite it. The inputs need no Let either: their tensors' backing
// arrays are overwritten in place. TestRewindMatchesReset checks that rewinding and
// Reset give the same bits for every output.
func rewinder(vm gorgonia.VM) func() {
	v := reflect.ValueOf(vm)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return nil
	}
	e := v.Elem()
	if e.Type().String() != "gorgonia.tapeMachine" {
		return nil
	}
	f := e.FieldByName("pc")
	if !f.IsValid() || f.Kind() != reflect.Int || !f.CanAddr() {
		return nil
	}
	pc := (*int)(unsafe.Pointer(f.UnsafeAddr()))
	return func() { *pc = 0 }
}

// adam is the Adam optimiser (Kingma & Ba) with gorgonia's defaults (β1 0.9,
// β2 0.999, ε 1e-8) and its float32 arithmetic, applied in one fused pass per
// learnable without allocating (gorgonia's AdamSolver clones four tensors per
// learnable and makes about a dozen passes). Like gorgonia's solver it reads the
// gradients the tape machine accumulated into the nodes' dual values and zeroes them.
type adam struct {
	lr   float64
	t    int
	w    [][]float32 // weights, aliased
	node gorgonia.Nodes
	m, v [][]float32
}

func newAdam(lr float64, learn gorgonia.Nodes) (*adam, error) {
	a := &adam{lr: lr, node: learn}
	for _, n := range learn {
		w, ok := n.Value().Data().([]float32)
		if !ok {
			return nil, fmt.Errorf("train: learnable %s is not float32", n.Name())
		}
		a.w = append(a.w, w)
		a.m = append(a.m, make([]float32, len(w)))
		a.v = append(a.v, make([]float32, len(w)))
	}
	return a, nil
}

// step applies one update with the gradients of the last run.
func (a *adam) step() error {
	const beta1, beta2, eps = 0.9, 0.999, 1e-8
	a.t++
	c1 := float32(1) / float32(1-math.Pow(beta1, float64(a.t)))
	c2 := float32(1) / float32(1-math.Pow(beta2, float64(a.t)))
	b1, b2 := float32(beta1), float32(beta2)
	om1, om2 := 1-b1, 1-b2
	negEta := -float32(a.lr)
	for i, n := range a.node {
		gv, err := n.Grad()
		if err != nil {
			return fmt.Errorf("no gradient for %s: %w", n.Name(), err)
		}
		gt, ok := gv.(*tensor.Dense)
		if !ok {
			return fmt.Errorf("gradient of %s is a %T", n.Name(), gv)
		}
		g, ok := gt.Data().([]float32)
		if !ok || len(g) != len(a.w[i]) {
			return fmt.Errorf("gradient of %s does not match its weights", n.Name())
		}
		w, m, v := a.w[i], a.m[i][:len(g)], a.v[i][:len(g)]
		w = w[:len(g)]
		for j, gj := range g {
			mj := b1*m[j] + om1*gj
			vj := b2*v[j] + om2*(gj*gj)
			m[j], v[j] = mj, vj
			w[j] += (negEta * (mj * c1)) / (float32(math.Sqrt(float64(vj*c2))) + eps)
			g[j] = 0
		}
	}
	return nil
}

// serialBLAS is gonum's pure-Go BLAS with an Sgemm that always runs on the calling
// goroutine. Gonum splits a product into 64x64 blocks and, from 4 blocks on (e.g. a
// 256-row minibatch times 30 hidden units), runs them on new goroutines: for the
// small products of a minibatch step that costs goroutine start-up and scheduling
// on every call, and a sweep already keeps every core busy with one run per core.
// Here a large product is cut into tiles of fewer than 4 blocks, each of which gonum
// computes serially; every element of C is computed the same way for any GOMAXPROCS.
type serialBLAS struct{ gonum.Implementation }

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (see blas.Float32Level3).
func (s serialBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	const bs = 64 // gonum's block size; it goes parallel from 4 blocks
	blocks := func(x int) int { return (x + bs - 1) / bs }
	aT := tA == blas.Trans || tA == blas.ConjTrans
	bT := tB == blas.Trans || tB == blas.ConjTrans
	// A network with one output makes vector products: gonum's Sgemm would do them
	// with one Axpy or Dot call of length 1 per element. Matrix-vector products go to
	// Sgemv and outer products to Sger instead. (C is passed cut to the elements
	// written: gonum's Sgemv with beta 0 and unit stride clears all of y.)
	if m > 0 && n > 0 && k > 0 && alpha != 0 {
		switch {
		case n == 1: // c[:,0] = alpha·op(A)·op(B)[:,0] + beta·c[:,0]
			incX := ldb
			if bT {
				incX = 1
			}
			if aT {
				s.Sgemv(blas.Trans, k, m, alpha, a, lda, b, incX, beta, c[:(m-1)*ldc+1], ldc)
			} else {
				s.Sgemv(blas.NoTrans, m, k, alpha, a, lda, b, incX, beta, c[:(m-1)*ldc+1], ldc)
			}
			return
		case m == 1: // c[0,:] = alpha·op(B)ᵀ·op(A)[0,:] + beta·c[0,:]
			incX := 1
			if aT {
				incX = lda
			}
			if bT {
				s.Sgemv(blas.NoTrans, n, k, alpha, b, ldb, a, incX, beta, c[:n], 1)
			} else {
				s.Sgemv(blas.Trans, k, n, alpha, b, ldb, a, incX, beta, c[:n], 1)
			}
			return
		case k == 1: // C = alpha·op(A)[:,0]·op(B)[0,:] + beta·C
			if beta != 1 {
				for i := 0; i < m; i++ {
					row := c[i*ldc : i*ldc+n]
					if beta == 0 {
						clear(row)
					} else {
						for j := range row {
							row[j] *= beta
						}
					}
				}
			}
			incX, incY := lda, 1
			if aT {
				incX = 1
			}
			if bT {
				incY = ldb
			}
			s.Sger(m, n, alpha, a, incX, b, incY, c, ldc)
			return
		}
	}
	if m <= 0 || n <= 0 || blocks(m)*blocks(n) < 4 {
		s.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	rowStep, colStep := bs, 3*bs
	if bn := blocks(n); bn <= 3 {
		rowStep, colStep = bs*(3/bn), n
	}
	for i := 0; i < m; i += rowStep {
		mi := min(rowStep, m-i)
		var as []float32
		if aT {
			as = a[i:] // columns i.. of the stored Aᵀ
		} else {
			as = a[i*lda:] // rows i.. of A
		}
		for j := 0; j < n; j += colStep {
			nj := min(colStep, n-j)
			var bsl []float32
			if bT {
				bsl = b[j*ldb:] // rows j.. of the stored Bᵀ
			} else {
				bsl = b[j:] // columns j.. of B
			}
			s.Implementation.Sgemm(tA, tB, mi, nj, k, alpha, as, lda, bsl, ldb, beta, c[i*ldc+j:], ldc)
		}
	}
}

func init() {
	// train is the only package that imports gorgonia, so this choice is local to it.
	gorgonia.Use(serialBLAS{})
}
