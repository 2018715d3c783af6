package circuit

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// solve solves the grounded system for the unknown potentials into c.x with the
// configured solver. Row i of the system is node c.unkNode[i]: its diagonal is the sum of
// the conductances at the node; its off-diagonal entries are minus the conductances to
// other unknowns; its right-hand side is the conductance to the source (potential 1).
func (c *Circuit) solve() error {
	n := len(c.unkNode)
	c.rhs = growF(c.rhs, n)
	c.x = growF(c.x, n)
	for i, k := range c.unkNode {
		s := 0.0
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			if c.adj[j] == c.src {
				s += c.adjG[j]
			}
		}
		c.rhs[i] = s
	}
	if n == 0 {
		return nil
	}
	switch c.cfg.Solver {
	case CG:
		return c.solveCG()
	case Dense:
		return c.solveDense()
	default:
		return c.solveSkyline()
	}
}

// solveSkyline factors the system as L L^T in envelope storage: row i keeps the entries
// from its first nonzero column first[i] to the diagonal, and Cholesky fill stays inside
// that envelope.
func (c *Circuit) solveSkyline() error {
	n := len(c.unkNode)
	c.first = growI32(c.first, n)
	c.off = growI32(c.off, n+1)
	c.off[0] = 0
	for i, k := range c.unkNode {
		f := int32(i)
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			if u := c.unk[c.adj[j]]; u >= 0 && u < f {
				f = u
			}
		}
		c.first[i] = f
		c.off[i+1] = c.off[i] + int32(i) - f + 1
	}
	val := growF(c.val, int(c.off[n]))
	c.val = val
	for i := range val {
		val[i] = 0
	}
	for i, k := range c.unkNode {
		base := c.off[i] - c.first[i]
		d := 0.0
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			g := c.adjG[j]
			d += g
			if u := c.unk[c.adj[j]]; u >= 0 && u < int32(i) {
				val[base+u] -= g
			}
		}
		val[base+int32(i)] = d
	}
	// Factor.
	for i := int32(0); i < int32(n); i++ {
		fi, bi := c.first[i], c.off[i]-c.first[i] // entry (i,j) at val[bi+j]
		for j := fi; j < i; j++ {
			fj, bj := c.first[j], c.off[j]-c.first[j]
			k0 := fi
			if fj > k0 {
				k0 = fj
			}
			s := val[bi+j]
			ri := val[bi+k0 : bi+j]
			rj := val[bj+k0 : bj+j]
			rj = rj[:len(ri)]
			for t, v := range ri {
				s -= v * rj[t]
			}
			val[bi+j] = s / val[bj+j]
		}
		s := val[bi+i]
		for _, v := range val[bi+fi : bi+i] {
			s -= v * v
		}
		if !(s > 0) {
			return fmt.Errorf("%w: pivot %v at row %d", ErrSingular, s, i)
		}
		val[bi+i] = math.Sqrt(s)
	}
	// Forward substitution L y = b.
	x := c.x
	for i := int32(0); i < int32(n); i++ {
		fi, bi := c.first[i], c.off[i]-c.first[i]
		s := c.rhs[i]
		row := val[bi+fi : bi+i]
		xs := x[fi:i]
		xs = xs[:len(row)]
		for t, v := range row {
			s -= v * xs[t]
		}
		x[i] = s / val[bi+i]
	}
	// Back substitution L^T x = y, column by column.
	for i := int32(n) - 1; i >= 0; i-- {
		fi, bi := c.first[i], c.off[i]-c.first[i]
		x[i] /= val[bi+i]
		xi := x[i]
		row := val[bi+fi : bi+i]
		xs := x[fi:i]
		xs = xs[:len(row)]
		for t, v := range row {
			xs[t] -= v * xi
		}
	}
	return nil
}

// matVec sets dst = A v for the grounded system.
func (c *Circuit) matVec(dst, v []float64) {
	for i, k := range c.unkNode {
		s := 0.0
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			g := c.adjG[j]
			s += g * v[i]
			if u := c.unk[c.adj[j]]; u >= 0 {
				s -= g * v[u]
			}
		}
		dst[i] = s
	}
}

// solveCG runs Jacobi-preconditioned conjugate gradients to a relative residual of
// 1e-13.
func (c *Circuit) solveCG() error {
	n := len(c.unkNode)
	c.cgR, c.cgZ, c.cgP, c.cgQ, c.cgD = growF(c.cgR, n), growF(c.cgZ, n), growF(c.cgP, n), growF(c.cgQ, n), growF(c.cgD, n)
	r, z, p, q, d, x := c.cgR, c.cgZ, c.cgP, c.cgQ, c.cgD, c.x
	for i, k := range c.unkNode {
		s := 0.0
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			s += c.adjG[j]
		}
		d[i] = 1 / s
		x[i] = 0.5
	}
	c.matVec(q, x)
	bnorm := 0.0
	for i := range r {
		r[i] = c.rhs[i] - q[i]
		bnorm += c.rhs[i] * c.rhs[i]
	}
	tol := 1e-26 * bnorm
	rz := 0.0
	for i := range r {
		z[i] = d[i] * r[i]
		p[i] = z[i]
		rz += r[i] * z[i]
	}
	for it := 0; it < 20*n+100; it++ {
		rr := 0.0
		for _, v := range r {
			rr += v * v
		}
		if rr <= tol {
			return nil
		}
		c.matVec(q, p)
		pq := 0.0
		for i := range p {
			pq += p[i] * q[i]
		}
		if !(pq > 0) {
			return fmt.Errorf("%w: conjugate gradient breakdown", ErrSingular)
		}
		alpha := rz / pq
		rz2 := 0.0
		for i := range x {
			x[i] += alpha * p[i]
			r[i] -= alpha * q[i]
			z[i] = d[i] * r[i]
			rz2 += r[i] * z[i]
		}
		beta := rz2 / rz
		rz = rz2
		for i := range p {
			p[i] = z[i] + beta*p[i]
		}
	}
	return fmt.Errorf("%w: conjugate gradient did not converge", ErrSingular)
}

// solveDense uses gonum's dense Cholesky factorisation.
func (c *Circuit) solveDense() error {
	n := len(c.unkNode)
	c.dense = growF(c.dense, n*n)
	for i := range c.dense {
		c.dense[i] = 0
	}
	for i, k := range c.unkNode {
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			g := c.adjG[j]
			c.dense[i*n+i] += g
			if u := c.unk[c.adj[j]]; u >= 0 {
				c.dense[i*n+int(u)] -= g
			}
		}
	}
	a := mat.NewSymDense(n, c.dense)
	var ch mat.Cholesky
	if ok := ch.Factorize(a); !ok {
		return fmt.Errorf("%w: dense Cholesky failed", ErrSingular)
	}
	xv := mat.NewVecDense(n, c.x)
	if err := ch.SolveVecTo(xv, mat.NewVecDense(n, c.rhs)); err != nil {
		return fmt.Errorf("%w: %v", ErrSingular, err)
	}
	return nil
}
