package solver

import (
	"context"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// BenchmarkOpenings5 solves all 5x5 openings (fresh solver each iteration).
func BenchmarkOpenings5(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := New(Config{TTBits: 18})
		if _, err := s.SolveOpenings(context.Background(), 5, 5, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenings5VC solves all 5x5 openings with H-search as the Connector.
func BenchmarkOpenings5VC(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := New(EngineVCConfig())
		if _, err := s.SolveOpenings(context.Background(), 5, 5, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOpenings6 solves all 6x6 openings with DefaultConfig (about 30 s: run
// with -benchtime 1x).
func BenchmarkOpenings6(b *testing.B) {
	for i := 0; i < b.N; i++ {
		s := New(DefaultConfig())
		if _, err := s.SolveOpenings(context.Background(), 6, 6, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSolve6 solves one 6x6 opening with a warm solver; allocs/op shows that the
// search allocates nothing per node (only the per-call board copy).
func BenchmarkSolve6(b *testing.B) {
	s := New(DefaultConfig())
	bd := hex.MustBoard(6, 6)
	bd.PlayStone(hex.Black, bd.Geometry().At(2, 2))
	for i := 0; i < b.N; i++ {
		clear(s.tt) // forget the table so each iteration searches
		r, err := s.Solve(context.Background(), bd)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Stats.Nodes), "nodes/op")
	}
}

// BenchmarkHSearch measures one build of the built-in H-search (both colours) on 7x7
// positions with a few stones.
func BenchmarkHSearch(b *testing.B) {
	bd, err := hex.ParsePosition(7, 7, "d4 c5 e3 d3 c4")
	if err != nil {
		b.Fatal(err)
	}
	h := NewHSearch()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.run(bd, hex.Black)
		h.run(bd, hex.White)
	}
}
