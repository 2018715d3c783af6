// Package book is an opening book of solved positions: for each stored position, a
// move of the side to move that the DFPN solver of engine/solver proved winning.
// Henderson, Arneson & Hayward (2009) solved every 8x8 opening with such a solver; a
// player that looks its position up in a book replays those proofs in the opening,
// where its own solver would need seconds to minutes per move (docs/history.md,
// "An opening book from the solver").
//
// book.go holds the Book (lookup under the board's symmetries), format.go its text
// file, build.go the builder that grows a book from root positions by following the
// solver's winning moves and the opponent's most plausible replies inside each proof
// set.
package book

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrSize reports a board whose size differs from the book's.
var ErrSize = errors.New("book: board size differs from the book's")

// ErrMove reports a book move that is not an empty cell of its position.
var ErrMove = errors.New("book: move is not an empty cell")

// key identifies a position: the stones of both colours and the side to move.
type key struct {
	black, white hex.Bitset
	toMove       hex.Color
}

// Book maps positions of one board size to a winning move of the side to move. The
// zero value is not usable; get one from New or Read. Lookups are safe for
// concurrent use; Add is not.
type Book struct {
	g *hex.Geometry
	m map[key]hex.Cell
}

// New returns an empty book for w x h boards.
func New(w, h int) (*Book, error) {
	b, err := hex.NewBoard(w, h)
	if err != nil {
		return nil, fmt.Errorf("book: %w", err)
	}
	return &Book{g: b.Geometry(), m: map[key]hex.Cell{}}, nil
}

// Size returns the book's board width and height.
func (bk *Book) Size() (w, h int) { return bk.g.W, bk.g.H }

// Len returns the number of stored positions.
func (bk *Book) Len() int { return len(bk.m) }

func keyOf(b *hex.Board) key {
	return key{black: b.Stones(hex.Black), white: b.Stones(hex.White), toMove: b.ToMove()}
}

// Add stores move as the winning move of b's side to move (replacing an earlier one).
// It does not check that the move wins: the builder stores only moves the solver
// proved.
func (bk *Book) Add(b *hex.Board, move hex.Cell) error {
	if err := bk.check(b); err != nil {
		return err
	}
	if !bk.g.IsCell(move) || b.At(move) != hex.Empty {
		return fmt.Errorf("%w: %s", ErrMove, bk.g.CellName(move))
	}
	bk.m[keyOf(b)] = move
	return nil
}

func (bk *Book) check(b *hex.Board) error {
	if g := b.Geometry(); g.W != bk.g.W || g.H != bk.g.H {
		return fmt.Errorf("%w: %dx%d, book %dx%d", ErrSize, g.W, g.H, bk.g.W, bk.g.H)
	}
	return nil
}

// Lookup returns the stored winning move of b's side to move: b itself, its 180°
// rotation and, on square boards, its reflections in the long diagonal with the
// colours exchanged (a position and its image have the same value, with the roles of
// the colours exchanged by the reflection). ok is false for a board of another size,
// a finished game or a position not in the book.
func (bk *Book) Lookup(b *hex.Board) (move hex.Cell, ok bool) {
	if bk == nil || bk.check(b) != nil || b.Winner() != hex.Empty {
		return hex.NoCell, false
	}
	k := keyOf(b)
	g := bk.g
	for t := 0; t < 4; t++ {
		if t >= 2 && !g.Square() {
			break
		}
		m, hit := bk.m[bk.image(k, t)]
		if !hit {
			continue
		}
		m = bk.mapCell(m, t) // the maps are involutions
		if g.IsCell(m) && b.At(m) == hex.Empty {
			return m, true
		}
	}
	return hex.NoCell, false
}

// mapCell maps cell p under symmetry t: 0 identity, 1 the 180° rotation, 2 the
// reflection in the long diagonal, 3 both.
func (bk *Book) mapCell(p hex.Cell, t int) hex.Cell {
	if t&1 != 0 {
		p = bk.g.Rotate180(p)
	}
	if t&2 != 0 {
		p = bk.g.Transpose(p)
	}
	return p
}

// image returns the key of k's position under symmetry t (the reflections exchange
// the colours).
func (bk *Book) image(k key, t int) key {
	if t == 0 {
		return k
	}
	var out key
	for _, c := range []hex.Color{hex.Black, hex.White} {
		src := k.black
		if c == hex.White {
			src = k.white
		}
		var dst hex.Bitset
		for p := src.First(); p != hex.NoCell; p = src.Next(p + 1) {
			dst.Set(bk.mapCell(p, t))
		}
		if t&2 != 0 {
			c = c.Opp()
		}
		if c == hex.Black {
			out.black = dst
		} else {
			out.white = dst
		}
	}
	out.toMove = k.toMove
	if t&2 != 0 {
		out.toMove = k.toMove.Opp()
	}
	return out
}

// Merge adds every position of o (a book of the same size) to bk; o's move replaces
// bk's where both hold a position.
func (bk *Book) Merge(o *Book) error {
	if o.g.W != bk.g.W || o.g.H != bk.g.H {
		return fmt.Errorf("%w: %dx%d, book %dx%d", ErrSize, o.g.W, o.g.H, bk.g.W, bk.g.H)
	}
	for k, m := range o.m {
		bk.m[k] = m
	}
	return nil
}
