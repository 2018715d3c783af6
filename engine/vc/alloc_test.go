package vc

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestZeroAlloc: after one warm-up Build per board size, Build and Play allocate
// nothing, over many different positions (random games on 5x5, 8x8 and 11x11 and the
// benchmark positions), for H-search with the default limits, with M = 20 and with
// FastVCConfig.
func TestZeroAlloc(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 5))
	for _, cfg := range []Config{DefaultConfig(), AnshelevichConfig(), FastVCConfig()} {
		for _, size := range []int{5, 8, 11} {
			// positions along a few random games: boards[k] is boards[k-1] plus moves[k]
			var boards []*hex.Board
			var moves []hex.Cell
			games := 3
			if testing.Short() || cfg.MaxSemi > 8 {
				games = 1
			}
			for g := 0; g < games; g++ {
				playGame(r, size, size, size*size, g == 2, func(b *hex.Board, p hex.Cell) bool {
					boards = append(boards, b.Clone())
					moves = append(moves, p)
					return b.Winner() == hex.Empty
				})
			}
			if (size == 8 || size == 11) && cfg.MaxSemi <= 8 {
				bench, err := BenchPositions(size)
				if err != nil {
					t.Fatal(err)
				}
				boards = append(boards, bench...)
				for range bench {
					moves = append(moves, hex.NoCell)
				}
			}
			bl := NewBuilder(cfg)
			if err := bl.Build(hex.MustBoard(size, size), hex.Black); err != nil {
				t.Fatal(err)
			}
			k := 0
			var err error
			allocs := testing.AllocsPerRun(len(boards)-1, func() {
				for _, c := range []hex.Color{hex.Black, hex.White} {
					if e := bl.Build(boards[k], c); e != nil {
						err = e
					}
					if p := moves[k+1]; p != hex.NoCell && boards[k+1].Ply() == boards[k].Ply()+1 {
						if e := bl.Play(boards[k+1], p); e != nil {
							err = e
						}
					}
				}
				k = (k + 1) % (len(boards) - 1)
			})
			if err != nil {
				t.Fatal(err)
			}
			if allocs != 0 {
				t.Errorf("%dx%d M=%d/%d: %.2f allocations per Build+Play over %d positions", size, size,
					cfg.MaxFull, cfg.MaxSemi, allocs, len(boards))
			}
		}
	}
}
