package ice

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// isDead reports whether the colour of empty cell c never decides the winner of any
// completion of b (the definition of a dead cell), by enumerating the completions.
func isDead(b *hex.Board, c hex.Cell) bool {
	e := b.EmptyCells()
	e.Clear(c)
	cells := e.AppendCells(nil)
	to := b.ToMove()
	defer b.SetToMove(to)
	for mask := 0; mask < 1<<len(cells); mask++ {
		for i, p := range cells {
			col := hex.White
			if mask&(1<<i) != 0 {
				col = hex.Black
			}
			b.PlayStone(col, p)
		}
		b.PlayStone(hex.Black, c)
		wb := b.Winner()
		b.Undo()
		b.PlayStone(hex.White, c)
		ww := b.Winner()
		b.Undo()
		for range cells {
			b.Undo()
		}
		if wb != ww {
			return false
		}
	}
	return true
}

// randomPosition is brute.RandomPosition with the side to move chosen at random.
func randomPosition(rng *rand.Rand, n, k int) *hex.Board {
	b := brute.RandomPosition(rng, n, k)
	if rng.Intn(2) == 0 {
		b.SetToMove(b.ToMove().Opp())
	}
	return b
}

func TestDeadCellsAreDead(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	a := NewAnalyzer()
	found := 0
	for i := 0; i < 1500; i++ {
		n := 3 + rng.Intn(2)
		k := rng.Intn(n*n - 1)
		if n == 4 && k < 5 {
			k = 5
		}
		b := randomPosition(rng, n, k)
		d := a.DeadCells(b)
		for c := d.First(); c != hex.NoCell; c = d.Next(c + 1) {
			found++
			if !isDead(b, c) {
				t.Fatalf("%s reported dead but is not:\n%s", b.Geometry().CellName(c), b.Diagram())
			}
		}
	}
	if found < 100 {
		t.Fatalf("only %d dead cells found: the detectors are not exercised", found)
	}
	t.Logf("%d dead cells verified", found)
}

func TestFillInPreservesValue(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	a := NewAnalyzer()
	count := map[int]int{3: 1000, 4: 3000, 5: 500}
	if testing.Short() {
		count = map[int]int{3: 200, 4: 400, 5: 60}
	}
	filled := 0
	for _, n := range []int{3, 4, 5} {
		memo := map[uint64]bool{}
		for i := 0; i < count[n]; i++ {
			min := 0
			switch n {
			case 4:
				min = 5
			case 5:
				min = 12
			}
			b := randomPosition(rng, n, min+rng.Intn(n*n-min-1))
			before := brute.MoverWins(b, memo)
			var r Result
			dc := hex.Black
			if rng.Intn(2) == 0 {
				dc = hex.White
			}
			a.FillIn(b, dc, &r)
			after := brute.MoverWins(b, memo)
			if before != after {
				t.Fatalf("fill-in changed the value (mover wins %v -> %v); after fill-in (dead %v, black captured %v, white captured %v):\n%s",
					before, after, names(b, r.Dead), names(b, r.Captured[hex.Black]), names(b, r.Captured[hex.White]), b.Diagram())
			}
			filled += r.Filled
			r.Undo(b)
		}
	}
	t.Logf("%d cells filled in, value preserved", filled)
}

func names(b *hex.Board, s hex.Bitset) string {
	return b.Geometry().FormatCells(s)
}

// TestInferiorMovesAreInferior checks by brute force that a move to an x-vulnerable
// or x-capture-dominated cell is never better than a move to its dominator.
func TestInferiorMovesAreInferior(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	a := NewAnalyzer()
	dom := make([]hex.Cell, hex.NumPoints)
	part := make([]hex.Cell, hex.NumPoints)
	checked := 0
	memos := map[int]map[uint64]bool{3: {}, 4: {}} // hashes are only unique per size
	for i := 0; i < 800; i++ {
		n := 3 + rng.Intn(2)
		memo := memos[n]
		k := rng.Intn(n*n - 2)
		if n == 4 && k < 5 {
			k = 5 + rng.Intn(9)
		}
		b := randomPosition(rng, n, k)
		x := b.ToMove()
		value := func(c hex.Cell) bool { // x plays c: does x win?
			b.PlayStone(x, c)
			defer b.Undo()
			return b.Winner() == x || !brute.Wins(b, memo)
		}
		check := func(kind string, s hex.Bitset) {
			for c := s.First(); c != hex.NoCell; c = s.Next(c + 1) {
				checked++
				if value(c) && !value(dom[c]) {
					t.Fatalf("%s %s (dominator %s) wins but its dominator does not:\n%s", kind,
						b.Geometry().CellName(c), b.Geometry().CellName(dom[c]), b.Diagram())
				}
			}
		}
		check("vulnerable", a.Vulnerable(b, x, dom))
		check("capture-dominated", a.CaptureDominated(b, x, dom, part))
	}
	if checked < 100 {
		t.Fatalf("only %d inferior cells checked", checked)
	}
	t.Logf("%d inferior cells checked", checked)
}

