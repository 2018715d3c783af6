package hex

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// MaxSize is the largest board side supported.
const MaxSize = 19

// MaxCells is the largest number of cells on a board (19x19).
const MaxCells = MaxSize * MaxSize

// Cell is a point of the board: a cell index y*W+x (0-based column x and row y), one
// of the four edge points, or one of the special move values.
type Cell int16

// The edge points. They are members of the union-find structure and may be ends of
// virtual connections; North and South belong to Black, West and East to White.
const (
	North Cell = MaxCells + iota
	South
	West
	East
)

// NumPoints is the number of distinct points: every cell of the largest board plus the
// four edges. Arrays indexed by Cell have this length.
const NumPoints = MaxCells + 4

// Special cell values used in moves.
const (
	NoCell Cell = -1 // no cell (also "none found")
	Swap   Cell = -2 // the swap (pie) move, "swap-pieces"
	Resign Cell = -3 // resignation
)

// IsEdge reports whether p is one of the four edge points.
func (p Cell) IsEdge() bool { return p >= North && p <= East }

// Errors returned by the parsers and by Play; callers may test them with errors.Is.
// Their texts carry no package prefix because they are wrapped with context.
var (
	ErrBadSize  = errors.New("bad board size")
	ErrBadCell  = errors.New("bad cell")
	ErrBadColor = errors.New("bad colour")
	ErrIllegal  = errors.New("illegal move")
)

// Geometry describes a W x H board: its cells, their neighbours (edges included) and
// the names of the points. Geometries are shared and immutable; obtain one with
// NewGeometry.
type Geometry struct {
	W, H int // width (columns a..) and height (rows 1..)
	N    int // number of cells, W*H

	nbr    [NumPoints][6]Cell // neighbours of each cell (cells and edges), NoCell-padded
	nnbr   [NumPoints]uint8   // number of neighbours of each cell
	nbrSet [NumPoints]Bitset  // neighbours as a set, for cells and for edges
	cells  Bitset             // every cell of the board (no edges)
}

var (
	geomMu    sync.Mutex
	geomCache [MaxSize + 1][MaxSize + 1]*Geometry
)

// NewGeometry returns the shared geometry of a W x H board (1 <= W, H <= 19).
func NewGeometry(w, h int) (*Geometry, error) {
	if w < 1 || h < 1 || w > MaxSize || h > MaxSize {
		return nil, fmt.Errorf("%w: %dx%d (sides must be 1..%d)", ErrBadSize, w, h, MaxSize)
	}
	geomMu.Lock()
	defer geomMu.Unlock()
	if g := geomCache[w][h]; g != nil {
		return g, nil
	}
	g := &Geometry{W: w, H: h, N: w * h}
	add := func(a, b Cell) {
		g.nbrSet[a].Set(b)
		g.nbrSet[b].Set(a)
	}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			c := g.At(x, y)
			g.cells.Set(c)
			for i := range g.nbr[c] {
				g.nbr[c][i] = NoCell
			}
			for _, d := range [6][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {1, -1}, {-1, 1}} {
				nx, ny := x+d[0], y+d[1]
				var n Cell
				switch {
				case ny < 0:
					n = North
				case ny >= h:
					n = South
				case nx < 0:
					n = West
				case nx >= w:
					n = East
				default:
					n = g.At(nx, ny)
				}
				dup := false
				for _, m := range g.nbr[c][:g.nnbr[c]] {
					dup = dup || m == n // a corner cell meets an edge once
				}
				if dup {
					continue
				}
				g.nbr[c][g.nnbr[c]] = n
				g.nnbr[c]++
				add(c, n)
			}
		}
	}
	geomCache[w][h] = g
	return g, nil
}

// MustGeometry is NewGeometry for sizes known to be valid; it panics otherwise.
func MustGeometry(w, h int) *Geometry {
	g, err := NewGeometry(w, h)
	if err != nil {
		panic(err)
	}
	return g
}

// Square reports whether the board is n x n.
func (g *Geometry) Square() bool { return g.W == g.H }

// At returns the cell at column x and row y (0-based). It does not check bounds.
func (g *Geometry) At(x, y int) Cell { return Cell(y*g.W + x) }

// XY returns the 0-based column and row of cell c.
func (g *Geometry) XY(c Cell) (x, y int) { return int(c) % g.W, int(c) / g.W }

// OnBoard reports whether p is a cell or an edge of this board.
func (g *Geometry) OnBoard(p Cell) bool { return (p >= 0 && int(p) < g.N) || p.IsEdge() }

// IsCell reports whether p is a cell (not an edge) of this board.
func (g *Geometry) IsCell(p Cell) bool { return p >= 0 && int(p) < g.N }

