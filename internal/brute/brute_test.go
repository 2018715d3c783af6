package brute

import (
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// The first player wins every n x n board; on 3x3 Black's winning openings are exactly
// c1 a2 b2 c2 a3 (engine/solver/testdata/openings.tsv).
func TestKnownValues(t *testing.T) {
	for n := 1; n <= 3; n++ {
		if !Wins(hex.MustBoard(n, n), map[uint64]bool{}) {
			t.Errorf("%dx%d: the first player must win", n, n)
		}
	}
	memo := map[uint64]bool{}
	var wins []string
	g := hex.MustGeometry(3, 3)
	for c := hex.Cell(0); int(c) < g.N; c++ {
		b := hex.NewBoardGeometry(g)
		b.PlayStone(hex.Black, c)
		if !MoverWins(b, memo) { // White to move loses: the opening wins
			wins = append(wins, g.CellName(c))
		}
	}
	if got := strings.Join(wins, " "); got != "c1 a2 b2 c2 a3" {
		t.Errorf("3x3 winning openings %q", got)
	}
	b, _ := hex.ParsePosition(2, 2, "a1 b1 a2")
	if MoverWins(b, memo) || b.Winner() != hex.Black {
		t.Error("a finished game is lost for the side to move")
	}
}
