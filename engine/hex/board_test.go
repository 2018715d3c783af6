package hex

import (
	"math/rand/v2"
	"testing"
)

// TestHexTheorem: on a completely filled board exactly one colour connects its edges
// (Anshelevich 2002, section 2). Thousands of random fillings of every square size
// 1..19 and some rectangles; the union-find winner must also agree with a flood fill.
func TestHexTheorem(t *testing.T) {
	per := 2000
	if testing.Short() {
		per = 200
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, s := range sizes() {
		b := MustBoard(s[0], s[1])
		wins := [3]int{}
		for i := 0; i < per; i++ {
			b.Reset()
			randomFill(b, rng)
			bw, ww := floodWinner(b)
			if bw == ww {
				t.Fatalf("%dx%d: black connects %v, white connects %v\n%s", s[0], s[1], bw, ww, b)
			}
			want := White
			if bw {
				want = Black
			}
			if got := b.Winner(); got != want {
				t.Fatalf("%dx%d: Winner %v, flood fill %v\n%s", s[0], s[1], got, want, b)
			}
			wins[want]++
		}
		// On a square board both colours win about half the fillings.
		if s[0] == s[1] && s[0] > 1 && (wins[Black] == 0 || wins[White] == 0) {
			t.Errorf("%dx%d: wins %v: one colour never won", s[0], s[1], wins)
		}
	}
}

// TestPlayUndoRandomGames plays random games (with swaps, resignations and setup
// stones) and random undos on every size; after every step the incremental state must
// equal a rebuild, and every undo must restore the earlier state exactly.
func TestPlayUndoRandomGames(t *testing.T) {
	games := 20
	if testing.Short() {
		games = 6
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, s := range sizes() {
		b := MustBoard(s[0], s[1])
		for gi := 0; gi < games; gi++ {
			b.Reset()
			var snaps []snapshot
			for step := 0; step < 3*b.g.N+4; step++ {
				if len(snaps) > 0 && rng.IntN(4) == 0 {
					if !b.Undo() {
						t.Fatal("Undo with history returned false")
					}
					want := snaps[len(snaps)-1]
					snaps = snaps[:len(snaps)-1]
					if got := snap(b); !got.equal(want) {
						t.Fatalf("%dx%d: undo did not restore the state\n%s", s[0], s[1], b)
					}
					checkInvariants(t, b)
					continue
				}
				before := snap(b)
				switch r := rng.IntN(20); {
				case r == 0:
					if err := b.Play(Move{Color: b.toMove, Cell: Resign}); err != nil {
						t.Fatal(err)
					}
				case r == 1:
					m, ok := randomLegalMove(b, rng)
					if !ok || m.Cell < 0 {
						continue
					}
					if err := b.PlaySetup(Color(1+rng.IntN(2)), m.Cell); err != nil {
						t.Fatal(err)
					}
				default:
					m, ok := randomLegalMove(b, rng)
					if !ok {
						continue
					}
					if err := b.Play(m); err != nil {
						t.Fatalf("legal move %v refused: %v", m, err)
					}
				}
				snaps = append(snaps, before)
				checkInvariants(t, b)
			}
			for len(snaps) > 0 {
				b.Undo()
				want := snaps[len(snaps)-1]
				snaps = snaps[:len(snaps)-1]
				if got := snap(b); !got.equal(want) {
					t.Fatalf("%dx%d: final undo did not restore the state", s[0], s[1])
				}
			}
			if b.Undo() {
				t.Fatal("Undo on an empty history returned true")
			}
			if b.hash != 0 || b.NumStones() != 0 || b.toMove != Black {
				t.Fatal("undoing everything did not give the empty board")
			}
		}
	}
}

func TestSwap(t *testing.T) {
	b := mustParse(t, 5, 5, "b1")
	if b.Winner() != Empty {
		t.Fatal("one stone wins")
	}
	before := snap(b)
	if err := b.Play(Move{Color: White, Cell: Swap}); err != nil {
		t.Fatal(err)
	}
	// b1 = (1, 0) becomes a White stone at (0, 1) = a2, touching the West edge.
	a2, _ := b.g.ParseCell("a2")
	b1, _ := b.g.ParseCell("b1")
	if b.At(a2) != White || b.At(b1) != Empty || b.ToMove() != Black || b.NumStones() != 1 {
		t.Fatalf("after swap:\n%s", b)
	}
	if !b.SameGroup(a2, West) || b.SameGroup(b1, North) {
		t.Fatal("groups wrong after swap")
	}
	checkInvariants(t, b)
	// The position equals the one reached by White playing a2 directly, Black to move.
	d := MustBoard(5, 5)
	d.PlaySetup(White, a2)
	if d.Hash() != b.Hash() {
		t.Fatal("swap hash differs from the same position set up directly")
	}
	b.Undo()
	if !snap(b).equal(before) {
		t.Fatal("undoing the swap did not restore the board")
	}
	checkInvariants(t, b)

	for _, tc := range []struct {
		w, h  int
		moves string
		m     Move
	}{
		{5, 5, "", Move{White, Swap}},          // nothing to swap
		{5, 5, "b1 c3", Move{Black, Swap}},     // too late
		{5, 5, "b1", Move{Black, Swap}},        // Black may not swap
		{5, 4, "b1", Move{White, Swap}},        // not square
		{5, 5, "b1 swap", Move{Black, Swap}},   // no second swap
		{5, 5, "w:b1", Move{Black, Swap}},      // first stone is White's
		{5, 5, "c3", Move{White, Cell(3 * 5)}}, // just a normal move is fine ...
	} {
		b := mustParse(t, tc.w, tc.h, tc.moves)
		err := b.Legal(tc.m)
		if tc.m.Cell == Swap && err == nil {
			t.Errorf("%dx%d %q: swap by %v accepted", tc.w, tc.h, tc.moves, tc.m.Color)
		}
		if tc.m.Cell != Swap && err != nil {
			t.Errorf("%dx%d %q: %v", tc.w, tc.h, tc.moves, err)
		}
	}
	// Setup stones do not make a swap legal.
	s := MustBoard(5, 5)
	s.PlaySetup(Black, 3)
	if s.Legal(Move{White, Swap}) == nil {
		t.Error("swap of a setup stone accepted")
	}
}

func TestLegal(t *testing.T) {
	b := mustParse(t, 3, 3, "b2")
	for _, m := range []Move{
		{Black, b.g.At(1, 1)}, // occupied
		{Empty, 0},            // no colour
		{Black, 9},            // off the 3x3 board
		{Black, North},        // an edge
		{Black, NoCell},
	} {
		if err := b.Play(m); err == nil {
			t.Errorf("Play(%v) accepted", m)
		}
	}
	if b.Ply() != 1 {
		t.Fatal("a refused move changed the history")
	}
	if err := b.Play(Move{White, Resign}); err != nil || b.Resigned() != White {
		t.Fatal("resign", err)
	}
	b.Undo()
	if b.Resigned() != Empty || b.ToMove() != White {
		t.Fatal("undo of resign")
	}
}

func TestCloneAndCopyFrom(t *testing.T) {
	b := mustParse(t, 7, 7, "d4 c5 e3")
	c := b.Clone()
	c.Play(Move{White, 0})
	if b.Ply() != 3 || b.At(0) != Empty {
		t.Fatal("Clone shares state")
	}
	var d Board
	d.CopyFrom(c)
	if !snap(&d).equal(snap(c)) {
		t.Fatal("CopyFrom differs")
	}
	d.Undo()
	if !snap(&d).equal(snap(b)) {
		t.Fatal("CopyFrom then Undo differs from the original")
	}
}

func TestGeometry(t *testing.T) {
	for _, s := range sizes() {
		g := MustGeometry(s[0], s[1])
		for p := Cell(0); int(p) < g.N; p++ {
			ns := g.Neighbours(p)
			x, y := g.XY(p)
			if g.At(x, y) != p {
				t.Fatal("At/XY")
			}
			interior := x > 0 && y > 0 && x < g.W-1 && y < g.H-1
			if interior && len(ns) != 6 {
				t.Fatalf("%dx%d: interior %s has %d neighbours", g.W, g.H, g.CellName(p), len(ns))
			}
			for _, q := range ns {
				if !g.NeighbourSet(q).Has(p) || !g.NeighbourSet(p).Has(q) {
					t.Fatalf("adjacency of %s and %s not symmetric", g.CellName(p), g.CellName(q))
				}
			}
			if len(ns) != g.NeighbourSet(p).Count() {
				t.Fatal("neighbour list and set differ")
			}
		}
		// The edges touch exactly the cells of their row or column.
		for _, e := range []Cell{North, South, West, East} {
			if n := g.NeighbourSet(e).Count(); (e == North || e == South) && n != g.W || (e == West || e == East) && n != g.H {
				t.Fatalf("%dx%d: edge %s touches %d cells", g.W, g.H, g.CellName(e), n)
			}
		}
	}
	if _, err := NewGeometry(0, 5); err == nil {
		t.Error("0x5 accepted")
	}
	if _, err := NewGeometry(20, 5); err == nil {
		t.Error("20x5 accepted")
	}
	// The neighbours of (x, y) named in docs/design.md, for c3 on 5x5.
	g := MustGeometry(5, 5)
	c3, _ := g.ParseCell("c3")
	var want Bitset
	for _, n := range []string{"b3", "d3", "c2", "c4", "d2", "b4"} {
		p, _ := g.ParseCell(n)
		want.Set(p)
	}
	if *g.NeighbourSet(c3) != want {
		t.Fatal("neighbours of c3 wrong")
	}
}

func TestBitset(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; i < 200; i++ {
		var a, b Bitset
		ma, mb := map[Cell]bool{}, map[Cell]bool{}
		for j := 0; j < rng.IntN(60); j++ {
			p := Cell(rng.IntN(NumPoints))
			a.Set(p)
			ma[p] = true
			q := Cell(rng.IntN(NumPoints))
			b.Set(q)
			mb[q] = true
		}
		if a.Count() != len(ma) {
			t.Fatal("Count")
		}
		and, or, andNot, xor := a.And(b), a.Or(b), a.AndNot(b), a.Xor(b)
		inter := false
		for p := Cell(0); p < NumPoints; p++ {
			if and.Has(p) != (ma[p] && mb[p]) || or.Has(p) != (ma[p] || mb[p]) ||
				andNot.Has(p) != (ma[p] && !mb[p]) || xor.Has(p) != (ma[p] != mb[p]) {
				t.Fatal("set operation wrong at", p)
			}
			inter = inter || (ma[p] && mb[p])
		}
		if a.Intersects(&b) != inter || and.SubsetOf(&a) != true || a.SubsetOf(&b) != andNot.IsEmpty() {
			t.Fatal("Intersects/SubsetOf")
		}
		cells := a.AppendCells(nil)
		var back Bitset
		prev := Cell(-1)
		for _, p := range cells {
			if p <= prev {
				t.Fatal("AppendCells not increasing")
			}
			prev = p
			back.Set(p)
			back.Clear(p)
			back.Set(p)
		}
		if back != a {
			t.Fatal("AppendCells lost elements")
		}
		n := 0
		for p := a.First(); p != NoCell; p = a.Next(p + 1) {
			n++
		}
		if n != len(ma) {
			t.Fatal("First/Next")
		}
	}
	var e Bitset
	if !e.IsEmpty() || e.First() != NoCell || e.Next(-5) != NoCell || e.Next(1000) != NoCell {
		t.Fatal("empty set")
	}
}

// TestNoAllocs: play, undo and the winner test allocate nothing once the history has
// its capacity.
func TestNoAllocs(t *testing.T) {
	b := MustBoard(11, 11)
	b.PlayStone(Black, 60)
	n := testing.AllocsPerRun(100, func() {
		b.PlayStone(White, 61)
		_ = b.Winner()
		b.Undo()
		b.Play(Move{White, 62})
		b.Undo()
	})
	if n != 0 {
		t.Fatalf("%v allocations per play/undo", n)
	}
}

func TestIsSetup(t *testing.T) {
	b := mustParse(t, 3, 3, "a1")
	b.PlaySetup(White, 4)
	if b.IsSetup(0) || !b.IsSetup(1) || b.IsSetup(2) || b.IsSetup(-1) {
		t.Fatal("IsSetup")
	}
}
