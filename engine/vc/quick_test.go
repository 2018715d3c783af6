package vc

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestQuickTable checks Quick.Analyse and Quick.Connected on drawn positions (Black
// joins rows 1 and N, White columns a and N; the side to move is Black unless Black
// has more stones).
func TestQuickTable(t *testing.T) {
	tests := []struct {
		name  string
		board string
		black bool // Connected(Black)
		white bool // Connected(White)
		win   hex.Color
		must  []string // the mover's mustplay (nil: none)
	}{
		{name: "empty board", board: `
			. . . .
			 . . . .
			  . . . .
			   . . . .`},
		{name: "finished chain", board: `
			. B . .
			 . B . .
			  W B W .
			   . B . W`, black: true, win: hex.Black},
		{name: "bridge ladder and edge templates", board: `
			W . . .
			 . B . .
			  . . B .
			   . . . W`, black: true, win: hex.Black},
		{name: "one intrusion: the mover wins with the key", board: `
			W . . .
			 . B W .
			  . . B .
			   . . . .`, win: hex.Black},
		{name: "the mover's semi connection wins first", board: `
			W . . .
			 . B W .
			  . . B .
			   . . . B`, win: hex.White},
		{name: "the opponent's semi connection gives the mustplay", board: `
			B . . .
			 . B . .
			  . . B W
			   . W . .`, must: []string{"b1", "c1", "c2", "b3", "c4"}},
		{name: "two chains with two common cells", board: `
			. B . . .
			 . B . . .
			  . . W . .
			   B . . W .
			    B . . . .`, black: true, win: hex.Black},
		{name: "White connected across", board: `
			. . . . W
			 . . W . .
			  W . . . .
			   . B . B .
			    . B . . .`, white: true, win: hex.White},
		{name: "one stone in the centre: two ziggurats", board: `
			. . . . .
			 . . . . .
			  . . B . .
			   . . . . .
			    . . . . .`, black: true, win: hex.Black},
		{name: "a ziggurat with an opponent stone in it", board: `
			. . . . W
			 . . . . .
			  . . . . .
			   . . B W .
			    . . . . .`},
		// d3 is the anchor of template IV-s3 for White's West edge, whose support
		// cell c4 holds a Black stone: Quick must not use it (it knows the ziggurat only).
		{name: "a support template without its support stone", board: `
			. . . B
			 . . . .
			  . W . W
			   . W B .
			    . W B B`, win: hex.Black},
		{name: "two chains with three common cells", board: `
			. W W
			 . B .
			  W W .`, white: true, win: hex.White},
	}
	var q Quick
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.ParseDiagram(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			got, carrier := q.Connected(b, hex.Black)
			if got != tc.black {
				t.Errorf("Connected(Black) = %v (carrier %s), want %v\n%s", got, cellList(b.Geometry(), carrier), tc.black, b)
			}
			if got && b.Winner() == hex.Empty && (!testing.Short() || carrier.Count() <= 12) && !isVC(b, hex.Black, hex.North, hex.South, carrier) {
				t.Errorf("carrier %s is not a VC", cellList(b.Geometry(), carrier))
			}
			if got, _ := q.Connected(b, hex.White); got != tc.white {
				t.Errorf("Connected(White) = %v, want %v\n%s", got, tc.white, b)
			}
			r := q.Analyse(b)
			if r.Winner != tc.win {
				t.Errorf("Analyse winner %v, want %v\n%s", r.Winner, tc.win, b)
			}
			var must hex.Bitset
			for _, n := range tc.must {
				p, err := b.Geometry().ParseCell(n)
				if err != nil {
					t.Fatal(err)
				}
				must.Set(p)
			}
			if r.HasMustplay != (tc.must != nil) || r.Mustplay != must {
				t.Errorf("mustplay %v %s, want %s\n%s", r.HasMustplay, cellList(b.Geometry(), r.Mustplay), cellList(b.Geometry(), must), b)
			}
			e := b.EmptyCells()
			if r.Winner != hex.Empty && b.Winner() == hex.Empty && e.Count() <= 14 &&
				(r.Winner == b.ToMove()) != brute.Wins(b, map[uint64]bool{}) {
				t.Errorf("brute force disagrees with winner %v", r.Winner)
			}
			if q.Decided(b) != r.Winner {
				t.Errorf("Decided disagrees with Analyse")
			}
			// Looking at the opponent alone finds its wins and the same mustplay.
			qo := Quick{OpponentOnly: true}
			ro := qo.Analyse(b)
			switch {
			case r.Winner == b.ToMove().Opp() && ro.Winner != r.Winner:
				t.Errorf("OpponentOnly winner %v, want %v", ro.Winner, r.Winner)
			case ro.Winner != hex.Empty && ro.Winner != r.Winner:
				t.Errorf("OpponentOnly winner %v, Analyse %v", ro.Winner, r.Winner)
			case r.Winner == hex.Empty && (ro.HasMustplay != r.HasMustplay || ro.Mustplay != r.Mustplay):
				t.Errorf("OpponentOnly mustplay %v %s, Analyse %v %s", ro.HasMustplay, cellList(b.Geometry(), ro.Mustplay),
					r.HasMustplay, cellList(b.Geometry(), r.Mustplay))
			}
		})
	}
}

