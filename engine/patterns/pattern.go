package patterns

import (
	"errors"
	"fmt"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Errors callers may branch on.
var (
	// ErrNotConnected: the pattern's stones and carrier do not join the colour's edges.
	ErrNotConnected = errors.New("patterns: stones and carrier do not connect the edges")
	// ErrBadPattern: a pattern has cells off the board, or a cell that is both a stone and
	// a carrier cell, or a carrier cell held by the opponent.
	ErrBadPattern = errors.New("patterns: bad pattern")
	// ErrNotSquare: White queries and White patterns need the colour-exchanging diagonal
	// reflection, which maps a W x H board to H x W; it is only available when W == H.
	ErrNotSquare = errors.New("patterns: White patterns need a square board")
)

// Pattern is a Black north–south goal pattern on a W x H board: Black wins any
// position in which every cell of Stones holds a Black stone and every cell of Carrier
// is empty or Black, whoever moves (a winning virtual connection, Kahl et al. 2007,
// section 5.3). Stones and Carrier are disjoint sets of cells (no edge points).
type Pattern struct {
	Stones  hex.Bitset
	Carrier hex.Bitset
}

// Cells returns Stones ∪ Carrier.
func (p Pattern) Cells() hex.Bitset { return p.Stones.Or(p.Carrier) }

// Size returns the number of cells the pattern constrains.
func (p Pattern) Size() int { c := p.Cells(); return c.Count() }

// Matches reports whether the position with Black stones black and White stones white
// matches p: every pattern stone is Black, no carrier cell is White.
func (p *Pattern) Matches(black, white *hex.Bitset) bool {
	return p.Stones.SubsetOf(black) && !p.Carrier.Intersects(white)
}

// Validate checks that p lies on the board of g, that stones and carrier are disjoint,
// and that Stones ∪ Carrier joins North to South (the necessary condition for a win:
// Black owns every carrier cell at the end at best).
func (p *Pattern) Validate(g *hex.Geometry) error {
	cells := g.Cells()
	if !p.Stones.SubsetOf(&cells) || !p.Carrier.SubsetOf(&cells) {
		return fmt.Errorf("%w: cells off the %dx%d board", ErrBadPattern, g.W, g.H)
	}
	if p.Stones.Intersects(&p.Carrier) {
		return fmt.Errorf("%w: a cell is both a stone and a carrier cell", ErrBadPattern)
	}
	region := p.Cells()
	if !connects(g, &region) {
		return ErrNotConnected
	}
	return nil
}

// reach returns the cells of region reachable from the edge point from through
// region cells.
func reach(g *hex.Geometry, region *hex.Bitset, from hex.Cell) hex.Bitset {
	var seen hex.Bitset
	front := g.NeighbourSet(from).And(*region)
	for !front.IsEmpty() {
		seen = seen.Or(front)
		var next hex.Bitset
		for c := front.First(); c != hex.NoCell; c = front.Next(c + 1) {
			next = next.Or(*g.NeighbourSet(c))
		}
		front = next.And(*region).AndNot(seen)
	}
	return seen
}

// connects reports whether region joins North and South.
func connects(g *hex.Geometry, region *hex.Bitset) bool {
	r := reach(g, region, hex.North)
	return r.Intersects(g.NeighbourSet(hex.South))
}

// FromBoard extracts the Black pattern of a winning connection for colour c on b with
// the given carrier (empty cells; cells c already holds are accepted as stones): the
// cells that can lie on a chain between c's edges when c owns the whole carrier (those
// reachable from both edges through c's stones and the carrier), split into stones and
// carrier. A White connection is returned in the colour-exchanging diagonal reflection
// (an H x W Black pattern; ErrNotSquare unless W == H). It returns ErrNotConnected
// when stones and carrier do not join c's edges, and ErrBadPattern when the carrier
// holds an opponent stone.
func FromBoard(b *hex.Board, c hex.Color, carrier hex.Bitset) (Pattern, error) {
	g := b.Geometry()
	if c != hex.Black && c != hex.White {
		return Pattern{}, fmt.Errorf("%w: colour %v", ErrBadPattern, c)
	}
	own, opp := b.Stones(c), b.Stones(c.Opp())
	if c == hex.White {
		if g.W != g.H {
			return Pattern{}, ErrNotSquare
		}
		own, opp = transpose(g, own), transpose(g, opp)
		carrier = transpose(g, carrier)
	}
	cells := g.Cells()
	if !carrier.SubsetOf(&cells) {
		return Pattern{}, fmt.Errorf("%w: carrier has points that are not cells", ErrBadPattern)
	}
	if carrier.Intersects(&opp) {
		return Pattern{}, fmt.Errorf("%w: carrier holds an opponent stone", ErrBadPattern)
	}
	region := own.Or(carrier)
	fromN := reach(g, &region, hex.North)
	fromS := reach(g, &region, hex.South)
	if !fromN.Intersects(g.NeighbourSet(hex.South)) {
		return Pattern{}, ErrNotConnected
	}
	keep := fromN.And(fromS)
	return Pattern{Stones: keep.And(own), Carrier: keep.And(carrier).AndNot(own)}, nil
}

// transpose maps a set of cells of g under the long-diagonal reflection (onto H x W).
func transpose(g *hex.Geometry, s hex.Bitset) hex.Bitset {
	var t hex.Bitset
	for c := s.First(); c != hex.NoCell; c = s.Next(c + 1) {
		t.Set(g.Transpose(c))
	}
	return t
}

// mapCells applies f to every cell of s.
func mapCells(s hex.Bitset, f func(hex.Cell) hex.Cell) hex.Bitset {
	var t hex.Bitset
	for c := s.First(); c != hex.NoCell; c = s.Next(c + 1) {
		t.Set(f(c))
	}
	return t
}

// Variants returns p and its images under the true symmetries of the W x H board that
// keep a Black north–south connection one: the translations along the rows,
// (x, y) -> (x+d, y), that keep every cell on the board, and the same for the 180°
// rotation of p (Kahl et al. insert these up to 2(B-1) entries per winning position).
// Duplicates are removed; p itself comes first.
func Variants(g *hex.Geometry, p Pattern) []Pattern {
	rot := Pattern{Stones: mapCells(p.Stones, g.Rotate180), Carrier: mapCells(p.Carrier, g.Rotate180)}
	out := make([]Pattern, 0, 2*g.W)
	out = append(out, p)
	for _, base := range [2]Pattern{p, rot} {
		cells := base.Cells()
		if cells.IsEmpty() {
			continue
		}
		minX, maxX := g.W, -1
		for c := cells.First(); c != hex.NoCell; c = cells.Next(c + 1) {
			x, _ := g.XY(c)
			minX, maxX = min(minX, x), max(maxX, x)
		}
		for d := -minX; d <= g.W-1-maxX; d++ {
			shift := func(c hex.Cell) hex.Cell { return c + hex.Cell(d) } // same row
			v := Pattern{Stones: mapCells(base.Stones, shift), Carrier: mapCells(base.Carrier, shift)}
			dup := false
			for i := range out {
				if out[i] == v {
					dup = true
					break
				}
			}
			if !dup {
				out = append(out, v)
			}
		}
	}
	return out
}

// Diagram draws p on its board: 'B' a stone, '+' a carrier cell, '.' any other cell
// (which may hold anything, here drawn as White's). Rows are shifted like hex.Board
// diagrams.
func (p *Pattern) Diagram(g *hex.Geometry) string {
	var sb strings.Builder
	for y := 0; y < g.H; y++ {
		sb.WriteString(strings.Repeat(" ", y))
		for x := 0; x < g.W; x++ {
			c := g.At(x, y)
			switch {
			case p.Stones.Has(c):
				sb.WriteByte('B')
			case p.Carrier.Has(c):
				sb.WriteByte('+')
			default:
				sb.WriteByte('.')
			}
			if x < g.W-1 {
				sb.WriteByte(' ')
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// ParsePatternDiagram reads a pattern drawn as by Diagram: one row per line (leading
// spaces ignored, cells separated by spaces or not), 'B' a stone, '+' a carrier cell,
// '.' or 'W' any other cell. It returns the board geometry and the pattern.
func ParsePatternDiagram(s string) (*hex.Geometry, Pattern, error) {
	var rows [][]byte
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var row []byte
		for _, ch := range []byte(line) {
			switch ch {
			case ' ', '\t', '\r':
			case 'B', '+', '.', 'W':
				row = append(row, ch)
			default:
				return nil, Pattern{}, fmt.Errorf("%w: unexpected %q in pattern diagram", ErrBadPattern, ch)
			}
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, Pattern{}, fmt.Errorf("%w: empty pattern diagram", ErrBadPattern)
	}
	w := len(rows[0])
	for i, r := range rows {
		if len(r) != w {
			return nil, Pattern{}, fmt.Errorf("%w: diagram row %d has %d cells, want %d", ErrBadPattern, i+1, len(r), w)
		}
	}
	g, err := hex.NewGeometry(w, len(rows))
	if err != nil {
		return nil, Pattern{}, fmt.Errorf("%w: %v", ErrBadPattern, err)
	}
	var p Pattern
	for y, r := range rows {
		for x, ch := range r {
			switch ch {
			case 'B':
				p.Stones.Set(g.At(x, y))
			case '+':
				p.Carrier.Set(g.At(x, y))
			}
		}
	}
	return g, p, nil
}
