package hex

import "fmt"

// Move is a colour and a cell; the cell may be Swap or Resign.
type Move struct {
	Color Color
	Cell  Cell
}

// zobrist holds the hash keys: one per (colour, point) and one for White to move.
// They come from a fixed seed so hashes are the same in every run.
var zobrist struct {
	stone     [3][NumPoints]uint64
	whiteMove uint64
}

func init() {
	s := SplitMix64(0x9E3779B97F4A7C15) // a fixed seed
	next := s.Next
	for c := 1; c < 3; c++ {
		for p := range zobrist.stone[c] {
			zobrist.stone[c][p] = next()
		}
	}
	zobrist.whiteMove = next()
}

// undoRec records what one Play changed, so Undo restores it exactly.
type undoRec struct {
	move     Move
	placed   Cell  // the cell that received a stone (for Swap: the reflected cell)
	prevMove Color // side to move before the play
	nmerge   uint8
	merged   [6]Cell // roots that were attached below the placed stone's root
	setup    bool    // a setup stone (diagram or SGF AB/AW), not a game move
}

// Board is a Hex position: stones, groups (union-find with the four edges as
// members), the Zobrist hash, the side to move and the move history. Play and Undo
// allocate nothing once the history has grown to its final length, and Undo restores
// stones, groups and hash exactly. Copy a Board with Clone, not by assignment.
type Board struct {
	g      *Geometry
	color  [NumPoints]Color
	stones [3]Bitset
	parent [NumPoints]Cell
	size   [NumPoints]int16
	hash   uint64
	toMove Color
	hist   []undoRec
}

// NewBoard returns an empty W x H board with Black to move.
func NewBoard(w, h int) (*Board, error) {
	g, err := NewGeometry(w, h)
	if err != nil {
		return nil, err
	}
	return NewBoardGeometry(g), nil
}

// MustBoard is NewBoard for sizes known to be valid; it panics otherwise.
func MustBoard(w, h int) *Board {
	b, err := NewBoard(w, h)
	if err != nil {
		panic(err)
	}
	return b
}

// NewBoardGeometry returns an empty board of geometry g with Black to move.
func NewBoardGeometry(g *Geometry) *Board {
	b := &Board{g: g, hist: make([]undoRec, 0, g.N+1)}
	b.Reset()
	return b
}

// Reset empties the board and gives the move to Black.
func (b *Board) Reset() {
	b.color = [NumPoints]Color{}
	b.stones = [3]Bitset{}
	for p := range b.parent {
		b.parent[p] = Cell(p)
		b.size[p] = 1
	}
	b.color[North], b.color[South] = Black, Black
	b.color[West], b.color[East] = White, White
	b.hash = 0
	b.toMove = Black
	b.hist = b.hist[:0]
}

// Clone returns an independent copy of the board.
func (b *Board) Clone() *Board {
	c := *b
	c.hist = make([]undoRec, len(b.hist), max(cap(b.hist), b.g.N+1))
	copy(c.hist, b.hist)
	return &c
}

// CopyFrom makes b an exact copy of o, reusing b's history storage.
func (b *Board) CopyFrom(o *Board) {
	h := b.hist[:0]
	*b = *o
	b.hist = append(h, o.hist...)
}

// Geometry returns the board's geometry.
func (b *Board) Geometry() *Geometry { return b.g }

// Width returns the number of columns.
func (b *Board) Width() int { return b.g.W }

// Height returns the number of rows.
func (b *Board) Height() int { return b.g.H }

// At returns the colour of point p; edges have their owner's colour.
func (b *Board) At(p Cell) Color { return b.color[p] }

// Stones returns the set of stones of colour c.
func (b *Board) Stones(c Color) Bitset { return b.stones[c] }

// StonesPtr returns a pointer to the set of stones of colour c (read-only).
func (b *Board) StonesPtr(c Color) *Bitset { return &b.stones[c] }

// EmptyCells returns the set of empty cells.
func (b *Board) EmptyCells() Bitset {
	return b.g.cells.AndNot(b.stones[Black]).AndNot(b.stones[White])
}

