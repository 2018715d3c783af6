package ice

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
)

//go:embed patterns.txt
var defaultPatternText string

// ErrPatternSyntax is returned (wrapped) by ParsePatterns for a malformed pattern file.
var ErrPatternSyntax = errors.New("ice: bad pattern file")

// Kind is what a pattern proves about its target cells.
type Kind uint8

// The pattern kinds.
const (
	// KindDead: the target cell is dead.
	KindDead Kind = iota + 1
	// KindCaptured: the target cells are captured by the pattern's owner.
	KindCaptured
	// KindInferior: the target cells are permanently inferior for the opponent:
	// filling them with the owner's stones keeps the game value as long as the
	// pattern's empty ('.') cells, which must touch a target, stay free of the
	// opponent (they are the fill's support; see Result.Support).
	KindInferior
)

// Anchor says which board edge a pattern must touch.
type Anchor uint8

// Pattern anchors. Anchored patterns are written for the north edge (their first row
// lies on row 1); the other edges follow by symmetry.
const (
	AnchorNone Anchor = iota
	AnchorNorth
)

// cell contents in a pattern
const (
	pAny    = iota // '?': anything on the board
	pEmpty         // '.': empty
	pTarget        // '*': empty, a target cell
	pOwn           // 'B': a stone of the owner (Black as written)
	pOpp           // 'W': a stone of the opponent (White as written)
)

// Pattern is one local pattern: cells at offsets (dx, dy) from the anchor cell with
// required contents. Owner is the colour the pattern is written for (Black); variants
// for White are derived by the diagonal reflection with colours exchanged.
type Pattern struct {
	Name   string
	Kind   Kind
	Anchor Anchor
	// Rows of the diagram as written (for printing and tests).
	Rows  []string
	cells []pcell
}

type pcell struct {
	dx, dy int
	what   uint8
}

// PatternSet is a parsed pattern file with all symmetric variants expanded.
type PatternSet struct {
	Patterns []Pattern
	variants []variant
}

// variant is one placement-independent form of a pattern: offsets in board
// coordinates, the owner colour, and which edge the pattern's row 0 must lie on.
type variant struct {
	pat   int
	owner hex.Color
	// edge: 0 none, or hex.North/South/West/East
	edge  hex.Cell
	cells []pcell
}

// ParsePatterns parses a pattern file. Syntax, one item per line ('#' starts a comment):
//
//	pattern NAME KIND [north]
//	ROW
//	...
//	end
//
// KIND is "dead" (the single '*' cell is dead), "captured" (the '*' cells are
// Black-captured) or "inferior" (the '*' cells may be filled with Black stones while
// the '.' cells, each next to a '*', hold no White stone; see KindInferior). With
// "north" the first row lies on row 1 of the board (next to Black's north edge). Each
// ROW lists one board row of the pattern, cells separated by spaces, leading spaces
// ignored (write rows indented as in board diagrams: row y+1 sits half a cell to the
// right, so cell i of row y touches cells i and i-1 of row y+1). Tokens: '*' target
// (empty), '.' empty, 'B' Black stone, 'W' White stone, '?' anything. Patterns are
// written with Black as owner; the colour-exchanged reflection and the 180° rotation
// are added automatically.
func ParsePatterns(text string) (*PatternSet, error) {
	ps := &PatternSet{}
	var cur *Pattern
	for ln, line := range strings.Split(text, "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		bad := func(msg string, a ...any) error {
			return fmt.Errorf("%w: line %d: %s", ErrPatternSyntax, ln+1, fmt.Sprintf(msg, a...))
		}
		switch {
		case f[0] == "pattern":
			if cur != nil {
				return nil, bad("pattern %q has no end", cur.Name)
			}
			if len(f) < 3 || len(f) > 4 {
				return nil, bad("want: pattern NAME KIND [north]")
			}
			p := Pattern{Name: f[1]}
			switch f[2] {
			case "dead":
				p.Kind = KindDead
			case "captured":
				p.Kind = KindCaptured
			case "inferior":
				p.Kind = KindInferior
			default:
				return nil, bad("unknown kind %q (want dead, captured or inferior)", f[2])
			}
			if len(f) == 4 {
				if f[3] != "north" {
					return nil, bad("unknown anchor %q (want north)", f[3])
				}
				p.Anchor = AnchorNorth
			}
			cur = &p
		case f[0] == "end":
			if cur == nil {
				return nil, bad("end without pattern")
			}
			if err := cur.check(); err != nil {
				return nil, bad("%v", err)
			}
			ps.Patterns = append(ps.Patterns, *cur)
			cur = nil
		default:
			if cur == nil {
				return nil, bad("diagram row outside a pattern")
			}
			y := len(cur.Rows)
			cur.Rows = append(cur.Rows, strings.Join(f, " "))
			for x, t := range f {
				var w uint8
				switch t {
				case "?":
					w = pAny
				case ".":
					w = pEmpty
				case "*":
					w = pTarget
				case "B", "b":
					w = pOwn
				case "W", "w":
					w = pOpp
				default:
					return nil, bad("unknown token %q (want * . B W ?)", t)
				}
				if w != pAny {
					cur.cells = append(cur.cells, pcell{dx: x, dy: y, what: w})
				}
			}
		}
	}
	if cur != nil {
		return nil, fmt.Errorf("%w: pattern %q has no end", ErrPatternSyntax, cur.Name)
	}
	ps.expand()
	return ps, nil
}