func TestFillInExamples(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		dead    string // cells expected dead (subset check)
		black   string // cells expected Black-captured (subset check)
	}{
		{"eye", `
 . B B .
  B . B .
   B B . .
    . . . .`, "b2", ""},
		{"edge pair", `
 . . . .
  . B . .
   . . . .
    . . . .`, "", "b1 c1"},
		{"cut off corner", `
 . W . .
  W . . .
   . . . .
    . . . .`, "a1", ""},
	}
	a := NewAnalyzer()
	for _, tc := range tests {
		b, err := hex.ParseDiagram(tc.diagram)
		if err != nil {
			t.Fatal(err)
		}
		var r Result
		a.FillIn(b, hex.White, &r)
		g := b.Geometry()
		for _, want := range strings.Fields(tc.dead) {
			c, _ := g.ParseCell(want)
			if !r.Dead.Has(c) {
				t.Errorf("%s: %s not found dead (dead: %s)", tc.name, want, names(b, r.Dead))
			}
		}
		for _, want := range strings.Fields(tc.black) {
			c, _ := g.ParseCell(want)
			if !r.Captured[hex.Black].Has(c) {
				t.Errorf("%s: %s not found Black-captured (captured: %s)", tc.name, want, names(b, r.Captured[hex.Black]))
			}
		}
		r.Undo(b)
		if b.NumStones() != strings.Count(tc.diagram, "B")+strings.Count(tc.diagram, "W") {
			t.Errorf("%s: Undo did not restore the board", tc.name)
		}
	}
}

func TestParsePatternsErrors(t *testing.T) {
	bad := []string{
		"pattern x dead\n* B\n",               // no end
		"end\n",                               // end without pattern
		"* B\n",                               // row outside
		"pattern x bogus\n*\nend\n",           // unknown kind
		"pattern x dead south\n*\nend\n",      // unknown anchor
		"pattern x dead\nB B\nend\n",          // no target
		"pattern x dead\n* *\nend\n",          // two targets for dead
		"pattern x captured\n* Q\nend\n",      // bad token
		"pattern x\n*\nend\n",                 // too few words
		"pattern x inferior\n* ? .\nend\n",    // '.' touching no target
		"pattern x dead\n*\npattern y dead\n", // nested
	}
	for _, s := range bad {
		if _, err := ParsePatterns(s); !errors.Is(err, ErrPatternSyntax) {
			t.Errorf("ParsePatterns(%q) = %v, want ErrPatternSyntax", s, err)
		}
	}
	ps := DefaultPatterns()
	if len(ps.Patterns) == 0 {
		t.Fatal("no default patterns")
	}
}

// embed places variant vi of its pattern with origin (x0, y0) on an empty board,
// returning false if it does not fit.
func embed(b *hex.Board, va *variant, x0, y0 int) bool {
	g := b.Geometry()
	for _, c := range va.cells {
		x, y := x0+c.dx, y0+c.dy
		if x < 0 || y < 0 || x >= g.W || y >= g.H {
			return false
		}
	}
	for _, c := range va.cells {
		p := g.At(x0+c.dx, y0+c.dy)
		switch c.what {
		case pOwn:
			b.PlayStone(va.owner, p)
		case pOpp:
			b.PlayStone(va.owner.Opp(), p)
		}
	}
	return true
}

