package vc

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// point maps a cell or edge to its point index for the colour built, or returns an
// error naming it.
func (b *Builder) point(p hex.Cell) (int32, error) {
	if b.g == nil {
		return -1, fmt.Errorf("%w: nothing built yet", ErrPoint)
	}
	if !b.g.OnBoard(p) {
		return -1, fmt.Errorf("%w: %d is off the board", ErrPoint, p)
	}
	i := b.cellPoint[p]
	if i < 0 {
		return -1, fmt.Errorf("%w: %s is an opponent stone or edge for %v", ErrPoint, b.g.CellName(p), b.color)
	}
	return i, nil
}

// Full returns the VCs between points x and y (cells or edges; a stone stands for its
// chain), smallest carrier first. The slice belongs to the Builder: read it before the
// next Build and do not modify it. Two points of the same chain give an error
// wrapping ErrPoint, as do opponent stones and edges.
func (b *Builder) Full(x, y hex.Cell) ([]Conn, error) {
	i, j, err := b.pair(x, y)
	if err != nil {
		return nil, err
	}
	b.unpack()
	return b.fullOf(b.pairIdx(i, j)), nil
}

// Semi returns the SCs between points x and y, smallest carrier first (see Full).
func (b *Builder) Semi(x, y hex.Cell) ([]Conn, error) {
	i, j, err := b.pair(x, y)
	if err != nil {
		return nil, err
	}
	b.unpack()
	return b.semiOf(b.pairIdx(i, j)), nil
}

func (b *Builder) pair(x, y hex.Cell) (int32, int32, error) {
	i, err := b.point(x)
	if err != nil {
		return 0, 0, err
	}
	j, err := b.point(y)
	if err != nil {
		return 0, 0, err
	}
	if i == j {
		return 0, 0, fmt.Errorf("%w: %s and %s are the same chain", ErrPoint, b.g.CellName(x), b.g.CellName(y))
	}
	return i, j, nil
}

// NumPoints returns the number of points (empty cells and chains) of the last build.
func (b *Builder) NumPoints() int { return b.np }

// Point returns the cell of point i (an empty cell, or the root of a chain, which
// may be an edge), for 0 <= i < NumPoints().
func (b *Builder) Point(i int) hex.Cell { return b.pt[i] }

// PointIndex returns the point index of a cell or edge (a stone maps to its chain), or
// -1 if it is not a point of the colour built.
func (b *Builder) PointIndex(p hex.Cell) int {
	if b.g == nil || !b.g.OnBoard(p) {
		return -1
	}
	return int(b.cellPoint[p])
}

// IsChain reports whether point i is a chain (of stones and/or an edge).
func (b *Builder) IsChain(i int) bool { return b.chain[i] }

// FullAt returns the VCs between points i and j (indices, i != j); see Full.
func (b *Builder) FullAt(i, j int) []Conn {
	b.unpack()
	return b.fullOf(b.pairIdx(int32(i), int32(j)))
}

// SemiAt returns the SCs between points i and j (indices, i != j); see Full.
func (b *Builder) SemiAt(i, j int) []Conn {
	b.unpack()
	return b.semiOf(b.pairIdx(int32(i), int32(j)))
}

// Neighbours returns the set of point indices (as hex.Cell values) that have at least
// one VC with point i. Iterate it with First/Next.
func (b *Builder) Neighbours(i int) *hex.Bitset { return &b.nbrFull[i] }

// EachFull calls f for every VC between two points, with the points' cells (x < y
// in point order); it stops early when f returns false.
func (b *Builder) EachFull(f func(x, y hex.Cell, c *Conn) bool) {
	b.unpack()
	for s, idx := range b.touched {
		i, j := int(idx)/b.np, int(idx)%b.np
		l := b.full[s]
		for k := range l {
			if !f(b.pt[i], b.pt[j], &l[k]) {
				return
			}
		}
	}
}

// EachSemi calls f for every SC between two points (see EachFull).
func (b *Builder) EachSemi(f func(x, y hex.Cell, c *Conn) bool) {
	b.unpack()
	for s, idx := range b.touched {
		i, j := int(idx)/b.np, int(idx)%b.np
		l := b.semi[s]
		for k := range l {
			if !f(b.pt[i], b.pt[j], &l[k]) {
				return
			}
		}
	}
}

// Counts returns the numbers of VCs and SCs held.
func (b *Builder) Counts() (full, semi int) {
	for s := range b.touched {
		if b.packed {
			full += len(b.full1[s])
			semi += len(b.semi1[s])
			continue
		}
		full += len(b.full[s])
		semi += len(b.semi[s])
	}
	return full, semi
}

// WinningVC reports whether the colour built has a VC between its two edges, with the
// smallest such carrier (empty when the edges are already joined by stones).
func (b *Builder) WinningVC() (bool, hex.Bitset) {
	if b.g == nil {
		return false, hex.Bitset{}
	}
	if b.connected {
		return true, hex.Bitset{}
	}
	s := b.slot[b.pairIdx(b.edgeA, b.edgeB)]
	switch {
	case s < 0:
		return false, hex.Bitset{}
	case b.packed:
		if l := b.full1[s]; len(l) > 0 {
			return true, hex.Bitset{l[0].Carrier[0]}
		}
	default:
		if l := b.full[s]; len(l) > 0 {
			return true, l[0].Carrier
		}
	}
	return false, hex.Bitset{}
}

// WinningSemis returns the SCs between the colour's two edges (nil when the edges are
// already joined). The slice belongs to the Builder (see Full).
func (b *Builder) WinningSemis() []Conn {
	if b.g == nil || b.connected {
		return nil
	}
	if s := b.edgeSlot(); s >= 0 {
		return b.semi[s]
	}
	return nil
}

// WinningFulls returns the VCs between the colour's two edges (see WinningSemis).
func (b *Builder) WinningFulls() []Conn {
	if b.g == nil || b.connected {
		return nil
	}
	if s := b.edgeSlot(); s >= 0 {
		return b.full[s]
	}
	return nil
}

// Mustplay returns where the opponent of the colour built, when it is to move, must
// play to avoid a loss proved by these connections: the intersection of the carriers of
// every winning SC and VC of the colour built (keys are in the carriers), restricted to
// empty cells. threatened is false when the colour has no winning SC or VC, and then the
// set is every empty cell. When the colour built already has a winning VC the
// intersection (possibly empty) is still returned: the opponent is lost whatever it
// plays outside it, and very likely inside it too.
func (b *Builder) Mustplay() (must hex.Bitset, threatened bool) {
	must = b.empty
	if b.g == nil {
		return hex.Bitset{}, false
	}
	if b.connected {
		return hex.Bitset{}, true
	}
	for _, c := range b.WinningFulls() {
		must = must.And(c.Carrier)
		threatened = true
	}
	for _, c := range b.WinningSemis() {
		must = must.And(c.Carrier)
		threatened = true
	}
	return must, threatened
}

// Truncated reports whether a list limit (Config.MaxFull or MaxSemi) dropped a
// connection since the last Build (including the Plays after it). When it is false, the
// lists hold every minimal connection the rules deduce, and a Builder updated by Play
// holds exactly the connections a Build of the same position would.
func (b *Builder) Truncated() bool { return b.truncated }
