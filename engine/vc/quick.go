package vc

import (
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Quick is a fast, sound and incomplete test for virtual connections between a colour's
// two edges, cheap enough for every node of a search (about a microsecond on 8x8, where
// H-search takes 0.2–0.8 ms). It knows two links, special cases of H-search's base VCs
// and its AND and OR rules:
//
//   - two groups of the colour (its chains and its two edges) with two empty common
//     neighbours are connected whatever the opponent plays first (if the opponent takes
//     one cell, the colour takes the other): the two-bridge between stones, the bridge
//     of a second-row stone to its edge (edge template II), two chains touching two
//     common cells anywhere;
//   - a stone on the third row is joined to its edge by the ziggurat (edge template
//     IIIa, templates.go) when its region holds no opponent stone.
//
// Groups are merged greedily into super-groups through such links, each link's cells
// taken from the cells no link used before, so the carriers of all links used are
// pairwise disjoint; a super-group's empty neighbourhood is the union of its members',
// so chains of links grow. Because the carriers are disjoint, the colour can answer
// every intrusion into one carrier inside that carrier, and a super-group holding both
// edges is a second-player connection (a VC): the claim is sound. It is incomplete:
// other templates, AND through empty cells and the links another greedy order would
// find are missed.
//
// Analyse also finds first-player connections of one move (semi connections, SCs): an
// empty cell outside every link that is joined to the super-groups of both edges, to
// each by adjacency or by two more free common neighbours. The side to move wins with
// one; against the opponent's, it must play inside their carriers (the key, the cells
// of its two links and the carriers of the links of both super-groups).
//
// A Quick keeps its buffers: after the first position of a board size Analyse
// allocates nothing. It is not safe for concurrent use.
type Quick struct {
	// OpponentOnly makes Analyse look at the colour not to move alone: its VC (a win
	// for it) and its SCs (the mover's mustplay), not the mover's own connections. It
	// halves the cost, and in a search that analyses every node loses little: the
	// mover's connections can only have shrunk with the stone just played, and the
	// children searched lie inside the parent's mustplay.
	OpponentOnly bool

	gen   uint32
	stamp [hex.NumPoints]uint32 // stamp[root] == gen: root's group has slot[root]
	slot  [hex.NumPoints]int16

	n      int                  // number of groups (initial super-groups)
	nw     int                  // words of a Bitset that hold the board's cells
	nbr    [quickMax]hex.Bitset // empty neighbours of each super-group (valid at roots)
	carry  [quickMax]hex.Bitset // carriers of the links inside each super-group
	active [quickMax]int16      // the super-group roots
	up     [quickMax]int16      // the slot a group was merged into (itself at roots)
	used   hex.Bitset           // cells of every link used
	empty  hex.Bitset           // the empty cells of the position built

	tmplGeom [2]*hex.Geometry // the geometry tmpl was made for, per colour
	tmpl     [2][]tmplInst    // the ziggurat placements of each colour
}

// quickMax bounds the groups of one colour: its stones (at most half the largest board,
// rounded up) plus its two edges.
const quickMax = hex.MaxCells/2 + 3

// QuickResult is what Quick.Analyse finds.
type QuickResult struct {
	// Winner is the colour that wins: it has a VC between its edges (or a finished
	// chain), or it is to move and has an SC. Empty otherwise.
	Winner hex.Color
	// HasMustplay is set when Winner is Empty and the opponent of the side to move has
	// an SC; Mustplay is then the intersection of the carriers of the SCs found, the
	// cells where the side to move must play (it is never empty: an empty intersection
	// makes the opponent the Winner).
	HasMustplay bool
	Mustplay    hex.Bitset
}

// Connected reports whether colour c has a VC between its two edges by Quick's rule
// (or a finished chain). carrier holds the cells of every link used (a superset of the
// connection's carrier); it is empty when the answer is false.
func (q *Quick) Connected(b *hex.Board, c hex.Color) (bool, hex.Bitset) {
	if q.build(b, c) {
		return true, q.used
	}
	return false, hex.Bitset{}
}

// Decided returns the colour that Analyse finds the winner, or Empty: Quick is a
// search.Terminal.
func (q *Quick) Decided(b *hex.Board) hex.Color {
	return q.Analyse(b).Winner
}

// DecidedMustplay returns what Analyse finds: Quick is a search.MustplayTerminal.
func (q *Quick) DecidedMustplay(b *hex.Board) (hex.Color, bool, hex.Bitset) {
	r := q.Analyse(b)
	return r.Winner, r.HasMustplay, r.Mustplay
}

// Analyse decides b by both colours' Quick connections: a colour with a VC wins; else
// the side to move wins with an SC; else the opponent's SCs give the side to move's
// mustplay (and with an empty intersection of their carriers, the opponent wins).
// With OpponentOnly only the opponent's VC and SCs are looked at.
func (q *Quick) Analyse(b *hex.Board) QuickResult {
	me := b.ToMove()
	opp := me.Opp()
	if w := b.Winner(); w != hex.Empty {
		return QuickResult{Winner: w}
	}
	g := b.Geometry()
	if q.build(b, opp) {
		return QuickResult{Winner: opp}
	}
	var r QuickResult
	oppMust, oppHas := q.semi(g, true)
	if q.OpponentOnly {
		if oppHas {
			if oppMust.IsEmpty() {
				return QuickResult{Winner: opp}
			}
			r.HasMustplay, r.Mustplay = true, oppMust
		}
		return r
	}
	if q.build(b, me) {
		return QuickResult{Winner: me}
	}
	if _, has := q.semi(g, false); has {
		return QuickResult{Winner: me}
	}
	if oppHas {
		if oppMust.IsEmpty() {
			return QuickResult{Winner: opp}
		}
		r.HasMustplay, r.Mustplay = true, oppMust
	}
	return r
}

// build computes colour c's super-groups of b and reports whether its edges are in
// one.
func (q *Quick) build(b *hex.Board, c hex.Color) bool {
	q.gen++
	if q.gen == 0 { // wrapped: forget every stamp
		clear(q.stamp[:])
		q.gen = 1
	}
	g := b.Geometry()
	empty := b.EmptyCells()
	q.empty = empty
	nw := (g.N + 63) >> 6
	q.nw = nw
	q.n = 0
	q.used = hex.Bitset{}
	ea, eb := hex.EdgesOf(c)
	add := func(p hex.Cell) {
		r := b.Find(p)
		var s int16
		if q.stamp[r] == q.gen {
			s = q.slot[r]
		} else {
			s = int16(q.n)
			q.n++
			q.stamp[r], q.slot[r] = q.gen, s
			q.nbr[s] = hex.Bitset{}
			q.carry[s] = hex.Bitset{}
			q.up[s] = s
		}
		nb := g.NeighbourSet(p)
		for i := 0; i < nw; i++ {
			q.nbr[s][i] |= nb[i]
		}
	}
	add(ea)
	add(eb)
	stones := b.StonesPtr(c)
	for p := stones.First(); p != hex.NoCell; p = stones.Next(p + 1) {
		add(p)
	}
	for s := 0; s < q.n; s++ {
		for i := 0; i < nw; i++ {
			q.nbr[s][i] &= empty[i]
		}
		q.active[s] = int16(s)
	}
	sa, sb := q.slot[b.Find(ea)], q.slot[b.Find(eb)]
	if sa == sb {
		return true
	}
	// The ziggurat (edge template IIIa) joins a stone on the third row to its edge.
	// A group that two free cells already join to the edge is left to the sweep (a
	// two-cell link spends fewer cells).
	ci := 0
	if c == hex.White {
		ci = 1
	}
	if q.tmplGeom[ci] != g {
		// the ziggurat only: the templates with a support stone are not checked here
		q.tmpl[ci] = q.tmpl[ci][:0]
		for _, t := range templateInstances(g, c) {
			if t.support.IsEmpty() {
				q.tmpl[ci] = append(q.tmpl[ci], t)
			}
		}
		q.tmplGeom[ci] = g
	}
	opp := b.StonesPtr(c.Opp())
	for k := range q.tmpl[ci] {
		t := &q.tmpl[ci][k]
		if b.At(t.anchor) != c || t.region.Intersects(opp) {
			continue
		}
		x := q.find(q.slot[b.Find(t.edge)])
		y := q.find(q.slot[b.Find(t.anchor)])
		if x == y || twoFree(&q.nbr[x], &q.nbr[y], &q.used, nw) {
			continue
		}
		carrier := t.region.And(empty)
		if carrier.Intersects(&q.used) {
			continue
		}
		q.merge(x, y, &carrier)
		if q.find(sa) == q.find(sb) {
			return true
		}
	}
	na := 0
	for s := 0; s < q.n; s++ {
		if q.up[s] == int16(s) {
			q.active[na] = int16(s)
			na++
		}
	}
	sa, sb = q.find(sa), q.find(sb)
	// One sweep: each super-group in turn is checked against the later ones (the
	// earlier ones were checked against it, and it has not grown since), and after it
	// grew, against all others again until it stops growing. A super-group grows only on
	// its turn, so afterwards no two super-groups have two free common cells.
	for i := 0; i < na; i++ {
		x := q.active[i]
		from := i + 1
		for grew := true; grew; {
			grew = false
			for j := from; j < na; {
				if j == i {
					j++
					continue
				}
				y := q.active[j]
				if !twoFree(&q.nbr[x], &q.nbr[y], &q.used, nw) {
					j++
					continue
				}
				c1, c2, _ := twoCommon(&q.nbr[x], &q.nbr[y], &q.used, nw)
				var link hex.Bitset
				link.Set(c1)
				link.Set(c2)
				q.merge(x, y, &link)
				if y == sa {
					sa = x
				}
				if y == sb {
					sb = x
				}
				if sa == sb {
					return true
				}
				copy(q.active[j:na-1], q.active[j+1:na])
				na--
				if j < i {
					i--
				}
				grew = true
			}
			from = 0
		}
	}
	q.active[0], q.active[1] = sa, sb // the two edges' super-groups, for semi
	return false
}

// find returns the super-group of group slot s.
func (q *Quick) find(s int16) int16 {
	for q.up[s] != s {
		s = q.up[s]
	}
	return s
}

// merge joins super-group y into x through a link carrying the cells of link (which
// must be free of q.used).
func (q *Quick) merge(x, y int16, link *hex.Bitset) {
	for k := 0; k < q.nw; k++ {
		q.nbr[x][k] |= q.nbr[y][k]
		q.carry[x][k] |= q.carry[y][k] | link[k]
		q.used[k] |= link[k]
	}
	q.up[y] = x
}

// twoFree reports whether x and y have two common cells outside used (in the first nw
// words); it is small enough to be inlined in the pair loop.
func twoFree(x, y, used *hex.Bitset, nw int) bool {
	w := x[0] & y[0] &^ used[0]
	if w&(w-1) != 0 {
		return true
	}
	return nw > 1 && twoFreeRest(x, y, used, nw, w != 0)
}

// twoFreeRest is twoFree for boards of more than 64 cells; one is whether the first
// word held one common free cell.
//
//go:noinline
func twoFreeRest(x, y, used *hex.Bitset, nw int, one bool) bool {
	n := 0
	if one {
		n = 1
	}
	for i := 1; i < nw; i++ {
		w := x[i] & y[i] &^ used[i]
		n += bits.OnesCount64(w)
		if n >= 2 {
			return true
		}
	}
	return false
}

// twoCommon returns two cells common to x and y and not in used, if there are two,
// looking at the first nw words.
func twoCommon(x, y, used *hex.Bitset, nw int) (hex.Cell, hex.Cell, bool) {
	first := hex.NoCell
	for i := 0; i < nw; i++ {
		w := x[i] & y[i] &^ used[i]
		for w != 0 {
			p := hex.Cell(i<<6 + bits.TrailingZeros64(w))
			if first != hex.NoCell {
				return first, p, true
			}
			first = p
			w &= w - 1
		}
	}
	return hex.NoCell, hex.NoCell, false
}

// semi looks for the SCs of the colour of the last build that failed (whose edges'
// super-groups are q.active[0] and q.active[1]): a free cell (empty, in no link) that
// joins both, each by adjacency or by two more free common cells (all distinct). With
// any it reports true; when all is set it returns the intersection of all their
// carriers, else it stops at the first.
func (q *Quick) semi(g *hex.Geometry, all bool) (hex.Bitset, bool) {
	sa, sb := q.active[0], q.active[1]
	a, b := &q.nbr[sa], &q.nbr[sb]
	base := q.carry[sa].Or(q.carry[sb])
	var must hex.Bitset
	found := false
	for i := 0; i < q.nw; i++ {
		w := q.empty[i] &^ q.used[i]
		for w != 0 {
			x := hex.Cell(i<<6 + bits.TrailingZeros64(w))
			w &= w - 1
			nx := g.NeighbourSet(x)
			inA, inB := a.Has(x), b.Has(x)
			if !inA && !twoFree(nx, a, &q.used, q.nw) || !inB && !twoFree(nx, b, &q.used, q.nw) {
				continue
			}
			carrier := base
			carrier.Set(x)
			used := q.used
			used.Set(x)
			if !inA {
				c1, c2, _ := twoCommon(nx, a, &used, q.nw)
				carrier.Set(c1)
				carrier.Set(c2)
				used.Set(c1)
				used.Set(c2)
			}
			if !inB {
				c1, c2, ok := twoCommon(nx, b, &used, q.nw)
				if !ok {
					continue
				}
				carrier.Set(c1)
				carrier.Set(c2)
			}
			if !all {
				return carrier, true
			}
			if found {
				must = must.And(carrier)
			} else {
				must, found = carrier, true
			}
		}
	}
	return must, found
}
