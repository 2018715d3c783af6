package search

import "github.com/hexlearn/hexlearn/engine/hex"

// tacticsTable remembers the tactics evaluator's answers by position
// (MCTSParams.TacticsTable): the Result of each position it evaluated and, once the
// search has asked for them, its move scores (Orderer). An MCTS asks the tactics
// (H-search with fill-in and the circuit, about 4 ms on 11x11) about the same
// position again within a search (transpositions three or more plies down) and from
// one move's search to the next (the position after the move played and the reply was
// a node of the previous tree, and so were many of its children). The answers are a
// function of the position alone, so a hit returns exactly what a call would.
//
// It is direct-mapped by the board's Zobrist key and every hit is checked against
// the stones, the side to move and the board's size, so a collision costs a call, never
// a wrong answer. Entries are kept between searches and replaced by newer positions.
type tacticsTable struct {
	slots []tacticsEntry
	mask  uint64
}

// tacticsEntry is one remembered position.
type tacticsEntry struct {
	used         bool
	hasScores    bool
	toMove       hex.Color
	w, h         int
	black, white hex.Bitset
	res          Result
	scores       [hex.NumPoints]float64 // the move scores of the empty cells (hasScores)
}

// newTacticsTable returns a table of at least n entries (a power of two).
func newTacticsTable(n int) *tacticsTable {
	size := 1
	for size < n {
		size <<= 1
	}
	return &tacticsTable{slots: make([]tacticsEntry, size), mask: uint64(size - 1)}
}

// slot returns the entry b's position maps to.
func (t *tacticsTable) slot(b *hex.Board) *tacticsEntry {
	k := b.Hash() ^ uint64(b.ToMove())*0x9E3779B97F4A7C15
	k ^= k >> 29
	return &t.slots[k&t.mask]
}

// holds reports whether e remembers b's position.
func (e *tacticsEntry) holds(b *hex.Board) bool {
	return e.used && e.toMove == b.ToMove() && e.w == b.Width() && e.h == b.Height() &&
		e.black == b.Stones(hex.Black) && e.white == b.Stones(hex.White)
}

// lookup returns the entry of b's position, or nil.
func (t *tacticsTable) lookup(b *hex.Board) *tacticsEntry {
	if e := t.slot(b); e.holds(b) {
		return e
	}
	return nil
}

// store remembers r as the tactics' answer for b's position (its move scores not yet
// known) and returns the entry.
func (t *tacticsTable) store(b *hex.Board, r Result) *tacticsEntry {
	e := t.slot(b)
	e.used, e.hasScores, e.toMove = true, false, b.ToMove()
	e.w, e.h = b.Width(), b.Height()
	e.black, e.white = b.Stones(hex.Black), b.Stones(hex.White)
	e.res = r
	return e
}

// recall returns the table's answer for b's position (Stats.TacticsCached), if it
// remembers one.
func (m *MCTS) recall(b *hex.Board) (Result, bool) {
	if m.p.TacticsTable <= 0 {
		return Result{}, false
	}
	if m.tt == nil || len(m.tt.slots) < m.p.TacticsTable {
		m.tt = newTacticsTable(m.p.TacticsTable)
	}
	e := m.tt.lookup(b)
	if e == nil {
		return Result{}, false
	}
	m.stats.TacticsCached++
	m.tlast = e
	return e.res, true
}

// remember counts a call of the tactics (Stats.Tactics) that answered r for b's
// position and keeps r in the table.
func (m *MCTS) remember(b *hex.Board, r Result) Result {
	m.stats.Tactics++
	m.tlast = nil
	if m.p.TacticsTable > 0 {
		if m.tt == nil || len(m.tt.slots) < m.p.TacticsTable {
			m.tt = newTacticsTable(m.p.TacticsTable)
		}
		m.tlast = m.tt.store(b, r)
	}
	return r
}

// tacticsEval is the tactics evaluator's answer for the current position b: from the
// table when it remembers it, else by a call.
func (m *MCTS) tacticsEval(b *hex.Board) Result {
	if r, ok := m.recall(b); ok {
		return r
	}
	return m.remember(b, m.tactics.Evaluate(b))
}

// tacticsScores writes the tactics' move scores of b (the position tacticsEval last
// answered for) into scores: from the table when it has them, else by the tactics'
// Orderer, whose scores of b's empty cells the table then keeps.
func (m *MCTS) tacticsScores(b *hex.Board, scores []float64) {
	e := m.tlast
	if e != nil && !e.holds(b) {
		e = nil
	}
	empty := b.EmptyCells()
	if e != nil && e.hasScores {
		for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
			scores[p] = e.scores[p]
		}
		return
	}
	m.torder.MoveScores(b, scores)
	if e != nil {
		for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
			e.scores[p] = scores[p]
		}
		e.hasScores = true
	}
}

// tacticsAt is tacticsEval for the current position b, ply plies below the root and
// reached from it by the stones of line (nil: not known). With MCTSParams.AnchorPlies
// and a ChildEvaluator the root is anchored, and a position at most AnchorPlies plies
// below it is evaluated from the root's state (unless the table remembers it).
func (m *MCTS) tacticsAt(b *hex.Board, ply int, line []hex.Cell) Result {
	if m.p.AnchorPlies <= 0 || m.tchild == nil || ply > m.p.AnchorPlies || ply > 0 && len(line) != ply {
		return m.tacticsEval(b)
	}
	if ply == 0 {
		return m.remember(b, m.tchild.Anchor(b))
	}
	if r, ok := m.recall(b); ok {
		return r
	}
	r, ok := m.tchild.EvaluateLine(b, line)
	if !ok {
		return m.tacticsEval(b)
	}
	m.stats.TacticsAnchored++
	return m.remember(b, r)
}