// Neighbours returns the neighbours of cell c (cells and edges). The slice aliases
// the geometry's table and must not be modified.
func (g *Geometry) Neighbours(c Cell) []Cell { return g.nbr[c][:g.nnbr[c]] }

// NeighbourSet returns the neighbours of point p (a cell or an edge) as a set.
func (g *Geometry) NeighbourSet(p Cell) *Bitset { return &g.nbrSet[p] }

// Cells returns the set of every cell of the board.
func (g *Geometry) Cells() Bitset { return g.cells }

// EdgesOf returns the two edges a colour joins: North and South for Black, West and
// East for White.
func EdgesOf(c Color) (Cell, Cell) {
	if c == White {
		return West, East
	}
	return North, South
}

// EdgeColor returns the colour that owns edge e.
func EdgeColor(e Cell) Color {
	if e == West || e == East {
		return White
	}
	return Black
}

// CellName returns the name of p: "a1".."s19", "north", "south", "west", "east",
// "swap-pieces", "resign", or "none".
func (g *Geometry) CellName(p Cell) string {
	switch p {
	case North:
		return "north"
	case South:
		return "south"
	case West:
		return "west"
	case East:
		return "east"
	case Swap:
		return "swap-pieces"
	case Resign:
		return "resign"
	}
	if !g.IsCell(p) {
		return "none"
	}
	x, y := g.XY(p)
	return string(rune('a'+x)) + strconv.Itoa(y+1)
}

// CellNames returns the names (CellName) of the points of s in increasing order; an
// empty set gives an empty, non-nil slice (a JSON "[]").
func (g *Geometry) CellNames(s Bitset) []string {
	out := make([]string, 0, s.Count())
	for p := s.First(); p != NoCell; p = s.Next(p + 1) {
		out = append(out, g.CellName(p))
	}
	return out
}

// FormatCells returns the names of the points of s in increasing order, separated
// by single spaces ("" for the empty set).
func (g *Geometry) FormatCells(s Bitset) string {
	var sb strings.Builder
	for p := s.First(); p != NoCell; p = s.Next(p + 1) {
		if sb.Len() > 0 {
			sb.WriteByte(' ')
		}
		sb.WriteString(g.CellName(p))
	}
	return sb.String()
}

// ParseCell parses a cell name such as "c3" (case-insensitive) on this board.
func (g *Geometry) ParseCell(s string) (Cell, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if len(t) < 2 || t[0] < 'a' || t[0] > 'z' {
		return NoCell, fmt.Errorf("%w: %q", ErrBadCell, s)
	}
	x := int(t[0] - 'a')
	y, err := strconv.Atoi(t[1:])
	if err != nil || t[1] < '1' || t[1] > '9' {
		return NoCell, fmt.Errorf("%w: %q", ErrBadCell, s)
	}
	y--
	if x >= g.W || y < 0 || y >= g.H {
		return NoCell, fmt.Errorf("%w: %q is off the %dx%d board", ErrBadCell, s, g.W, g.H)
	}
	return g.At(x, y), nil
}

// ParsePoint parses a cell name or an edge name (north, south, west, east; also n,
// s, w, e and top, bottom, left, right).
func (g *Geometry) ParsePoint(s string) (Cell, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "north", "n", "top":
		return North, nil
	case "south", "s", "bottom":
		return South, nil
	case "west", "w", "left":
		return West, nil
	case "east", "e", "right":
		return East, nil
	}
	return g.ParseCell(s)
}

// ParseMoveCell parses a move's cell: a cell name, "swap-pieces" (also "swap") or
// "resign".
func (g *Geometry) ParseMoveCell(s string) (Cell, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "swap-pieces", "swap":
		return Swap, nil
	case "resign":
		return Resign, nil
	}
	return g.ParseCell(s)
}

// Rotate180 maps p under the 180° rotation (x, y) -> (W-1-x, H-1-y), which keeps
// colours; edges map North<->South and West<->East.
func (g *Geometry) Rotate180(p Cell) Cell {
	switch p {
	case North:
		return South
	case South:
		return North
	case West:
		return East
	case East:
		return West
	}
	if !g.IsCell(p) {
		return p
	}
	return Cell(g.N - 1 - int(p))
}

// Transpose maps p under the reflection in the long diagonal, (x, y) -> (y, x), onto
// the H x W board; the reflection exchanges the colours' roles, so North<->West and
// South<->East. Use it with the colours of all stones exchanged.
func (g *Geometry) Transpose(p Cell) Cell {
	switch p {
	case North:
		return West
	case West:
		return North
	case South:
		return East
	case East:
		return South
	}
	if !g.IsCell(p) {
		return p
	}
	x, y := g.XY(p)
	return Cell(x*g.H + y) // on the H x W board: column y, row x
}
