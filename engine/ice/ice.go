package ice

import (
	"github.com/hexlearn/hexlearn/engine/hex"
)

// Result is what one FillIn found. All sets hold cells of the board (no edges).
type Result struct {
	// Dead holds the cells found dead and filled (with the colour given to FillIn).
	Dead hex.Bitset
	// Captured holds, per colour (index hex.Black or hex.White), the cells found
	// captured by that colour and filled with its stones.
	Captured [3]hex.Bitset
	// Filled is the number of stones FillIn placed; Undo them with Board.Undo.
	Filled int
}

// FilledCells returns every cell FillIn filled (dead and captured).
func (r *Result) FilledCells() hex.Bitset {
	return r.Dead.Or(r.Captured[hex.Black]).Or(r.Captured[hex.White])
}

// Analyzer runs inferior cell analysis. It keeps scratch buffers so that analysis
// allocates nothing once warmed up; it is not safe for concurrent use.
type Analyzer struct {
	queue  []hex.Cell
	roots  [hex.NumPoints]hex.Cell // per group root index scratch, see groupNeighbourhoods
	groups []groupInfo
	pats   *PatternSet
	// NoPatterns disables the pattern file (the rule-based detectors stay on).
	NoPatterns bool
	// NoCaptured disables captured-set detection (dead cells only).
	NoCaptured bool
}

type groupInfo struct {
	root hex.Cell
	nbrs hex.Bitset // empty cells adjacent to the group
	edge [2]bool    // contains the colour's first / second edge
}

// NewAnalyzer returns an analyzer using the embedded pattern file.
func NewAnalyzer() *Analyzer {
	return &Analyzer{queue: make([]hex.Cell, 0, hex.NumPoints), groups: make([]groupInfo, 0, 64), pats: DefaultPatterns()}
}

// adjacentFor reports whether points u and v (both empty cells or stones/edges of
// colour x, u != v) are adjacent in x's cell adjacency graph: they touch, they are in
// one x-group, or they touch a common x-group.
func adjacentFor(b *hex.Board, u, v hex.Cell, x hex.Color) bool {
	g := b.Geometry()
	cu, cv := b.At(u), b.At(v)
	if cu == x && cv == x {
		return b.Find(u) == b.Find(v)
	}
	if cu == x {
		u, v = v, u
		cu, cv = cv, cu
	}
	// u is empty here.
	if cv == x {
		rv := b.Find(v)
		for _, w := range g.Neighbours(u) {
			if b.At(w) == x && b.Find(w) == rv {
				return true
			}
		}
		return false
	}
	// both empty
	if g.NeighbourSet(u).Has(v) {
		return true
	}
	for _, w := range g.Neighbours(u) {
		if b.At(w) != x {
			continue
		}
		rw := b.Find(w)
		for _, w2 := range g.Neighbours(v) {
			if b.At(w2) == x && b.Find(w2) == rw {
				return true
			}
		}
	}
	return false
}

// cliqueFor reports whether the x-neighbourhood of cell c (its neighbours that are
// empty or x-coloured, edges included) is a clique of x's adjacency graph. The content
// of c itself is ignored.
func cliqueFor(b *hex.Board, c hex.Cell, x hex.Color) bool {
	var pts [6]hex.Cell
	n := 0
	o := x.Opp()
	for _, q := range b.Geometry().Neighbours(c) {
		if b.At(q) != o {
			pts[n] = q
			n++
		}
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			if !adjacentFor(b, pts[i], pts[j], x) {
				return false
			}
		}
	}
	return true
}

// IsCliqueDead reports whether cell c is dead by the neighbourhood-clique rule: for
// Black or for White, the neighbours of c that are not the opponent's form a clique
// (groups contracted), so c lies on no minimal winning path of that colour and hence
// (Hex being a maker-breaker game) on none of the other colour either. The content of c
// is ignored, so the test also applies to an occupied cell.
func IsCliqueDead(b *hex.Board, c hex.Cell) bool {
	return cliqueFor(b, c, hex.Black) || cliqueFor(b, c, hex.White)
}

// flood returns the points reachable from start through points of allowed (start is
// included even if not in allowed).
func (a *Analyzer) flood(g *hex.Geometry, start hex.Cell, allowed *hex.Bitset) hex.Bitset {
	var seen hex.Bitset
	seen.Set(start)
	q := append(a.queue[:0], start)
	for len(q) > 0 {
		p := q[len(q)-1]
		q = q[:len(q)-1]
		nb := g.NeighbourSet(p).And(*allowed).AndNot(seen)
		for r := nb.First(); r != hex.NoCell; r = nb.Next(r + 1) {
			seen.Set(r)
			q = append(q, r)
		}
	}
	a.queue = q
	return seen
}

