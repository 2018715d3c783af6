package circuit

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// BenchmarkExact measures a full exact evaluation (H-search for both colours + both
// circuits with the VC links) on random 6x6 and 11x11 positions, with the default
// (M = 20) and the search (M = 8) H-search limits.
func BenchmarkExact(b *testing.B) {
	configs := []struct {
		name string
		cfg  ExactConfig
	}{{"default", DefaultExactConfig()}, {"search", SearchExactConfig()}}
	for _, size := range []int{6, 11} {
		for _, stones := range []int{0, size * size / 6} {
			for _, c := range configs {
				b.Run(fmt.Sprintf("%dx%d/%dstones/%s", size, size, stones, c.name), func(b *testing.B) {
					rng := rand.New(rand.NewPCG(uint64(size), 2))
					boards := make([]*hex.Board, 8)
					for i := range boards {
						boards[i] = randomBoard(rng, size, size, stones)
					}
					x, err := NewExact(c.cfg)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						if _, err := x.Analyse(boards[i%len(boards)]); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}

// BenchmarkCircuitWithVCLinks measures both circuits' solve (R_B and R_W) with the real
// H-search VC links of a position (computed once), for each solver: this is the
// circuit's share of an exact evaluation.
func BenchmarkCircuitWithVCLinks(b *testing.B) {
	for _, size := range []int{6, 11} {
		rng := rand.New(rand.NewPCG(uint64(size), 3))
		board := randomBoard(rng, size, size, size*size/6)
		x := newExact(b)
		a, err := x.Analyse(board)
		if err != nil {
			b.Fatal(err)
		}
		// The links the exact evaluator gives the circuits: one per VC pair.
		bl := append([]Link(nil), x.links[:a.BlackLinks]...)
		wl := append([]Link(nil), x.links[a.BlackLinks:]...)
		for _, mode := range []VCMode{LinkEnds, ShareNeighbours} {
			for _, s := range []Solver{Skyline, CG, Dense} {
				b.Run(fmt.Sprintf("%dx%d/%v/%v", size, size, mode, s), func(b *testing.B) {
					r, err := NewResistance(Config{Mode: mode, VCResistance: 0.5, Solver: s})
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, err := r.Eval(board, bl, wl); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
