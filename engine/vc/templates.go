package vc

import (
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Edge templates (Config.EdgeTemplates) are base connections between a point and one of
// the colour's edges that H-search does not derive, or only through several AND and OR
// steps that a list limit can drop: Anshelevich's third-row template IIIa (the ziggurat,
// appendix B), and eight templates in which a second stone of the colour (a support)
// lets an empty cell reach the edge through a region that the stone's own templates do
// not fit: a fifth-row cell next to a fourth- or fifth-row stone (V-s, V-s2, V-s3), a
// fourth-row cell next to a fourth-row stone, adjacent or one cell apart (IV-s, IV-s2),
// or below a third-row stone (IV-s3), a third-row cell with a fourth-row stone three
// columns away (III-s), and a second-row cell at the end of the board, where its own
// bridge does not fit, with a fourth-row stone (II-s). They are among the edge
// templates of the Hex literature (David King's catalogue); each was found where
// Benzene's solver decides a position of our 8x8 solves (openings e4, g2, c1) that ours
// does not, and is proved here by our own brute force (TestTemplateCarriers). The
// fourth-row template IVa itself is not among them: H-search derives it on the empty
// board, and as a base connection it did not pay on the solved 8x8 set. Each one is
// drawn below with the edge above row 0: row d is indented by d spaces and its cells
// are two columns apart, as hex.Board.Diagram draws a board, so that a cell's two
// neighbours on the row nearer the edge are the cells diagonally above it. S is the
// anchor (a stone of the colour or an empty cell), B a support cell (a stone of the
// colour), '.' a carrier cell. Both mirror images of each drawing are used, on both of
// the colour's edges.
//
// A template applies at an anchor when every cell of its region (anchor, supports and
// carrier) is on the board, its supports hold stones of the colour and no other cell
// holds an opponent stone; its carrier is the region's empty cells other than the
// anchor (own stones in the region only help). TestTemplateCarriers proves every
// carrier a VC with the brute-force oracle.
var templateDiagrams = []struct{ name, diagram string }{
	{"IIIa", `
. . . .
 . . .
  S .`},
	{"V-s", `
. . . . . .
 . . . . .
  . . . .
   . . B
    . S`},
	{"IV-s", `
. . . .
 . . .
  . . .
   B S`},
	{"III-s", `
. . . . . . .
 . . . . . .
  . . . . . S
     . B .`},
	{"II-s", `
. . . . . . .
 . . . . . . S
  . . . . .
     . B`},
	{"IV-s3", `
. . . . .
 . . . .
  . . . B
     . S`},
	{"IV-s2", `
. . . . . .
 . . . . .
  . . . .
   B . S`},
	{"V-s2", `
. . . . . . .
 . . . . . .
  . . . . .
     . . .
      B S`},
	{"V-s3", `
. . . . . . .
 . . . . . .
  . . . . . .
     . . . B
        . S`},
}

// tmplCell is one cell of a template: dx along the edge (the lattice's x direction)
// and d, the distance from the edge (row 0 touches it), relative to the anchor's row.
// stone marks a support cell that must hold a stone of the colour.
type tmplCell struct {
	dx, d int
	stone bool
}

// template is one parsed edge template: its anchor row and its cells (anchor first)
// relative to the anchor's x.
type template struct {
	name  string
	row   int
	cells []tmplCell
}

// parseTemplate reads one template drawing (see templateDiagrams). It reports false for a
// drawing without exactly one anchor or with a cell off the lattice.
func parseTemplate(name, diagram string) (template, bool) {
	t := template{name: name}
	var cs []tmplCell
	anchors := 0
	lines := strings.Split(strings.Trim(diagram, "\n"), "\n")
	for d, line := range lines {
		for col, ch := range line {
			if ch == ' ' {
				continue
			}
			if ch != '.' && ch != 'S' && ch != 'B' || (col-d)%2 != 0 || col < d {
				return template{}, false
			}
			c := tmplCell{dx: (col - d) / 2, d: d}
			switch ch {
			case 'S':
				anchors++
				t.row = d
				cs = append([]tmplCell{c}, cs...)
			case 'B':
				c.stone = true
				cs = append(cs, c)
			default:
				cs = append(cs, c)
			}
		}
	}
	if anchors != 1 {
		return template{}, false
	}
	ax := cs[0].dx
	for i := range cs {
		cs[i].dx -= ax
	}
	t.cells = cs
	return t, true
}

// mirror returns the template's mirror image across the line through its anchor
// perpendicular to the edge: (dx, d) becomes (-dx-(d-row), d) on the hex lattice.
func (t template) mirror() template {
	m := template{name: t.name + "'", row: t.row, cells: make([]tmplCell, len(t.cells))}
	for i, c := range t.cells {
		m.cells[i] = tmplCell{dx: -c.dx - (c.d - t.row), d: c.d, stone: c.stone}
	}
	return m
}

// parsedTemplates are templateDiagrams parsed, each followed by its mirror image.
var parsedTemplates = func() []template {
	var out []template
	for _, e := range templateDiagrams {
		t, ok := parseTemplate(e.name, e.diagram)
		if !ok {
			panic("vc: bad edge template " + e.name) // a fixed table, checked by the tests
		}
		out = append(out, t, t.mirror())
	}
	return out
}()

// tmplInst is one placement of an edge template on a board: the anchor cell, the edge
// it connects to, the region (carrier cells, anchor excluded) and the support cells that
// must hold the colour's stones.
type tmplInst struct {
	name    string
	anchor  hex.Cell
	edge    hex.Cell
	region  hex.Bitset
	support hex.Bitset
}

// templateInstances returns every placement of the edge templates that fits on a board
// of geometry g for colour c (both of its edges).
func templateInstances(g *hex.Geometry, c hex.Color) []tmplInst {
	var out []tmplInst
	ea, eb := hex.EdgesOf(c)
	// place maps a template cell (x along the edge, d from the edge) for edge e to a
	// board cell; ok is false off the board.
	place := func(e hex.Cell, x, d int) (hex.Cell, bool) {
		var bx, by int
		switch e {
		case hex.North:
			bx, by = x, d
		case hex.South: // 180-degree rotation of North
			bx, by = g.W-1-x, g.H-1-d
		case hex.West: // transpose of North
			bx, by = d, x
		default: // East: transpose of South
			bx, by = g.W-1-d, g.H-1-x
		}
		if bx < 0 || by < 0 || bx >= g.W || by >= g.H {
			return 0, false
		}
		return g.At(bx, by), true
	}
	for _, e := range [2]hex.Cell{ea, eb} {
		along := g.W
		if e == hex.West || e == hex.East {
			along = g.H
		}
		for _, t := range parsedTemplates {
			for x := 0; x < along; x++ {
				inst := tmplInst{name: t.name, edge: e}
				ok := true
				for i, tc := range t.cells {
					p, on := place(e, x+tc.dx, tc.d)
					if !on {
						ok = false
						break
					}
					switch {
					case i == 0:
						inst.anchor = p
					case tc.stone:
						inst.support.Set(p)
					default:
						inst.region.Set(p)
					}
				}
				if ok {
					out = append(out, inst)
				}
			}
		}
	}
	return out
}

// addTemplates adds the edge templates that apply on board as base VCs (see
// templateDiagrams): all of them, or with support a cell (Play of an own stone there)
// only those that have it among their supports, the ones that stone enabled.
func (b *Builder) addTemplates(board *hex.Board, support hex.Cell) {
	if b.tmplGeom[b.color] != b.g {
		b.tmpl[b.color] = templateInstances(b.g, b.color)
		b.tmplGeom[b.color] = b.g
	}
	opp := board.Stones(b.color.Opp())
	c := Conn{Key: hex.NoCell, Rule: RuleBase}
	insts := b.tmpl[b.color]
	for k := range insts {
		t := &insts[k]
		if support != hex.NoCell && !t.support.Has(support) {
			continue
		}
		if opp.Has(t.anchor) || t.region.Intersects(&opp) || !t.support.SubsetOf(&b.own) {
			continue
		}
		ia, ie := b.cellPoint[t.anchor], b.cellPoint[t.edge]
		if ia < 0 || ie < 0 || ia == ie {
			continue
		}
		c.Carrier = t.region.And(b.empty)
		b.addFull(ia, ie, &c)
	}
}
