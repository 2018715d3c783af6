package hex

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// midgame returns an n x n board with about a third of its cells filled by a random
// game that nobody has won yet, and an empty cell to play on.
func midgame(n int) (*Board, Cell) {
	rng := rand.New(rand.NewPCG(uint64(n), 42))
	for {
		b := MustBoard(n, n)
		for b.NumStones() < n*n/3 {
			m, _ := randomLegalMove(b, rng)
			if m.Cell == Swap {
				continue
			}
			b.Play(m)
		}
		if b.Winner() == Empty {
			e := b.EmptyCells()
			return b, e.First()
		}
	}
}

// BenchmarkPlayUndo: one checked Play and one Undo on a mid-game board.
func BenchmarkPlayUndo(bm *testing.B) {
	for _, n := range []int{11, 19} {
		bm.Run(fmt.Sprintf("%dx%d", n, n), func(bm *testing.B) {
			b, p := midgame(n)
			m := Move{b.ToMove(), p}
			bm.ReportAllocs()
			for bm.Loop() {
				b.Play(m)
				b.Undo()
			}
		})
	}
}

// BenchmarkPlayStoneUndo: the unchecked search path, PlayStone and Undo, cycling over
// every empty cell of a mid-game board.
func BenchmarkPlayStoneUndo(bm *testing.B) {
	for _, n := range []int{11, 19} {
		bm.Run(fmt.Sprintf("%dx%d", n, n), func(bm *testing.B) {
			b, _ := midgame(n)
			empty := b.EmptyCells()
			cells := empty.AppendCells(nil)
			c := b.ToMove()
			bm.ReportAllocs()
			i := 0
			for bm.Loop() {
				b.PlayStone(c, cells[i])
				b.Undo()
				if i++; i == len(cells) {
					i = 0
				}
			}
		})
	}
}

// BenchmarkWinner: the winner test on a mid-game board and on a filled board.
func BenchmarkWinner(bm *testing.B) {
	for _, n := range []int{11, 19} {
		mid, _ := midgame(n)
		full := MustBoard(n, n)
		randomFill(full, rand.New(rand.NewPCG(1, uint64(n))))
		for _, tc := range []struct {
			name string
			b    *Board
		}{{"mid", mid}, {"full", full}} {
			bm.Run(fmt.Sprintf("%dx%d/%s", n, n, tc.name), func(bm *testing.B) {
				bm.ReportAllocs()
				var w Color
				for bm.Loop() {
					w |= tc.b.Winner()
				}
				_ = w
			})
		}
	}
}