// TestPatternsProved proves every pattern of the embedded file by brute force: each
// variant is embedded at every fitting place of 4x4 and 5x5 boards (the rest empty,
// plus random extra stones on 5x5); a dead target must be dead by the definition
// (all completions) and filling a captured set with the owner's stones must keep the
// minimax value for both sides to move (captured and inferior patterns).
// TestInferiorPatternsProved checks the inferior ones harder.
func TestPatternsProved(t *testing.T) {
	ps := DefaultPatterns()
	rng := rand.New(rand.NewSource(3))
	for i, p := range ps.Patterns {
		proved := 0
		for vi := range ps.variants {
			va := &ps.variants[vi]
			if va.pat != i {
				continue
			}
			for _, n := range []int{4, 5} {
				g := hex.MustGeometry(n, n)
				va.each(g, func(x0, y0 int) {
					for rep := 0; rep < 1+2*(n-4); rep++ {
						b := hex.NewBoardGeometry(g)
						if !embed(b, va, x0, y0) || b.Winner() != hex.Empty {
							return
						}
						var targets, dots hex.Bitset
						for _, c := range va.cells {
							switch c.what {
							case pTarget:
								targets.Set(g.At(x0+c.dx, y0+c.dy))
							case pEmpty:
								dots.Set(g.At(x0+c.dx, y0+c.dy))
							}
						}
						// extra random stones outside the pattern to keep brute force small
						free := b.EmptyCells().AndNot(targets).AndNot(dots)
						cells := free.AppendCells(nil)
						rng.Shuffle(len(cells), func(a, b int) { cells[a], cells[b] = cells[b], cells[a] })
						want := len(cells) - 9
						for _, c := range cells[:max(0, want)] {
							b.PlayStone([]hex.Color{hex.Black, hex.White}[rng.Intn(2)], c)
						}
						if b.Winner() != hex.Empty {
							continue
						}
						if !va.matchAt(b, x0, y0) {
							t.Fatalf("pattern %s does not match where it was embedded", p.Name)
						}
						switch p.Kind {
						case KindDead:
							c := targets.First()
							if !isDead(b, c) {
								t.Fatalf("pattern %s: %s is not dead:\n%s", p.Name, g.CellName(c), b.Diagram())
							}
						case KindCaptured, KindInferior:
							for _, to := range []hex.Color{hex.Black, hex.White} {
								b.SetToMove(to)
								memo := map[uint64]bool{}
								before := brute.MoverWins(b, memo)
								nf := Fill(b, targets, va.owner)
								after := brute.MoverWins(b, memo)
								for k := 0; k < nf; k++ {
									b.Undo()
								}
								b.SetToMove(to)
								if before != after {
									t.Fatalf("pattern %s: filling %s changes the value:\n%s", p.Name, names(b, targets), b.Diagram())
								}
							}
						}
						proved++
					}
				})
			}
		}
		if proved == 0 {
			t.Errorf("pattern %s was never embedded: not proved", p.Name)
		}
		t.Logf("pattern %s: %d placements proved", p.Name, proved)
	}
}