// NumStones returns the number of stones on the board.
func (b *Board) NumStones() int { return b.stones[Black].Count() + b.stones[White].Count() }

// ToMove returns the side to move.
func (b *Board) ToMove() Color { return b.toMove }

// SetToMove sets the side to move (it changes the hash accordingly). Colours other
// than Black and White are ignored.
func (b *Board) SetToMove(c Color) {
	if c != b.toMove && (c == Black || c == White) {
		b.hash ^= zobrist.whiteMove
		b.toMove = c
	}
}

// Hash returns the Zobrist hash of the stones and the side to move.
func (b *Board) Hash() uint64 { return b.hash }

// Ply returns the number of moves and setup stones in the history.
func (b *Board) Ply() int { return len(b.hist) }

// Moves returns the history (setup stones and moves) in order.
func (b *Board) Moves() []Move {
	ms := make([]Move, len(b.hist))
	for i, r := range b.hist {
		ms[i] = r.move
	}
	return ms
}

// IsSetup reports whether entry i of the history (as Moves lists it) is a setup stone
// (placed by PlaySetup, a diagram or SGF AB/AW) rather than a move.
func (b *Board) IsSetup(i int) bool { return i >= 0 && i < len(b.hist) && b.hist[i].setup }

// LastMove returns the last move played, or a Move with Cell NoCell.
func (b *Board) LastMove() Move {
	if len(b.hist) == 0 {
		return Move{Cell: NoCell}
	}
	return b.hist[len(b.hist)-1].move
}

// Find returns the representative of the group containing point p (for an empty
// cell, the cell itself). Edges are members of their owner's groups.
func (b *Board) Find(p Cell) Cell {
	for b.parent[p] != p {
		p = b.parent[p]
	}
	return p
}

// SameGroup reports whether points p and q are in one group.
func (b *Board) SameGroup(p, q Cell) bool { return b.Find(p) == b.Find(q) }

// Winner returns the colour whose edges are joined, or Empty if neither is.
func (b *Board) Winner() Color {
	if b.Find(North) == b.Find(South) {
		return Black
	}
	if b.Find(West) == b.Find(East) {
		return White
	}
	return Empty
}

// GroupMembers returns the stone cells (no edges) of the group containing p.
func (b *Board) GroupMembers(p Cell) Bitset {
	var s Bitset
	c := b.color[p]
	if c == Empty {
		return s
	}
	r := b.Find(p)
	st := b.stones[c]
	for q := st.First(); q != NoCell; q = st.Next(q + 1) {
		if b.Find(q) == r {
			s.Set(q)
		}
	}
	return s
}

// Legal reports whether m may be played now: an empty cell of the board, or Swap
// when the only stone is Black's first move on a square board, or Resign.
func (b *Board) Legal(m Move) error {
	if m.Color != Black && m.Color != White {
		return fmt.Errorf("%w: %v", ErrBadColor, m.Color)
	}
	switch {
	case m.Cell == Resign:
		return nil
	case m.Cell == Swap:
		if !b.g.Square() {
			return fmt.Errorf("%w: swap-pieces needs a square board", ErrIllegal)
		}
		if len(b.hist) != 1 || b.hist[0].move.Color != Black || b.hist[0].setup || b.hist[0].move.Cell < 0 {
			return fmt.Errorf("%w: swap-pieces is only legal right after Black's first move", ErrIllegal)
		}
		if m.Color != White {
			return fmt.Errorf("%w: only White may swap", ErrIllegal)
		}
		return nil
	case !b.g.IsCell(m.Cell):
		return fmt.Errorf("%w: cell %d is not on the %dx%d board", ErrBadCell, m.Cell, b.g.W, b.g.H)
	case b.color[m.Cell] != Empty:
		return fmt.Errorf("%w: %s is occupied", ErrIllegal, b.g.CellName(m.Cell))
	}
	return nil
}

