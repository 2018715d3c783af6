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
