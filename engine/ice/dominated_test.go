package ice

import (
	"math/rand"
	"strings"
	"sync"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// everyCompletion fills b's empty cells other than skip with x and x's opponent in
// every combination and reports whether ok holds for each (b is restored).
func everyCompletion(b *hex.Board, x hex.Color, skip []hex.Cell, ok func() bool) bool {
	e := b.EmptyCells()
	for _, p := range skip {
		e.Clear(p)
	}
	cells := e.AppendCells(nil)
	to := b.ToMove()
	defer b.SetToMove(to)
	for mask := 0; mask < 1<<len(cells); mask++ {
		for i, p := range cells {
			col := x.Opp()
			if mask&(1<<i) != 0 {
				col = x
			}
			b.PlayStone(col, p)
		}
		good := ok()
		for range cells {
			b.Undo()
		}
		if !good {
			return false
		}
	}
	return true
}

// winsWith reports whether x wins b after the given stones are placed (b is restored).
func winsWith(b *hex.Board, x hex.Color, stones ...hex.Move) bool {
	for _, m := range stones {
		b.PlayStone(m.Color, m.Cell)
	}
	w := b.Winner()
	for range stones {
		b.Undo()
	}
	return w == x
}

// completionDominates reports whether, for player x on b, every completion of the
// other empty cells that x wins with (c: x, d: opponent) x also wins with (d: x,
// c: opponent): the statement the local criterion proves.
func completionDominates(b *hex.Board, x hex.Color, d, c hex.Cell) bool {
	o := x.Opp()
	return everyCompletion(b, x, []hex.Cell{c, d}, func() bool {
		return !winsWith(b, x, hex.Move{Color: x, Cell: c}, hex.Move{Color: o, Cell: d}) ||
			winsWith(b, x, hex.Move{Color: x, Cell: d}, hex.Move{Color: o, Cell: c})
	})
}

// completionCaptured reports whether, after an x-stone at d, the empty cells c and v
// form an x-captured pair by completions: for every completion of the other empty
// cells that x wins with both c and v, x also wins with either one given to the
// opponent.
func completionCaptured(b *hex.Board, x hex.Color, d, c, v hex.Cell) bool {
	o := x.Opp()
	wins := func(cc, cv hex.Color) bool {
		return winsWith(b, x, hex.Move{Color: x, Cell: d}, hex.Move{Color: cc, Cell: c}, hex.Move{Color: cv, Cell: v})
	}
	return everyCompletion(b, x, []hex.Cell{c, d, v}, func() bool {
		return !wins(x, x) || wins(o, x) && wins(x, o)
	})
}

// provedByCompletions reports whether the domination of c by d for x follows from
// completions: d completion-dominates c, or an x-stone at d makes {c, v} x-captured
// for some empty v near both.
func provedByCompletions(b *hex.Board, x hex.Color, d, c hex.Cell) bool {
	if completionDominates(b, x, d, c) {
		return true
	}
	g := b.Geometry()
	near := g.NeighbourSet(c).Or(*g.NeighbourSet(d)).And(b.EmptyCells())
	near.Clear(c)
	near.Clear(d)
	for v := near.First(); v != hex.NoCell; v = near.Next(v + 1) {
		if completionCaptured(b, x, d, c, v) {
			return true
		}
	}
	return false
}

// TestLocalDominatedCompletions checks every claimed domination on random 3x3 to 5x5
// positions against all completions of the board.
func TestLocalDominatedCompletions(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	a := NewAnalyzer()
	found := 0
	dom := make([]hex.Cell, hex.NumPoints)
	for i := 0; i < 3000; i++ {
		n := 3 + rng.Intn(3)
		minStones := max(0, n*n-14)
		b := randomPosition(rng, n, minStones+rng.Intn(n*n-minStones-1))
		x := b.ToMove()
		d := a.LocalDominated(b, x, b.EmptyCells(), dom)
		for c := d.First(); c != hex.NoCell; c = d.Next(c + 1) {
			found++
			if !provedByCompletions(b, x, dom[c], c) {
				t.Fatalf("%v to move:\n%s\n%s claimed dominated by %s",
					x, b, b.Geometry().CellName(c), b.Geometry().CellName(dom[c]))
			}
		}
	}
	if found < 500 {
		t.Fatalf("only %d dominations found", found)
	}
	t.Logf("%d dominations checked", found)
}

// TestLocalDominatedValues checks on random positions that the dominator's move is
// worth at least the dominated one's (brute-force minimax).
func TestLocalDominatedValues(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	a := NewAnalyzer()
	found, strict := 0, 0
	dom := make([]hex.Cell, hex.NumPoints)
	count := map[int]int{3: 1500, 4: 1500, 5: 200}
	for _, n := range []int{3, 4, 5} {
		memo := map[uint64]bool{}
		for i := 0; i < count[n]; i++ {
			minStones := 0
			if n == 5 {
				minStones = 11
			}
			b := randomPosition(rng, n, minStones+rng.Intn(n*n-minStones-1))
			x := b.ToMove()
			d := a.LocalDominated(b, x, b.EmptyCells(), dom)
			for c := d.First(); c != hex.NoCell; c = d.Next(c + 1) {
				found++
				b.PlayStone(x, c)
				vc := !brute.MoverWins(b, memo)
				b.Undo()
				b.PlayStone(x, dom[c])
				vd := !brute.MoverWins(b, memo)
				b.Undo()
				if vc && !vd {
					t.Fatalf("%v to move:\n%s\n%s wins but its dominator %s loses", x, b,
						b.Geometry().CellName(c), b.Geometry().CellName(dom[c]))
				}
				if vd && !vc {
					strict++
				}
			}
		}
	}
	if found < 1000 {
		t.Fatalf("only %d dominations found", found)
	}
	t.Logf("%d dominations checked (%d strict)", found, strict)
}

// domString lists the cells LocalDominated reports for x on b as "cell<dominator".
func domString(a *Analyzer, b *hex.Board, x hex.Color) string {
	dom := make([]hex.Cell, hex.NumPoints)
	s := a.LocalDominated(b, x, b.EmptyCells(), dom)
	g := b.Geometry()
	var out []string
	for c := s.First(); c != hex.NoCell; c = s.Next(c + 1) {
		out = append(out, g.CellName(c)+"<"+g.CellName(dom[c]))
	}
	return strings.Join(out, " ")
}

// TestLocalDominatedPatterns pins the dominations found on a few boards. On the empty
// board exactly the cells on the mover's own edges are dominated (a first-row cell by
// a second-row cell that reaches the edge by a bridge, or by its first-row neighbour),
// each pointing at a dominator that is itself kept or dominated later in index order.
func TestLocalDominatedPatterns(t *testing.T) {
	tests := []struct {
		name, diagram string
		black, white  string
	}{
		{"empty", `
 . . . . .
  . . . . .
   . . . . .
    . . . . .
     . . . . .`,
			"a1<b1 b1<b2 c1<c2 d1<d2 e1<d2 a5<b4 b5<b4 c5<c4 d5<d4 e5<e4",
			"a1<b1 e1<d2 a2<b2 e2<d2 a3<b3 e3<d3 a4<b4 e4<d4 a5<b4 e5<d5"},
		// a White stone on the second row: c1 still reaches the edge through b2's
		// bridge
		{"second-row stone", `
 . . . . .
  . . W . .
   . . . . .
    . . . . .
     . . . . .`,
			"a1<b1 b1<b2 c1<b2 d1<e1 e1<d2 a5<b4 b5<b4 c5<c4 d5<d4 e5<e4",
			"a1<b1 c1<b1 d1<e1 e1<d2 a2<b2 e2<d2 a3<b3 e3<d3 a4<b4 e4<d4 a5<b4 e5<d5"},
		// a White stone on the first row
		{"first-row stone", `
 . W . . .
  . . . . .
   . . . . .
    . . . . .
     . . . . .`,
			"a1<a2 c1<c2 d1<d2 e1<d2 a5<b4 b5<b4 c5<c4 d5<d4 e5<e4",
			"a1<a2 e1<d2 a2<b2 e2<d2 a3<b3 e3<d3 a4<b4 e4<d4 a5<b4 e5<d5"},
		// own stones near the edges reach further in
		{"stones", `
 . . . . .
  . B . . .
   . . . . .
    . . . W .
     . . . . .`,
			"a1<b1 b1<c1 c1<c2 d1<d2 e1<d2 a3<b3 e3<e4 a5<b4 b5<b4 c5<c4 d5<e5 e5<e4",
			"a1<b1 b1<c1 e1<d2 e2<d2 a3<b3 e3<d3 a4<b4 e4<e5 a5<b4 c5<b5 d5<e5"},
	}
	a := NewAnalyzer()
	for _, tc := range tests {
		b, err := hex.ParseDiagram(tc.diagram)
		if err != nil {
			t.Fatal(err)
		}
		if got := domString(a, b, hex.Black); got != tc.black {
			t.Errorf("%s, black:\n got %s\nwant %s", tc.name, got, tc.black)
		}
		if got := domString(a, b, hex.White); got != tc.white {
			t.Errorf("%s, white:\n got %s\nwant %s", tc.name, got, tc.white)
		}
	}
}

// TestLocalDominatedWithin checks that only cells of within are reported and only
// dominators of within are used, and that bad input gives nothing.
func TestLocalDominatedWithin(t *testing.T) {
	a := NewAnalyzer()
	b := hex.MustBoard(5, 5)
	g := b.Geometry()
	var within hex.Bitset
	for _, n := range []string{"c1", "d1", "c3"} {
		c, _ := g.ParseCell(n)
		within.Set(c)
	}
	dom := make([]hex.Cell, hex.NumPoints)
	got := a.LocalDominated(b, hex.Black, within, dom)
	// c1's dominators c2 and b2 are outside within; d1 is not dominated by c1
	if !got.IsEmpty() {
		t.Errorf("within c1 d1 c3: got %s", g.FormatCells(got))
	}
	c2, _ := g.ParseCell("c2")
	within.Set(c2)
	got = a.LocalDominated(b, hex.Black, within, dom)
	d1, _ := g.ParseCell("d1")
	if g.FormatCells(got) != "c1 d1" || dom[got.First()] != c2 || dom[d1] != c2 {
		t.Errorf("within c1 d1 c2 c3: got %s", g.FormatCells(got))
	}
	// Among: only cells of the first set are reported, dominated by cells of within
	var c1only hex.Bitset
	c1, _ := g.ParseCell("c1")
	c1only.Set(c1)
	if got := a.LocalDominatedAmong(b, hex.Black, c1only, within, dom); g.FormatCells(got) != "c1" || dom[c1] != c2 {
		t.Errorf("among c1, within c1 d1 c2 c3: got %s", g.FormatCells(got))
	}
	if got := a.LocalDominatedAmong(b, hex.Black, within, c1only, dom); !got.IsEmpty() {
		t.Errorf("within c1 only: got %s", g.FormatCells(got))
	}
	if s := a.LocalDominated(b, hex.Empty, within, dom); !s.IsEmpty() {
		t.Errorf("no colour: got %s", g.FormatCells(s))
	}
}

// TestLocalDominatedNoAllocs checks that a warmed-up call allocates nothing, on two
// board sizes in turn.
func TestLocalDominatedNoAllocs(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	a := NewAnalyzer()
	b := randomPosition(rng, 8, 12)
	dom := make([]hex.Cell, hex.NumPoints)
	a.LocalDominated(b, b.ToMove(), b.EmptyCells(), dom)
	if n := testing.AllocsPerRun(50, func() {
		a.LocalDominated(b, b.ToMove(), b.EmptyCells(), dom)
	}); n != 0 {
		t.Fatalf("%v allocations per call", n)
	}
}

// TestLocalDominatedConcurrent runs two analyzers on the shared table at once (go test
// -race checks the table's accesses) and compares their answers with a fresh brute
// force.
func TestLocalDominatedConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	errs := make(chan string, 2)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			a := NewAnalyzer()
			for i := 0; i < 200; i++ {
				b := randomPosition(rng, 6, rng.Intn(20))
				x := b.ToMove()
				got := a.LocalDominated(b, x, b.EmptyCells(), nil)
				// the same question answered without the table (a.dom and a.codes
				// hold b's points and codes from the call above)
				want := hex.Bitset{}
				within := b.EmptyCells()
				g := b.Geometry()
				for c := within.First(); c != hex.NoCell; c = within.Next(c + 1) {
					for dir := range domDirs {
						d := a.dom.pts[c][dir^1][1]
						if !g.IsCell(d) || !within.Has(d) || want.Has(d) {
							continue
						}
						pts, far := &a.dom.pts[d][dir], &domShapes[dir].far
						if a.codes[pts[far[0]]]|a.codes[pts[far[1]]]|a.codes[pts[far[2]]] == codeEmpty {
							continue
						}
						if dominatesKey(a.dom.keyAt(&a.codes, d, dir, x == hex.White)) {
							want.Set(c)
							break
						}
					}
				}
				if got != want {
					errs <- b.String()
					return
				}
			}
		}(int64(w + 40))
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("table and brute force disagree on\n%s", e)
	}
}