// CutsetDead returns the empty cells that are dead for colour x by the clique-cutset
// rule: cells from which no x-path reaches one of x's edges at all, and, for every
// x-group (edges included), the cells that the group's empty neighbours (a clique of
// x's graph) cut off from the edges not in the group.
func (a *Analyzer) CutsetDead(b *hex.Board, x hex.Color) hex.Bitset {
	g := b.Geometry()
	e1, e2 := hex.EdgesOf(x)
	empty := b.EmptyCells()
	var allowed hex.Bitset = empty.Or(b.Stones(x))
	allowed.Set(e1)
	allowed.Set(e2)
	r1 := a.flood(g, e1, &allowed)
	r2 := a.flood(g, e2, &allowed)
	dead := empty.AndNot(r1.And(r2))
	// groups of x
	a.groups = a.groups[:0]
	st := b.Stones(x)
	addTo := func(p hex.Cell) {
		r := b.Find(p)
		for i := range a.groups {
			if a.groups[i].root == r {
				a.groups[i].nbrs = a.groups[i].nbrs.Or(g.NeighbourSet(p).And(empty))
				return
			}
		}
		gi := groupInfo{root: r, nbrs: g.NeighbourSet(p).And(empty)}
		gi.edge[0] = r == b.Find(e1)
		gi.edge[1] = r == b.Find(e2)
		a.groups = append(a.groups, gi)
	}
	addTo(e1)
	addTo(e2)
	for p := st.First(); p != hex.NoCell; p = st.Next(p + 1) {
		addTo(p)
	}
	for i := range a.groups {
		gi := &a.groups[i]
		if gi.edge[0] && gi.edge[1] {
			continue // the game is over
		}
		k := gi.nbrs
		al := allowed.AndNot(k)
		// A minimal x-path meets the clique k in at most two consecutive cells, so
		// every other cell of it is reachable, avoiding k, from an edge not in the
		// group (the path leaves a group holding an edge through k at once).
		var reach hex.Bitset
		if !gi.edge[0] {
			reach = reach.Or(a.flood(g, e1, &al))
		}
		if !gi.edge[1] {
			reach = reach.Or(a.flood(g, e2, &al))
		}
		dead = dead.Or(empty.AndNot(k).AndNot(reach))
	}
	return dead
}

// DeadCells returns the empty cells found dead by the clique rule, the clique-cutset
// rule and the dead patterns of the pattern file.
func (a *Analyzer) DeadCells(b *hex.Board) hex.Bitset {
	empty := b.EmptyCells()
	dead := a.CutsetDead(b, hex.Black).Or(a.CutsetDead(b, hex.White))
	rest := empty.AndNot(dead)
	for c := rest.First(); c != hex.NoCell; c = rest.Next(c + 1) {
		if IsCliqueDead(b, c) {
			dead.Set(c)
		}
	}
	if !a.NoPatterns && a.pats != nil {
		dead = dead.Or(a.pats.MatchDead(b).And(empty))
	}
	return dead
}

// capturedPair reports whether the empty adjacent cells u and v are x-captured: after
// an x-stone on either one, the other is dead.
func capturedPair(b *hex.Board, u, v hex.Cell, x hex.Color) bool {
	to := b.ToMove()
	b.PlayStone(x, v)
	ok := IsCliqueDead(b, u)
	b.Undo()
	b.SetToMove(to)
	if !ok {
		return false
	}
	b.PlayStone(x, u)
	ok = IsCliqueDead(b, v)
	b.Undo()
	b.SetToMove(to)
	return ok
}

// CapturedPairs returns the union of disjoint x-captured pairs of empty cells found
// greedily in cell order (each pair is x-captured on its own; disjoint x-captured sets
// may be filled together since deadness survives extra stones).
func (a *Analyzer) CapturedPairs(b *hex.Board, x hex.Color) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	empty := b.EmptyCells()
	for u := empty.First(); u != hex.NoCell; u = empty.Next(u + 1) {
		if out.Has(u) {
			continue
		}
		// cheap necessary condition: u touches an x stone or x edge
		touches := false
		for _, w := range g.Neighbours(u) {
			if b.At(w) == x {
				touches = true
				break
			}
		}
		if !touches {
			continue
		}
		nb := g.NeighbourSet(u).And(empty).AndNot(out)
		for v := nb.Next(u + 1); v != hex.NoCell; v = nb.Next(v + 1) {
			if capturedPair(b, u, v, x) {
				out.Set(u)
				out.Set(v)
				break
			}
		}
	}
	return out
}

// fill places stones of colour c on every cell of s, keeping the side to move.
func fill(b *hex.Board, s hex.Bitset, c hex.Color) int {
	to := b.ToMove()
	n := 0
	for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
		b.PlayStone(c, p)
		n++
	}
	b.SetToMove(to)
	return n
}

