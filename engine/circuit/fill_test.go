package circuit

import (
	"fmt"
	"math"
	"math/rand"
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

// exactFillConfigs are the exact evaluator's configurations BenchmarkExactFill and
// TestExactFillDecides measure on engine/vc's benchmark positions: the search
// configuration with its SC limit at 8 and 16 (the default), with and without FillIn.
// decided holds the 8x8 and 11x11 positions (of 40 each) each decided on 2026-12-02.
var exactFillConfigs = []struct {
	semi    int
	fill    bool
	decided [2]int
}{{8, false, [2]int{25, 19}}, {8, true, [2]int{27, 24}}, {16, false, [2]int{27, 22}}, {16, true, [2]int{29, 25}}}

// exactFillConfig returns SearchExactConfig with the SC limit semi and FillIn fill.
func exactFillConfig(t testing.TB, semi int, fill bool) *Exact {
	t.Helper()
	cfg := SearchExactConfig()
	cfg.VC.MaxSemi, cfg.FillIn = semi, fill
	x, err := NewExact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestExactFillDecides: on engine/vc's 8x8 and 11x11 benchmark positions no
// configuration of exactFillConfigs decides fewer positions than it did when its
// figure was recorded (its soundness is TestExactFillInSound's), and FillIn decides at
// least as many as the same configuration without it.
func TestExactFillDecides(t *testing.T) {
	for k, size := range []int{8, 11} {
		boards, err := vc.BenchPositions(size)
		if err != nil {
			t.Fatal(err)
		}
		without := map[int]int{}
		for _, c := range exactFillConfigs {
			if testing.Short() && c.semi != SearchExactConfig().VC.MaxSemi {
				continue
			}
			x := exactFillConfig(t, c.semi, c.fill)
			decided := 0
			for _, b := range boards {
				if x.Evaluate(b).Winner != hex.Empty {
					decided++
				}
			}
			if decided < c.decided[k] {
				t.Errorf("%dx%d MaxSemi %d FillIn %v decides %d of %d, fewer than its floor %d (exactFillConfigs)",
					size, size, c.semi, c.fill, decided, len(boards), c.decided[k])
			}
			if !c.fill {
				without[c.semi] = decided
			} else if decided < without[c.semi] {
				t.Errorf("%dx%d MaxSemi %d: FillIn decides %d, fewer than the %d without it", size, size, c.semi, decided, without[c.semi])
			}
			t.Logf("%dx%d MaxSemi %d FillIn %v: decided %d of %d", size, size, c.semi, c.fill, decided, len(boards))
		}
	}
}

// BenchmarkExactFill measures the median thread CPU time of one exact evaluation
// (Evaluate: the decision, and the circuits when it leaves the game open; minimum of 3
// runs per position) on engine/vc's benchmark positions for each configuration of
// exactFillConfigs, and the positions it decides. One op is the whole set. Run it with
//
//	go test ./engine/circuit -run '^$' -bench ExactFill -benchtime 1x
func BenchmarkExactFill(b *testing.B) {
	for _, size := range []int{8, 11} {
		boards, err := vc.BenchPositions(size)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range exactFillConfigs {
			b.Run(fmt.Sprintf("%dx%d/semi-%d/fill-%v", size, size, c.semi, c.fill), func(b *testing.B) {
				x := exactFillConfig(b, c.semi, c.fill)
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				clock, _ := benchutil.ThreadClock()
				var times []time.Duration
				decided := 0
				for b.Loop() {
					times, decided = times[:0], 0
					for _, bd := range boards {
						if x.Evaluate(bd).Winner != hex.Empty {
							decided++
						}
						best := time.Duration(math.MaxInt64)
						for r := 0; r < 3; r++ {
							t0 := clock()
							x.Evaluate(bd)
							best = min(best, clock()-t0)
						}
						times = append(times, best)
					}
				}
				b.ReportMetric(float64(stats.DurationQuantile(times, 0.5))/1e6, "median-ms")
				b.ReportMetric(float64(decided), "decided")
				b.ReportMetric(float64(len(boards)), "positions")
			})
		}
	}
}
