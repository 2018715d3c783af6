package solver

import (
	"context"
	"errors"
	"math/rand"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestSolveParallelBruteForce: root splitting with 2 workers sharing a table (with
// and without a strong RootRank) and 3 with a table each, and 2 workers searching the
// whole tree together, give the
// brute-force winner on random 4x4 and 5x5 positions, a winning move that wins, and a
// proof set that is a proof.
func TestSolveParallelBruteForce(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	small := func() Config { c := DefaultConfig(); c.TTBits = 12; return c }
	count := map[int]int{4: 300, 5: 60}
	if testing.Short() {
		count = map[int]int{4: 60, 5: 15}
	}
	for _, n := range []int{4, 5} {
		memo := map[uint64]bool{}
		minStones := map[int]int{4: 1, 5: 9}[n]
		for i := 0; i < count[n]; i++ {
			b := randomPosition(rng, n, minStones+rng.Intn(n*n-minStones-1))
			if rng.Intn(2) == 0 {
				b.SetToMove(b.ToMove().Opp())
			}
			want := brute.Wins(b, memo)
			for _, workers := range []int{2, 3, -2, -3} {
				solve := SolveParallel // one shared table
				mk := small
				switch workers {
				case -3: // root moves steered hard by their rank in the move order
					mk = func() Config { c := small(); c.RootRank = 0.25; return c }
					workers = 2
				case 3:
					solve = SolveParallelSeparate
				case -2: // two workers searching the whole tree together
					solve, workers = SolveShared, 2
				}
				r, err := solve(context.Background(), b, workers, mk)
				if err != nil {
					t.Fatal(err)
				}
				if (r.Winner == b.ToMove()) != want {
					t.Fatalf("%d workers: %s wins, brute force says mover wins=%v\n%s", workers, r.Winner, want, b.Diagram())
				}
				if r.Winner == b.ToMove() && r.Move != hex.NoCell {
					b.PlayStone(b.ToMove(), r.Move)
					ok := b.Winner() == b.ToMove().Opp() || !brute.Wins(b, memo)
					b.Undo()
					if !ok {
						t.Fatalf("winning move %s does not win\n%s", b.Geometry().CellName(r.Move), b.Diagram())
					}
				}
				checkProof(t, "parallel", b, r, memo)
			}
		}
	}
}

// TestSolveParallelOpenings: the 6x6 openings (5x5 with -short) with 2 workers agree
// with the openings table; a timeout, a node limit and a cancelled context give (root
// split and shared tree)
// ErrLimit, and 0 workers ErrBadConfig.
func TestSolveParallelOpenings(t *testing.T) {
	n := 6
	if testing.Short() {
		n = 5
	}
	known := knownOpenings(t)[n]
	small := func() Config { c := DefaultConfig(); c.TTBits = 14; return c }
	g := hex.MustGeometry(n, n)
	for m := hex.Cell(0); int(m) < g.N; m++ {
		b := hex.NewBoardGeometry(g)
		b.PlayStone(hex.Black, m)
		r, err := SolveParallel(context.Background(), b, 2, small)
		if err != nil {
			t.Fatal(err)
		}
		if got := r.Winner == hex.Black; got != known[g.CellName(m)] {
			t.Errorf("%s: black wins=%v, table says %v", g.CellName(m), got, known[g.CellName(m)])
		}
	}
	b := hex.MustBoard(8, 8)
	b.PlayStone(hex.Black, b.Geometry().At(0, 0))
	limited := []struct {
		name string
		mk   func() Config
		ctx  func() (context.Context, context.CancelFunc)
	}{
		{"timeout", func() Config { c := small(); c.Timeout = 50 * time.Millisecond; return c }, nil},
		{"max nodes", func() Config { c := small(); c.MaxNodes = 300; return c }, nil},
		{"cancelled", small, func() (context.Context, context.CancelFunc) {
			return context.WithTimeout(context.Background(), 50*time.Millisecond)
		}},
	}
	for _, shared := range []bool{false, true} {
		solve := SolveParallel
		if shared {
			solve = SolveShared
		}
		for _, tc := range limited {
			ctx, cancel := context.Background(), context.CancelFunc(func() {})
			if tc.ctx != nil {
				ctx, cancel = tc.ctx()
			}
			start := time.Now()
			r, err := solve(ctx, b, 2, tc.mk)
			cancel()
			if !errors.Is(err, ErrLimit) {
				t.Errorf("%s (shared %v): got %v, want ErrLimit", tc.name, shared, err)
			}
			if el := time.Since(start); el > 2*time.Second {
				t.Errorf("%s (shared %v): stopped after %v", tc.name, shared, el)
			}
			if tc.name == "max nodes" && r.Stats.Nodes > 2*300+100 {
				t.Errorf("max nodes 300 (shared %v): searched %d", shared, r.Stats.Nodes)
			}
		}
		if _, err := solve(context.Background(), b, 0, small); !errors.Is(err, ErrBadConfig) {
			t.Errorf("0 workers (shared %v): got %v, want ErrBadConfig", shared, err)
		}
	}
}

// TestRootPriority: under Config.RootRank the root split weights a move's disproof
// number by its rank, and an unsearched move counts with the smallest searched one.
func TestRootPriority(t *testing.T) {
	tests := []struct {
		dn       uint32
		searched bool
		minDN    uint32
		rank     int
		k        float64
		want     float64
	}{
		{dn: 200, searched: true, minDN: 150, rank: 0, k: 4, want: 200},
		{dn: 200, searched: true, minDN: 150, rank: 4, k: 4, want: 400},
		{dn: 1, searched: false, minDN: 150, rank: 2, k: 4, want: 225},
		{dn: 1, searched: false, minDN: 1, rank: 8, k: 2, want: 5},
	}
	for _, tc := range tests {
		if got := rootPriority(tc.dn, tc.searched, tc.minDN, tc.rank, tc.k); got != tc.want {
			t.Errorf("rootPriority(%d, %v, %d, %d, %g) = %g, want %g", tc.dn, tc.searched, tc.minDN, tc.rank, tc.k, got, tc.want)
		}
	}
	// the best-ordered searched move beats a worse-ordered one with a smaller
	// disproof number, and an unsearched one far down the order
	if a, b := rootPriority(300, true, 250, 1, 4), rootPriority(250, true, 250, 20, 4); a >= b {
		t.Errorf("rank 1 dn 300 (%g) should come before rank 20 dn 250 (%g)", a, b)
	}
	if a, b := rootPriority(300, true, 250, 1, 4), rootPriority(1, false, 250, 20, 4); a >= b {
		t.Errorf("rank 1 dn 300 (%g) should come before unsearched rank 20 (%g)", a, b)
	}
}
