package solver

import (
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestFinder checks the solver finder against brute force on 4x4 positions: a colour
// has a winning carrier exactly when it wins with the opponent to move, the carrier is
// a proof (the colour still wins with every other empty cell the opponent's), a
// winning move named for the side to move wins, and one is named whenever the mover
// wins but for positions it wins without moving.
func TestFinder(t *testing.T) {
	f := NewFinder(10 * time.Second)
	memo := map[uint64]bool{}
	moves, carriers := 0, 0
	for _, pos := range []string{"", "b2", "a1", "b2 c3", "a4 b3", "c2 b3 b2", "d1 a4 c2", "a1 b2 c3 d4", "b3 c2 c3 b2", "b2 a1 b3 a2", "c2 d1 b3 a4", "b2 c2 c3 b3", "b1 a2 b3 c2 b4", "c1 d2 c3 b3"} {
		b, err := hex.ParsePosition(4, 4, pos)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []hex.Color{hex.Black, hex.White} {
			p := b.Clone()
			p.SetToMove(c.Opp())
			want := !brute.Wins(p, memo) // the opponent to move loses
			carrier, ok, err := f.WinningCarrier(b, c)
			if err != nil || ok != want {
				t.Fatalf("%q %v: winning carrier %v (%v), brute force says %v", pos, c, ok, err, want)
			}
			if !ok {
				continue
			}
			carriers++
			q := p.Clone()
			out := q.EmptyCells().AndNot(carrier)
			for x := out.First(); x != hex.NoCell; x = out.Next(x + 1) {
				q.PlayStone(c.Opp(), x)
			}
			q.SetToMove(c.Opp())
			if q.Winner() != c && (q.Winner() == c.Opp() || brute.Wins(q, memo)) {
				t.Fatalf("%q %v: carrier %v is not a proof", pos, c, b.Geometry().CellNames(carrier))
			}
		}
		m, ok, err := f.WinningMove(b)
		if err != nil || ok && !brute.Wins(b, memo) {
			t.Fatalf("%q: winning move %v (%v), brute force says the mover loses", pos, ok, err)
		}
		if !ok && brute.Wins(b, memo) {
			// No move named: allowed only when the mover's win needs no move (the
			// solver decides such a position by its connection).
			if _, won, _ := f.WinningCarrier(b, b.ToMove()); !won {
				t.Fatalf("%q: the mover wins but no winning move is named", pos)
			}
		}
		if ok {
			moves++
			c := b.Clone()
			c.PlayStone(b.ToMove(), m)
			if c.Winner() != b.ToMove() && brute.Wins(c, memo) {
				t.Fatalf("%q: %s does not win", pos, b.Geometry().CellName(m))
			}
		}
	}
	if moves < 3 || carriers < 3 {
		t.Fatalf("%d winning moves, %d carriers: too few positions decided", moves, carriers)
	}
}