func (p *Pattern) check() error {
	n := 0
	for _, c := range p.cells {
		if c.what == pTarget {
			n++
		}
	}
	switch {
	case n == 0:
		return fmt.Errorf("pattern %q has no target '*'", p.Name)
	case p.Kind == KindDead && n != 1:
		return fmt.Errorf("dead pattern %q must have exactly one '*'", p.Name)
	}
	if p.Kind == KindInferior {
		// Result.Support's bound (SupportBound) relies on this
		for _, c := range p.cells {
			if c.what == pEmpty && !p.touchesTarget(c) {
				return fmt.Errorf("inferior pattern %q: empty cell (%d, %d) touches no '*'", p.Name, c.dx, c.dy)
			}
		}
	}
	return nil
}

// touchesTarget reports whether pattern cell c is next to a target cell (as written:
// cell (x, y) touches (x±1, y), (x, y±1), (x+1, y-1) and (x-1, y+1)).
func (p *Pattern) touchesTarget(c pcell) bool {
	for _, t := range p.cells {
		if t.what != pTarget {
			continue
		}
		dx, dy := t.dx-c.dx, t.dy-c.dy
		switch [2]int{dx, dy} {
		case [2]int{1, 0}, [2]int{-1, 0}, [2]int{0, 1}, [2]int{0, -1}, [2]int{1, -1}, [2]int{-1, 1}:
			return true
		}
	}
	return false
}

// expand adds the symmetric variants: as written (owner Black), rotated 180°, and both
// reflected in the long diagonal with colours exchanged (owner White).
func (ps *PatternSet) expand() {
	for i, p := range ps.Patterns {
		for v := 0; v < 4; v++ {
			va := variant{pat: i, owner: hex.Black}
			rot, refl := v&1 != 0, v&2 != 0
			if p.Anchor == AnchorNorth {
				va.edge = hex.North
			}
			for _, c := range p.cells {
				dx, dy, w := c.dx, c.dy, c.what
				if rot {
					dx, dy = -dx, -dy
				}
				if refl {
					// the owner becomes White below, which exchanges the colours
					dx, dy = dy, dx
				}
				va.cells = append(va.cells, pcell{dx: dx, dy: dy, what: w})
			}
			if rot && va.edge != 0 {
				va.edge = hex.South
			}
			if refl {
				va.owner = hex.White
				switch va.edge {
				case hex.North:
					va.edge = hex.West
				case hex.South:
					va.edge = hex.East
				}
			}
			ps.variants = append(ps.variants, va)
		}
	}
}

var (
	defaultOnce sync.Once
	defaultSet  *PatternSet
)

// DefaultPatterns returns the embedded pattern file, parsed once. It panics only if
// the embedded file is malformed, which the tests rule out.
func DefaultPatterns() *PatternSet {
	defaultOnce.Do(func() {
		ps, err := ParsePatterns(defaultPatternText)
		if err != nil {
			panic(err)
		}
		defaultSet = ps
	})
	return defaultSet
}

