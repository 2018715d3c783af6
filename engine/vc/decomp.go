package vc

import (
	"github.com/hexlearn/hexlearn/engine/hex"
)

// Combinatorial decompositions (Henderson, Arneson & Hayward, "Solving 8x8 Hex", IJCAI
// 2009, section 4). Lemma 1: when two empty cells x, y are the common neighbours of a
// stone (or edge) of one colour and a stone (or edge) of the other, an opposite-colour
// bridge, deleting the adjacency x–y leaves the value of the game unchanged (a path
// through x–y can go round through the bridge's stone of its own colour). Theorem 2
// fills the interior of a 4-cycle of alternating, crowding groups when a VC between
// the two groups of one colour lies inside it.
//
// Decomposition finds these captures in a form that needs no cycle: let R be a union
// of components of the empty cells, adjacency taken without the bridged pairs of
// Lemma 1, whose only neighbours of colour P (stones and edges) are two P-chains g1
// and g2, and let P hold a VC between g1 and g2 whose carrier C lies in R. Filling C
// with P stones does not change the winner. Proof: more stones never hurt P, so a P
// win before the fill is one after it. Conversely, P plays its winning strategy of
// the filled board outside R and answers every opponent move in C inside C (keeping
// the VC; any other extra stone is harmless). At the end, cut the filled board's
// winning path into its maximal pieces inside R: each piece leaves R only into g1 or
// g2, or across a bridged pair x–y, where the bridge's own stone (a neighbour of R,
// so in g1 or g2) takes its place; so each piece joins g1 to g2 (or a chain to
// itself) and the P chain the VC left in C replaces it. A proof set S of a P win on
// the filled board is one of the position before it with C added, since giving the
// cells outside S and C to the opponent keeps both R's closure and the VC.
//
// The solver (engine/solver, Config.Decompositions) fills such carriers at every
// node; the tests check the rule against brute force.

// decompScratch holds the buffers of Decomposition.
type decompScratch struct {
	parent [hex.NumPoints]hex.Cell
	// per component root: the P-chains (point indices) next to it, -1 for none;
	// many marks a component next to three chains or more
	c1, c2 [hex.NumPoints]int32
	many   [hex.NumPoints]bool
	tried  []bool // per pair index: already looked at
}

func (d *decompScratch) find(p hex.Cell) hex.Cell {
	for d.parent[p] != p {
		d.parent[p] = d.parent[d.parent[p]]
		p = d.parent[p]
	}
	return p
}

// bridged reports whether the adjacent empty cells x and y are the carrier of an
// opposite-colour bridge: their two common neighbours hold one stone (or edge) of
// each colour.
func bridged(board *hex.Board, x, y hex.Cell) bool {
	g := board.Geometry()
	common := g.NeighbourSet(x).And(*g.NeighbourSet(y))
	a := common.First()
	if a == hex.NoCell {
		return false
	}
	c := common.Next(a + 1)
	if c == hex.NoCell || common.Next(c+1) != hex.NoCell {
		return false
	}
	ca, cc := board.At(a), board.At(c)
	return ca != hex.Empty && cc != hex.Empty && ca != cc
}

// Decomposition looks for a carrier the colour built captures by a combinatorial
// decomposition (the comment above gives the rule and its proof) on board, the
// position of the last Build: a VC between two of its chains whose carrier lies in
// empty regions that no other chain of the colour touches. It returns the carrier,
// the empty cells of those regions (a superset of it) and true, or false when there
// is none, when the colour has already won or when nothing is built for board.
// Filling the carrier with the colour's stones leaves the winner unchanged.
func (b *Builder) Decomposition(board *hex.Board) (carrier, region hex.Bitset, ok bool) {
	if b.g == nil || b.g != board.Geometry() || b.connected || b.empty != board.EmptyCells() {
		return carrier, region, false
	}
	if won, _ := b.WinningVC(); won {
		return carrier, region, false
	}
	if b.dec == nil {
		b.dec = new(decompScratch)
	}
	d := b.dec
	g := b.g
	P := b.color
	empty := b.empty
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		d.parent[p] = p
	}
	for x := empty.First(); x != hex.NoCell; x = empty.Next(x + 1) {
		for _, y := range g.Neighbours(x) {
			if y < x || !empty.Has(y) || bridged(board, x, y) {
				continue
			}
			rx, ry := d.find(x), d.find(y)
			if rx != ry {
				d.parent[ry] = rx
			}
		}
	}
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if d.parent[p] == p {
			d.c1[p], d.c2[p], d.many[p] = -1, -1, false
		}
	}
	two := false
	for x := empty.First(); x != hex.NoCell; x = empty.Next(x + 1) {
		r := d.find(x)
		for _, q := range g.Neighbours(x) {
			if board.At(q) != P {
				continue
			}
			ci := b.cellPoint[q]
			switch {
			case ci < 0 || d.many[r] || ci == d.c1[r] || ci == d.c2[r]:
			case d.c1[r] < 0:
				d.c1[r] = ci
			case d.c2[r] < 0:
				d.c2[r] = ci
				two = true
			default:
				d.many[r] = true
			}
		}
	}
	if !two {
		return carrier, region, false
	}
	if n := b.np * b.np; len(d.tried) < n {
		d.tried = make([]bool, n)
	}
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if d.parent[p] == p && !d.many[p] && d.c2[p] >= 0 {
			d.tried[b.pairIdx(d.c1[p], d.c2[p])] = false
		}
	}
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if d.parent[p] != p || d.many[p] || d.c2[p] < 0 {
			continue
		}
		i, j := d.c1[p], d.c2[p]
		idx := b.pairIdx(i, j)
		if d.tried[idx] {
			continue
		}
		d.tried[idx] = true
		s := b.slot[idx]
		if s < 0 {
			continue
		}
		if b.packed {
			for k := range b.full1[s] {
				if car := (hex.Bitset{b.full1[s][k].Carrier[0]}); b.inside(car, i, j) {
					return car, b.regionOf(car), true
				}
			}
		} else {
			for k := range b.full[s] {
				if car := b.full[s][k].Carrier; b.inside(car, i, j) {
					return car, b.regionOf(car), true
				}
			}
		}
	}
	return carrier, region, false
}

// inside reports whether every cell of car lies in a component (of the last
// Decomposition) whose chains of the colour are among the points i and j.
func (b *Builder) inside(car hex.Bitset, i, j int32) bool {
	if car.IsEmpty() {
		return false
	}
	d := b.dec
	for p := car.First(); p != hex.NoCell; p = car.Next(p + 1) {
		r := d.find(p)
		if d.many[r] || (d.c1[r] >= 0 && d.c1[r] != i && d.c1[r] != j) || (d.c2[r] >= 0 && d.c2[r] != i && d.c2[r] != j) {
			return false
		}
	}
	return true
}

// regionOf returns the empty cells of the components (of the last Decomposition)
// that meet car.
func (b *Builder) regionOf(car hex.Bitset) hex.Bitset {
	d := b.dec
	var roots, reg hex.Bitset
	for p := car.First(); p != hex.NoCell; p = car.Next(p + 1) {
		roots.Set(d.find(p))
	}
	for p := b.empty.First(); p != hex.NoCell; p = b.empty.Next(p + 1) {
		if roots.Has(d.find(p)) {
			reg.Set(p)
		}
	}
	return reg
}
