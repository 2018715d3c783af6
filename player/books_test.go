package player

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestBuiltinBook: the built-in 8x8 book reads, and every one-stone opening it holds
// is answered for the side the published values (solver.KnownOpenings,
// Henderson, Arneson & Hayward 2009) make the winner; sizes without a book give nil.
func TestBuiltinBook(t *testing.T) {
	bk, err := BuiltinBook(8, 8)
	if err != nil || bk == nil || bk.Len() < 1000 {
		t.Fatalf("built-in 8x8 book: %v", err)
	}
	known, _ := solver.KnownOpenings(8)
	wins := map[string]bool{}
	for _, c := range hex.MustGeometry(8, 8).CellNames(known) {
		wins[c] = true
	}
	if len(wins) != 32 {
		t.Fatalf("%d winning 8x8 openings in the table", len(wins))
	}
	g := hex.MustGeometry(8, 8)
	answered := 0
	for p := hex.Cell(0); int(p) < g.N; p++ {
		b, _ := hex.ParsePosition(8, 8, g.CellName(p))
		if m, ok := bk.Lookup(b); ok {
			answered++
			if wins[g.CellName(p)] {
				t.Errorf("opening %s wins for Black, but the book answers it for White with %s", g.CellName(p), g.CellName(m))
			}
		}
	}
	if answered < 10 {
		t.Errorf("the book answers only %d openings", answered)
	}
	if bk, err := BuiltinBook(9, 9); bk != nil || err != nil {
		t.Errorf("9x9: %v, %v", bk, err)
	}
	if BuiltinBooks(8, 8) == nil || BuiltinBooks(7, 7) != nil {
		t.Error("BuiltinBooks")
	}
}
