package ice

import (
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Local domination (see the package doc for the proof). For a P-move at a and a P-move
// at an adjacent cell b, the region R is a, b and their neighbours (10 positions of
// the infinite hex grid around a); its ring is the 14 positions next to R. A shape is
// those 24 positions for one of the six directions from a to b: a first, then b, the 8
// other positions of R, then the ring. Off-board positions stand for the edge the
// geometry gives them (a row off the board is North or South, else a column off it is
// West or East), so an edge region is the same shape with some positions fixed.

const (
	domR   = 10 // positions of R (a, b and 8 others)
	domPos = 24 // positions of a shape (R and its ring)
)

// The codes of a shape position, relative to the player P to move.
const (
	codeEmpty = 0 // an empty cell
	codeOwn   = 1 // a P-stone
	codeBlock = 2 // an opponent stone or the opponent's edge
	codeEdge  = 3 // one of P's edges
)

// domDirs are the six neighbour offsets (dx, dy) of a cell y*W+x.
var domDirs = [6][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, 1}}

type domShape struct {
	off [domPos][2]int8
	adj [domPos]uint32 // positions adjacent in the infinite grid
	far [3]int8        // b's neighbours not next to a
}

var domShapes = func() (s [6]domShape) {
	for d := range domDirs {
		s[d] = newDomShape(domDirs[d][0], domDirs[d][1])
	}
	return s
}()