// TestInferiorPatternsProved proves the inferior patterns by brute force: every
// variant is embedded at every fitting place of 4x4, 5x5 and 6x6 boards with many
// random contexts (the other cells empty or random stones, 7 to 11 of them left
// empty); filling the targets with the owner's stones must keep the minimax value
// for both sides to move, also after an owner's stone on any one empty ('.') cell
// (so a winning move of the filled board also wins before the fill, whichever
// fill-ins come with it), and a side to move that wins must have a winning move
// outside the targets (vc.FillDecider's mustplay leaves them out).
func TestInferiorPatternsProved(t *testing.T) {
	ps := DefaultPatterns()
	rng := rand.New(rand.NewSource(17))
	reps := map[int]int{4: 200, 5: 120, 6: 40}
	if testing.Short() {
		reps = map[int]int{4: 15, 5: 8, 6: 2}
	}
	n := 0
	for i, p := range ps.Patterns {
		if p.Kind != KindInferior {
			continue
		}
		n++
		proved, movesChecked, ownerChecked := 0, 0, 0
		for vi := range ps.variants {
			va := &ps.variants[vi]
			if va.pat != i {
				continue
			}
			for _, size := range []int{4, 5, 6} {
				g := hex.MustGeometry(size, size)
				va.each(g, func(x0, y0 int) {
					for rep := 0; rep < reps[size]; rep++ {
						b := hex.NewBoardGeometry(g)
						if !embed(b, va, x0, y0) {
							return
						}
						var targets, dots hex.Bitset
						for _, c := range va.cells {
							switch c.what {
							case pTarget:
								targets.Set(g.At(x0+c.dx, y0+c.dy))
							case pEmpty:
								dots.Set(g.At(x0+c.dx, y0+c.dy))
							}
						}
						free := b.EmptyCells().AndNot(targets).AndNot(dots).AppendCells(nil)
						rng.Shuffle(len(free), func(a, b int) { free[a], free[b] = free[b], free[a] })
						keep := 7 + rng.Intn(5) - targets.Count() - dots.Count()
						for _, c := range free[:max(0, len(free)-keep)] {
							b.PlayStone([]hex.Color{hex.Black, hex.White}[rng.Intn(2)], c)
						}
						if b.Winner() != hex.Empty {
							continue
						}
						if !va.matchAt(b, x0, y0) {
							t.Fatalf("pattern %s does not match where it was embedded", p.Name)
						}
						memo := map[uint64]bool{}
						check := func(extra string) {
							for _, to := range []hex.Color{hex.Black, hex.White} {
								b.SetToMove(to)
								before := brute.MoverWins(b, memo)
								nf := Fill(b, targets, va.owner)
								after := brute.MoverWins(b, memo)
								for k := 0; k < nf; k++ {
									b.Undo()
								}
								b.SetToMove(to)
								if before != after {
									t.Fatalf("pattern %s%s: filling %s with %s changes the value (%s to move):\n%s", p.Name, extra, names(b, targets), va.owner, to, b.Diagram())
								}
							}
						}
						check("")
						for d := dots.First(); d != hex.NoCell; d = dots.Next(d + 1) {
							b.PlayStone(va.owner, d)
							if b.Winner() == hex.Empty {
								check(" with " + va.owner.String() + " at " + g.CellName(d))
								ownerChecked++
							}
							b.Undo()
						}
						// a mover that wins has a winning move outside the targets
						for _, to := range []hex.Color{hex.Black, hex.White} {
							b.SetToMove(to)
							if !brute.MoverWins(b, memo) {
								continue
							}
							found := false
							moves := b.EmptyCells().AndNot(targets)
							for m := moves.First(); m != hex.NoCell && !found; m = moves.Next(m + 1) {
								b.PlayStone(to, m)
								found = b.Winner() == to || !brute.MoverWins(b, memo)
								b.Undo()
								b.SetToMove(to)
							}
							if !found {
								t.Fatalf("pattern %s: %s wins only by a move into %s:\n%s", p.Name, to, names(b, targets), b.Diagram())
							}
							movesChecked++
						}
						proved++
					}
				})
			}
		}
		if proved == 0 {
			t.Errorf("pattern %s was never embedded: not proved", p.Name)
		}
		t.Logf("pattern %s: %d placements proved, %d with an owner's stone on an empty cell, %d winning movers checked", p.Name, proved, ownerChecked, movesChecked)
	}
	if n == 0 {
		t.Fatal("no inferior patterns in the pattern file")
	}
}

func FuzzParsePatterns(f *testing.F) {
	f.Add(defaultPatternText)
	f.Add("pattern x dead\n? B\n W * B\nend\n")
	f.Add("pattern y captured north\n* *\n B\nend\n")
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePatterns(s)
		if err != nil {
			if !errors.Is(err, ErrPatternSyntax) {
				t.Fatalf("error %v does not wrap ErrPatternSyntax", err)
			}
			return
		}
		// every parsed pattern must be usable on a board
		b := hex.MustBoard(3, 3)
		_ = ps.MatchDead(b)
		_ = ps.MatchCaptured(b, hex.Black)
		_ = ps.MatchCaptured(b, hex.White)
	})
}

