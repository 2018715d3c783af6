package solver

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestRootCandidatesOracle: a DFPN search stopped by a small node limit leaves root
// candidates that hold a winning move whenever the side to move wins (brute force on
// random 4x4 and 5x5 positions); a search that decides its position, and a DFS
// search, leave none.
func TestRootCandidatesOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(61))
	memo := map[uint64]bool{}
	var open, pruned, wins int
	for i := 0; i < 1500; i++ {
		n := 4 + i%2
		k := 2 + rng.Intn(8) // 4x4: 2..9 stones
		if n == 5 {
			k = 11 + rng.Intn(6) // 5x5: 11..16 stones (brute force stays fast)
		}
		b := brute.RandomPosition(rng, n, k)
		if b.Winner() != hex.Empty {
			continue
		}
		if len(memo) > 2_000_000 {
			memo = map[uint64]bool{}
		}
		cfg := DefaultConfig()
		cfg.MaxNodes, cfg.TTBits = int64(1+rng.Intn(6)), 12
		s := New(cfg)
		r, err := s.Solve(context.Background(), b)
		cands, ok := s.RootCandidates()
		if err == nil {
			if ok {
				t.Fatalf("decided (%v wins) but root candidates %v", r.Winner, cands)
			}
			continue
		}
		if !errors.Is(err, ErrLimit) {
			t.Fatal(err)
		}
		if !ok {
			continue
		}
		open++
		empty := b.EmptyCells()
		if !cands.SubsetOf(&empty) {
			t.Fatalf("candidates %s are not empty cells\n%s", b.Geometry().FormatCells(cands), b.Diagram())
		}
		if cands.Count() < empty.Count() {
			pruned++
		}
		if !brute.MoverWins(b, memo) {
			continue
		}
		wins++
		me, found := b.ToMove(), false
		for p := cands.First(); p != hex.NoCell && !found; p = cands.Next(p + 1) {
			b.PlayStone(me, p)
			found = b.Winner() == me || !brute.MoverWins(b, memo)
			b.Undo()
		}
		if !found {
			t.Fatalf("%s wins, but none of the candidates %s does\n%s", me, b.Geometry().FormatCells(cands), b.Diagram())
		}
	}
	t.Logf("%d stopped searches with candidates, %d of them pruned, %d won", open, pruned, wins)
	if open < 40 || pruned < 10 || wins < 20 {
		t.Fatalf("only %d stopped searches with candidates (%d pruned, %d won)", open, pruned, wins)
	}
	b := hex.MustBoard(7, 7)
	cfg := DefaultConfig()
	cfg.Algorithm, cfg.MaxNodes = DFS, 3
	s := New(cfg)
	if _, err := s.Solve(context.Background(), b); !errors.Is(err, ErrLimit) {
		t.Fatalf("DFS with 3 nodes: %v", err)
	}
	if _, ok := s.RootCandidates(); ok {
		t.Fatal("DFS left root candidates")
	}
}