// TestQuickOracle checks Quick against brute force on random small positions: every
// VC it claims (with the carrier it names), every winner it names and every mustplay
// (each move outside it loses), with and without OpponentOnly. It also counts how many
// of the positions H-search decides Quick decides.
func TestQuickOracle(t *testing.T) {
	positions := 3000
	if testing.Short() {
		positions = 600
	}
	r := rand.New(rand.NewPCG(15, 3))
	var q Quick
	mine, theirs := NewBuilder(DefaultConfig()), NewBuilder(DefaultConfig())
	memos := map[[2]int]map[uint64]bool{} // brute.Wins memos are per board size
	var claims, wins, musts, hDecided, qDecided int
	for n := 0; n < positions; n++ {
		w := 3 + r.IntN(3)
		h := 3 + r.IntN(3)
		if r.IntN(2) == 0 {
			h = w
		}
		if w*h > 20 {
			w, h = 4, 5
		}
		// at most 12 empty cells, so that brute force is quick
		lo := max(w*h-12, 0)
		board := randomPosition(r, w, h, lo+r.IntN(w*h-lo-1))
		if board.Winner() != hex.Empty {
			continue
		}
		memo := memoFor(memos, w, h)
		for _, c := range []hex.Color{hex.Black, hex.White} {
			ok, carrier := q.Connected(board, c)
			if !ok {
				continue
			}
			claims++
			ea, eb := hex.EdgesOf(c)
			if carrier.Count() <= brute.MaxCarrier && !isVC(board, c, ea, eb, carrier) {
				t.Fatalf("%v claimed connected with carrier %s, not a VC:\n%s", c, cellList(board.Geometry(), carrier), board)
			}
		}
		q.OpponentOnly = n%2 == 1 // both modes
		res := q.Analyse(board)
		me := board.ToMove()
		moverWins := brute.Wins(board, memo)
		if res.Winner != hex.Empty {
			wins++
			if (res.Winner == me) != moverWins {
				t.Fatalf("Analyse names %v the winner, brute force disagrees (mover %v wins: %v):\n%s", res.Winner, me, moverWins, board)
			}
		}
		if res.HasMustplay {
			musts++
			if res.Mustplay.IsEmpty() {
				t.Fatalf("empty mustplay reported:\n%s", board)
			}
			empty := board.EmptyCells()
			outside := empty.AndNot(res.Mustplay)
			for p := outside.First(); p != hex.NoCell; p = outside.Next(p + 1) {
				board.PlayStone(me, p)
				loses := board.Winner() != me && (board.Winner() == me.Opp() || brute.Wins(board, memo))
				board.Undo()
				if !loses {
					t.Fatalf("%v at %s outside the mustplay %s does not lose:\n%s", me, board.Geometry().CellName(p),
						cellList(board.Geometry(), res.Mustplay), board)
				}
			}
		}
		d, err := Decide(board, mine, theirs)
		if err != nil {
			t.Fatal(err)
		}
		if d.Winner != hex.Empty && !q.OpponentOnly {
			hDecided++
			if res.Winner != hex.Empty {
				qDecided++
			}
		}
	}
	if claims == 0 || wins == 0 || musts == 0 {
		t.Fatalf("the oracle saw %d claims, %d winners, %d mustplays: too few to test", claims, wins, musts)
	}
	t.Logf("%d positions: %d VC claims, %d winners, %d mustplays checked; Quick decides %d of the %d H-search decides (of the positions analysed with both colours)",
		positions, claims, wins, musts, qDecided, hDecided)
}

// TestQuickZeroAlloc: Analyse allocates nothing.
func TestQuickZeroAlloc(t *testing.T) {
	boards, err := BenchPositions(8)
	if err != nil {
		t.Fatal(err)
	}
	var q Quick
	allocs := testing.AllocsPerRun(10, func() {
		for _, b := range boards {
			q.Analyse(b)
		}
	})
	if allocs != 0 {
		t.Errorf("Analyse allocates %.1f times per run", allocs)
	}
}

func benchQuick(b *testing.B, size int, opponentOnly bool) {
	boards, err := BenchPositions(size)
	if err != nil {
		b.Fatal(err)
	}
	q := Quick{OpponentOnly: opponentOnly}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Analyse(boards[i%len(boards)])
	}
}

// BenchmarkQuick8 times Quick.Analyse on the 8x8 benchmark positions.
func BenchmarkQuick8(b *testing.B) { benchQuick(b, 8, false) }

// BenchmarkQuickOpponent8 times Quick.Analyse with OpponentOnly on the 8x8 benchmark
// positions.
func BenchmarkQuickOpponent8(b *testing.B) { benchQuick(b, 8, true) }

// BenchmarkQuick11 times Quick.Analyse on the 11x11 benchmark positions.
func BenchmarkQuick11(b *testing.B) { benchQuick(b, 11, false) }

// memoFor returns the brute-force memo of w x h boards (hashes of other sizes may
// collide), starting it afresh when it grows large.
func memoFor(memos map[[2]int]map[uint64]bool, w, h int) map[uint64]bool {
	k := [2]int{w, h}
	m := memos[k]
	if m == nil || len(m) > 1<<20 {
		m = map[uint64]bool{}
		memos[k] = m
	}
	return m
}
