package solver

import (
	"context"
	"math/rand"
	"sync"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestRootProgress: on random 4x4 and 5x5 positions, one DFPN solver, the root split
// (2 workers) and the shared tree (2 workers) report each decided root move once,
// every move reported refuted loses by brute force, a move reported winning wins and
// is the last reported (and, but for the shared tree, the result's move).
func TestRootProgress(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	n := map[int]int{4: 150, 5: 40}
	if testing.Short() {
		n = map[int]int{4: 40, 5: 10}
	}
	reports := 0
	for _, size := range []int{4, 5} {
		memo := map[uint64]bool{}
		for i := 0; i < n[size]; i++ {
			minStones := map[int]int{4: 1, 5: 9}[size] // brute force needs few empty cells
			b := randomPosition(rng, size, minStones+rng.Intn(size*size-minStones-1))
			for _, workers := range []int{1, 2, -2} {
				var mu sync.Mutex
				var got []RootMove
				mk := func() Config {
					c := DefaultConfig()
					c.TTBits = 12
					c.RootProgress = func(rm RootMove) {
						mu.Lock()
						got = append(got, rm)
						mu.Unlock()
					}
					return c
				}
				solve := SolveParallel
				w := workers
				if workers < 0 {
					solve, w = SolveShared, -workers
				}
				r, err := solve(context.Background(), b, w, mk)
				if err != nil {
					t.Fatal(err)
				}
				var seen hex.Bitset
				for k, rm := range got {
					name := b.Geometry().CellName(rm.Move)
					if seen.Has(rm.Move) {
						t.Fatalf("workers %d: %s reported twice\n%s", workers, name, b.Diagram())
					}
					seen.Set(rm.Move)
					if b.At(rm.Move) != hex.Empty || rm.Nodes < 0 || rm.Elapsed < 0 {
						t.Fatalf("workers %d: bad report %+v\n%s", workers, rm, b.Diagram())
					}
					b.PlayStone(b.ToMove(), rm.Move)
					wins := !brute.MoverWins(b, memo)
					b.Undo()
					if wins != rm.Wins {
						t.Fatalf("workers %d: %s reported wins=%v, brute force says %v\n%s", workers, name, rm.Wins, wins, b.Diagram())
					}
					// the shared tree's workers may each find a winning move: the
					// result's is the first to return, the report the first found
					if rm.Wins && (k != len(got)-1 || r.Move != rm.Move && workers > 0) {
						t.Fatalf("workers %d: winning move %s reported at %d of %d, result's move %v\n%s", workers, name, k, len(got), r.Move, b.Diagram())
					}
				}
				reports += len(got)
			}
		}
	}
	if reports == 0 {
		t.Fatal("no root move was ever reported")
	}
}
