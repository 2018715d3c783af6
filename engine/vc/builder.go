package vc

import (
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// pending is a deduced connection waiting to be added (deductions are collected
// first and added after the lists they were read from are no longer iterated).
type pending struct {
	i, j int32
	semi bool
	c    Conn
}

// Builder computes and holds the connections of one colour. It is reused across
// builds: after the first Build on a board size, Build and Play allocate nothing
// (H-search). It is not safe for concurrent use.
type Builder struct {
	cfg   Config
	g     *hex.Geometry
	color hex.Color
	empty hex.Bitset // empty cells of the position built
	own   hex.Bitset // stones of the colour built

	np        int
	pt        []hex.Cell // point index -> cell (empty cell or chain root)
	chain     []bool     // point is a chain (stone group or edge group)
	edgeGrp   []bool     // point is a group containing one of the colour's edges
	cellPoint [hex.NumPoints]int32
	edgeA     int32 // point of the colour's first edge
	edgeB     int32 // point of the second edge
	connected bool  // the two edges are already one group

	// The lists of the endpoint pairs that have any are stored densely, in the order
	// the pairs were first given a connection (slot s holds pair touched[s]); slot
	// maps a pair index i*np+j (i<j) to its slot, or -1. The small slot table and the
	// dense lists keep the AND rule's scans in cache better than a table of np*np
	// slices.
	full, semi [][]Conn // per slot
	// full1 and semi1 are the lists of the one-word instance (packed.go): while packed
	// is set they hold the connections and full and semi are stale.
	full1, semi1 [][]conn1
	packed       bool
	// doneAnd holds per endpoint pair (under both i*np+j and j*np+i, so that the AND
	// rule reads one point's pairs from one row), for carriers of at most two words,
	// the intersection of the carriers of the processed VCs ([0]) and SCs ([1]) of the
	// pair (all ones when there is none; only pairs with a slot are read). The AND
	// rule only combines with processed partners that avoid some cells, and skips a
	// pair whose intersection meets them without reading its list. Entries leaving a
	// list may leave it smaller than the true intersection, which only makes the test
	// weaker.
	doneAnd [2][][2]uint64
	slot    []int32      // per pair index: slot or -1
	touched []int32      // per slot: pair index
	nbrFull []hex.Bitset // per point: points with a VC to it
	nbrSemi []hex.Bitset // per point: points with an SC to it

	queue []int32
	qhead int
	inQ   []bool
	// orQueue holds the pairs waiting for the OR rule of Config.GreedyOr (from orHead
	// on; inOrQ marks them), worked on when queue is empty.
	orQueue []int32
	orHead  int
	inOrQ   []bool

	pend   []pending
	snap   []Conn
	snap1  []conn1
	pend1  []pending1
	cross  []pending                    // crossing-rule SCs waiting to be added (at top level)
	sufN   []vecN                       // OR rule: suffix intersections of an SC list
	suf1   []vec1                       // the same with one-word carriers (orStart1)
	suf1c  []vec1c                      // the same for orStart1c
	suf2   []vec2                       // the same with two-word carriers (orStart2)
	bridge [hex.NumPoints][2]hex.Bitset // edge-bridge carriers of an empty cell (XH strong)

	oldPt []hex.Cell // Play: the points before the move
	remap []int32    // Play: old point -> new point (-1: gone)
	moved []pending  // Play: the rewritten connections of one pair, to add again

	prepPts                    int // prepare: points the buffers are sized for
	prepFull, prepSemi, prepOr int // prepare: limits the buffers are sized for

	builtCfg  Config     // the configuration of the last Build
	truncated bool       // a list limit dropped a connection since the last Build
	rebuilds  int        // Play calls that rebuilt from scratch (for tests and benchmarks)
	journal   []snapshot // states saved by PlayUndoable, most recent last (undo.go)

	orFull  []Conn  // the VCs of the pair the OR rule works on (read only during it)
	orFull1 []conn1 // the same for the one-word instance

	tmpl     [3][]tmplInst    // edge-template placements per colour (Config.EdgeTemplates)
	tmplGeom [3]*hex.Geometry // the geometry tmpl was computed for, per colour

	tmp  Conn  // the AND rule's result being added (copied into a list by addFull/addSemi)
	tmp1 conn1 // the same for the one-word instance

	won  bool
	work int // connections added since the last reset (Config.MaxWork)
	nw   int // number of bitset words that can hold cells

	// wide makes Build use the general engine instance for every board size (nw = all
	// words of a bitset) instead of the one- or two-word instance for boards of at most
	// 64 or 128 cells; tests use it to check that they give the same connections.
	wide bool

	dec *decompScratch // Decomposition's buffers, made on first use
}

// NewBuilder returns a Builder with configuration cfg; an invalid cfg is replaced by
// DefaultConfig (use SetConfig to get the error).
func NewBuilder(cfg Config) *Builder {
	if cfg.Validate() != nil {
		cfg = DefaultConfig()
	}
	return &Builder{cfg: cfg}
}

// SetConfig changes the configuration used by the next Build.
func (b *Builder) SetConfig(cfg Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	b.cfg = cfg
	return nil
}

// Config returns the configuration.
func (b *Builder) Config() Config { return b.cfg }

// Color returns the colour of the last build.
func (b *Builder) Color() hex.Color { return b.color }

func (b *Builder) pairIdx(i, j int32) int32 {
	if i > j {
		i, j = j, i
	}
	return i*int32(b.np) + j
}

// reset clears the lists of the previous build.
func (b *Builder) reset() {
	for s, idx := range b.touched {
		b.full[s] = b.full[s][:0]
		b.semi[s] = b.semi[s][:0]
		b.full1[s] = b.full1[s][:0]
		b.semi1[s] = b.semi1[s][:0]
		b.setSlot(idx, -1, int32(b.np))
		b.inQ[idx] = false
	}
	b.clearOrQueue()
	b.touched = b.touched[:0]
	for i := 0; i < b.np; i++ {
		b.nbrFull[i] = hex.Bitset{}
		b.nbrSemi[i] = hex.Bitset{}
	}
	b.queue = b.queue[:0]
	b.qhead = 0
	b.pend = b.pend[:0]
	b.pend1 = b.pend1[:0]
	b.cross = b.cross[:0]
	b.won = false
	b.work = 0
	b.connected = false
	b.truncated = false
}

// Build computes the connections of colour c on board from scratch. The board is
// only read. It empties the stack of states PlayUndoable saved.
func (b *Builder) Build(board *hex.Board, c hex.Color) error {
	b.journal = b.journal[:0]
	return b.build(board, c)
}

// build is Build without touching the undo journal (Play's rebuilds use it).
func (b *Builder) build(board *hex.Board, c hex.Color) error {
	if board == nil {
		return ErrNoBoard
	}
	if c != hex.Black && c != hex.White {
		return fmt.Errorf("%w: got %v", ErrColor, c)
	}
	g := board.Geometry()
	b.prepare(g)
	b.reset()
	b.builtCfg = b.cfg
	b.g = g
	b.nw = (g.N + 63) / 64
	if b.wide {
		b.nw = len(hex.Bitset{})
	}
	b.packed = b.nw == 1 && !b.cfg.XH // the packed records keep no stepping stones
	b.color = c
	b.empty = board.EmptyCells()
	b.own = board.Stones(c)
	b.assignPoints(board)
	b.grow()
	if b.cfg.XH && b.cfg.StrongCrossing {
		b.computeBridges(board)
	}
	// base rule
	base := Conn{Key: hex.NoCell, Rule: RuleBase}
	for p := hex.Cell(0); int(p) < g.N; p++ {
		ip := b.cellPoint[p]
		if ip < 0 {
			continue
		}
		for _, q := range g.Neighbours(p) {
			iq := b.cellPoint[q]
			if iq < 0 || iq == ip || (q < p && !q.IsEdge()) {
				continue
			}
			b.addFull(ip, iq, &base)
		}
	}
	if b.cfg.EdgeTemplates {
		b.addTemplates(board, hex.NoCell)
	}
	b.run()
	return nil
}

// assignPoints numbers the points of b.color on board as Build does: the empty cells
// in cell order, then the chains (the first edge's group, the second edge's group, then
// the other chains in the order of their first stone), and sets cellPoint, pt, chain,
// edgeGrp, np, edgeA, edgeB and connected.
func (b *Builder) assignPoints(board *hex.Board) {
	g := b.g
	c := b.color
	b.np = 0
	b.pt = b.pt[:0]
	b.chain = b.chain[:0]
	b.edgeGrp = b.edgeGrp[:0]
	for p := range b.cellPoint[:g.N] {
		b.cellPoint[p] = -1
	}
	for e := hex.North; e <= hex.East; e++ {
		b.cellPoint[e] = -1
	}
	ea, eb := hex.EdgesOf(c)
	newPoint := func(p hex.Cell, isChain bool) int32 {
		b.pt = append(b.pt, p)
		b.chain = append(b.chain, isChain)
		b.edgeGrp = append(b.edgeGrp, false)
		b.np++
		return int32(b.np - 1)
	}
	rootPoint := func(r hex.Cell) int32 {
		// a root is either a stone cell or an edge; cellPoint of a root cell is set
		// when the root is first seen.
		if b.cellPoint[r] >= 0 {
			return b.cellPoint[r]
		}
		idx := newPoint(r, true)
		b.cellPoint[r] = idx
		return idx
	}
	for p := hex.Cell(0); int(p) < g.N; p++ {
		if board.At(p) == hex.Empty {
			b.cellPoint[p] = newPoint(p, false)
		}
	}
	// chains: roots first (a root may be an edge or a stone cell)
	ra, rb := board.Find(ea), board.Find(eb)
	b.edgeA = rootPoint(ra)
	b.edgeB = rootPoint(rb)
	b.edgeGrp[b.edgeA] = true
	b.edgeGrp[b.edgeB] = true
	b.connected = b.edgeA == b.edgeB
	stones := board.Stones(c)
	for p := stones.First(); p != hex.NoCell; p = stones.Next(p + 1) {
		b.cellPoint[p] = rootPoint(board.Find(p))
	}
	b.cellPoint[ea] = b.edgeA
	b.cellPoint[eb] = b.edgeB
}

// grow clears the per-point neighbour sets for b.np points (prepare sized them).
func (b *Builder) grow() {
	for i := 0; i < b.np; i++ {
		b.nbrFull[i] = hex.Bitset{}
		b.nbrSemi[i] = hex.Bitset{}
	}
}

// arenaBudget is the most bytes prepare reserves for the connection lists of one
// Builder; larger limits make the lists grow on demand instead.
const arenaBudget = 256 << 20

// prepare sizes every buffer for boards of geometry g (at most g.N+2 points) once,
// so that builds and Plays on that board size allocate nothing afterwards: the pair
// tables, the work queue, the scratch stacks and one arena holding, for every possible
// endpoint pair, room for MaxFull VCs and MaxSemi SCs (when that fits arenaBudget;
// on boards of at most 64 cells a second one of one-word records, packed.go). A
// Builder that prepared a larger board keeps its buffers.
func (b *Builder) prepare(g *hex.Geometry) {
	pts := g.N + 2
	if pts <= b.prepPts && b.cfg.MaxFull == b.prepFull && b.cfg.MaxSemi == b.prepSemi && b.cfg.MaxOr == b.prepOr {
		return
	}
	pts = max(pts, b.prepPts)
	b.prepPts, b.prepFull, b.prepSemi, b.prepOr = pts, b.cfg.MaxFull, b.cfg.MaxSemi, b.cfg.MaxOr
	pairs := pts * pts
	slots := pts * (pts - 1) / 2
	b.slot = make([]int32, pairs)
	for i := range b.slot {
		b.slot[i] = -1
	}
	b.inQ = make([]bool, pairs)
	b.inOrQ = make([]bool, pairs)
	b.orQueue = make([]int32, 0, 2*slots+4096)
	b.orHead = 0
	b.touched = make([]int32, 0, slots)
	b.queue = make([]int32, 0, 2*slots+8192)
	b.qhead = 0
	b.nbrFull = make([]hex.Bitset, pts)
	b.nbrSemi = make([]hex.Bitset, pts)
	b.pt = make([]hex.Cell, 0, pts)
	b.chain = make([]bool, 0, pts)
	b.edgeGrp = make([]bool, 0, pts)
	b.oldPt = make([]hex.Cell, 0, pts)
	b.remap = make([]int32, 0, pts)
	b.moved = make([]pending, 0, b.cfg.MaxFull+b.cfg.MaxSemi)
	b.snap = make([]Conn, 0, b.cfg.MaxFull+b.cfg.MaxSemi)
	b.snap1 = make([]conn1, 0, b.cfg.MaxFull+b.cfg.MaxSemi)
	b.sufN = make([]vecN, 0, b.cfg.MaxSemi+1)
	b.suf1 = make([]vec1, 0, b.cfg.MaxSemi+1)
	b.suf1c = make([]vec1c, 0, b.cfg.MaxSemi+1)
	b.suf2 = make([]vec2, 0, b.cfg.MaxSemi+1)
	// the OR rule emits at most sum_{k<MaxOr} C(MaxSemi-1, k) VCs per call
	orOut, c := 0, 1
	for k := 1; k < b.cfg.MaxOr && orOut < 1<<16; k++ {
		c = c * (b.cfg.MaxSemi - k) / k
		orOut += c
	}
	orOut = max(min(orOut, 1<<16), pts) // GreedyOr: at most one VC per cell
	b.pend = make([]pending, 0, orOut+16)
	b.pend1 = make([]pending1, 0, orOut+16)
	b.full = make([][]Conn, slots)
	b.semi = make([][]Conn, slots)
	b.full1 = make([][]conn1, slots)
	b.semi1 = make([][]conn1, slots)
	b.doneAnd = [2][][2]uint64{make([][2]uint64, pairs), make([][2]uint64, pairs)}
	per := b.cfg.MaxFull + b.cfg.MaxSemi
	if slots*per*int(unsafe.Sizeof(Conn{})) <= arenaBudget {
		arena := make([]Conn, slots*per)
		for s := 0; s < slots; s++ {
			o := s * per
			b.full[s] = arena[o : o : o+b.cfg.MaxFull]
			b.semi[s] = arena[o+b.cfg.MaxFull : o+b.cfg.MaxFull : o+per]
		}
	}
	if pts <= 64+2 && slots*per*int(unsafe.Sizeof(conn1{})) <= arenaBudget {
		// the one-word instance's records (boards of at most 64 cells)
		arena1 := make([]conn1, slots*per)
		for s := 0; s < slots; s++ {
			o := s * per
			b.full1[s] = arena1[o : o : o+b.cfg.MaxFull]
			b.semi1[s] = arena1[o+b.cfg.MaxFull : o+b.cfg.MaxFull : o+per]
		}
	}
}

// computeBridges finds, for every empty cell k, the carriers of its edge bridges: two
// adjacent empty cells, both adjacent to k and to one of the colour's edges, where k
// itself does not touch that edge (XH paper, Fig. 6).
func (b *Builder) computeBridges(board *hex.Board) {
	g := b.g
	ea, eb := hex.EdgesOf(b.color)
	for k := hex.Cell(0); int(k) < g.N; k++ {
		b.bridge[k] = [2]hex.Bitset{}
		if !b.empty.Has(k) {
			continue
		}
		for ei, e := range [2]hex.Cell{ea, eb} {
			ns := g.NeighbourSet(k)
			if ns.Has(e) {
				continue
			}
			es := g.NeighbourSet(e)
			cand := ns.And(*es).And(b.empty)
			if cand.Count() != 2 {
				continue
			}
			p := cand.First()
			q := cand.Next(p + 1)
			if g.NeighbourSet(p).Has(q) {
				b.bridge[k][ei] = cand
			}
		}
	}
}

// newSlot gives pair idx (which has none) a slot with empty lists.
func (b *Builder) newSlot(idx int32) int32 {
	s := int32(len(b.touched))
	b.touched = append(b.touched, idx)
	b.setSlot(idx, s, int32(b.np))
	b.full[s] = b.full[s][:0]
	b.semi[s] = b.semi[s][:0]
	b.full1[s] = b.full1[s][:0]
	b.semi1[s] = b.semi1[s][:0]
	b.setDoneAnd(0, idx, allOnes2)
	b.setDoneAnd(1, idx, allOnes2)
	return s
}

// allOnes2 is the intersection of no carriers (see Builder.doneAnd).
var allOnes2 = [2]uint64{^uint64(0), ^uint64(0)}

// setDoneAnd sets doneAnd[kind] of the pair with canonical index idx (both orders).
func (b *Builder) setDoneAnd(kind int, idx int32, d [2]uint64) {
	np := int32(b.np)
	b.doneAnd[kind][idx] = d
	b.doneAnd[kind][idx%np*np+idx/np] = d
}

// doneAndOf returns the intersection of the carriers of the processed connections in
// list (see Builder.doneAnd).
func doneAndOf(list []Conn) [2]uint64 {
	d := allOnes2
	for k := range list {
		if c := &list[k]; c.done {
			d[0] &= c.Carrier[0]
			d[1] &= c.Carrier[1]
		}
	}
	return d
}

// resetDoneAnd recomputes doneAnd of the pair of slot s from its lists.
func (b *Builder) resetDoneAnd(s int32) {
	idx := b.touched[s]
	b.setDoneAnd(0, idx, doneAndOf(b.full[s]))
	b.setDoneAnd(1, idx, doneAndOf(b.semi[s]))
}

// setSlot records slot s (or -1) for the pair with canonical index idx = i*np+j (i < j)
// under both i*np+j and j*np+i, so that the AND rule reads the slots of one point's
// pairs from one row of the table.
func (b *Builder) setSlot(idx, s, np int32) {
	b.slot[idx] = s
	b.slot[idx%np*np+idx/np] = s
}

// fullOf returns the VC list of pair idx (nil when it has none).
func (b *Builder) fullOf(idx int32) []Conn {
	if s := b.slot[idx]; s >= 0 {
		return b.full[s]
	}
	return nil
}

// semiOf returns the SC list of pair idx (nil when it has none).
func (b *Builder) semiOf(idx int32) []Conn {
	if s := b.slot[idx]; s >= 0 {
		return b.semi[s]
	}
	return nil
}

// popOr takes the next pair off the OR rule's queue (Config.GreedyOr).
func (b *Builder) popOr() (int32, bool) {
	if b.orHead >= len(b.orQueue) {
		b.orQueue = b.orQueue[:0]
		b.orHead = 0
		return 0, false
	}
	idx := b.orQueue[b.orHead]
	b.orHead++
	b.inOrQ[idx] = false
	if b.orHead > 1024 && b.orHead*2 > len(b.orQueue) {
		n := copy(b.orQueue, b.orQueue[b.orHead:])
		b.orQueue = b.orQueue[:n]
		b.orHead = 0
	}
	return idx, true
}

// clearOrQueue empties the OR rule's queue (a search stopped early may leave pairs in
// it; Play renumbers the pairs).
func (b *Builder) clearOrQueue() {
	for _, idx := range b.orQueue[b.orHead:] {
		b.inOrQ[idx] = false
	}
	b.orQueue = b.orQueue[:0]
	b.orHead = 0
}

func (b *Builder) enqueue(idx int32) {
	if !b.inQ[idx] {
		b.inQ[idx] = true
		b.queue = append(b.queue, idx)
	}
}

// makeRoom ends minimalPos: with the list (supersets of the new connection removed) at
// its limit, it drops the largest entry, or refuses the new connection (position pos)
// when it would itself be the largest.
func makeRoom[R any](b *Builder, list []R, pos, limit int) ([]R, int, bool) {
	if n := len(list); n >= limit {
		b.truncated = true
		if pos >= n {
			return list, 0, false
		}
		list = list[:n-1]
	}
	return list, pos, true
}

// replaces reports whether connection c (carrier size size), whose carrier contains
// that of the kept entry e, takes e's place: an SC with the same carrier and a smaller
// key (of equal carriers the smallest key is kept), or, under XH-search, one that
// brings stepping stones e lacks (mergeStones).
func (b *Builder) replaces(e, c *Conn, size int16, keyed bool) bool {
	if keyed && e.size == size && c.Key < e.Key {
		return true
	}
	return b.mergeStones(e, c, size, keyed)
}

// mergeStones handles a connection c whose carrier equals that of the kept entry e
// (same key for SCs) under XH-search: stepping stones are not part of minimality, so
// which of two equal-carrier derivations comes first would decide SS* and with it
// what the crossing rule can find. When c brings stepping stones e lacks, c takes the
// union of both sets (each stone keeps its own Lemma 5 partition of the same carrier)
// and replaces e as a new connection, so that the AND and crossing rules see the
// richer set; it reports whether it did.
func (b *Builder) mergeStones(e, c *Conn, size int16, keyed bool) bool {
	if !b.cfg.XH || e.size != size || (keyed && e.Key != c.Key) || c.Stones.SubsetOf(&e.Stones) {
		return false
	}
	c.Stones = c.Stones.Or(e.Stones)
	c.Rule = e.Rule // the rule shown is the first derivation's
	return true
}

// pointsOf returns the set of points (as indices) of the cells of carrier x plus
// point o, so that the AND scans can drop those partners with one mask per word.
// Every carrier cell is an empty cell and so a point.
func (b *Builder) pointsOf(x *hex.Bitset, o int32) hex.Bitset {
	var ps hex.Bitset
	ps.Set(hex.Cell(o))
	for w := 0; w < b.nw && w < len(x); w++ {
		for word := x[w]; word != 0; word &= word - 1 {
			if p := b.cellPoint[w<<6+bits.TrailingZeros64(word)]; p >= 0 {
				ps.Set(hex.Cell(p))
			}
		}
	}
	return ps
}

// insertAt inserts a copy of c (carrier size size, not yet processed) at position pos.
func insertAt(list []Conn, pos int, c *Conn, size int16) []Conn {
	n := len(list)
	list = append(list, Conn{})
	copy(list[pos+1:], list[pos:n])
	list[pos] = *c
	list[pos].size = size
	list[pos].done = false
	list[pos].ored = false
	return list
}

// crossEmit emits, for each of the three choices of C3, the SCs between stepping
// stones in SS(C1)\SS(C2) and SS(C2)\SS(C1) (stepping stones empty, Lemma 6).
func (b *Builder) crossEmit(c1, c2, c3 *Conn, carrier hex.Bitset, key hex.Cell) {
	tri := [3]*Conn{c1, c2, c3}
	for t := 0; t < 3; t++ {
		a, d := tri[(t+1)%3], tri[(t+2)%3] // C1, C2 (tri[t] is C3)
		s1 := a.Stones.AndNot(d.Stones)
		s2 := d.Stones.AndNot(a.Stones)
		if s1.IsEmpty() || s2.IsEmpty() {
			continue
		}
		for p := s1.First(); p != hex.NoCell; p = s1.Next(p + 1) {
			for q := s2.First(); q != hex.NoCell; q = s2.Next(q + 1) {
				ip, iq := b.cellPoint[p], b.cellPoint[q]
				if ip < 0 || iq < 0 || ip == iq {
					continue
				}
				b.cross = append(b.cross, pending{i: ip, j: iq, semi: true,
					c: Conn{Carrier: carrier, Key: key, Rule: RuleCross}})
			}
		}
	}
}

// The deduction engine (the AND, OR and crossing rules, minimality and the work
// queue) is generated from one template, internal/gen/hsearch.go.tmpl, once per
// carrier width: hsearch_w1.go for boards of at most 64 cells (one-word carriers, in
// lists of its own 16-byte records, packed.go; H-search), hsearch_w1c.go for the same
// boards on the Conn lists (XH-search, and Play after a packed Build), hsearch_w2.go
// for at most 128 cells and hsearch_wn.go for any board (whole bitsets). Build picks
// the instance by b.nw and b.packed; all give the same connections in the same order
// (TestTwoWordPathsEqualWide). Regenerate with "go generate ./engine/vc".
//
//go:generate go run ./internal/gen/run

// addFull adds a VC between points i and j unless it is not minimal (the instance for
// b.nw); it returns whether it was added.
func (b *Builder) addFull(i, j int32, c *Conn) bool {
	switch b.nw {
	case 1:
		if !b.packed {
			return b.addFull1c(i, j, c)
		}
		c1 := pack1(c)
		return b.addFull1(i, j, &c1)
	case 2:
		return b.addFull2(i, j, c)
	}
	return b.addFullN(i, j, c)
}

// addSemi adds an SC between points i and j unless it is not minimal, then applies
// the OR rule and (with XH) the crossing rules to it (the instance for b.nw).
func (b *Builder) addSemi(i, j int32, c *Conn) bool {
	switch b.nw {
	case 1:
		if !b.packed {
			return b.addSemi1c(i, j, c)
		}
		c1 := pack1(c)
		return b.addSemi1(i, j, &c1)
	case 2:
		return b.addSemi2(i, j, c)
	}
	return b.addSemiN(i, j, c)
}

// run processes the work queue until it is empty or the win is found (the instance
// for b.nw).
func (b *Builder) run() {
	switch b.nw {
	case 1:
		if b.packed {
			b.run1()
		} else {
			b.run1c()
		}
	case 2:
		b.run2()
	default:
		b.runN()
	}
}

// pairIndex is pairIdx with the number of points given.
func pairIndex(i, j, np int32) int32 {
	if i > j {
		i, j = j, i
	}
	return i*np + j
}

// equalDominates reports whether a kept SC (carrier size esize, key ekey) whose
// carrier is inside a result's base (size size) dominates the results (key key, or
// hex.NoCell when the results' keys vary and their carriers are strictly larger than
// the base). An SC with an equal carrier but a larger key would be replaced by the
// result (see minimalPos), and under XH-search one with the same key takes the
// result's stepping stones (mergeStones), so equality dominates only otherwise.
func equalDominates(esize, size int16, ekey, key hex.Cell, xh bool) bool {
	return esize < size || key == hex.NoCell || ekey < key || (ekey == key && !xh)
}
