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

// BenchmarkOpenings6 solves all 6x6 openings with DefaultConfig (DFPN, about 2 s:
// run with -benchtime 1x).
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
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		clear(s.tt) // forget the tables so each iteration searches
		s.pn.clear()
		r, err := s.Solve(context.Background(), bd)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(r.Stats.Nodes), "nodes/op")
	}
}

// BenchmarkOpenings6DFS solves all 6x6 openings with DefaultConfig's DFS (about 4 s:
// run with -benchtime 1x).
func BenchmarkOpenings6DFS(b *testing.B) {
	for i := 0; i < b.N; i++ {
		cfg := DefaultConfig()
		cfg.Algorithm = DFS
		s := New(cfg)
		if _, err := s.SolveOpenings(context.Background(), 6, 6, nil); err != nil {
			b.Fatal(err)
		}
	}
}
