package circuit

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func mustDiagram(t testing.TB, s string) *hex.Board {
	t.Helper()
	b, err := hex.ParseDiagram(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func evalBoard(t testing.TB, cfg Config, b *hex.Board, bl, wl []Link) Eval {
	t.Helper()
	r, err := NewResistance(cfg)
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Eval(b, bl, wl)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// The resistances below were computed by hand with Kirchhoff's laws (see the comments).
func TestHandChecked(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name    string
		diagram string
		rb, rw  float64
	}{
		// One empty cell between both pairs of edges: two links of resistance 1 in series.
		{"1x1 empty", ".", 2, 2},
		{"1x1 black", "B", 0, inf},
		{"1x1 white", "W", inf, 0},
		// 2x2 empty: by the 180° symmetry v(a1)=3/4, v(b1)=2/3, current 7/12.
		{"2x2 empty", ". .\n .  .", 12.0 / 7, 12.0 / 7},
		// Black a1 joins North: v(b1)=0.7, v(a2)=0.5, current 0.8; White's circuit
		// loses a1: v(a2)=0.6, current 0.4.
		{"2x2 black a1", "B .\n . .", 1.25, 2.5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustDiagram(t, tc.diagram)
			for _, solver := range []Solver{Skyline, CG, Dense} {
				cfg := DefaultConfig()
				cfg.Solver = solver
				e := evalBoard(t, cfg, b, nil, nil)
				if !close(e.RB, tc.rb) || !close(e.RW, tc.rw) {
					t.Errorf("%v: R_B=%v R_W=%v, want %v %v", solver, e.RB, e.RW, tc.rb, tc.rw)
				}
				if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) || math.Abs(e.E+e.Value) > 0 {
					t.Errorf("%v: value %v E %v", solver, e.Value, e.E)
				}
			}
		})
	}
}

func close(a, b float64) bool {
	if math.IsInf(b, 1) {
		return math.IsInf(a, 1)
	}
	return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b))
}

func TestDegenerateClamp(t *testing.T) {
	b := mustDiagram(t, `
 B . .
  B W W
   B . .`)
	e := evalBoard(t, DefaultConfig(), b, nil, nil)
	if !e.Black.Connected || e.LogRB != -LogClamp || e.Value <= 0 {
		t.Fatalf("black connected: %+v", e)
	}
	if got := LogR(math.Inf(1)); got != LogClamp {
		t.Fatalf("LogR(+Inf) = %v", got)
	}
	if got := LogR(0); got != -LogClamp {
		t.Fatalf("LogR(0) = %v", got)
	}
	// White cut off by a black wall but Black not yet connected? Impossible in Hex (a
	// cut-off colour means the other is connected), but an isolated component must not
	// break the solver: a white group enclosed by black stones.
	b = mustDiagram(t, `
 . B . .
  B W B .
   . B . .
    . . . .`)
	e = evalBoard(t, DefaultConfig(), b, nil, nil)
	if math.IsNaN(e.Value) || math.IsInf(e.Value, 0) {
		t.Fatalf("value %v", e.Value)
	}
}

func randomBoard(rng *rand.Rand, w, h int, stones int) *hex.Board {
	b := hex.MustBoard(w, h)
	cells := b.Geometry().Cells()
	list := cells.AppendCells(nil)
	rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
	c := hex.Black
	for _, p := range list[:stones] {
		if b.Winner() != hex.Empty {
			break
		}
		b.PlayStone(c, p)
		c = c.Opp()
	}
	return b
}

// randomLinks returns some pairs of own points two steps apart (bridge-like) plus edge
// pairs, as H-search might.
func randomLinks(rng *rand.Rand, b *hex.Board, c hex.Color) []Link {
	var pts []hex.Cell
	st := b.Stones(c)
	pts = st.AppendCells(pts)
	e1, e2 := hex.EdgesOf(c)
	pts = append(pts, e1, e2)
	em := b.EmptyCells()
	empties := em.AppendCells(nil)
	var out []Link
	for i := 0; i < 6 && len(pts) > 1; i++ {
		out = append(out, Link{pts[rng.IntN(len(pts))], pts[rng.IntN(len(pts))]})
	}
	for i := 0; i < 6 && len(empties) > 0; i++ {
		out = append(out, Link{empties[rng.IntN(len(empties))], pts[rng.IntN(len(pts))]})
	}
	return out
}

func TestResidualAndSolversAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	circuits := map[VCMode]map[Solver]*Circuit{}
	for _, mode := range []VCMode{NoVCs, LinkEnds, ShareNeighbours} {
		circuits[mode] = map[Solver]*Circuit{}
		for _, s := range []Solver{Skyline, CG, Dense} {
			c, err := New(Config{Mode: mode, VCResistance: 0.5, Solver: s})
			if err != nil {
				t.Fatal(err)
			}
			circuits[mode][s] = c
		}
	}
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := 0; i < n; i++ {
		w, h := 1+rng.IntN(11), 1+rng.IntN(11)
		b := randomBoard(rng, w, h, rng.IntN(w*h/2+1))
		for _, col := range []hex.Color{hex.Black, hex.White} {
			links := randomLinks(rng, b, col)
			var ref Side
			for _, s := range []Solver{Skyline, Dense, CG} {
				c := circuits[VCMode(i%3)][s]
				side, err := c.Solve(b, col, links)
				if err != nil {
					t.Fatalf("%v %v:\n%s\n%v", s, col, b.Diagram(), err)
				}
				if res := c.Residual(); res > 1e-9 {
					t.Fatalf("%v residual %g on\n%s", s, res, b.Diagram())
				}
				if s == Skyline {
					ref = side
				} else if !close(side.R, ref.R) && math.Abs(side.R-ref.R) > 1e-9 {
					t.Fatalf("%v R=%v, skyline %v on\n%s", s, side.R, ref.R, b.Diagram())
				}
			}
		}
	}
}

func TestModes(t *testing.T) {
	// b2 and b4 are given as a virtual connection (as if H-search had found one); adding it
	// must lower R_B and leave White's circuit alone.
	b := mustDiagram(t, `
 . . . W
  . B . .
   . . . .
    . B . .`)
	g := b.Geometry()
	p1, _ := g.ParseCell("b2")
	p2, _ := g.ParseCell("b4")
	links := []Link{{p1, p2}}
	base := evalBoard(t, Config{Mode: NoVCs}, b, links, nil)
	for _, mode := range []VCMode{LinkEnds, ShareNeighbours} {
		cfg := DefaultConfig()
		cfg.Mode = mode
		e := evalBoard(t, cfg, b, links, nil)
		if !(e.RB < base.RB) {
			t.Errorf("%v: R_B %v not below plain %v", mode, e.RB, base.RB)
		}
		if e.RW != base.RW {
			t.Errorf("%v: White's circuit changed by a Black link: %v vs %v", mode, e.RW, base.RW)
		}
	}
	// A link to a white stone is ignored.
	w, _ := g.ParseCell("d1")
	e := evalBoard(t, DefaultConfig(), b, []Link{{p1, w}}, nil)
	if e.RB != base.RB {
		t.Errorf("link to an opponent point changed R_B: %v vs %v", e.RB, base.RB)
	}
}

func TestSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := 0; i < 100; i++ {
		w, h := 1+rng.IntN(9), 1+rng.IntN(9)
		b := randomBoard(rng, w, h, rng.IntN(w*h/2+1))
		e := evalBoard(t, DefaultConfig(), b, nil, nil)
		rot := evalBoard(t, DefaultConfig(), b.Rotated(), nil, nil)
		if math.Abs(e.E-rot.E) > 1e-9 {
			t.Fatalf("rotation changed E %v -> %v on\n%s", e.E, rot.E, b.Diagram())
		}
		ref := evalBoard(t, DefaultConfig(), b.Reflected(), nil, nil)
		if math.Abs(e.E+ref.E) > 1e-9 {
			t.Fatalf("reflection gave E %v -> %v on\n%s", e.E, ref.E, b.Diagram())
		}
	}
}

func TestEnergy(t *testing.T) {
	b := hex.MustBoard(5, 5)
	r, _ := NewResistance(DefaultConfig())
	if _, err := r.Eval(b, nil, nil); err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	c3, _ := g.ParseCell("c3")
	a1, _ := g.ParseCell("a1")
	if !(r.Energy(c3) > r.Energy(a1)) {
		t.Errorf("centre energy %v not above corner %v", r.Energy(c3), r.Energy(a1))
	}
	// Every link's power is counted at both ends except those at the terminals.
	bl, _ := r.Circuits()
	sum := 0.0
	for p := hex.Cell(0); int(p) < g.N; p++ {
		sum += bl.CellEnergy(p)
	}
	if sum < 1 || sum > 2 {
		t.Errorf("energy fractions sum to %v, want in [1,2]", sum)
	}
}

