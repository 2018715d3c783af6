package ice

import (
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// BenchmarkFillIn measures one FillIn (and its Undo) on random 7x7 positions with 12
// stones.
func BenchmarkFillIn(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var boards []*hex.Board
	for i := 0; i < 64; i++ {
		boards = append(boards, randomPosition(rng, 7, 12))
	}
	a := NewAnalyzer()
	var r Result
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i&63]
		a.FillIn(bd, hex.Black, &r)
		r.Undo(bd)
	}
}

// BenchmarkInferior measures the vulnerable and capture-dominated analysis of the side
// to move on random 7x7 positions with 12 stones.
func BenchmarkInferior(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var boards []*hex.Board
	for i := 0; i < 64; i++ {
		boards = append(boards, randomPosition(rng, 7, 12))
	}
	a := NewAnalyzer()
	dom := make([]hex.Cell, hex.NumPoints)
	part := make([]hex.Cell, hex.NumPoints)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i&63]
		a.Vulnerable(bd, bd.ToMove(), dom)
		a.CaptureDominated(bd, bd.ToMove(), dom, part)
	}
}

// BenchmarkFlood compares the shift-based flood with a plain breadth-first flood
// from the north edge of random 7x7 positions (empty cells and Black's stones allowed).
func BenchmarkFlood(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var allowed []hex.Bitset
	for i := 0; i < 64; i++ {
		bd := randomPosition(rng, 7, 12)
		s := bd.EmptyCells().Or(bd.Stones(hex.Black))
		s.Set(hex.North)
		s.Set(hex.South)
		allowed = append(allowed, s)
	}
	g := hex.MustGeometry(7, 7)
	a := NewAnalyzer()
	b.Run("shift", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			a.flood(g, hex.North, &allowed[i&63])
		}
	})
	b.Run("bfs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			floodSlow(g, hex.North, &allowed[i&63])
		}
	})
}

// BenchmarkLocalDominated measures LocalDominated for the side to move on random 8x8
// positions with 8 stones (the table warmed up by the first pass).
func BenchmarkLocalDominated(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	var boards []*hex.Board
	for i := 0; i < 64; i++ {
		boards = append(boards, randomPosition(rng, 8, 8))
	}
	a := NewAnalyzer()
	dom := make([]hex.Cell, hex.NumPoints)
	for _, bd := range boards {
		a.LocalDominated(bd, bd.ToMove(), bd.EmptyCells(), dom)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i&63]
		a.LocalDominated(bd, bd.ToMove(), bd.EmptyCells(), dom)
	}
}
