package ice

import (
	"github.com/hexlearn/hexlearn/engine/hex"
)

// Result is what one FillIn found. All sets hold cells of the board (no edges).
type Result struct {
	// Dead holds the cells found dead and filled (with the colour given to FillIn).
	Dead hex.Bitset
	// Captured holds, per colour (index hex.Black or hex.White), the cells found
	// captured by that colour, or permanently inferior for its opponent (the
	// inferior patterns of the pattern file), and filled with its stones.
	Captured [3]hex.Bitset
	// Support holds, per colour, the empty cells (of the board before the fill)
	// that the colour's inferior-pattern fills relied on holding no opponent stone.
	// A proof set of that colour's win on the filled board becomes one of the
	// position before the fill by adding the colour's Captured and Support cells.
	// It lies within the colour's Captured cells and their SupportBound (a support
	// cell may be captured by the same colour later in the fill).
	Support [3]hex.Bitset
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
	dil    dilator              // flood's shifts and masks for the last geometry
	dom    *domGeom             // LocalDominated's shape points for the last geometry
	codes  [hex.NumPoints]uint8 // LocalDominated's position codes
	// NoPatterns disables the pattern file (the rule-based detectors stay on).
	NoPatterns bool
	// NoCaptured disables captured-set detection (dead cells only; it also
	// disables the inferior patterns).
	NoCaptured bool
	// NoInferior disables the inferior patterns of the pattern file (the dead and
	// captured ones stay on).
	NoInferior bool
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

// cliqueFor reports whether the x-neighbourhood of cell c (its neighbours that are
// empty or x-coloured, edges included) is a clique of x's adjacency graph. The content
// of c itself is ignored. It computes each x point's group root once, and the roots of
// the x-groups an empty point touches only when a pair needs them (most cells fail
// at their first pair of empty points), then tests the pairs as adjacentFor does.
func cliqueFor(b *hex.Board, c hex.Cell, x hex.Color) bool {
	var pts [6]hex.Cell
	var root [6]hex.Cell     // group root of an x point, NoCell for an empty one
	var touch [6][6]hex.Cell // roots of the x-groups an empty point touches
	var nt [6]int8           // their number; -1 until computed
	g := b.Geometry()
	n := 0
	o := x.Opp()
	for _, q := range g.Neighbours(c) {
		switch b.At(q) {
		case o:
			continue
		case x:
			root[n] = b.Find(q)
		default:
			root[n] = hex.NoCell
			nt[n] = -1
		}
		pts[n] = q
		n++
	}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			ri, rj := root[i], root[j]
			switch {
			case ri != hex.NoCell && rj != hex.NoCell:
				if ri != rj {
					return false
				}
			case ri != hex.NoCell || rj != hex.NoCell:
				u, r := j, ri
				if ri == hex.NoCell {
					u, r = i, rj
				}
				if nt[u] < 0 {
					nt[u] = touching(b, g, pts[u], x, &touch[u])
				}
				ok := false
				for k := int8(0); k < nt[u]; k++ {
					if touch[u][k] == r {
						ok = true
						break
					}
				}
				if !ok {
					return false
				}
			default:
				if g.NeighbourSet(pts[i]).Has(pts[j]) {
					continue
				}
				if nt[i] < 0 {
					nt[i] = touching(b, g, pts[i], x, &touch[i])
				}
				if nt[i] == 0 {
					return false
				}
				if nt[j] < 0 {
					nt[j] = touching(b, g, pts[j], x, &touch[j])
				}
				ok := false
				for k := int8(0); k < nt[i] && !ok; k++ {
					for l := int8(0); l < nt[j]; l++ {
						if touch[i][k] == touch[j][l] {
							ok = true
							break
						}
					}
				}
				if !ok {
					return false
				}
			}
		}
	}
	return true
}