func hexDist(dx, dy int) int {
	return max(abs(dx), abs(dy), abs(dx+dy))
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// newDomShape lists the positions of the shape for b at offset (bx, by) from a: a, b,
// the rest of R and the ring, each group in row-major order.
func newDomShape(bx, by int) domShape {
	var s domShape
	n := 0
	add := func(x, y int) {
		s.off[n] = [2]int8{int8(x), int8(y)}
		n++
	}
	add(0, 0)
	add(bx, by)
	dist := func(x, y int) int { return min(hexDist(x, y), hexDist(x-bx, y-by)) }
	for _, want := range []int{1, 2} {
		for y := -3; y <= 3; y++ {
			for x := -3; x <= 3; x++ {
				if dist(x, y) == want {
					add(x, y)
				}
			}
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			dx := int(s.off[j][0]) - int(s.off[i][0])
			dy := int(s.off[j][1]) - int(s.off[i][1])
			if hexDist(dx, dy) == 1 {
				s.adj[i] |= 1 << j
			}
		}
	}
	k := 0
	for i := 2; i < domR; i++ {
		if s.adj[1]&(1<<i) != 0 && s.adj[0]&(1<<i) == 0 {
			s.far[k] = int8(i)
			k++
		}
	}
	return s
}

// domKey is the canonical encoding of a local region: P's colour (bit 0), the
// direction (bits 1-3) and the codes of positions 2..23 (two bits each).
type domKey uint64

// domCache memoises the brute force per domKey: an open-addressing table of words
// key<<2 | 2 | result, read and written atomically, so the solver's workers share it.
// A full probe sequence is not stored (the brute force is rerun next time).
const domCacheBits = 22

var (
	domCacheOnce sync.Once
	domCache     []atomic.Uint64
)

func domLookup(k domKey) bool {
	domCacheOnce.Do(func() { domCache = make([]atomic.Uint64, 1<<domCacheBits) })
	h := uint64(k) * 0x9E3779B97F4A7C15 >> (64 - domCacheBits)
	want := uint64(k) << 2
	for i := uint64(0); i < 4; i++ {
		slot := &domCache[(h+i)&(1<<domCacheBits-1)]
		v := slot.Load()
		if v == 0 {
			r := dominatesKey(k)
			e := want | 2
			if r {
				e |= 1
			}
			slot.Store(e)
			return r
		}
		if v&^3 == want {
			return v&1 != 0
		}
	}
	return dominatesKey(k)
}

// dominatesKey decides rules 1 and 2 of the package doc for the region encoded by k.
// Each compares, for every colouring of R's other empty cells, the ports (open or P
// ring cells, P's edges) of a P-component of R through a cell with P's sure points
// (R's P-cells, the ring's P-stones and P's edges) of the weaker fill.
func dominatesKey(k domKey) bool {
	white := k&1 != 0
	sh := &domShapes[(k>>1)&7]
	var code [domPos]uint8
	for i := 2; i < domPos; i++ {
		code[i] = uint8(k>>(4+2*(i-2))) & 3
	}
	// the two P-edges: positions of code 3, told apart by the side of a they lie on
	var edge [2]uint32
	for i := 0; i < domPos; i++ {
		if code[i] != codeEdge {
			continue
		}
		d := sh.off[i][1]
		if white {
			d = sh.off[i][0]
		}
		if d < 0 {
			edge[0] |= 1 << i
		} else {
			edge[1] |= 1 << i
		}
	}
	var adj [domPos]uint32
	var fixed, free, rCells, ports uint32
	for i := 0; i < domPos; i++ {
		adj[i] = sh.adj[i]
		switch code[i] {
		case codeEdge:
			if edge[0]&(1<<i) != 0 {
				adj[i] |= edge[0]
			} else {
				adj[i] |= edge[1]
			}
			fixed |= 1 << i
			ports |= 1 << i
		case codeOwn:
			fixed |= 1 << i
			if i < domR {
				rCells |= 1 << i
			} else {
				ports |= 1 << i
			}
		case codeEmpty:
			if i < domR {
				rCells |= 1 << i
				if i >= 2 {
					free |= 1 << i
				}
			} else {
				ports |= 1 << i
			}
		}
	}
	const bitA, bitB = 1, 2
	nbrs := func(s uint32) uint32 {
		var n uint32
		for t := s; t != 0; t &= t - 1 {
			n |= adj[bits.TrailingZeros32(t)]
		}
		return n
	}
	flood := func(seed, allowed uint32) uint32 {
		seen := seed
		for front := seed; front != 0; {
			nx := nbrs(front) & allowed &^ seen
			seen |= nx
			front = nx
		}
		return seen
	}
	// covers reports whether the R-component of hi's P-cells through cell bit u has
	// its ports pairwise joined through lo's sure P points, or adjacent.
	covers := func(hi, u, lo uint32) bool {
		t := nbrs(flood(u, hi&rCells)) & ports
		if t&(t-1) == 0 {
			return true
		}
		for rest := t; rest != 0; rest &= rest - 1 {
			p := uint32(1) << bits.TrailingZeros32(rest)
			reach := flood(p, lo|p)
			if t&^(reach|nbrs(reach)) != 0 {
				return false
			}
		}
		return true
	}
	// rule 1: (a: P, b: Q) completion-dominates (b: P, a: Q)
	ok := true
	for sub := uint32(0); ; sub = (sub - free) & free {
		if !covers(fixed|sub|bitB, bitB, fixed|sub|bitA) {
			ok = false
			break
		}
		if sub == free {
			break
		}
	}
	if ok {
		return true
	}
	// rule 2: after P at a, {b, c} is P-captured (either cell of the pair held by Q
	// with the other held by P completion-dominates both held by P)
	for cs := free & sh.adj[0] & sh.adj[1]; cs != 0; cs &= cs - 1 {
		c := cs & -cs
		rest := free &^ c
		ok := true
		for sub := uint32(0); ; sub = (sub - rest) & rest {
			all := fixed | sub | bitA | bitB | c
			if !covers(all, bitB, all&^bitB) || !covers(all, c, all&^c) {
				ok = false
				break
			}
			if sub == rest {
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// domGeom holds, for one geometry, the board point of every shape position per anchor
// cell and direction (NoCell off the board is never used: off-board positions get the
// edge the geometry gives them).
type domGeom struct {
	g   *hex.Geometry
	pts [][6][domPos]hex.Cell
}

func newDomGeom(g *hex.Geometry) *domGeom {
	d := &domGeom{g: g, pts: make([][6][domPos]hex.Cell, g.N)}
	for c := 0; c < g.N; c++ {
		x, y := g.XY(hex.Cell(c))
		for dir := range domShapes {
			for i, o := range domShapes[dir].off {
				nx, ny := x+int(o[0]), y+int(o[1])
				var p hex.Cell
				switch {
				case ny < 0:
					p = hex.North
				case ny >= g.H:
					p = hex.South
				case nx < 0:
					p = hex.West
				case nx >= g.W:
					p = hex.East
				default:
					p = g.At(nx, ny)
				}
				d.pts[c][dir][i] = p
			}
		}
	}
	return d
}

// domKeyAt returns the key of the region with a at cell a and b in direction dir for
// player x, given the position codes per point.
func (d *domGeom) keyAt(codes *[hex.NumPoints]uint8, a hex.Cell, dir int, white bool) domKey {
	pts := &d.pts[a][dir]
	k := uint64(dir) << 1
	if white {
		k |= 1
	}
	for i := 2; i < domPos; i++ {
		k |= uint64(codes[pts[i]]) << (4 + 2*(i-2))
	}
	return domKey(k)
}

// LocalDominated returns the cells of within (empty cells) that a local brute force
// proves dominated for x, the player to move, by an adjacent cell of within: an x-move
// at the dominator is at least as good as one at the cell. Cells are taken in index
// order, and a cell is reported only when one of its dominators is in within and not
// reported before it, so following dominators[c] from a reported cell always ends at
// a cell of within that is not reported (no cycle of equivalent cells is dropped
// whole). dominators, when not nil, must have room for every cell. A pair whose cell
// c has its three neighbours away from the dominator all empty is not looked at (c
// could join two of them, and such pairs are almost never dominated). The verdict of
// each region is memoised in a table shared by all analyzers (2^22 words, 32 MB,
// allocated at the first call), so a call allocates nothing and costs one table probe
// per pair looked at, plus the brute force (about 2 µs) for each region not seen
// before.
func (a *Analyzer) LocalDominated(b *hex.Board, x hex.Color, within hex.Bitset, dominators []hex.Cell) hex.Bitset {
	return a.LocalDominatedAmong(b, x, within, within, dominators)
}

// LocalDominatedAmong is LocalDominated reporting only cells of cells (the dominators
// are still any cells of within): the solver looks at the cells on the board's border
// only, where the dominations that matter are, at a fraction of the cost.
func (a *Analyzer) LocalDominatedAmong(b *hex.Board, x hex.Color, cells, within hex.Bitset, dominators []hex.Cell) hex.Bitset {
	var out hex.Bitset
	if x != hex.Black && x != hex.White {
		return out
	}
	g := b.Geometry()
	if a.dom == nil || a.dom.g != g {
		a.dom = newDomGeom(g)
	}
	within = within.And(b.EmptyCells())
	if within.Count() < 2 {
		return out
	}
	codes := &a.codes
	o := x.Opp()
	for c := 0; c < g.N; c++ {
		switch b.At(hex.Cell(c)) {
		case x:
			codes[c] = codeOwn
		case o:
			codes[c] = codeBlock
		default:
			codes[c] = codeEmpty
		}
	}
	e1, e2 := hex.EdgesOf(x)
	f1, f2 := hex.EdgesOf(o)
	codes[e1], codes[e2], codes[f1], codes[f2] = codeEdge, codeEdge, codeBlock, codeBlock
	white := x == hex.White
	cells = cells.And(within)
	for c := cells.First(); c != hex.NoCell; c = cells.Next(c + 1) {
		// c plays b; the dominator d is its neighbour in direction dir from d's view
		for dir := range domDirs {
			d := a.dom.pts[c][dir^1][1] // the neighbour of c opposite to dir
			if !g.IsCell(d) || !within.Has(d) || out.Has(d) {
				continue
			}
			// b's three neighbours away from a all empty: the P-stone at b could
			// join two of them that a cannot (no rule holds unless the ring's
			// stones join them; that case is left out for speed)
			pts := &a.dom.pts[d][dir]
			far := &domShapes[dir].far
			if codes[pts[far[0]]]|codes[pts[far[1]]]|codes[pts[far[2]]] == codeEmpty {
				continue
			}
			if domLookup(a.dom.keyAt(codes, d, dir, white)) {
				out.Set(c)
				if dominators != nil {
					dominators[c] = d
				}
				break
			}
		}
	}
	return out
}
