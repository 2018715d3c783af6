// Package brute holds the plain game-tree oracles that hexlearn's clever algorithms are
// tested against (docs/testing.md, "Oracles"): exhaustive minimax with a memo, no
// pruning and no Hex knowledge beyond the rules. Wins and MoverWins solve whole (small)
// boards for the ice and solver tests; Carrier is the connection game restricted to a
// carrier, the oracle of the vc tests and of engine/patterns' Verify.
package brute

import (
	"math/rand"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Wins reports whether the side to move wins b with perfect play. b must have no
// winner yet; it is restored before Wins returns. memo caches results by hash and may
// be shared between calls on boards of one size.
func Wins(b *hex.Board, memo map[uint64]bool) bool {
	if v, ok := memo[b.Hash()]; ok {
		return v
	}
	x := b.ToMove()
	empty := b.EmptyCells()
	win := false
	for m := empty.First(); m != hex.NoCell && !win; m = empty.Next(m + 1) { // wins at once first
		b.PlayStone(x, m)
		win = b.Winner() == x
		b.Undo()
	}
	for m := empty.First(); m != hex.NoCell && !win; m = empty.Next(m + 1) {
		b.PlayStone(x, m)
		if b.Winner() == x || !Wins(b, memo) {
			win = true
		}
		b.Undo()
	}
	memo[b.Hash()] = win
	return win
}

// MoverWins is Wins for a position that may already be decided.
func MoverWins(b *hex.Board, memo map[uint64]bool) bool {
	switch b.Winner() {
	case b.ToMove():
		return true
	case b.ToMove().Opp():
		return false
	}
	return Wins(b, memo)
}

// RandomPosition plays k random stones alternately on an n x n board, starting again
// until no colour has won, and returns the position.
func RandomPosition(rng *rand.Rand, n, k int) *hex.Board {
	for {
		b := hex.MustBoard(n, n)
		ok := true
		for i := 0; i < k; i++ {
			e := b.EmptyCells()
			cells := e.AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[rng.Intn(len(cells))])
			if b.Winner() != hex.Empty {
				ok = false
				break
			}
		}
		if ok {
			return b
		}
	}
}

// RandomSetup returns a w x h position with stones of random colours (not
// alternating) on all but empty cells and no winner yet, or nil when 100 tries all
// gave a winner.
func RandomSetup(rng *rand.Rand, w, h, empty int) *hex.Board {
	for try := 0; try < 100; try++ {
		b := hex.MustBoard(w, h)
		cells := b.EmptyCells().AppendCells(nil)
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		for _, c := range cells[:max(0, len(cells)-empty)] {
			b.PlayStone([]hex.Color{hex.Black, hex.White}[rng.Intn(2)], c)
		}
		if b.Winner() == hex.Empty {
			return b
		}
	}
	return nil
}