// touching writes into t the group roots of the x points adjacent to q (with
// repetitions) and returns their number.
func touching(b *hex.Board, g *hex.Geometry, q hex.Cell, x hex.Color, t *[6]hex.Cell) int8 {
	k := int8(0)
	for _, w := range g.Neighbours(q) {
		if b.At(w) == x {
			t[k] = b.Find(w)
			k++
		}
	}
	return k
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
// included even if not in allowed). Boards of at most 64 cells use flood64's
// word-parallel shifts; larger ones a breadth-first search.
func (a *Analyzer) flood(g *hex.Geometry, start hex.Cell, allowed *hex.Bitset) hex.Bitset {
	if g.N <= 64 {
		return a.dilatorFor(g).flood64(start, allowed)
	}
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

// dilator holds, for one geometry of at most 64 cells, the cell masks flood64 shifts
// with (cell y*W+x has the neighbours x±1, y±1 and the diagonals (x+1, y-1),
// (x-1, y+1)) and the edges' rows and columns.
type dilator struct {
	g                 *hex.Geometry
	w                 uint
	cells             uint64
	notLeft, notRight uint64    // cells with x > 0, x < W-1
	lines             [4]uint64 // cells next to North, South, West, East
}

func (a *Analyzer) dilatorFor(g *hex.Geometry) *dilator {
	d := &a.dil
	if d.g == g {
		return d
	}
	*d = dilator{g: g, w: uint(g.W)}
	for y := 0; y < g.H; y++ {
		for x := 0; x < g.W; x++ {
			bit := uint64(1) << uint(g.At(x, y))
			d.cells |= bit
			if x > 0 {
				d.notLeft |= bit
			}
			if x < g.W-1 {
				d.notRight |= bit
			}
			if y == 0 {
				d.lines[0] |= bit
			}
			if y == g.H-1 {
				d.lines[1] |= bit
			}
			if x == 0 {
				d.lines[2] |= bit
			}
			if x == g.W-1 {
				d.lines[3] |= bit
			}
		}
	}
	return d
}

var edgePoints = [4]hex.Cell{hex.North, hex.South, hex.West, hex.East}

// flood64 is flood for boards of at most 64 cells: the cells are one word, the four
// edges four bits, and the reached set grows a ring at a time by shifts.
func (d *dilator) flood64(start hex.Cell, allowed *hex.Bitset) hex.Bitset {
	cellsA := allowed[0] & d.cells
	var edgesA, seenE, frontE uint8
	for k, e := range edgePoints {
		if allowed.Has(e) {
			edgesA |= 1 << k
		}
	}
	var seen uint64
	if start.IsEdge() {
		seenE = 1 << (start - hex.North)
	} else {
		seen = 1 << uint(start)
	}
	front := seen
	frontE = seenE
	w := d.w
	for {
		l, r := front&d.notLeft, front&d.notRight
		n := (r<<1 | l>>1 | front<<w | front>>w | r>>(w-1) | l<<(w-1)) & d.cells
		var ne uint8
		for k := 0; k < 4; k++ {
			if frontE&(1<<k) != 0 {
				n |= d.lines[k]
			}
			if front&d.lines[k] != 0 {
				ne |= 1 << k
			}
		}
		n &= cellsA &^ seen
		ne &= edgesA &^ seenE
		if n == 0 && ne == 0 {
			break
		}
		seen |= n
		seenE |= ne
		front, frontE = n, ne
	}
	var out hex.Bitset
	out[0] = seen
	for k, e := range edgePoints {
		if seenE&(1<<k) != 0 {
			out.Set(e)
		}
	}
	return out
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
func Fill(b *hex.Board, s hex.Bitset, c hex.Color) int {
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
	if deadColor != hex.Black && deadColor != hex.White {
		deadColor = hex.Black
	}
	a.fillIn(b, deadColor, [2]hex.Color{hex.Black, hex.White}, 2, r)
}

// FillInFor is FillIn restricted to one colour: dead cells and x-captured sets are
// filled with x's stones, repeatedly; the other colour's captured sets are left alone.
// Proof-set reduction uses it with the loser as x (every filled cell leaves the proof).
func (a *Analyzer) FillInFor(b *hex.Board, x hex.Color, r *Result) {
	a.fillIn(b, x, [2]hex.Color{x}, 1, r)
}

// fillIn fills dead cells with deadColor and the captured sets of the first n colours
// of caps with their owner, re-running the dead-cell analysis after every change, until
// nothing changes or the game is over.
func (a *Analyzer) fillIn(b *hex.Board, deadColor hex.Color, caps [2]hex.Color, n int, r *Result) {
	*r = Result{}
	for b.Winner() == hex.Empty {
		changed := false
		if d := a.DeadCells(b); !d.IsEmpty() {
			r.Filled += Fill(b, d, deadColor)
			r.Dead = r.Dead.Or(d)
			changed = true
			if b.Winner() != hex.Empty {
				break
			}
		}
		if !a.NoCaptured {
			for _, x := range caps[:n] {
				c := a.CapturedPairs(b, x)
				if !a.NoPatterns && a.pats != nil && c.IsEmpty() {
					c = a.pats.MatchCaptured(b, x)
				}
				if !a.NoPatterns && !a.NoInferior && a.pats != nil && c.IsEmpty() {
					var sup hex.Bitset
					c, sup = a.pats.MatchInferior(b, x)
					r.Support[x] = r.Support[x].Or(sup)
				}
				if !c.IsEmpty() {
					r.Filled += Fill(b, c, x)
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

// SupportBound returns the empty cells of b next to a cell of filled, filled itself
// left out. With b the board before a FillIn and filled the cells it filled for one
// colour (Result.Captured), it holds the colour's Result.Support: every empty cell
// of an inferior pattern touches one of its targets. Callers that keep only the
// filled cells use it in place of Support.
func SupportBound(b *hex.Board, filled hex.Bitset) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	for c := filled.First(); c != hex.NoCell; c = filled.Next(c + 1) {
		out = out.Or(*g.NeighbourSet(c))
	}
	return out.And(b.EmptyCells()).AndNot(filled)
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
	return a.VulnerableIn(b, x, b.EmptyCells(), killers)
}

// VulnerableIn is Vulnerable restricted to the cells of within (the killers may be
// any empty cells).
func (a *Analyzer) VulnerableIn(b *hex.Board, x hex.Color, within hex.Bitset, killers []hex.Cell) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	o := x.Opp()
	empty := b.EmptyCells()
	within = within.And(empty)
	to := b.ToMove()
	for c := within.First(); c != hex.NoCell; c = within.Next(c + 1) {
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
	return a.CaptureDominatedIn(b, x, b.EmptyCells(), dominators, partners)
}

// CaptureDominatedIn is CaptureDominated restricted to cells c and dominators d in
// within (the partners v may be any empty cells).
func (a *Analyzer) CaptureDominatedIn(b *hex.Board, x hex.Color, within hex.Bitset, dominators, partners []hex.Cell) hex.Bitset {
	var out hex.Bitset
	g := b.Geometry()
	empty := b.EmptyCells()
	within = within.And(empty)
	to := b.ToMove()
	for d := within.First(); d != hex.NoCell; d = within.Next(d + 1) {
		// candidates: cells of within near d
		near := g.NeighbourSet(d).And(within).AndNot(out)
		if near.IsEmpty() {
			continue
		}
		b.PlayStone(x, d)
		for c := near.First(); c != hex.NoCell; c = near.Next(c + 1) {
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
