package hex

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseMoves parses a move list such as "a1 b2 swap-pieces c3" (separated by spaces or
// commas). Moves alternate colours starting with Black, as in a game; a token may name
// its colour explicitly as "b:c3" or "w:c3" (HexGui style "B[c3]" is also accepted),
// after which alternation continues from it.
func (g *Geometry) ParseMoves(s string) ([]Move, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' || r == '\n' || r == ';' })
	moves := make([]Move, 0, len(fields))
	next := Black
	for i, f := range fields {
		col := next
		tok := f
		if k := strings.IndexAny(f, ":["); k > 0 {
			c, err := ParseColor(f[:k])
			if err != nil {
				return nil, fmt.Errorf("hex: move %d %q: %w", i+1, f, err)
			}
			col = c
			tok = strings.TrimSuffix(f[k+1:], "]")
		}
		c, err := g.ParseMoveCell(tok)
		if err != nil {
			return nil, fmt.Errorf("hex: move %d: %w", i+1, err)
		}
		moves = append(moves, Move{Color: col, Cell: c})
		next = col.Opp()
		if c == Swap {
			next = Black
		}
	}
	return moves, nil
}

// FormatMoves prints moves as a space-separated list of cell names.
func (g *Geometry) FormatMoves(ms []Move) string {
	var sb strings.Builder
	for i, m := range ms {
		if i > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(g.CellName(m.Cell))
	}
	return sb.String()
}

// PlayMoves plays a move list, naming the first bad move in its error.
func (b *Board) PlayMoves(ms []Move) error {
	for i, m := range ms {
		if err := b.Play(m); err != nil {
			return fmt.Errorf("hex: move %d (%s %s): %w", i+1, m.Color, b.g.CellName(m.Cell), err)
		}
	}
	return nil
}

// ParsePosition returns a W x H board after the move list s.
func ParsePosition(w, h int, s string) (*Board, error) {
	b, err := NewBoard(w, h)
	if err != nil {
		return nil, err
	}
	ms, err := b.g.ParseMoves(s)
	if err != nil {
		return nil, err
	}
	if err := b.PlayMoves(ms); err != nil {
		return nil, err
	}
	return b, nil
}

// String prints the board as a text diagram (see Diagram).
func (b *Board) String() string { return b.Diagram() }

// Diagram prints the board as a rhombus: a header of column letters, then one line per
// row, each shifted one space further right, with B for Black, W for White and . for
// empty, and the row number on both sides:
//
//	   a b c
//	1  . . .  1
//	 2  . B .  2
//	  3  . . W  3
//
// ParseDiagram reads this format back.
func (b *Board) Diagram() string {
	var sb strings.Builder
	w := len(strconv.Itoa(b.g.H))
	sb.WriteString(strings.Repeat(" ", w+2))
	for x := 0; x < b.g.W; x++ {
		if x > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteByte(byte('a' + x))
	}
	sb.WriteByte('\n')
	for y := 0; y < b.g.H; y++ {
		sb.WriteString(strings.Repeat(" ", y))
		fmt.Fprintf(&sb, "%*d  ", w, y+1)
		for x := 0; x < b.g.W; x++ {
			if x > 0 {
				sb.WriteByte(' ')
			}
			sb.WriteString(b.color[b.g.At(x, y)].Letter())
		}
		fmt.Fprintf(&sb, "  %d\n", y+1)
	}
	return sb.String()
}

// ParseDiagram reads a board from a text diagram: every line whose tokens, less row
// numbers, are all stones (B or X for Black, W or O for White, . for empty; any case)
// is a row; other lines (headers, blank lines) are ignored. Rows must have equal
// length. Stones are placed as setup stones; the side to move is White when Black has
// more stones, otherwise Black.
func ParseDiagram(s string) (*Board, error) {
	var rows [][]Color
	for ln, line := range strings.Split(s, "\n") {
		var row []Color
		ok := false
		for _, tok := range strings.Fields(line) {
			if _, err := strconv.Atoi(tok); err == nil {
				continue
			}
			ok = true
			for _, r := range tok {
				switch r {
				case '.':
					row = append(row, Empty)
				case 'B', 'b', 'X', 'x':
					row = append(row, Black)
				case 'W', 'w', 'O', 'o':
					row = append(row, White)
				default:
					ok = false
				}
				if !ok {
					break
				}
			}
			if !ok {
				break
			}
		}
		if !ok || len(row) == 0 {
			continue
		}
		if len(rows) > 0 && len(row) != len(rows[0]) {
			return nil, fmt.Errorf("hex: diagram line %d has %d cells, want %d", ln+1, len(row), len(rows[0]))
		}
		rows = append(rows, row)
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("hex: diagram has no rows")
	}
	b, err := NewBoard(len(rows[0]), len(rows))
	if err != nil {
		return nil, err
	}
	nb, nw := 0, 0
	for y, row := range rows {
		for x, c := range row {
			if c == Empty {
				continue
			}
			if c == Black {
				nb++
			} else {
				nw++
			}
			b.play(Move{Color: c, Cell: b.g.At(x, y)}, true)
		}
	}
	if nb > nw {
		b.SetToMove(White)
	}
	return b, nil
}

// Rotated returns a copy of the board turned 180°: same colours, same side to move.
// The history becomes setup stones.
func (b *Board) Rotated() *Board {
	r := NewBoardGeometry(b.g)
	for c := Black; c <= White; c++ {
		st := b.stones[c]
		for p := st.First(); p != NoCell; p = st.Next(p + 1) {
			r.play(Move{Color: c, Cell: b.g.Rotate180(p)}, true)
		}
	}
	r.SetToMove(b.toMove)
	return r
}

// Reflected returns the board reflected in its long diagonal with the colours
// exchanged: a W x H board becomes H x W, each Black stone at (x, y) becomes a White
// stone at (y, x) and vice versa, and the side to move is exchanged. The value of the
// position for Black equals the value of the reflection for White.
func (b *Board) Reflected() *Board {
	g := MustGeometry(b.g.H, b.g.W)
	r := NewBoardGeometry(g)
	for c := Black; c <= White; c++ {
		st := b.stones[c]
		for p := st.First(); p != NoCell; p = st.Next(p + 1) {
			r.play(Move{Color: c.Opp(), Cell: b.g.Transpose(p)}, true)
		}
	}
	r.SetToMove(b.toMove.Opp())
	return r
}
