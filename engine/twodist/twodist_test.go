package twodist

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/positions"
)

// grid renders the two-distances to edge e row by row: a number per empty cell, "-"
// for Inf, "." on a stone.
func grid(t *Potentials, b *hex.Board, e hex.Cell) string {
	g := b.Geometry()
	var rows []string
	for y := 0; y < g.H; y++ {
		var f []string
		for x := 0; x < g.W; x++ {
			p := g.At(x, y)
			switch d := t.Distance(e, p); {
			case b.At(p) != hex.Empty:
				f = append(f, ".")
			case d == Inf:
				f = append(f, "-")
			default:
				f = append(f, strconv.Itoa(d))
			}
		}
		rows = append(rows, strings.Join(f, " "))
	}
	return strings.Join(rows, " / ")
}

func TestDistanceDiagrams(t *testing.T) {
	tests := []struct {
		name, board string
		edge        hex.Cell
		want        string
	}{
		{"empty to north", `
			1 . . .
			2  . . .
			3   . . .`, hex.North, "1 1 1 / 2 2 3 / 3 4 5"},
		{"empty to west", `
			1 . . .
			2  . . .
			3   . . .`, hex.West, "1 2 3 / 1 2 4 / 1 3 5"},
		{"own stone is free", `
			1 . . .
			2  . B .
			3   . . .`, hex.North, "1 1 1 / 2 . 2 / 2 2 3"},
		{"opponent stone is a wall", `
			1 . . .
			2  . W .
			3   . . .`, hex.North, "1 1 1 / 2 . - / - - -"},
		{"a chain touching the edge", `
			1 . B .
			2  . B .
			3   . . .`, hex.North, "1 . 1 / 1 . 1 / 1 1 2"},
		{"walled off", `
			1 . . .
			2  W W W
			3   . . .`, hex.North, "1 1 1 / . . . / - - -"},
		{"one way through is not enough", `
			1 . . .
			2  W . W
			3   . . .`, hex.North, "1 1 1 / . 2 . / - - -"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.ParseDiagram(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			p := New(b.Geometry())
			p.Compute(b)
			if got := grid(p, b, tc.edge); got != tc.want {
				t.Errorf("distances to %v:\ngot  %s\nwant %s\n%s", tc.edge, got, tc.want, b)
			}
		})
	}
}

// oracle computes the two-distances to edge e for e's colour from the definition: the
// smallest fixpoint of d(p) = 1 if p touches e (directly or through a chain of the
// colour), else 1 + the second-smallest d over the empty cells p reaches directly or
// through such chains, found by relaxing until nothing changes.
func oracle(b *hex.Board, e hex.Cell) map[hex.Cell]int {
	g := b.Geometry()
	col := hex.EdgeColor(e)
	reach := func(p hex.Cell) (cells []hex.Cell, atEdge bool) {
		seen := map[hex.Cell]bool{p: true}
		stack := []hex.Cell{p}
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, q := range g.Neighbours(x) {
				if seen[q] {
					continue
				}
				seen[q] = true
				switch {
				case q == e:
					atEdge = true
				case q.IsEdge():
				case b.At(q) == hex.Empty:
					cells = append(cells, q)
				case b.At(q) == col:
					stack = append(stack, q)
				}
			}
		}
		return cells, atEdge
	}
	empty := b.EmptyCells().AppendCells(nil)
	d := map[hex.Cell]int{}
	for _, p := range empty {
		d[p] = Inf
	}
	for changed := true; changed; {
		changed = false
		for _, p := range empty {
			cells, at := reach(p)
			v := Inf
			if at {
				v = 1
			} else {
				m1, m2 := Inf, Inf
				for _, q := range cells {
					switch {
					case d[q] < m1:
						m1, m2 = d[q], m1
					case d[q] < m2:
						m2 = d[q]
					}
				}
				v = min(m2+1, Inf)
			}
			if v < d[p] {
				d[p], changed = v, true
			}
		}
	}
	return d
}

func TestOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var p *Potentials
	for n := 0; n < 400; n++ {
		w, h := 1+r.IntN(7), 1+r.IntN(7)
		b := hex.MustBoard(w, h)
		for _, c := range r.Perm(w * h)[:r.IntN(w*h+1)] {
			if err := b.PlaySetup([2]hex.Color{hex.Black, hex.White}[r.IntN(2)], hex.Cell(c)); err != nil {
				t.Fatal(err)
			}
		}
		if n%2 == 0 || p == nil || p.g != b.Geometry() {
			p = New(b.Geometry()) // otherwise reuse one across boards of a size
		}
		p.Compute(b)
		for _, col := range []hex.Color{hex.Black, hex.White} {
			e1, e2 := hex.EdgesOf(col)
			d1, d2 := oracle(b, e1), oracle(b, e2)
			mn, mob := 2*Inf, 0
			for c, v := range d1 {
				if got := p.Distance(e1, c); got != v {
					t.Fatalf("%v to %v at %s: %d, oracle %d\n%s", col, e1, b.Geometry().CellName(c), got, v, b)
				}
				if got := p.Distance(e2, c); got != d2[c] {
					t.Fatalf("%v to %v at %s: %d, oracle %d\n%s", col, e2, b.Geometry().CellName(c), got, d2[c], b)
				}
				pot := v + d2[c]
				if got := p.Potential(col, c); got != pot {
					t.Fatalf("%v potential at %s: %d, want %d", col, b.Geometry().CellName(c), got, pot)
				}
				switch {
				case pot < mn:
					mn, mob = pot, 1
				case pot == mn:
					mob++
				}
			}
			if mn == 2*Inf {
				mob = 0
			}
			if p.Min(col) != mn || p.Mobility(col) != mob {
				t.Fatalf("%v min %d mobility %d, want %d %d\n%s", col, p.Min(col), p.Mobility(col), mn, mob, b)
			}
		}
	}
}

func TestValue(t *testing.T) {
	b, err := hex.ParseDiagram(`
		1 . . .
		2  . B .
		3   . . .`)
	if err != nil {
		t.Fatal(err)
	}
	p := New(b.Geometry())
	p.Compute(b)
	if p.Value() <= 0 {
		t.Errorf("Black's centre stone gives value %g, want positive", p.Value())
	}
	b.Undo()
	p.Compute(b)
	if v := p.Value(); v != 0 {
		t.Errorf("empty square board: value %g, want 0", v)
	}
}

func TestNoAllocs(t *testing.T) {
	b, err := hex.ParseDiagram(`
		1 . . . B
		2  . W . .
		3   . B W .
		4    W . . B`)
	if err != nil {
		t.Fatal(err)
	}
	p := New(b.Geometry())
	p.Compute(b)
	if n := testing.AllocsPerRun(50, func() { p.Compute(b) }); n != 0 {
		t.Errorf("Compute allocates %g times per call", n)
	}
}

// BenchmarkCompute is both colours' potentials from scratch on 8x8 and on 11x11
// positions with about a third of the cells filled.
func BenchmarkCompute(b *testing.B) {
	benchCompute(b, func(g *hex.Geometry) interface{ Compute(*hex.Board) } { return New(g) })
}

// benchCompute times the Compute of the potentials newP makes, on the boards of
// BenchmarkCompute.
func benchCompute(b *testing.B, newP func(*hex.Geometry) interface{ Compute(*hex.Board) }) {
	for _, tc := range []struct {
		name   string
		n      int
		stones int
	}{{"8x8", 8, 20}, {"11x11", 11, 40}} {
		b.Run(tc.name, func(b *testing.B) {
			boards := positions.Sampled(tc.n, 64, tc.stones, 1, rand.NewPCG(3, 4))
			p := newP(boards[0].Geometry())
			for i := 0; b.Loop(); i++ {
				p.Compute(boards[i%len(boards)])
			}
		})
	}
}
