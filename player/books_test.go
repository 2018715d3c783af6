package player

import (
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestBuiltinBook: the built-in 8x8 book reads, and every one-stone opening it holds
// is answered for the side the published values (engine/solver's openings table,
// Henderson, Arneson & Hayward 2009) make the winner; sizes without a book give nil.
func TestBuiltinBook(t *testing.T) {
	bk, err := BuiltinBook(8, 8)
	if err != nil || bk == nil || bk.Len() < 1000 {
		t.Fatalf("built-in 8x8 book: %v", err)
	}
	data, err := os.ReadFile("../engine/solver/testdata/openings.tsv")
	if err != nil {
		t.Fatal(err)
	}
	wins := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "8" {
			for _, c := range f[1:] {
				wins[c] = true
			}
		}
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