// Play plays m after checking it is legal. Either colour may play at any time (as in
// GTP); afterwards the opponent of m.Color is to move (after a swap, Black). Resign is
// recorded in the history but changes no stone.
func (b *Board) Play(m Move) error {
	if err := b.Legal(m); err != nil {
		return err
	}
	b.play(m, false)
	return nil
}

// PlaySetup places a setup stone (as SGF AB/AW or a diagram do): like a move, but the
// side to move is left unchanged. Undo removes it.
func (b *Board) PlaySetup(c Color, p Cell) error {
	m := Move{Color: c, Cell: p}
	if p < 0 {
		return fmt.Errorf("%w: setup stones must be cells", ErrBadCell)
	}
	if err := b.Legal(m); err != nil {
		return err
	}
	b.play(m, true)
	return nil
}

// PlayStone places a stone of colour c on empty cell p without checks and gives the
// move to the opponent: the fast path for search. The cell must be empty.
func (b *Board) PlayStone(c Color, p Cell) { b.play(Move{Color: c, Cell: p}, false) }

func (b *Board) play(m Move, setup bool) {
	r := undoRec{move: m, prevMove: b.toMove, setup: setup, placed: NoCell}
	switch m.Cell {
	case Resign:
	case Swap:
		first := &b.hist[0]
		b.unplace(first.placed, first.merged[:first.nmerge])
		t := b.g.Transpose(first.placed)
		r.placed = t
		r.nmerge = b.place(White, t, &r.merged)
	default:
		r.placed = m.Cell
		r.nmerge = b.place(m.Color, m.Cell, &r.merged)
	}
	b.hist = append(b.hist, r)
	if !setup {
		next := m.Color.Opp()
		if m.Cell == Swap {
			next = Black
		}
		b.SetToMove(next)
	}
}

// place puts a stone and unions it with its same-coloured neighbours (union by size,
// no path compression, so it can be undone). It returns the number of merges and
// records the roots hung below the new root.
func (b *Board) place(c Color, p Cell, merged *[6]Cell) uint8 {
	b.color[p] = c
	b.stones[c].Set(p)
	b.hash ^= zobrist.stone[c][p]
	var n uint8
	for _, q := range b.g.Neighbours(p) {
		if b.color[q] != c {
			continue
		}
		rp, rq := b.Find(p), b.Find(q)
		if rp == rq {
			continue
		}
		if b.size[rp] < b.size[rq] || (b.size[rp] == b.size[rq] && rq > rp) {
			rp, rq = rq, rp
		}
		// hang rq below rp
		b.parent[rq] = rp
		b.size[rp] += b.size[rq]
		merged[n] = rq
		n++
	}
	return n
}

// unplace reverses place: merges are undone in reverse order.
func (b *Board) unplace(p Cell, merged []Cell) {
	for i := len(merged) - 1; i >= 0; i-- {
		rq := merged[i]
		rp := b.parent[rq]
		b.size[rp] -= b.size[rq]
		b.parent[rq] = rq
	}
	c := b.color[p]
	b.color[p] = Empty
	b.stones[c].Clear(p)
	b.hash ^= zobrist.stone[c][p]
}

// Undo takes back the last move or setup stone. It returns false if the history is
// empty.
func (b *Board) Undo() bool {
	n := len(b.hist)
	if n == 0 {
		return false
	}
	r := &b.hist[n-1]
	switch r.move.Cell {
	case Resign:
	case Swap:
		b.unplace(r.placed, r.merged[:r.nmerge])
		first := &b.hist[0]
		first.nmerge = b.place(Black, first.placed, &first.merged)
	default:
		b.unplace(r.placed, r.merged[:r.nmerge])
	}
	b.SetToMove(r.prevMove)
	b.hist = b.hist[:n-1]
	return true
}

// Resigned returns the colour that resigned, or Empty.
func (b *Board) Resigned() Color {
	for _, r := range b.hist {
		if r.move.Cell == Resign {
			return r.move.Color
		}
	}
	return Empty
}
