package dataset

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Rotate180 returns e turned 180°, (x, y) -> (W-1-x, H-1-y). The rotation keeps the
// colours, so the values, resistances, side to move, flags and winners stay; only the
// cells, the policy's shares and the hash change. It is a symmetry of every W x H board.
func Rotate180(e *Example) (Example, error) {
	g, err := hex.NewGeometry(e.Width, e.Height)
	if err != nil {
		return Example{}, fmt.Errorf("dataset: %w", err)
	}
	if len(e.Cells) != g.N {
		return Example{}, fmt.Errorf("%w: %d cells for a %dx%d board", ErrExample, len(e.Cells), e.Width, e.Height)
	}
	r := *e
	r.Cells = make([]int8, len(e.Cells))
	for i, c := range e.Cells {
		r.Cells[g.Rotate180(hex.Cell(i))] = c
	}
	r.Search = mapSearch(e.Search, 1, g.Rotate180)
	return rehash(r)
}

// mapSearch returns the search targets s with the value multiplied by sign and the
// policy's share of cell i moved to cell f(i) (nil for nil).
func mapSearch(s *SearchTargets, sign float64, f func(hex.Cell) hex.Cell) *SearchTargets {
	if s == nil {
		return nil
	}
	out := &SearchTargets{Value: sign * s.Value}
	if s.Policy != nil {
		out.Policy = make([]float32, len(s.Policy))
		for i, v := range s.Policy {
			out.Policy[f(hex.Cell(i))] = v
		}
	}
	return out
}

// Reflect returns e reflected in the long diagonal, (x, y) -> (y, x), with the colours
// exchanged: Black's north-south task becomes White's west-east task, so every stone
// changes colour (cell code negated), the side to move is exchanged, the value
// (Black's point of view) and the search's value are negated, R_B and R_W and the two
// VC flags are swapped, the winners are exchanged and the policy's shares move with
// their cells. It is a true symmetry only of square boards; other sizes
// give an error.
func Reflect(e *Example) (Example, error) {
	if e.Width != e.Height {
		return Example{}, fmt.Errorf("%w: the colour-exchanging reflection needs a square board, not %dx%d", ErrSize, e.Width, e.Height)
	}
	g, err := hex.NewGeometry(e.Width, e.Height)
	if err != nil {
		return Example{}, fmt.Errorf("dataset: %w", err)
	}
	if len(e.Cells) != g.N {
		return Example{}, fmt.Errorf("%w: %d cells for a %dx%d board", ErrExample, len(e.Cells), e.Width, e.Height)
	}
	r := *e
	r.Cells = make([]int8, len(e.Cells))
	for i, c := range e.Cells {
		r.Cells[g.Transpose(hex.Cell(i))] = -c
	}
	r.ToMove = e.ToMove.Opp()
	r.Value = -e.Value
	r.Search = mapSearch(e.Search, -1, g.Transpose)
	r.RBlack, r.RWhite = e.RWhite, e.RBlack
	r.BlackWinsVC, r.WhiteWinsVC = e.WhiteWinsVC, e.BlackWinsVC
	r.Winner = e.Winner.Opp()
	r.TrueWinner = e.TrueWinner.Opp()
	return rehash(r)
}

// rehash recomputes e.Hash from its cells and side to move.
func rehash(e Example) (Example, error) {
	b, err := e.Board()
	if err != nil {
		return Example{}, err
	}
	e.Hash = b.Hash()
	return e, nil
}

// Augment returns the table with, after each row, its images under the true board
// symmetries: the 180° rotation on every board and, on square boards, the
// colour-exchanging diagonal reflection and the two combined. Images equal to an
// earlier image of the same row (symmetric positions) are left out, so each row gives
// 1, 2 or 4 rows (1 or 2 on non-square boards). Use Dedupe afterwards to remove images
// that coincide with other rows.
func (t *Table) Augment() (*Table, error) {
	out := t.subset(make([]Example, 0, 4*len(t.Rows)))
	for i := range t.Rows {
		e := &t.Rows[i]
		imgs := []Example{*e}
		rot, err := Rotate180(e)
		if err != nil {
			return nil, fmt.Errorf("%w (row %d)", err, i)
		}
		imgs = append(imgs, rot)
		if e.Width == e.Height {
			ref, err := Reflect(e)
			if err != nil {
				return nil, fmt.Errorf("%w (row %d)", err, i)
			}
			both, err := Rotate180(&ref)
			if err != nil {
				return nil, fmt.Errorf("%w (row %d)", err, i)
			}
			imgs = append(imgs, ref, both)
		}
		for k, im := range imgs {
			dup := false
			for _, prev := range imgs[:k] {
				if prev.Hash == im.Hash {
					dup = true
					break
				}
			}
			if !dup {
				out.Rows = append(out.Rows, im)
			}
		}
	}
	return out, nil
}
