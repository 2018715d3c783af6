package circuit

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// BenchmarkSolve measures one colour's circuit solve (build + factor + solve) with each
// solver on 6x6 and 11x11 positions with a few stones and bridge-like VC links.
func BenchmarkSolve(b *testing.B) {
	for _, size := range []int{6, 11, 19} {
		for _, s := range []Solver{Skyline, CG, Dense} {
			b.Run(fmt.Sprintf("%dx%d/%v", size, size, s), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(uint64(size), 1))
				boards := make([]*hex.Board, 16)
				links := make([][]Link, len(boards))
				for i := range boards {
					boards[i] = randomBoard(rng, size, size, size*size/5)
					links[i] = randomLinks(rng, boards[i], hex.Black)
				}
				c, _ := New(Config{Mode: LinkEnds, VCResistance: 0.5, Solver: s})
				b.ReportAllocs()
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := i % len(boards)
					if _, err := c.Solve(boards[k], hex.Black, links[k]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
