// Package positions generates seeded random Hex positions for experiments, benchmarks
// and measurement sets: the move sequences of random games cut at a random ply.
package positions

import (
	"math/rand/v2"
	"slices"

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
	var cells []hex.Cell
	for tries := 0; len(out) < n && tries < 1000*n; tries++ {
		b := hex.NewBoardGeometry(g)
		cells = Draw(b, rng, lo, span, cells)
		if b.Winner() == hex.Empty && !seen[b.Hash()] {
			seen[b.Hash()] = true
			out = append(out, b)
		}
	}
	return out
}

// Draw sets b (emptied first) to the position after lo..lo+span-1 random alternate
// moves, Black first, drawn from rng: a shuffle of every cell, then the number of
// moves. The position may hold a finished chain. cells is a reusable buffer, returned
// grown; Sampled and selfplay's positions mode draw with it.
func Draw(b *hex.Board, rng *rand.Rand, lo, span int, cells []hex.Cell) []hex.Cell {
	b.Reset()
	n := b.Geometry().N
	cells = cells[:0]
	for i := 0; i < n; i++ {
		cells = append(cells, hex.Cell(i))
	}
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	ply := min(n, lo+rng.IntN(span))
	for _, c := range cells[:ply] {
		b.PlayStone(b.ToMove(), c)
	}
	return cells
}

// Openings returns the openings a match plays on a size x size board: every cell in
// order, or k cells chosen with the seed (sorted by cell index).
func Openings(size, k int, seed uint64) []hex.Cell {
	n := size * size
	cells := make([]hex.Cell, n)
	for i := range cells {
		cells[i] = hex.Cell(i)
	}
	if k <= 0 || k >= n {
		return cells
	}
	r := rand.New(rand.NewPCG(seed, 0x6d61746368))
	r.Shuffle(n, func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	cells = cells[:k]
	slices.Sort(cells)
	return cells
}