func TestErrors(t *testing.T) {
	if _, err := New(Config{Mode: LinkEnds}); !errors.Is(err, ErrConfig) {
		t.Errorf("zero vc resistance: %v", err)
	}
	if _, err := ParseVCMode("bogus"); !errors.Is(err, ErrConfig) {
		t.Errorf("bad mode: %v", err)
	}
	c, _ := New(DefaultConfig())
	b := hex.MustBoard(3, 3)
	if _, err := c.Solve(b, hex.Black, []Link{{0, 200}}); !errors.Is(err, ErrLink) {
		t.Errorf("bad link: %v", err)
	}
	if _, err := c.Solve(b, hex.Empty, nil); err == nil {
		t.Errorf("empty colour accepted")
	}
}

func TestNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	b := randomBoard(rng, 11, 11, 30)
	r, _ := NewResistance(DefaultConfig())
	links := randomLinks(rng, b, hex.Black)
	r.Eval(b, links, nil)
	if a := testing.AllocsPerRun(20, func() { r.Eval(b, links, nil) }); a != 0 {
		t.Errorf("%v allocations per evaluation", a)
	}
}

// FuzzSolve builds a board and VC links from the fuzzer's bytes and checks that every
// solver gives a finite, agreeing resistance with a residual below 1e-9.
func FuzzSolve(f *testing.F) {
	f.Add(uint8(5), uint8(5), []byte{12, 1, 7, 2, 3, 1}, []byte{0, 24, 5, 6})
	f.Add(uint8(1), uint8(1), []byte{}, []byte{})
	f.Add(uint8(11), uint8(3), []byte{0, 1, 1, 2, 2, 1, 3, 2}, []byte{1, 200, 30, 31})
	cs := map[Solver]*Circuit{}
	for _, s := range []Solver{Skyline, CG, Dense} {
		cs[s], _ = New(Config{Mode: LinkEnds, VCResistance: 0.5, Solver: s})
	}
	share, _ := New(Config{Mode: ShareNeighbours})
	f.Fuzz(func(t *testing.T, w, h uint8, stones, linkBytes []byte) {
		w, h = 1+w%12, 1+h%12
		b := hex.MustBoard(int(w), int(h))
		g := b.Geometry()
		for i := 0; i+1 < len(stones); i += 2 {
			p := hex.Cell(int(stones[i]) % g.N)
			c := hex.Color(1 + stones[i+1]%2)
			if b.At(p) == hex.Empty && b.Winner() == hex.Empty {
				b.PlayStone(c, p)
			}
		}
		var links []Link
		pt := func(x byte) hex.Cell {
			if int(x) >= g.N {
				return hex.North + hex.Cell(int(x)%4)
			}
			return hex.Cell(x)
		}
		for i := 0; i+1 < len(linkBytes); i += 2 {
			links = append(links, Link{pt(linkBytes[i]), pt(linkBytes[i+1])})
		}
		for _, col := range []hex.Color{hex.Black, hex.White} {
			var ref Side
			for _, s := range []Solver{Skyline, CG, Dense} {
				side, err := cs[s].Solve(b, col, links)
				if err != nil {
					t.Fatalf("%v: %v", s, err)
				}
				if math.IsNaN(side.R) || math.IsNaN(side.LogR) || side.R < 0 {
					t.Fatalf("%v: R %v", s, side.R)
				}
				if r := cs[s].Residual(); r > 1e-9 {
					t.Fatalf("%v: residual %g", s, r)
				}
				if s == Skyline {
					ref = side
				} else if !close(side.R, ref.R) {
					t.Fatalf("%v: R %v, skyline %v", s, side.R, ref.R)
				}
			}
			if _, err := share.Solve(b, col, links); err != nil {
				t.Fatal(err)
			}
			if r := share.Residual(); r > 1e-9 {
				t.Fatalf("share: residual %g", r)
			}
		}
	})
}
