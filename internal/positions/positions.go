// Package positions generates seeded random Hex positions for experiments, benchmarks
// and measurement sets: the move sequences of random games cut at a random ply.
package positions

import (
	"math/rand/v2"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Random returns n distinct undecided size x size positions from seeded random games,
// with the number of stones drawn uniformly from 1..cells/2 (experiment 9's positions
// and the solved measurement sets of engine/vc).
func Random(size, n int, seed uint64) []*hex.Board {
	g := hex.MustGeometry(size, size)
	return Sampled(size, n, 1, max(1, g.N/2), rand.NewPCG(seed, 0x706f73))
}

// Sampled returns up to n distinct undecided positions from random games with
// lo..lo+span-1 stones, drawn from src (alternate moves, Black first).
func Sampled(size, n, lo, span int, src rand.Source) []*hex.Board {
	g := hex.MustGeometry(size, size)
	rng := rand.New(src)
	out := make([]*hex.Board, 0, n)
	seen := map[uint64]bool{}
	cells := make([]hex.Cell, g.N)
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		for i := range cells {
			cells[i] = hex.Cell(i)
		}
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		ply := min(g.N, lo+rng.IntN(span))
		b := hex.NewBoardGeometry(g)
		for i := 0; i < ply; i++ {
			b.PlayStone(b.ToMove(), cells[i])
		}
		if b.Winner() == hex.Empty && !seen[b.Hash()] {
			seen[b.Hash()] = true
			out = append(out, b)
		}
	}
	return out
}
