package search

import (
	"math"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// playoutOracle returns the exact probability that the side to move of b wins a
// playout (Playouts' rule), by recursion over every sequence of moves: after the
// opponent's move at last, the mover answers in a bridge the move intruded into
// (each such answer equally likely), else in any empty cell (each equally likely).
func playoutOracle(b *hex.Board, last hex.Cell, me hex.Color) float64 {
	empty := b.EmptyCells()
	if empty.IsEmpty() {
		if b.Winner() == me {
			return 1
		}
		return 0
	}
	g := b.Geometry()
	turn := b.ToMove()
	owns := func(x hex.Cell) bool {
		if x.IsEdge() {
			return hex.EdgeColor(x) == turn
		}
		return b.At(x) == turn
	}
	var moves []hex.Cell
	if last != hex.NoCell {
		for _, q := range g.Neighbours(last) {
			if !g.IsCell(q) || b.At(q) != hex.Empty {
				continue
			}
			// The two common neighbours of last and q.
			var common []hex.Cell
			for _, x := range g.Neighbours(last) {
				if g.NeighbourSet(q).Has(x) {
					common = append(common, x)
				}
			}
			if len(common) == 2 && owns(common[0]) && owns(common[1]) {
				moves = append(moves, q)
			}
		}
	}
	if len(moves) == 0 {
		moves = empty.AppendCells(nil)
	}
	var p float64
	for _, mv := range moves {
		b.PlayStone(turn, mv)
		p += playoutOracle(b, mv, me)
		b.Undo()
	}
	return p / float64(len(moves))
}

func TestPlayoutsOracle(t *testing.T) {
	cases := []struct {
		size  int
		moves string
	}{
		{3, ""},
		{3, "b2"},
		{3, "a1 c3"},
		{4, "b2 c2 b3 c1 a4 d1 c3 b4"},
		{4, "b3 c2 a3 d1 d2 a2 b4"},
		{4, "c1 b3 a2 c3 a4 d3 b1"},
		{5, "c2 e1 b4 a1 e5 a2 d3 a3 b2 a4 c4 e4 d4 b5 c5 e2"},
	}
	for _, tc := range cases {
		b, err := hex.ParsePosition(tc.size, tc.size, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		if n := b.EmptyCells().Count(); n > 9 {
			t.Fatalf("%q: %d empty cells, too many for the oracle", tc.moves, n)
		}
		// A playout answers no bridge on its first move: the oracle neither.
		want := playoutOracle(b, hex.NoCell, b.ToMove())
		const n = 40000
		p := NewPlayouts(7)
		got := float64(p.Run(b, n)) / n
		tol := 4.5*math.Sqrt(want*(1-want)/n) + 1e-9
		if math.Abs(got-want) > tol {
			t.Errorf("%dx%d %q: playouts win %.4f for %v, exact %.4f (tolerance %.4f)", tc.size, tc.size, tc.moves, got, b.ToMove(), want, tol)
		}
	}
}

func TestPlayoutsBridges(t *testing.T) {
	// Black's c2 reaches North by an edge bridge (c1, d1), b4 reaches South by one
	// (a5, b5), and c2 and b4 form a bridge (b3, c3); every other cell is White's.
	// With the bridge answers Black wins every playout, whoever moves first;
	// without them White would win some.
	b := hex.MustBoard(5, 5)
	g := b.Geometry()
	black := map[string]bool{"c2": true, "b4": true}
	carrier := map[string]bool{"c1": true, "d1": true, "b3": true, "c3": true, "a5": true, "b5": true}
	for c := hex.Cell(0); int(c) < g.N; c++ {
		switch name := g.CellName(c); {
		case black[name]:
			b.PlayStone(hex.Black, c)
		case !carrier[name]:
			b.PlayStone(hex.White, c)
		}
	}
	p := NewPlayouts(1)
	for _, mover := range []hex.Color{hex.White, hex.Black} {
		b.SetToMove(mover)
		want := 0
		if mover == hex.Black {
			want = 2000
		}
		if w := p.Run(b, 2000); w != want {
			t.Errorf("%v to move wins %d of 2000 playouts, want %d:\n%v", mover, w, want, b)
		}
		if got := playoutOracle(b, hex.NoCell, mover); got != float64(want)/2000 {
			t.Errorf("%v to move: the oracle gives %g", mover, got)
		}
	}
}

func TestPlayoutsDecidedAndSeeded(t *testing.T) {
	b, err := hex.ParsePosition(3, 3, "a1 b1 a2 b2 a3")
	if err != nil {
		t.Fatal(err)
	}
	if b.Winner() != hex.Black {
		t.Fatal("setup: Black should have won")
	}
	if w := NewPlayouts(1).Run(b, 10); w != 0 {
		t.Errorf("White to move on a board Black has won: %d wins, want 0", w)
	}
	e := hex.MustBoard(7, 7)
	x, y := NewPlayouts(3).Run(e, 500), NewPlayouts(3).Run(e, 500)
	if x != y {
		t.Errorf("same seed, different results: %d and %d", x, y)
	}
	before := e.Hash()
	NewPlayouts(4).Run(e, 10)
	if e.Hash() != before || e.NumStones() != 0 {
		t.Error("Run changed the board")
	}
}

func TestAMAF(t *testing.T) {
	// Black's b1 and b3 and White's row 2 around b2: whoever owns b2 at the end
	// wins, and a1 decides nothing.
	b, err := hex.ParseDiagram(`
		. B W
		 W . W
		  W B W`)
	if err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	a1, b2 := g.At(0, 0), g.At(1, 1)
	var a AMAF
	for _, mover := range []hex.Color{hex.Black, hex.White} {
		b.SetToMove(mover)
		wins := NewPlayouts(5).RunAMAF(b, 1000, &a)
		if want := NewPlayouts(5).Run(b, 1000); wins != want {
			t.Errorf("%v to move: RunAMAF wins %d, Run %d with the same seed", mover, wins, want)
		}
		if a.N != 1000 || a.Wins[mover] != int32(wins) || a.Wins[hex.Black]+a.Wins[hex.White] != 1000 {
			t.Errorf("%v to move: N %d, wins %v, want 1000 and %d for the mover", mover, a.N, a.Wins, wins)
		}
		for _, c := range []hex.Color{hex.Black, hex.White} {
			if a.Won[c][b2] != a.Own[c][b2] || a.Own[c][b2] != a.Wins[c] || a.Won[c][a1] != 0 {
				t.Errorf("%v to move, %v: b2 owned %d won %d, a1 won %d, wins %d; want b2's counts equal to the wins and none for a1",
					mover, c, a.Own[c][b2], a.Won[c][b2], a.Won[c][a1], a.Wins[c])
			}
			if a.Own[c][b2] < 400 || a.Own[c][b2] > 600 {
				t.Errorf("%v to move: %v owned b2 in %d of 1000 playouts, want about half", mover, c, a.Own[c][b2])
			}
		}
	}

	// Invariants on random 8x8 positions; a batch counts what its playouts one at a
	// time count.
	for i, moves := range []string{"", "d4 e5 c6", "a1 b2 c3 d4 e5 f6 g7 h8 h1 g2 f3 e4 d5 c6 b7 a8 d1"} {
		b, err := hex.ParsePosition(8, 8, moves)
		if err != nil {
			t.Fatal(err)
		}
		me := b.ToMove()
		wins := NewPlayouts(uint64(i)).RunAMAF(b, 300, &a)
		var sum AMAF
		var one AMAF
		p := NewPlayouts(uint64(i))
		for range 300 {
			p.RunAMAF(b, 1, &one)
			sum.N += one.N
			for c := range sum.Own {
				sum.Wins[c] += one.Wins[c]
				for x := range sum.Own[c] {
					sum.Own[c][x] += one.Own[c][x]
					sum.Won[c][x] += one.Won[c][x]
				}
			}
		}
		if sum != a {
			t.Errorf("%q: 300 playouts one at a time count differently from a batch of 300", moves)
		}
		if a.Wins[me] != int32(wins) {
			t.Errorf("%q: %d wins counted, %d returned", moves, a.Wins[me], wins)
		}
		for x := hex.Cell(0); int(x) < b.Geometry().N; x++ {
			own := a.Own[hex.Black][x] + a.Own[hex.White][x]
			switch {
			case b.At(x) != hex.Empty && own+a.Won[hex.Black][x]+a.Won[hex.White][x] != 0:
				t.Errorf("%q: stone %v has counts", moves, x)
			case b.At(x) == hex.Empty && own != 300:
				t.Errorf("%q: empty cell %v owned in %d of 300 playouts", moves, x, own)
			case a.Won[hex.Black][x] > a.Own[hex.Black][x] || a.Won[hex.White][x] > a.Own[hex.White][x]:
				t.Errorf("%q: cell %v won more often than owned", moves, x)
			}
		}
	}
	// A board already won counts nothing (and the counts are cleared).
	won, err := hex.ParsePosition(3, 3, "a1 b1 a2 b2 a3")
	if err != nil {
		t.Fatal(err)
	}
	if NewPlayouts(1).RunAMAF(won, 10, &a); a.N != 0 || a.Own[hex.Black][g.At(2, 2)] != 0 {
		t.Errorf("a finished board: N %d, counts left", a.N)
	}
}

func BenchmarkPlayout11(b *testing.B) {
	bd := hex.MustBoard(11, 11)
	p := NewPlayouts(1)
	for b.Loop() {
		p.Run(bd, 1)
	}
}

// TestBlackConnectsBoards: the word-shift winner test of a full playout board
// agrees with the board's own union-find on random full boards of every shape from
// 1x1 to 19x19 (one to six words; rows that cross word boundaries), with Black's
// share of the cells from sparse to dense.
func TestBlackConnectsBoards(t *testing.T) {
	p := NewPlayouts(7)
	rng := NewPlayouts(99)
	for w := 1; w <= hex.MaxSize; w++ {
		for h := 1; h <= hex.MaxSize; h += 1 + rng.intn(3) {
			g, err := hex.NewGeometry(w, h)
			if err != nil {
				t.Fatal(err)
			}
			p.setGeometry(g)
			for trial := range 12 {
				b := hex.NewBoardGeometry(g)
				share := 0.3 + 0.4*float64(trial)/11
				p.black = words{}
				for c := hex.Cell(0); int(c) < g.N; c++ {
					col := hex.White
					if float64(rng.next()>>11)/(1<<53) < share {
						col = hex.Black
						p.black[c>>6] |= 1 << (c & 63)
					}
					b.PlayStone(col, c)
				}
				if got, want := p.blackConnects(), b.Winner() == hex.Black; got != want {
					t.Fatalf("%dx%d trial %d: blackConnects %v, the board's winner %v\n%v", w, h, trial, got, b.Winner(), b)
				}
			}
		}
	}
}