// adjacentFor reports whether points u and v (both empty cells or stones/edges of
// colour x, u != v) are adjacent in x's cell adjacency graph: they touch, they are in
// one x-group, or they touch a common x-group.
func adjacentFor(b *hex.Board, u, v hex.Cell, x hex.Color) bool {
	g := b.Geometry()
	cu, cv := b.At(u), b.At(v)
	if cu == x && cv == x {
		return b.Find(u) == b.Find(v)
	}
	if cu == x {
		u, v = v, u
		cu, cv = cv, cu
	}
	// u is empty here.
	if cv == x {
		rv := b.Find(v)
		for _, w := range g.Neighbours(u) {
			if b.At(w) == x && b.Find(w) == rv {
				return true
			}
		}
		return false
	}
	// both empty
	if g.NeighbourSet(u).Has(v) {
		return true
	}
	for _, w := range g.Neighbours(u) {
		if b.At(w) != x {
			continue
		}
		rw := b.Find(w)
		for _, w2 := range g.Neighbours(v) {
			if b.At(w2) == x && b.Find(w2) == rw {
				return true
			}
		}
	}
	return false
}

// cliqueForPairs is the plain definition of cliqueFor: every pair of the
// x-neighbourhood of c passes adjacentFor.
func cliqueForPairs(b *hex.Board, c hex.Cell, x hex.Color) bool {
	var pts []hex.Cell
	for _, q := range b.Geometry().Neighbours(c) {
		if b.At(q) != x.Opp() {
			pts = append(pts, q)
		}
	}
	for i := range pts {
		for j := i + 1; j < len(pts); j++ {
			if !adjacentFor(b, pts[i], pts[j], x) {
				return false
			}
		}
	}
	return true
}

// TestCliqueForMatchesPairs checks the fast clique test against the pairwise
// definition on every cell of random 3x3..7x7 positions.
func TestCliqueForMatchesPairs(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	checked := 0
	for i := 0; i < 600; i++ {
		n := 3 + rng.Intn(5)
		b := brute.RandomPosition(rng, n, rng.Intn(n*n-1))
		for c := hex.Cell(0); int(c) < b.Geometry().N; c++ {
			for _, x := range []hex.Color{hex.Black, hex.White} {
				if got, want := cliqueFor(b, c, x), cliqueForPairs(b, c, x); got != want {
					t.Fatalf("cell %s for %s: cliqueFor %v, pairwise %v\n%s", b.Geometry().CellName(c), x, got, want, b.Diagram())
				}
				checked++
			}
		}
	}
	t.Logf("%d cells checked", checked)
}

// floodSlow is the plain breadth-first flood the word-parallel flood replaces.
func floodSlow(g *hex.Geometry, start hex.Cell, allowed *hex.Bitset) hex.Bitset {
	var seen hex.Bitset
	seen.Set(start)
	q := []hex.Cell{start}
	for len(q) > 0 {
		p := q[len(q)-1]
		q = q[:len(q)-1]
		nb := g.NeighbourSet(p).And(*allowed).AndNot(seen)
		for r := nb.First(); r != hex.NoCell; r = nb.Next(r + 1) {
			seen.Set(r)
			q = append(q, r)
		}
	}
	return seen
}

// TestFloodMatchesBFS checks flood (word-parallel on boards of at most 64 cells)
// against a plain breadth-first flood from every edge and a cell, through random
// allowed sets, on boards of 1x1 to 19x19 (rectangular ones included; half of them at
// most 8x8).
func TestFloodMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewSource(8))
	a := NewAnalyzer()
	for i := 0; i < 3000; i++ {
		w, h := 1+rng.Intn(hex.MaxSize), 1+rng.Intn(hex.MaxSize)
		if i%2 == 0 { // the word-parallel path: at most 64 cells
			w, h = 1+rng.Intn(8), 1+rng.Intn(8)
		}
		if i%3 == 0 {
			h = w
		}
		g := hex.MustGeometry(w, h)
		var allowed hex.Bitset
		density := rng.Float64()
		for c := hex.Cell(0); int(c) < g.N; c++ {
			if rng.Float64() < density {
				allowed.Set(c)
			}
		}
		for _, e := range []hex.Cell{hex.North, hex.South, hex.West, hex.East} {
			if rng.Intn(2) == 0 {
				allowed.Set(e)
			}
		}
		starts := []hex.Cell{hex.North, hex.South, hex.West, hex.East, hex.Cell(rng.Intn(g.N))}
		for _, st := range starts {
			got, want := a.flood(g, st, &allowed), floodSlow(g, st, &allowed)
			if got != want {
				t.Fatalf("%dx%d from %v: flood %v, want %v", w, h, st, got.AppendCells(nil), want.AppendCells(nil))
			}
		}
	}
}
