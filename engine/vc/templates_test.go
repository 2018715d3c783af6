package vc

import (
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

func mustDiagram(t *testing.T, s string) *hex.Board {
	t.Helper()
	b, err := hex.ParseDiagram(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func cells(t *testing.T, g *hex.Geometry, names ...string) hex.Bitset {
	t.Helper()
	var s hex.Bitset
	for _, n := range names {
		p, err := g.ParseCell(n)
		if err != nil {
			t.Fatal(err)
		}
		s.Set(p)
	}
	return s
}

// TestEdgeTemplates checks that the classic edge templates (Anshelevich Fig. 2 and
// appendix B: the bridge to the edge, the ziggurat, the fourth-row edge template and
// the ladder) are found as VCs between the stone and the South edge, and that each one
// small enough is confirmed by the brute-force oracle.
func TestEdgeTemplates(t *testing.T) {
	tests := []struct {
		name     string
		diagram  string
		stone    string
		maxCells int      // the smallest carrier found has at most this many cells
		want     []string // if set: the smallest carrier must be exactly these cells
		oracle   bool
	}{
		{"bridge", `
 . . . .
  . B . .
   . . . .`, "b2", 2, []string{"a3", "b3"}, true},
		{"ziggurat", `
 W W W W W
  . . . . .
   . . B . .
    . . . . .
     . . . . .`, "c3", 8, nil, true},
		// Appendix B's fourth-row edge template: its carrier has exactly 19 cells.
		{"fourth row", `
 W W W W W W W
  . . . . B . .
   . . . . . . .
    . . . . . . .
     . . . . . . .`, "e2", 19, []string{"f2", "c3", "d3", "e3", "f3", "g3", "b4", "c4", "d4", "e4", "f4", "g4", "a5", "b5", "c5", "d5", "e5", "f5", "g5"}, false},
		// Appendix B's ladder: the second-row stone b2 cannot bridge to the edge (a3 is
		// taken); it ladders along the second row to the escape stone f3.
		{"ladder", `
 W W W W W W W
  . B . . . . .
   W . . . . B .`, "b2", 8, nil, true},
	}
	for _, tc := range tests {
		for _, cfg := range []Config{DefaultConfig(), XHConfig()} {
			b := mustDiagram(t, tc.diagram)
			g := b.Geometry()
			p, _ := g.ParseCell(tc.stone)
			bl := NewBuilder(cfg)
			if err := bl.Build(b, hex.Black); err != nil {
				t.Fatal(err)
			}
			l, err := bl.Full(p, hex.South)
			if err != nil {
				t.Fatal(err)
			}
			if len(l) == 0 {
				t.Errorf("%s (xh=%v): no VC %s-south", tc.name, cfg.XH, tc.stone)
				continue
			}
			c := l[0].Carrier
			if c.Count() > tc.maxCells {
				t.Errorf("%s: smallest carrier %s has more than %d cells", tc.name, cellList(g, c), tc.maxCells)
			}
			if tc.want != nil && c != cells(t, g, tc.want...) {
				t.Errorf("%s: carrier %s, want %v", tc.name, cellList(g, c), tc.want)
			}
			if tc.oracle && !isVC(b, hex.Black, p, hex.South, c) {
				t.Errorf("%s: oracle rejects carrier %s", tc.name, cellList(g, c))
			}
		}
	}
}

// TestLadderNeedsEscape: without the escape stone the second-row ladder is lost, and
// H-search must not claim it.
func TestLadderNeedsEscape(t *testing.T) {
	b := mustDiagram(t, `
 W W W W W W W
  . B . . . . .
   W . . . . . W`)
	bl := NewBuilder(DefaultConfig())
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	p, _ := b.Geometry().ParseCell("b2")
	if l, _ := bl.Full(p, hex.South); len(l) != 0 {
		t.Errorf("VC b2-south claimed without escape: %s", cellList(b.Geometry(), l[0].Carrier))
	}
	if l, _ := bl.Semi(p, hex.South); len(l) == 0 {
		t.Errorf("no SC b2-south")
	}
}

// TestContract5x5 is the position of the GTP contract check: on 5x5 after c2 a1 b4 e5
// Black has a winning VC whose carrier contains c1 d1 b3 c3 a5 b5, White none.
func TestContract5x5(t *testing.T) {
	b, err := hex.ParsePosition(5, 5, "c2 a1 b4 e5")
	if err != nil {
		t.Fatal(err)
	}
	bl := NewBuilder(DefaultConfig())
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	won, c := bl.WinningVC()
	if !won {
		t.Fatal("no black winning VC")
	}
	want := cells(t, b.Geometry(), "c1", "d1", "b3", "c3", "a5", "b5")
	found := false
	for _, cn := range bl.WinningFulls() {
		if want.SubsetOf(&cn.Carrier) {
			found = true
		}
		if !isVC(b, hex.Black, hex.North, hex.South, cn.Carrier) {
			t.Errorf("oracle rejects winning carrier %s", cellList(b.Geometry(), cn.Carrier))
		}
	}
	if !found {
		t.Errorf("no winning carrier contains %s; smallest %s", cellList(b.Geometry(), want), cellList(b.Geometry(), c))
	}
	if err := bl.Build(b, hex.White); err != nil {
		t.Fatal(err)
	}
	if won, _ := bl.WinningVC(); won {
		t.Error("white has a winning VC")
	}
	// Mustplay for White to move against Black's connections: Black already has a
	// winning VC, so it is threatened.
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	if _, threatened := bl.Mustplay(); !threatened {
		t.Error("mustplay not threatened")
	}
}

// TestMustplay: on an empty 3x3 board with White to move, the intersection of
// Black's winning SC carriers must contain the centre b2, and every White move
// outside it must leave Black (then to move) winning.
func TestMustplay(t *testing.T) {
	b := hex.MustBoard(3, 3)
	bl := NewBuilder(DefaultConfig())
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	must, threatened := bl.Mustplay()
	if !threatened {
		t.Fatal("black has no winning SC on empty 3x3")
	}
	b2, _ := b.Geometry().ParseCell("b2")
	if !must.Has(b2) {
		t.Errorf("mustplay %s lacks b2", cellList(b.Geometry(), must))
	}
	// Every cell outside the mustplay loses for White: check with the oracle that
	// Black still has a VC after White plays there.
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if must.Has(p) {
			continue
		}
		c := b.Clone()
		c.PlayStone(hex.White, p)
		o := newOracle(c, hex.Black, hex.North, hex.South, c.EmptyCells())
		if !o.Wins(0, 0, true) {
			t.Errorf("white %s outside mustplay does not lose", b.Geometry().CellName(p))
		}
	}
}

// TestErrors covers bad inputs.
func TestErrors(t *testing.T) {
	bl := NewBuilder(DefaultConfig())
	if err := bl.Build(nil, hex.Black); err == nil {
		t.Error("nil board accepted")
	}
	b := hex.MustBoard(3, 3)
	if err := bl.Build(b, hex.Empty); err == nil {
		t.Error("empty colour accepted")
	}
	if _, err := bl.Full(hex.North, hex.South); err == nil {
		t.Error("query before build accepted")
	}
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	if _, err := bl.Full(hex.West, hex.South); err == nil {
		t.Error("opponent edge accepted")
	}
	if _, err := bl.Full(hex.North, hex.North); err == nil {
		t.Error("same point accepted")
	}
	if err := bl.SetConfig(Config{}); err == nil {
		t.Error("zero config accepted")
	}
}

// proveTemplate proves with the brute-force oracle (brute.Carrier.Prove) that the
// placement in of an edge template for colour c on geometry g is a VC between its
// anchor and its edge on carrier, with its support stones and nothing else on the board.
func proveTemplate(t *testing.T, g *hex.Geometry, c hex.Color, in tmplInst, carrier hex.Bitset) bool {
	t.Helper()
	b := hex.MustBoard(g.W, g.H)
	for p := in.support.First(); p != hex.NoCell; p = in.support.Next(p + 1) {
		b.PlayStone(c, p)
	}
	own := b.Stones(c)
	ea, eb := hex.EdgesOf(c)
	own.Set(ea)
	own.Set(eb)
	cg, err := brute.NewCarrier(g, own, in.anchor, in.edge, carrier)
	if err != nil {
		t.Fatal(err)
	}
	return cg.Prove(0, 0, false)
}

// TestTemplateCarriers proves every edge template drawing and its mirror image a VC
// between its anchor and the edge (one placement on 8x8 each), and each carrier of up
// to 16 cells minimal: without any one of its cells the opponent, moving first, cuts
// the anchor from the edge. Every other placement, on every edge of both colours, must
// be the same shape moved along the edge and turned onto the other edges
// (TestTemplatePlacements); HEXLEARN_TEMPLATES_FULL=1 proves every placement and every
// carrier's minimality (about 5 minutes).
func TestTemplateCarriers(t *testing.T) {
	if len(parsedTemplates) != 2*len(templateDiagrams) {
		t.Fatalf("%d parsed templates for %d drawings", len(parsedTemplates), len(templateDiagrams))
	}
	sizes := map[string][2]int{"IIIa": {8, 0}, "V-s": {18, 1}, "IV-s": {10, 1}, "III-s": {20, 1},
		"II-s": {19, 1}, "IV-s3": {13, 1}, "IV-s2": {16, 1}, "V-s2": {21, 1}, "V-s3": {23, 1}}
	for _, tp := range parsedTemplates {
		name := strings.TrimSuffix(tp.name, "'")
		support := 0
		for _, c := range tp.cells {
			if c.stone {
				support++
			}
		}
		if got := [2]int{len(tp.cells) - 1 - support, support}; got != sizes[name] {
			t.Errorf("%s: %d carrier cells and %d supports, want %v", tp.name, got[0], got[1], sizes[name])
		}
	}
	full := os.Getenv("HEXLEARN_TEMPLATES_FULL") != ""
	g := hex.MustGeometry(8, 8)
	done := map[string]bool{}
	for _, c := range []hex.Color{hex.Black, hex.White} {
		for _, in := range templateInstances(g, c) {
			if done[in.name] && !full {
				continue
			}
			first := !done[in.name]
			done[in.name] = true
			if !proveTemplate(t, g, c, in, in.region) {
				t.Errorf("%v: template %s at %s to %v: carrier %s is not a VC", c, in.name, g.CellName(in.anchor), in.edge, cellList(g, in.region))
				continue
			}
			if !first || in.region.Count() > 16 && !full {
				continue
			}
			for p := in.region.First(); p != hex.NoCell; p = in.region.Next(p + 1) {
				less := in.region
				less.Clear(p)
				if proveTemplate(t, g, c, in, less) {
					t.Errorf("template %s at %s: still a VC without %s", in.name, g.CellName(in.anchor), g.CellName(p))
				}
			}
		}
	}
	for _, tp := range parsedTemplates {
		if !done[tp.name] {
			t.Errorf("template %s has no placement on 8x8", tp.name)
		}
	}
}

// TestTemplatePlacements checks that templateInstances places every template as the
// one shape: on each edge of both colours, on 6x6 to 9x9, each placement's anchor,
// supports and carrier are the drawing's cells moved along the edge (the placement on
// North of the same template translated, turned by 180 degrees for South and
// transposed for West and East), and a placement exists wherever the drawing fits.
func TestTemplatePlacements(t *testing.T) {
	for size := 6; size <= 9; size++ {
		g := hex.MustGeometry(size, size)
		// map a cell on edge e's frame back to North's frame: (along, distance).
		frame := func(e, p hex.Cell) (int, int) {
			x, y := g.XY(p)
			switch e {
			case hex.North:
				return x, y
			case hex.South:
				return size - 1 - x, size - 1 - y
			case hex.West:
				return y, x
			}
			return size - 1 - y, size - 1 - x
		}
		for _, c := range []hex.Color{hex.Black, hex.White} {
			count := map[string]map[hex.Cell]int{}
			for _, in := range templateInstances(g, c) {
				if hex.EdgeColor(in.edge) != c {
					t.Fatalf("%v template %s on the other colour's edge %v", c, in.name, in.edge)
				}
				if count[in.name] == nil {
					count[in.name] = map[hex.Cell]int{}
				}
				count[in.name][in.edge]++
				var tp template
				for _, p := range parsedTemplates {
					if p.name == in.name {
						tp = p
					}
				}
				ax, ad := frame(in.edge, in.anchor)
				if ad != tp.row {
					t.Errorf("%dx%d %s: anchor %s at distance %d, want %d", size, size, in.name, g.CellName(in.anchor), ad, tp.row)
				}
				want := map[[2]int]byte{}
				for _, tc := range tp.cells[1:] {
					k := byte('.')
					if tc.stone {
						k = 'B'
					}
					want[[2]int{ax + tc.dx, tc.d}] = k
				}
				got := map[[2]int]byte{}
				for p := in.region.First(); p != hex.NoCell; p = in.region.Next(p + 1) {
					x, d := frame(in.edge, p)
					got[[2]int{x, d}] = '.'
				}
				for p := in.support.First(); p != hex.NoCell; p = in.support.Next(p + 1) {
					x, d := frame(in.edge, p)
					got[[2]int{x, d}] = 'B'
				}
				if len(got) != len(want) {
					t.Errorf("%dx%d %s at %s: %d cells, want %d", size, size, in.name, g.CellName(in.anchor), len(got), len(want))
				}
				for k, v := range want {
					if got[k] != v {
						t.Errorf("%dx%d %s at %s: cell %v is %q, want %q", size, size, in.name, g.CellName(in.anchor), k, got[k], v)
					}
				}
			}
			for _, tp := range parsedTemplates {
				lo, hi := 0, 0
				for _, tc := range tp.cells {
					lo, hi = min(lo, tc.dx), max(hi, tc.dx)
				}
				fits := max(0, size-(hi-lo))
				ea, eb := hex.EdgesOf(c)
				for _, e := range []hex.Cell{ea, eb} {
					if n := count[tp.name][e]; n != fits {
						t.Errorf("%dx%d %v: %s placed %d times on %v, want %d", size, size, c, tp.name, n, e, fits)
					}
				}
			}
		}
	}
}

// TestTemplateParse checks the template drawings' parser rejects bad drawings and
// that mirroring twice gives the template back.
func TestTemplateParse(t *testing.T) {
	for _, bad := range []string{"", ". .", "S S", "S x", " S\n."} {
		if _, ok := parseTemplate("bad", bad); ok {
			t.Errorf("drawing %q accepted", bad)
		}
	}
	for _, tp := range parsedTemplates {
		m := tp.mirror().mirror()
		for i := range tp.cells {
			if m.cells[i] != tp.cells[i] {
				t.Errorf("%s: mirror of mirror differs at %d", tp.name, i)
			}
		}
	}
}
