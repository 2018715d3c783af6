package patterns

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func mustPattern(t testing.TB, s string) (*hex.Geometry, Pattern) {
	t.Helper()
	g, p, err := ParsePatternDiagram(s)
	if err != nil {
		t.Fatal(err)
	}
	return g, p
}

func TestVerifyTable(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		want    bool
	}{
		{"bridge to both edges", `
. + +
 . B .
  + + .`, true},
		{"single cells to the edges: White cuts", `
. + .
 . B .
  . + .`, false},
		{"a full column of stones", `
B . .
 B . .
  B . .`, true},
		{"empty 2x1 board column pair: Black answers White's move", `
+ +`, true},
		{"two-cell column: White takes one", `
+
 +`, false},
		{"two bridges in a chain", `
. + + .
 . B . .
  + + . .
   B . . .`, true},
		{"gap of two rows: White cuts", `
. + + .
 . B . .
  . + . .
   . + . .`, false},
		{"stone three rows from South, five-cell carrier: White cuts", `
. . B . .
 . + + . .
  + + + . .`, false},
		{"bridge to South with spare cells", `
. . B + .
 . + + + .`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g, p := mustPattern(t, tc.diagram)
			got, err := Verify(g, p, 20)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("Verify = %v, want %v\n%s", got, tc.want, p.Diagram(g))
			}
		})
	}
}

// randomConnected returns a random pattern whose stones and carrier join North and
// South: a random downward walk, each cell a stone or a carrier cell, plus a few extra
// carrier cells next to it.
func randomConnected(r *rand.Rand, g *hex.Geometry, stoneP float64, extra int) Pattern {
	var p Pattern
	x, y := r.IntN(g.W), 0
	add := func(c hex.Cell) {
		if p.Stones.Has(c) || p.Carrier.Has(c) {
			return
		}
		if r.Float64() < stoneP {
			p.Stones.Set(c)
		} else {
			p.Carrier.Set(c)
		}
	}
	add(g.At(x, y))
	for y < g.H-1 {
		switch r.IntN(3) {
		case 0: // sideways
			if nx := x + 1 - 2*r.IntN(2); nx >= 0 && nx < g.W {
				x = nx
			}
		case 1: // down-left
			if x > 0 {
				x--
			}
			y++
		default: // down
			y++
		}
		add(g.At(x, y))
	}
	cells := g.Cells()
	for i := 0; i < extra; i++ {
		all := p.Cells()
		var nb hex.Bitset
		for c := all.First(); c != hex.NoCell; c = all.Next(c + 1) {
			nb = nb.Or(*g.NeighbourSet(c))
		}
		nb = nb.And(cells).AndNot(all)
		cs := nb.AppendCells(nil)
		if len(cs) == 0 {
			break
		}
		p.Carrier.Set(cs[r.IntN(len(cs))])
	}
	return p
}

// randomWinners returns up to n random patterns that Verify proves winning.
func randomWinners(t testing.TB, r *rand.Rand, n int) ([]*hex.Geometry, []Pattern) {
	var gs []*hex.Geometry
	var ps []Pattern
	for tries := 0; len(ps) < n && tries < 50*n; tries++ {
		g := hex.MustGeometry(2+r.IntN(5), 2+r.IntN(4))
		p := randomConnected(r, g, 0.4, r.IntN(7))
		if p.Carrier.Count() > 12 {
			continue
		}
		ok, err := Verify(g, p, 12)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			gs, ps = append(gs, g), append(ps, p)
		}
	}
	return gs, ps
}

