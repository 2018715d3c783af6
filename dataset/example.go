package dataset

import (
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Example is one row of a dataset: an evaluated board and what is known about it.
// Colours use hex.Color (Empty for "unknown" in Winner and TrueWinner); Cells uses the
// paper's encoding (+1 white, 0 empty, -1 black) in cell index order y*W+x.
type Example struct {
	GameID        uint64
	Width, Height int
	Ply           int       // stones on the board
	ToMove        hex.Color // Black or White
	Cells         []int8    // len Width*Height
	Value         float64   // Black's point of view, ln(R_W/R_B) for the exact evaluator
	// RBlack and RWhite are the circuit resistances; NaN when not reported (stored as
	// null).
	RBlack, RWhite float64
	BlackWinsVC    bool
	WhiteWinsVC    bool
	CostUS         int64 // measured microseconds; NoCost when not measured (stored as null)
	Played         bool  // the board occurred in the game, not only inside the search
	Winner         hex.Color
	TrueWinner     hex.Color // Empty when unknown (stored as null)
	Hash           uint64    // hex.Board.Hash()
	// Search holds what a search that ran at the position found (the player's MCTS
	// root); nil when none ran there (stored as nulls).
	Search *SearchTargets
}

// SearchTargets are the targets a search gives a position: what the player's own
// search thought of it, which a network learns besides the game's result.
type SearchTargets struct {
	// Value is the value the search backed up, Black's point of view, in [-1, 1].
	Value float64
	// Policy is the share of the search's root visits each cell received (len
	// Width*Height, 0 on the stones, summing to 1); nil when not recorded.
	Policy []float32
}

// NoCost is Example.CostUS when the evaluation time was not measured.
const NoCost int64 = -1

// Encoding of colours in cells, to_move, winner and true_winner.
const (
	CellBlack int8 = -1
	CellEmpty int8 = 0
	CellWhite int8 = 1
)

// ColorCode returns the paper's code of c: -1 Black, +1 White, 0 Empty.
func ColorCode(c hex.Color) int8 {
	switch c {
	case hex.Black:
		return CellBlack
	case hex.White:
		return CellWhite
	}
	return CellEmpty
}

// CodeColor is the inverse of ColorCode; ok is false for a code outside -1..1.
func CodeColor(v int8) (c hex.Color, ok bool) {
	switch v {
	case CellBlack:
		return hex.Black, true
	case CellWhite:
		return hex.White, true
	case CellEmpty:
		return hex.Empty, true
	}
	return hex.Empty, false
}

// EncodeCells writes the board's cells in the paper's encoding into dst (grown to
// W*H) and returns it.
func EncodeCells(b *hex.Board, dst []int8) []int8 {
	n := b.Width() * b.Height()
	if cap(dst) < n {
		dst = make([]int8, n)
	}
	dst = dst[:n]
	for i := 0; i < n; i++ {
		dst[i] = ColorCode(b.At(hex.Cell(i)))
	}
	return dst
}

// FromBoard returns an Example for b with its cells, ply, side to move and hash filled
// in; the caller sets the evaluation fields. RBlack, RWhite are NaN and CostUS is
// NoCost until set.
func FromBoard(b *hex.Board) Example {
	return Example{
		Width: b.Width(), Height: b.Height(),
		Ply:    b.NumStones(),
		ToMove: b.ToMove(),
		Cells:  EncodeCells(b, nil),
		RBlack: math.NaN(), RWhite: math.NaN(),
		CostUS: NoCost,
		Hash:   b.Hash(),
	}
}

// Board rebuilds the position of e as a hex.Board (stones as unchecked placements,
// then the side to move). Its Hash equals e.Hash for a consistent example.
func (e *Example) Board() (*hex.Board, error) {
	b, err := hex.NewBoard(e.Width, e.Height)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if len(e.Cells) != e.Width*e.Height {
		return nil, fmt.Errorf("%w: %d cells for a %dx%d board", ErrExample, len(e.Cells), e.Width, e.Height)
	}
	for i, v := range e.Cells {
		c, ok := CodeColor(v)
		if !ok {
			return nil, fmt.Errorf("%w: cell %d has code %d, want -1, 0 or 1", ErrExample, i, v)
		}
		if c != hex.Empty {
			b.PlayStone(c, hex.Cell(i))
		}
	}
	b.SetToMove(e.ToMove)
	return b, nil
}

// Validate checks that e is consistent: board size, cell codes, ply equal to the
// number of stones, side to move, winners. It does not check the hash (see
// Example.Board for that).
func (e *Example) Validate() error {
	if e.Width < 1 || e.Width > hex.MaxSize || e.Height < 1 || e.Height > hex.MaxSize {
		return fmt.Errorf("%w: board size %dx%d out of range 1..%d", ErrExample, e.Width, e.Height, hex.MaxSize)
	}
	if len(e.Cells) != e.Width*e.Height {
		return fmt.Errorf("%w: %d cells for a %dx%d board", ErrExample, len(e.Cells), e.Width, e.Height)
	}
	stones := 0
	for i, v := range e.Cells {
		if v < -1 || v > 1 {
			return fmt.Errorf("%w: cell %d has code %d, want -1, 0 or 1", ErrExample, i, v)
		}
		if v != 0 {
			stones++
		}
	}
	if e.Ply != stones {
		return fmt.Errorf("%w: ply %d but %d stones on the board", ErrExample, e.Ply, stones)
	}
	if e.ToMove != hex.Black && e.ToMove != hex.White {
		return fmt.Errorf("%w: side to move is %v", ErrExample, e.ToMove)
	}
	if e.Winner > hex.White || e.TrueWinner > hex.White {
		return fmt.Errorf("%w: winner colour out of range", ErrExample)
	}
	if e.CostUS < NoCost {
		return fmt.Errorf("%w: negative cost %d", ErrExample, e.CostUS)
	}
	if s := e.Search; s != nil {
		if !(s.Value >= -1 && s.Value <= 1) {
			return fmt.Errorf("%w: search value %g outside [-1, 1]", ErrExample, s.Value)
		}
		if s.Policy == nil {
			return nil
		}
		if len(s.Policy) != len(e.Cells) {
			return fmt.Errorf("%w: %d policy shares for %d cells", ErrExample, len(s.Policy), len(e.Cells))
		}
		var sum float64
		for i, p := range s.Policy {
			if !(p >= 0 && p <= 1) || p > 0 && e.Cells[i] != CellEmpty {
				return fmt.Errorf("%w: policy share %g on cell %d (want 0..1, and 0 on a stone)", ErrExample, p, i)
			}
			sum += float64(p)
		}
		if math.Abs(sum-1) > 1e-3 {
			return fmt.Errorf("%w: policy shares sum to %g, want 1", ErrExample, sum)
		}
	}
	return nil
}
