package circuit

import (
	"math"
	"math/rand"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/benchutil"
	"github.com/hexlearn/hexlearn/internal/brute"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// TestExactFillInSound checks the exact evaluator with ExactConfig.FillIn against
// brute-force minimax on random 4x4 and 5x5 positions: a decided winner is the true
// winner, and every winning move of the side to move lies in the mustplay it reports.
// It also checks that fill-in decides at least as many of these positions as the
// evaluator without it (a property of these seeded positions, not a theorem).
func TestExactFillInSound(t *testing.T) {
	cfg := SearchExactConfig()
	cfg.FillIn = true
	x, err := NewExact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	plain, _ := NewExact(SearchExactConfig())
	rng := rand.New(rand.NewSource(16))
	decided, decidedPlain, musts := 0, 0, 0
	for _, sz := range []struct{ n, lo, hi, count int }{{4, 1, 6, 200}, {5, 10, 13, 40}} {
		memo := map[uint64]bool{}
		for i := 0; i < sz.count; i++ {
			b := brute.RandomPosition(rng, sz.n, sz.lo+rng.Intn(sz.hi-sz.lo+1))
			me := b.ToMove()
			truth := me
			if !brute.Wins(b, memo) {
				truth = me.Opp()
			}
			if plain.Evaluate(b).Winner != hex.Empty {
				decidedPlain++
			}
			r := x.Evaluate(b)
			if r.Winner != hex.Empty {
				decided++
				if r.Winner != truth {
					t.Fatalf("FillIn decides %v, true winner %v:\n%s", r.Winner, truth, b.Diagram())
				}
				continue
			}
			scores := make([]float64, hex.NumPoints)
			for k := range scores {
				scores[k] = -1
			}
			x.MoveScores(b, scores)
			filled := x.FilledBoard()
			for p := range b.Geometry().N {
				c := hex.Cell(p)
				if b.At(c) == hex.Empty && filled.At(c) != hex.Empty && scores[c] != 0 {
					t.Fatalf("filled cell %s has score %v", b.Geometry().CellName(c), scores[c])
				}
			}
			if !r.HasMustplay {
				continue
			}
			musts++
			noWinOutside(t, b, r.Mustplay, memo)
		}
	}
	t.Logf("FillIn decided %d (without: %d), %d mustplays checked", decided, decidedPlain, musts)
	if decided < decidedPlain || musts == 0 {
		t.Errorf("FillIn decided %d, without %d; %d mustplays", decided, decidedPlain, musts)
	}
}

// noWinOutside fails the test when the side to move of b has a winning move
// (brute force) outside the mustplay must.
func noWinOutside(t *testing.T, b *hex.Board, must hex.Bitset, memo map[uint64]bool) {
	t.Helper()
	me := b.ToMove()
	em := b.EmptyCells()
	for m := em.First(); m != hex.NoCell; m = em.Next(m + 1) {
		if must.Has(m) {
			continue
		}
		b.PlayStone(me, m)
		win := b.Winner() == me || (b.Winner() == hex.Empty && !brute.Wins(b, memo))
		b.Undo()
		if win {
			t.Fatalf("winning move %s outside the mustplay %s:\n%s", b.Geometry().CellName(m),
				b.Geometry().FormatCells(must), b.Diagram())
		}
	}
}

// TestMeasureExactFill prints, when HEXLEARN_VC_MEASURE=1, the median thread CPU time
// of one exact evaluation (Evaluate: the decision, and the circuits when it leaves the
// game open; minimum of 3 runs per position) on engine/vc's benchmark positions, with
// and without FillIn and with the search configuration's SC limit at 8 and 16.
func TestMeasureExactFill(t *testing.T) {
	if os.Getenv("HEXLEARN_VC_MEASURE") != "1" {
		t.Skip("set HEXLEARN_VC_MEASURE=1")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, _ := benchutil.ThreadClock()
	for _, size := range []int{8, 11} {
		boards, err := vc.BenchPositions(size)
		if err != nil {
			t.Fatal(err)
		}
		for _, semi := range []int{8, 16} {
			for _, fill := range []bool{false, true} {
				cfg := SearchExactConfig()
				cfg.VC.MaxSemi, cfg.FillIn = semi, fill
				x, err := NewExact(cfg)
				if err != nil {
					t.Fatal(err)
				}
				var times []time.Duration
				decided := 0
				for _, b := range boards {
					if x.Evaluate(b).Winner != hex.Empty {
						decided++
					}
					best := time.Duration(math.MaxInt64)
					for r := 0; r < 3; r++ {
						t0 := clock()
						x.Evaluate(b)
						best = min(best, clock()-t0)
					}
					times = append(times, best)
				}
				t.Logf("%dx%d MaxSemi %d FillIn %v: median Evaluate %.3f ms, decided %d of %d", size, size, semi, fill,
					float64(stats.DurationQuantile(times, 0.5))/1e6, decided, len(boards))
			}
		}
	}
}