// matchAt reports whether variant va matches with its offset origin at (x0, y0).
func (va *variant) matchAt(b *hex.Board, x0, y0 int) bool {
	g := b.Geometry()
	for _, c := range va.cells {
		x, y := x0+c.dx, y0+c.dy
		if x < 0 || y < 0 || x >= g.W || y >= g.H {
			return false
		}
		col := b.At(g.At(x, y))
		switch c.what {
		case pEmpty, pTarget:
			if col != hex.Empty {
				return false
			}
		case pOwn:
			if col != va.owner {
				return false
			}
		case pOpp:
			if col != va.owner.Opp() {
				return false
			}
		}
	}
	return true
}

// origins calls f for each origin at which variant va may sit (edge anchoring).
func (va *variant) each(g *hex.Geometry, f func(x0, y0 int)) {
	switch va.edge {
	case hex.North:
		for x := 0; x < g.W; x++ {
			f(x, 0)
		}
	case hex.South:
		for x := 0; x < g.W; x++ {
			f(x, g.H-1)
		}
	case hex.West:
		for y := 0; y < g.H; y++ {
			f(0, y)
		}
	case hex.East:
		for y := 0; y < g.H; y++ {
			f(g.W-1, y)
		}
	default:
		for y := 0; y < g.H; y++ {
			for x := 0; x < g.W; x++ {
				f(x, y)
			}
		}
	}
}

func (ps *PatternSet) match(b *hex.Board, kind Kind, owner hex.Color, firstOnly bool) hex.Bitset {
	out, _ := ps.matchSupport(b, kind, owner, firstOnly)
	return out
}

// matchSupport is match that also returns the empty ('.') cells of the matches.
func (ps *PatternSet) matchSupport(b *hex.Board, kind Kind, owner hex.Color, firstOnly bool) (out, support hex.Bitset) {
	g := b.Geometry()
	for vi := range ps.variants {
		va := &ps.variants[vi]
		if ps.Patterns[va.pat].Kind != kind || (owner != hex.Empty && va.owner != owner) {
			continue
		}
		va.each(g, func(x0, y0 int) {
			if firstOnly && !out.IsEmpty() {
				return
			}
			if !va.matchAt(b, x0, y0) {
				return
			}
			for _, c := range va.cells {
				switch c.what {
				case pTarget:
					out.Set(g.At(x0+c.dx, y0+c.dy))
				case pEmpty:
					support.Set(g.At(x0+c.dx, y0+c.dy))
				}
			}
		})
		if firstOnly && !out.IsEmpty() {
			break
		}
	}
	return out, support
}

// MatchDead returns the cells that some dead pattern (any variant) marks dead on b.
func (ps *PatternSet) MatchDead(b *hex.Board) hex.Bitset {
	return ps.match(b, KindDead, hex.Empty, false)
}

// MatchCaptured returns the target cells of the first captured pattern of owner x
// that matches on b (one set, so that it is captured on its own).
func (ps *PatternSet) MatchCaptured(b *hex.Board, x hex.Color) hex.Bitset {
	return ps.match(b, KindCaptured, x, true)
}

// MatchInferior returns the target cells of the first inferior pattern of owner x
// that matches on b, with the pattern's empty cells (the fill's support).
func (ps *PatternSet) MatchInferior(b *hex.Board, x hex.Color) (targets, support hex.Bitset) {
	return ps.matchSupport(b, KindInferior, x, true)
}

// Placements calls f with the target and pattern cells of every match of pattern
// index i (all variants) on b; tests use it to prove patterns by brute force.
func (ps *PatternSet) Placements(b *hex.Board, i int, f func(owner hex.Color, targets, cells hex.Bitset)) {
	g := b.Geometry()
	for vi := range ps.variants {
		va := &ps.variants[vi]
		if va.pat != i {
			continue
		}
		va.each(g, func(x0, y0 int) {
			if !va.matchAt(b, x0, y0) {
				return
			}
			var t, all hex.Bitset
			for _, c := range va.cells {
				p := g.At(x0+c.dx, y0+c.dy)
				all.Set(p)
				if c.what == pTarget {
					t.Set(p)
				}
			}
			f(va.owner, t, all)
		})
	}
}
