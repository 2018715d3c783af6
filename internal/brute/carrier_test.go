package brute

import (
	"errors"
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func TestCarrierKnown(t *testing.T) {
	b := hex.MustBoard(5, 5)
	g := b.Geometry()
	cell := func(s string) hex.Cell {
		c, err := g.ParseCell(s)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	set := func(names ...string) hex.Bitset {
		var s hex.Bitset
		for _, n := range names {
			s.Set(cell(n))
		}
		return s
	}
	tests := []struct {
		name    string
		x, y    string
		carrier hex.Bitset
		vc, sc  bool // second-player (opponent first) and first-player connection
	}{
		{"adjacent", "c3", "d3", hex.Bitset{}, true, true},
		{"bridge", "c3", "d4", set("d3", "c4"), true, true},
		{"one cell between", "b3", "d3", set("c3"), false, true},
		{"half a bridge", "c3", "d4", set("d3"), false, true},
		{"no carrier", "b3", "d3", hex.Bitset{}, false, false},
	}
	for _, tc := range tests {
		var own hex.Bitset // no stones: x and y only (and Black's edges, far away)
		own.Set(hex.North)
		own.Set(hex.South)
		c, err := NewCarrier(g, own, cell(tc.x), cell(tc.y), tc.carrier)
		if err != nil {
			t.Fatal(err)
		}
		if c.N() != tc.carrier.Count() {
			t.Errorf("%s: N %d, want %d", tc.name, c.N(), tc.carrier.Count())
		}
		if got := c.Wins(0, 0, false); got != tc.vc {
			t.Errorf("%s: VC %v, want %v", tc.name, got, tc.vc)
		}
		if got := c.Wins(0, 0, true); got != tc.sc {
			t.Errorf("%s: SC %v, want %v", tc.name, got, tc.sc)
		}
	}
	var big hex.Bitset
	for p := hex.Cell(0); p < 63; p++ {
		big.Set(p)
	}
	if _, err := NewCarrier(hex.MustGeometry(8, 8), hex.Bitset{}, 63, 62, big); !errors.Is(err, ErrTooLarge) {
		t.Errorf("63 carrier cells: err %v, want ErrTooLarge", err)
	}
}

// TestCarrierAgainstWins plays the whole board as a carrier game (Black joining North
// and South on every empty cell) and checks it against Wins: exactly one colour wins
// a game of Hex.
func TestCarrierAgainstWins(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	memo := map[int]map[uint64]bool{3: {}, 4: {}}
	for i := 0; i < 300; i++ {
		n := 3 + rng.Intn(2)
		k := rng.Intn(n*n - 1)
		if n == 4 {
			k = 5 + rng.Intn(10)
		}
		b := RandomPosition(rng, n, k)
		if rng.Intn(2) == 0 {
			b.SetToMove(b.ToMove().Opp())
		}
		own := b.Stones(hex.Black)
		own.Set(hex.North)
		own.Set(hex.South)
		c, err := NewCarrier(b.Geometry(), own, hex.North, hex.South, b.EmptyCells())
		if err != nil {
			t.Fatal(err)
		}
		blackWins := c.Wins(0, 0, b.ToMove() == hex.Black)
		want := Wins(b, memo[n]) == (b.ToMove() == hex.Black)
		if blackWins != want {
			t.Fatalf("carrier game: Black wins %v, Wins says %v\n%s", blackWins, want, b.Diagram())
		}
	}
}

// TestProveAgainstWins checks Prove, the proof-set search, against Wins on random
// carrier games: random positions of 3x3 to 5x5 boards, random carriers of their empty
// cells, random endpoints (cells or edges), either side to move, and positions inside
// the game (some carrier cells already taken).
func TestProveAgainstWins(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	wins := 0
	for i := 0; i < 1500; i++ {
		b, c, x, y, carrier := randomGame(rng, 3, 4, rng.Intn(2))
		g := b.Geometry()
		own := colourPoints(b, c)
		cg, err := NewCarrier(g, own, x, y, carrier)
		if err != nil {
			t.Fatal(err)
		}
		ownM, oppM := randomTaken(rng, cg.N(), 6)
		move := rng.Intn(2) == 0
		want := cg.Wins(ownM, oppM, move)
		if got := cg.Prove(ownM, oppM, move); got != want {
			t.Fatalf("game %d: Prove %v, Wins %v (%v joins %s to %s on %s, move %v)\n%s",
				i, got, want, c, g.CellName(x), g.CellName(y), g.FormatCells(carrier), move, b.Diagram())
		}
		if want {
			wins++
		}
	}
	if wins < 300 || wins > 1200 {
		t.Errorf("%d of 1500 games won: the sample is one-sided", wins)
	}
}

// TestProveProofSets checks Prove's proof sets themselves against Wins, on games
// TestProveAgainstWins does not play: 4x4 to 6x6 boards, carriers of up to 16 cells,
// both endpoints cells as well as edges, and several positions of each game (so that
// one game's memoised proofs are reused across queries). A win's proof must still
// win with every other free cell given to the opponent, a loss's still lose with every
// other free cell given to the colour.
func TestProveProofSets(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	checks, wins := 0, 0
	for i := 0; i < 250; i++ {
		b, c, x, y, carrier := randomGame(rng, 4, 5, rng.Intn(3))
		g := b.Geometry()
		own := colourPoints(b, c)
		cg, err := NewCarrier(g, own, x, y, carrier)
		if err != nil {
			t.Fatal(err)
		}
		for q := 0; q < 4; q++ {
			// about a third, a sixth or a ninth of the cells taken
			ownM, oppM := randomTaken(rng, cg.N(), 3+3*rng.Intn(3))
			move := rng.Intn(2) == 0
			want := cg.Wins(ownM, oppM, move)
			got, proof := cg.prove(ownM, oppM, move)
			if got != want {
				t.Fatalf("game %d, query %d: Prove %v, Wins %v (%v joins %s to %s on %s, move %v)\n%s",
					i, q, got, want, c, g.CellName(x), g.CellName(y), g.FormatCells(carrier), move, b.Diagram())
			}
			free := cg.all &^ (ownM | oppM)
			if proof&^free != 0 {
				t.Fatalf("game %d, query %d: proof %x has cells that are not free (%x)", i, q, proof, free)
			}
			rest := free &^ proof
			if want && !cg.Wins(ownM, oppM|rest, move) || !want && cg.Wins(ownM|rest, oppM, move) {
				t.Fatalf("game %d, query %d: the result %v does not stand on its proof %x alone\n%s", i, q, want, proof, b.Diagram())
			}
			checks++
			if want {
				wins++
			}
		}
	}
	if wins < checks/5 || wins > checks*4/5 {
		t.Errorf("%d of %d queries won: the sample is one-sided", wins, checks)
	}
}

// randomGame draws a random carrier game for the Prove tests: a random position on an
// n x n board (n from lo to lo+2), a random colour, a carrier of the position's empty
// cells (each kept unless a 1-in-skip draw drops it, at most 16), and up to ends of the
// two endpoints moved from the colour's edges onto carrier cells (y first).
func randomGame(rng *rand.Rand, lo, skip, ends int) (*hex.Board, hex.Color, hex.Cell, hex.Cell, hex.Bitset) {
	n := lo + rng.Intn(3)
	b := RandomPosition(rng, n, rng.Intn(n*n/2))
	c := hex.Color(hex.Black)
	if rng.Intn(2) == 0 {
		c = hex.White
	}
	var carrier hex.Bitset
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if rng.Intn(skip) != 0 && carrier.Count() < 16 {
			carrier.Set(p)
		}
	}
	x, y := hex.EdgesOf(c)
	for k := 0; k < ends && carrier.Count() > 2; k++ {
		cells := carrier.AppendCells(nil)
		p := cells[rng.Intn(len(cells))]
		carrier.Clear(p)
		if k == 0 {
			y = p
		} else {
			x = p
		}
	}
	return b, c, x, y, carrier
}

// colourPoints returns colour c's stones and edges on b, the own points of NewCarrier.
func colourPoints(b *hex.Board, c hex.Color) hex.Bitset {
	own := b.Stones(c)
	ea, eb := hex.EdgesOf(c)
	own.Set(ea)
	own.Set(eb)
	return own
}

// randomTaken gives each of n carrier cells to the colour or to the opponent with
// probability 1/k each (else it stays free) and returns both masks.
func randomTaken(rng *rand.Rand, n, k int) (own, opp uint64) {
	for j := 0; j < n; j++ {
		switch rng.Intn(k) {
		case 0:
			own |= 1 << j
		case 1:
			opp |= 1 << j
		}
	}
	return own, opp
}