// TestVariantsStillWin: every symmetric variant of a winning pattern is still winning
// (exhaustive search on the carrier), and variants are what they claim: translations
// along rows and the 180° rotation, all distinct, on the board. As a control that the
// oracle can tell, the left–right mirror (not a symmetry of the hex grid) loses for
// some winning patterns.
func TestVariantsStillWin(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	n := 150
	if testing.Short() {
		n = 40
	}
	gs, ps := randomWinners(t, r, n)
	if len(ps) < n/2 {
		t.Fatalf("only %d random winning patterns", len(ps))
	}
	mirrorLost, totalVariants := 0, 0
	for i, p := range ps {
		g := gs[i]
		vs := Variants(g, p)
		if vs[0] != p {
			t.Fatal("Variants does not start with the pattern itself")
		}
		totalVariants += len(vs)
		if len(vs) > 2*g.W {
			t.Fatalf("%d variants on a board %d wide", len(vs), g.W)
		}
		for j, v := range vs {
			if v.Size() != p.Size() || v.Stones.Count() != p.Stones.Count() {
				t.Fatalf("variant %d changes the pattern's size", j)
			}
			for k := 0; k < j; k++ {
				if vs[k] == v {
					t.Fatalf("variant %d duplicates %d", j, k)
				}
			}
			ok, err := Verify(g, v, 12)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Fatalf("variant %d of a winning pattern loses:\n%s\nvariant:\n%s", j, p.Diagram(g), v.Diagram(g))
			}
		}
		mirror := func(c hex.Cell) hex.Cell { x, y := g.XY(c); return g.At(g.W-1-x, y) }
		m := Pattern{Stones: mapCells(p.Stones, mirror), Carrier: mapCells(p.Carrier, mirror)}
		if ok, _ := Verify(g, m, 12); !ok {
			mirrorLost++
		}
	}
	if mirrorLost == 0 {
		t.Error("no left-right mirror of a winning pattern lost: the oracle cannot tell true symmetries")
	}
	t.Logf("%d winning patterns, %d variants all winning, %d mirrors lost", len(ps), totalVariants, mirrorLost)
}

func TestVariantsExample(t *testing.T) {
	g, p := mustPattern(t, `
. + . .
 . B . .
  . B + .`)
	vs := Variants(g, p)
	// The pattern and its rotation both span columns b..c of four: three translations
	// each (d = -1, 0, +1), and the rotation is no translation of the pattern.
	if len(vs) != 6 {
		var sb strings.Builder
		for _, v := range vs {
			sb.WriteString(v.Diagram(g) + "\n")
		}
		t.Fatalf("%d variants, want 6:\n%s", len(vs), sb.String())
	}
}

func TestFromBoard(t *testing.T) {
	b, err := hex.ParsePosition(4, 4, "b2 a1 a4")
	if err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	var carrier hex.Bitset
	for _, s := range []string{"b1", "c1", "a3", "b3", "d4"} { // d4: useless, dropped
		c, _ := g.ParseCell(s)
		carrier.Set(c)
	}
	// b2 bridges to North (b1/c1) and to a4 (a3/b3), which touches South.
	p, err := FromBoard(b, hex.Black, carrier)
	if err != nil {
		t.Fatal(err)
	}
	want := `
. + + .
 . B . .
  + + . .
   B . . .`
	_, wp := mustPattern(t, want)
	if p != wp {
		t.Fatalf("FromBoard:\n%s\nwant\n%s", p.Diagram(g), wp.Diagram(g))
	}
	if ok, _ := Verify(g, p, 12); !ok {
		t.Error("extracted pattern does not verify")
	}
	// A carrier holding a White stone is refused.
	a1, _ := g.ParseCell("a1")
	carrier.Set(a1)
	if _, err := FromBoard(b, hex.Black, carrier); !errors.Is(err, ErrBadPattern) {
		t.Errorf("carrier with opponent stone: %v, want ErrBadPattern", err)
	}
	if _, err := FromBoard(b, hex.Black, hex.Bitset{}); !errors.Is(err, ErrNotConnected) {
		t.Errorf("no carrier: %v, want ErrNotConnected", err)
	}
}

func TestParsePatternDiagramErrors(t *testing.T) {
	for _, s := range []string{"", "B x", "B +\n+"} {
		if _, _, err := ParsePatternDiagram(s); !errors.Is(err, ErrBadPattern) {
			t.Errorf("ParsePatternDiagram(%q) = %v, want ErrBadPattern", s, err)
		}
	}
}
