// Package twodist computes the two-distance potentials of Queenbee (van Rijswijck,
// "Computer Hex: Are Bees Better than Fruitflies?", 2000): cheap connectivity measures
// for learned evaluators, about a microsecond on 8x8.
//
// The two-distance of an empty cell p to an edge E, for a colour c, is 1 when p touches
// E and otherwise 1 + the second-smallest two-distance among p's neighbours: the
// opponent can always take the best neighbour, so the second best is what c can count
// on. Stones of c are free: a chain of c's stones makes all its empty neighbours
// neighbours of each other, and a cell touching a chain that touches E touches E.
// Stones of the opponent are walls. A cell with no such path has distance Inf. The
// potential of an empty cell for c is the sum of its two-distances to c's two edges
// (North and South for Black, West and East for White); the smallest potential over
// the board measures how far c is from joining its edges, and the number of cells at
// that minimum (the mobility) how many ways it has.
//
// The computation works on bitsets of the board's cells: each empty cell's
// neighbourhood with the colour's chains collapsed is one set, and the cells at
// distance k+1 are the unreached ones with at least two neighbours at distance at
// most k, found with a two-bit saturating counter kept as two sets.
package twodist

import (
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Inf is the two-distance of a cell with no path to the edge. A potential is at most
// 2·Inf.
const Inf = 60

// Potentials computes two-distances and potentials. The zero value is not usable; get
// one from New. Compute allocates nothing. A Potentials is not safe for concurrent
// use.
type Potentials struct {
	g    *hex.Geometry
	dist [4][hex.MaxCells]int8 // Black to North, South; White to West, East
	pot  [2][hex.MaxCells]int8 // Black, White; 2·Inf on stones
	min  [2]int
	mob  [2]int
	k    kernel
}

// kernel is the bitset computation for one number of 64-bit words per set.
type kernel interface {
	compute(t *Potentials, b *hex.Board)
}

// New returns a Potentials for boards of geometry g.
func New(g *hex.Geometry) *Potentials {
	t := &Potentials{g: g}
	switch (g.N + 63) / 64 {
	case 1:
		t.k = newBits[[1]uint64](g)
	case 2:
		t.k = newBits[[2]uint64](g)
	case 3:
		t.k = newBits[[3]uint64](g)
	case 4:
		t.k = newBits[[4]uint64](g)
	case 5:
		t.k = newBits[[5]uint64](g)
	default:
		t.k = newBits[[6]uint64](g)
	}
	return t
}

func colorIndex(c hex.Color) int {
	if c == hex.White {
		return 1
	}
	return 0
}

// Compute computes the two-distances and potentials of every empty cell of b, whose
// geometry must be the one given to New.
func (t *Potentials) Compute(b *hex.Board) { t.k.compute(t, b) }

// words is a set of cells in as many 64-bit words as the board needs.
type words interface {
	[1]uint64 | [2]uint64 | [3]uint64 | [4]uint64 | [5]uint64 | [6]uint64
}

// bitsK is the kernel for sets of type S.
type bitsK[S words] struct {
	g     *hex.Geometry
	nbr   []S                // the neighbour cells of each cell
	edge  [4]S               // the cells touching North, South, West, East
	adj   []S                // collapsed neighbourhood of each empty cell, for the current colour
	libs  []S                // empty neighbours of each chain
	touch []uint8            // bit 0: the chain touches the first edge, bit 1 the second
	queue []int16            // the flood fill's queue
	nch   int                // number of chains of the current colour
	blank [hex.MaxCells]int8 // 0 on stones, Inf on empty cells
}

// newBits precomputes the neighbour sets of g's cells and edges.
func newBits[S words](g *hex.Geometry) *bitsK[S] {
	k := &bitsK[S]{g: g, nbr: make([]S, g.N), adj: make([]S, g.N), libs: make([]S, g.N),
		touch: make([]uint8, g.N), queue: make([]int16, g.N)}
	cells := g.Cells()
	for p := 0; p < g.N; p++ {
		k.nbr[p] = toS[S](g.NeighbourSet(hex.Cell(p)).And(cells))
	}
	for i, e := range [4]hex.Cell{hex.North, hex.South, hex.West, hex.East} {
		k.edge[i] = toS[S](g.NeighbourSet(e).And(cells))
	}
	return k
}

// toS returns the first words of s.
func toS[S words](s hex.Bitset) S {
	var r S
	for i := 0; i < len(r); i++ {
		r[i] = s[i]
	}
	return r
}

func (k *bitsK[S]) compute(t *Potentials, b *hex.Board) {
	empty := toS[S](b.EmptyCells())
	n := k.g.N
	for p := 0; p < n; p++ {
		k.blank[p] = 0
	}
	for i := 0; i < len(empty); i++ {
		for w := empty[i]; w != 0; w &= w - 1 {
			k.blank[i<<6+bits.TrailingZeros64(w)] = Inf
		}
	}
	for ci, col := range [2]hex.Color{hex.Black, hex.White} {
		k.graph(b, col, &empty)
		var near [2]S
		for j := 0; j < 2; j++ {
			near[j] = and(k.edge[2*ci+j], empty)
		}
		for c := 0; c < k.nch; c++ {
			for j := 0; j < 2; j++ {
				if k.touch[c]&(1<<j) != 0 {
					near[j] = or(near[j], k.libs[c])
				}
			}
		}
		d1, d2 := &t.dist[2*ci], &t.dist[2*ci+1]
		k.levels(d1, &near[0])
		k.levels(d2, &near[1])
		pot := &t.pot[ci]
		for p := 0; p < n; p++ {
			pot[p] = 2 * Inf
		}
		mn, mob := 2*Inf, 0
		for i := 0; i < len(empty); i++ {
			for w := empty[i]; w != 0; w &= w - 1 {
				p := i<<6 + bits.TrailingZeros64(w)
				v := int(d1[p]) + int(d2[p])
				pot[p] = int8(v)
				switch {
				case v < mn:
					mn, mob = v, 1
				case v == mn:
					mob++
				}
			}
		}
		if mn == 2*Inf {
			mob = 0
		}
		t.min[ci], t.mob[ci] = mn, mob
	}
}

// graph finds col's chains, their liberties and edge contacts, and the collapsed
// neighbourhood of every empty cell: its empty neighbours and the liberties of the
// chains it touches, itself excluded.
func (k *bitsK[S]) graph(b *hex.Board, col hex.Color, emptyP *S) {
	empty := *emptyP
	st := toS[S](b.Stones(col))
	for i := 0; i < len(empty); i++ {
		for w := empty[i]; w != 0; w &= w - 1 {
			p := i<<6 + bits.TrailingZeros64(w)
			for x := 0; x < len(empty); x++ {
				k.adj[p][x] = k.nbr[p][x] & empty[x]
			}
		}
	}
	// Chains by flood fill over the stone set (the board's union-find joins chains
	// through the edges they touch, so it cannot tell them apart).
	ci := colorIndex(col)
	k.nch = 0
	for i := 0; i < len(st); i++ {
		for st[i] != 0 {
			s := i<<6 + bits.TrailingZeros64(st[i])
			st[i] &= st[i] - 1
			var mem, lib S
			k.queue[0] = int16(s)
			for head, tail := 0, 1; head < tail; head++ {
				q := int(k.queue[head])
				mem[q>>6] |= 1 << (q & 63)
				for x := 0; x < len(st); x++ {
					nb := k.nbr[q][x]
					lib[x] |= nb
					for w := nb & st[x]; w != 0; w &= w - 1 {
						k.queue[tail] = int16(x<<6 + bits.TrailingZeros64(w))
						tail++
					}
					st[x] &^= nb
				}
			}
			var tc uint8
			if intersects(mem, k.edge[2*ci]) {
				tc |= 1
			}
			if intersects(mem, k.edge[2*ci+1]) {
				tc |= 2
			}
			k.touch[k.nch] = tc
			k.libs[k.nch] = lib
			k.nch++
		}
	}
	for c := 0; c < k.nch; c++ {
		l := and(k.libs[c], empty)
		k.libs[c] = l
		for i := 0; i < len(l); i++ {
			for w := l[i]; w != 0; w &= w - 1 {
				j := bits.TrailingZeros64(w)
				p := i<<6 + j
				for x := 0; x < len(l); x++ {
					k.adj[p][x] |= l[x]
				}
				k.adj[p][i] &^= 1 << j
			}
		}
	}
}

// levels computes the two-distances to the edge whose touching cells are near: they
// are at 1, and the cells at k+1 are the unreached ones with two neighbours at most k
// away. Distances stop below Inf.
func (k *bitsK[S]) levels(d *[hex.MaxCells]int8, near *S) {
	copy(d[:k.g.N], k.blank[:k.g.N])
	reached := *near
	front := reached
	var one, two S
	for dk := int8(1); ; dk++ {
		for i := 0; i < len(front); i++ {
			for w := front[i]; w != 0; w &= w - 1 {
				q := i<<6 + bits.TrailingZeros64(w)
				d[q] = dk
				for x := 0; x < len(one); x++ {
					a := k.adj[q][x]
					two[x] |= one[x] & a
					one[x] |= a
				}
			}
		}
		if dk+1 >= Inf {
			return
		}
		left := uint64(0)
		for x := 0; x < len(front); x++ {
			front[x] = two[x] &^ reached[x]
			reached[x] |= front[x]
			left |= front[x]
		}
		if left == 0 {
			return
		}
	}
}

func and[S words](a, b S) S {
	for i := 0; i < len(a); i++ {
		a[i] &= b[i]
	}
	return a
}

func intersects[S words](a, b S) bool {
	var r uint64
	for i := 0; i < len(a); i++ {
		r |= a[i] & b[i]
	}
	return r != 0
}

func or[S words](a, b S) S {
	for i := 0; i < len(a); i++ {
		a[i] |= b[i]
	}
	return a
}

// Distance returns the two-distance of cell p to edge e (one of hex.North, South, West,
// East) for e's colour: Inf when there is no path, 0 on a stone.
func (t *Potentials) Distance(e, p hex.Cell) int {
	i := int(e - hex.North)
	if i < 0 || i > 3 || !t.g.IsCell(p) {
		return 0
	}
	return int(t.dist[i][p])
}

// Potential returns the potential of cell p for colour c (2·Inf on a stone).
func (t *Potentials) Potential(c hex.Color, p hex.Cell) int { return int(t.pot[colorIndex(c)][p]) }

// Min returns the smallest potential of c over the empty cells (2·Inf if none has a
// path).
func (t *Potentials) Min(c hex.Color) int { return t.min[colorIndex(c)] }

// Mobility returns the number of empty cells at c's smallest potential (0 if none has
// a path).
func (t *Potentials) Mobility(c hex.Color) int { return t.mob[colorIndex(c)] }

// Value is Queenbee's evaluation from Black's point of view (positive good for Black):
// White's smallest potential minus Black's, plus a twentieth of Black's mobility minus
// White's to break ties.
func (t *Potentials) Value() float64 {
	return float64(t.min[1]-t.min[0]) + float64(t.mob[0]-t.mob[1])/20
}
