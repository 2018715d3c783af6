package player

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestBuiltinBook: the built-in 5x5 and 8x8 books read, and every one-stone opening
// they hold is answered for the side the published values (solver.KnownOpenings,
// Henderson, Arneson & Hayward 2009) make the winner; sizes without a book give nil.
func TestBuiltinBook(t *testing.T) {
	for _, c := range []struct {
		n, wins, minLen, minAnswered int
	}{{5, 13, 1000, 12}, {8, 32, 1000, 10}} { // 5x5: every losing opening
		bk, err := BuiltinBook(c.n, c.n)
		if err != nil || bk == nil || bk.Len() < c.minLen {
			t.Fatalf("built-in %dx%d book: %v", c.n, c.n, err)
		}
		g := hex.MustGeometry(c.n, c.n)
		known, _ := solver.KnownOpenings(c.n)
		wins := map[string]bool{}
		for _, cell := range g.CellNames(known) {
			wins[cell] = true
		}
		if len(wins) != c.wins {
			t.Fatalf("%d winning %dx%d openings in the table", len(wins), c.n, c.n)
		}
		answered := 0
		for p := hex.Cell(0); int(p) < g.N; p++ {
			b, _ := hex.ParsePosition(c.n, c.n, g.CellName(p))
			if m, ok := bk.Lookup(b); ok {
				answered++
				if wins[g.CellName(p)] {
					t.Errorf("%dx%d: opening %s wins for Black, but the book answers it for White with %s", c.n, c.n, g.CellName(p), g.CellName(m))
				}
			}
		}
		if answered < c.minAnswered {
			t.Errorf("the %dx%d book answers only %d openings", c.n, c.n, answered)
		}
	}
	if bk, err := BuiltinBook(9, 9); bk != nil || err != nil {
		t.Errorf("9x9: %v, %v", bk, err)
	}
	if BuiltinBooks(8, 8) == nil || BuiltinBooks(5, 5) == nil || BuiltinBooks(7, 7) != nil {
		t.Error("BuiltinBooks")
	}
}