// FillIn fills dead cells with deadColor and captured sets with their owner's stones,
// repeating until no further fill-in is found or the game is decided. The stones are
// played on b (undo them with r.Filled calls of b.Undo; the side to move is kept). Each
// fill-in preserves the game value of the position.
func (a *Analyzer) FillIn(b *hex.Board, deadColor hex.Color, r *Result) {
	*r = Result{}
	if deadColor != hex.Black && deadColor != hex.White {
		deadColor = hex.Black
	}
	for b.Winner() == hex.Empty {
		changed := false
		if d := a.DeadCells(b); !d.IsEmpty() {
			r.Filled += fill(b, d, deadColor)
			r.Dead = r.Dead.Or(d)
			changed = true
			if b.Winner() != hex.Empty {
				break
			}
		}
		if !a.NoCaptured {
			for _, x := range [2]hex.Color{hex.Black, hex.White} {
				c := a.CapturedPairs(b, x)
				if !a.NoPatterns && a.pats != nil && c.IsEmpty() {
					c = a.pats.MatchCaptured(b, x)
				}
				if !c.IsEmpty() {
					r.Filled += fill(b, c, x)
					r.Captured[x] = r.Captured[x].Or(c)
					changed = true
					break // re-run dead-cell analysis before the other colour
				}
			}
		}
		if !changed {
			break
		}
	}
}

// FillInFor is FillIn restricted to one colour: dead cells and x-captured sets are
// filled with x's stones, repeatedly; the other colour's captured sets are left alone.
// Proof-set reduction uses it with the loser as x (every filled cell leaves the proof).
func (a *Analyzer) FillInFor(b *hex.Board, x hex.Color, r *Result) {
	*r = Result{}
	for b.Winner() == hex.Empty {
		changed := false
		if d := a.DeadCells(b); !d.IsEmpty() {
			r.Filled += fill(b, d, x)
			r.Dead = r.Dead.Or(d)
			changed = true
			if b.Winner() != hex.Empty {
				break
			}
		}
		if !a.NoCaptured {
			c := a.CapturedPairs(b, x)
			if !a.NoPatterns && a.pats != nil && c.IsEmpty() {
				c = a.pats.MatchCaptured(b, x)
			}
			if !c.IsEmpty() {
				r.Filled += fill(b, c, x)
				r.Captured[x] = r.Captured[x].Or(c)
				changed = true
			}
		}
		if !changed {
			break
		}
	}
}

// Undo removes the stones of a FillIn from b.
func (r *Result) Undo(b *hex.Board) {
	to := b.ToMove()
	for i := 0; i < r.Filled; i++ {
		b.Undo()
	}
	b.SetToMove(to)
	r.Filled = 0
}

// Vulnerable returns the empty cells that are x-vulnerable on b by the clique rule,
// with a killer for each (killers[c] is an adjacent empty cell where an opponent stone
// kills c). A cell that is dead already is not reported. killers must have room for
// hex.NumPoints entries or be nil.
func (a *Analyzer) Vulnerable(b *hex.Board, x hex.Color, killers []hex.Cell) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	o := x.Opp()
	empty := b.EmptyCells()
	to := b.ToMove()
	for c := empty.First(); c != hex.NoCell; c = empty.Next(c + 1) {
		nb := g.NeighbourSet(c).And(empty)
		for k := nb.First(); k != hex.NoCell; k = nb.Next(k + 1) {
			b.PlayStone(o, k)
			dead := IsCliqueDead(b, c)
			b.Undo()
			if dead {
				out.Set(c)
				if killers != nil {
					killers[c] = k
				}
				break
			}
		}
	}
	b.SetToMove(to)
	return out
}

// CaptureDominated returns the empty cells c for which an x-stone at another empty
// cell d makes c dead or part of an x-captured pair {c, v} (c is then
// x-capture-dominated by d). When the slices are not nil (room for every cell),
// dominators[c] records d and partners[c] records v (NoCell when c becomes dead).
func (a *Analyzer) CaptureDominated(b *hex.Board, x hex.Color, dominators, partners []hex.Cell) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	empty := b.EmptyCells()
	to := b.ToMove()
	for d := empty.First(); d != hex.NoCell; d = empty.Next(d + 1) {
		b.PlayStone(x, d)
		// candidates: empty cells near d
		near := g.NeighbourSet(d).And(empty)
		for c := near.First(); c != hex.NoCell; c = near.Next(c + 1) {
			if out.Has(c) {
				continue
			}
			hit := IsCliqueDead(b, c)
			partner := hex.NoCell
			if !hit {
				nb := g.NeighbourSet(c).And(empty)
				nb.Clear(d)
				for v := nb.First(); v != hex.NoCell; v = nb.Next(v + 1) {
					if capturedPair(b, c, v, x) {
						hit = true
						partner = v
						break
					}
				}
			}
			if hit {
				out.Set(c)
				if dominators != nil {
					dominators[c] = d
				}
				if partners != nil {
					partners[c] = partner
				}
			}
		}
		b.Undo()
	}
	b.SetToMove(to)
	return out
}
