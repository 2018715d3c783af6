package train

import (
	"fmt"
	"math"
	"reflect"
	"sync"
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

// serialBLAS is gonum's pure-Go BLAS with the level-2 and level-3 products that
// training uses rewritten so that every element of a result is computed in one fixed
// order, on the calling goroutine:
//
//   - Deterministic: gonum's assembly dot product (Sdot, and Sgemv and Sgemm through
//     it) first adds the elements before the next 16-byte boundary of its slices one
//     at a time, so the order of its additions, and the last bits of the sum, depend
//     on where the slices happen to lie in memory. The same data and seed then gave
//     models that differed in a weight's last bit from run to run (for example 3 runs
//     in 16), which broke the rebuild of the built-in models byte for byte. Here
//     every product is built from AXPYs (an element is updated by c += a·b, the same
//     way in gonum's assembly as in Go, whatever the alignment) or from a dot product
//     with four fixed partial sums (dot).
//   - Serial: gonum splits a product into 64x64 blocks and, from 4 blocks on (e.g. a
//     256-row minibatch times 30 hidden units), runs them on new goroutines: for the
//     small products of a minibatch step that costs goroutine start-up and scheduling
//     on every call, and a sweep already keeps every core busy with one run per core.
type serialBLAS struct {
	gonum.Implementation
}

// Sdot returns the dot product of x and y (strides incX, incY) in dot's fixed order.
func (serialBLAS) Sdot(n int, x []float32, incX int, y []float32, incY int) float32 {
	if n <= 0 {
		return 0
	}
	if incX == 1 && incY == 1 {
		return dot(x[:n], y[:n])
	}
	ix, iy := 0, 0
	if incX < 0 {
		ix = (1 - n) * incX
	}
	if incY < 0 {
		iy = (1 - n) * incY
	}
	var s float32
	for i := 0; i < n; i++ {
		s += x[ix] * y[iy]
		ix, iy = ix+incX, iy+incY
	}
	return s
}

// dot is x·y with four partial sums over the elements i mod 4, added in a fixed
// order: the same bits for the same values wherever the slices lie.
func dot(x, y []float32) float32 {
	y = y[:len(x)]
	var s0, s1, s2, s3 float32
	n := len(x) &^ 3
	for i := 0; i < n; i += 4 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
		s2 += x[i+2] * y[i+2]
		s3 += x[i+3] * y[i+3]
	}
	for i := n; i < len(x); i++ {
		s0 += x[i] * y[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// Sgemv computes y = alpha·op(A)·x + beta·y for an m x n matrix A (see
// blas.Float32Level2): op(A)·x row by row with dot for A, as AXPYs of A's rows for
// Aᵀ.
func (s serialBLAS) Sgemv(tA blas.Transpose, m, n int, alpha float32, a []float32, lda int, x []float32, incX int, beta float32, y []float32, incY int) {
	trans := tA == blas.Trans || tA == blas.ConjTrans
	lenX, lenY := n, m
	if trans {
		lenX, lenY = m, n
	}
	if lenX == 0 || lenY == 0 || incX <= 0 || incY <= 0 {
		s.Implementation.Sgemv(tA, m, n, alpha, a, lda, x, incX, beta, y, incY) // checks and odd strides
		return
	}
	scaleVec(y, lenY, incY, beta)
	if alpha == 0 {
		return
	}
	xs := x
	if incX != 1 {
		xs = make([]float32, lenX)
		for i := range xs {
			xs[i] = x[i*incX]
		}
	}
	if !trans {
		for i := 0; i < m; i++ {
			y[i*incY] += alpha * dot(a[i*lda:i*lda+n], xs)
		}
		return
	}
	if incY != 1 {
		s.Implementation.Sgemv(tA, m, n, alpha, a, lda, x, incX, 1, y, incY)
		return
	}
	for i := 0; i < m; i++ {
		if t := alpha * xs[i]; t != 0 {
			s.axpy(t, a[i*lda:i*lda+n], y[:n])
		}
	}
}

// axpy is y += t·x elementwise: every element one multiply and one add, so gonum's
// assembly AXPY (for long rows) and the Go loop (for short ones, which it runs
// without a BLAS call's checks) give the same bits.
func (s serialBLAS) axpy(t float32, x, y []float32) {
	if len(x) >= 48 {
		s.Implementation.Saxpy(len(x), t, x, 1, y, 1)
		return
	}
	y = y[:len(x)]
	n := len(x) &^ 3
	for i := 0; i < n; i += 4 {
		y[i] += t * x[i]
		y[i+1] += t * x[i+1]
		y[i+2] += t * x[i+2]
		y[i+3] += t * x[i+3]
	}
	for i := n; i < len(x); i++ {
		y[i] += t * x[i]
	}
}

// scaleVec sets y = beta·y over n elements of stride inc (beta 0 clears them).
func scaleVec(y []float32, n, inc int, beta float32) {
	if beta == 1 {
		return
	}
	for i := 0; i < n; i++ {
		if beta == 0 {
			y[i*inc] = 0
		} else {
			y[i*inc] *= beta
		}
	}
}

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (see blas.Float32Level3), an m x n
// result over k: each row of C as AXPYs of the rows of op(B) (a transposed B is copied
// into its rows first), so every element of C adds its k products in order of k.
func (s serialBLAS) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m <= 0 || n <= 0 {
		s.Implementation.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) // checks
		return
	}
	for i := 0; i < m; i++ {
		scaleVec(c[i*ldc:i*ldc+n], n, 1, beta)
	}
	if k <= 0 || alpha == 0 {
		return
	}
	aT := tA == blas.Trans || tA == blas.ConjTrans
	bT := tB == blas.Trans || tB == blas.ConjTrans
	// A network with one output makes vector products: one AXPY or dot of length 1
	// per element would be slow. Matrix-vector products go to Sgemv and outer products
	// to Sger (C has been scaled by beta already).
	switch {
	case n == 1: // c[:,0] += alpha·op(A)·op(B)[:,0]
		incX := ldb
		if bT {
			incX = 1
		}
		if aT {
			s.Sgemv(blas.Trans, k, m, alpha, a, lda, b, incX, 1, c[:(m-1)*ldc+1], ldc)
		} else {
			s.Sgemv(blas.NoTrans, m, k, alpha, a, lda, b, incX, 1, c[:(m-1)*ldc+1], ldc)
		}
		return
	case m == 1: // c[0,:] += alpha·op(B)ᵀ·op(A)[0,:]
		incX := 1
		if aT {
			incX = lda
		}
		if bT {
			s.Sgemv(blas.NoTrans, n, k, alpha, b, ldb, a, incX, 1, c[:n], 1)
		} else {
			s.Sgemv(blas.Trans, k, n, alpha, b, ldb, a, incX, 1, c[:n], 1)
		}
		return
	case k == 1: // C += alpha·op(A)[:,0]·op(B)[0,:]
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
	bRows, ld := b, ldb // op(B) row by row: k rows of n
	if bT {
		// The copy's buffer is pooled: a training step with a policy head transposes
		// its weights every step (the hidden layer's gradient from the logits).
		buf := transposed.Get().(*[]float32)
		defer transposed.Put(buf)
		if cap(*buf) < k*n {
			*buf = make([]float32, k*n)
		}
		bRows, ld = (*buf)[:k*n], n
		for j := 0; j < n; j++ {
			for l := 0; l < k; l++ {
				bRows[l*n+j] = b[j*ldb+l]
			}
		}
	}
	for i := 0; i < m; i++ {
		ci := c[i*ldc : i*ldc+n]
		for l := 0; l < k; l++ {
			var ail float32
			if aT {
				ail = a[l*lda+i]
			} else {
				ail = a[i*lda+l]
			}
			if t := alpha * ail; t != 0 {
				s.axpy(t, bRows[l*ld:l*ld+n], ci)
			}
		}
	}
}

// transposed holds the buffers of Sgemm's transposed copies.
var transposed = sync.Pool{New: func() any { return new([]float32) }}

func init() {
	// train is the only package that imports gorgonia, so this choice is local to it.
	gorgonia.Use(serialBLAS{})
}
