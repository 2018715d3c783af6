// Package benchutil is the timing harness of the project's micro-benchmarks: a
// per-thread CPU clock (ThreadClock) and the H-search measurements behind the vc
// figures (MeasureVC: Build over fixed positions; MeasurePlay: the incremental
// update against a rebuild along random games). Quantiles come from internal/stats.
package benchutil

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// wallClock returns a clock reading the wall time since the call.
func wallClock() func() time.Duration {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }
}

// lockedClock returns ThreadClock's clock, locking the calling goroutine to its
// thread when the clock is a thread CPU clock; unlock undoes that.
func lockedClock() (clock func() time.Duration, cpu bool, unlock func()) {
	clock, cpu = ThreadClock()
	if !cpu {
		return clock, false, func() {}
	}
	runtime.LockOSThread()
	return clock, true, runtime.UnlockOSThread
}

// VCStats summarises H-search builds over a set of positions.
type VCStats struct {
	Positions int           // positions measured
	Median    time.Duration // median time per position (both colours when both)
	P90       time.Duration // 90th percentile
	Mean      time.Duration // mean
	CPU       bool          // times are thread CPU times (Linux), not wall-clock times
	Full      float64       // mean number of VCs per position (summed over colours)
	Semi      float64       // mean number of SCs per position
	Wins      int           // positions where a built colour has a winning VC
}

// MeasureVC builds every position with cfg (both colours when both is true, else
// the side to move) reps times and reports the per-position times (the minimum over
// reps) and counts. It reuses one vc.Builder, as the engine does.
func MeasureVC(boards []*hex.Board, cfg vc.Config, both bool, reps int) (VCStats, error) {
	if err := cfg.Validate(); err != nil {
		return VCStats{}, err
	}
	reps = max(reps, 1)
	bl := vc.NewBuilder(cfg)
	var st VCStats
	clock, cpu, unlock := lockedClock()
	defer unlock()
	st.CPU = cpu
	times := make([]time.Duration, 0, len(boards))
	for _, b := range boards {
		cols := []hex.Color{b.ToMove()}
		if both {
			cols = []hex.Color{hex.Black, hex.White}
		}
		best := time.Duration(1<<63 - 1)
		for r := 0; r < reps; r++ {
			t0 := clock()
			for _, c := range cols {
				if err := bl.Build(b, c); err != nil {
					return st, err
				}
			}
			best = min(best, clock()-t0)
		}
		for _, c := range cols {
			if err := bl.Build(b, c); err != nil {
				return st, err
			}
			f, s := bl.Counts()
			st.Full += float64(f)
			st.Semi += float64(s)
			if w, _ := bl.WinningVC(); w {
				st.Wins++
			}
		}
		times = append(times, best)
	}
	st.Positions = len(boards)
	if len(times) == 0 {
		return st, nil
	}
	var sum time.Duration
	for _, d := range times {
		sum += d
	}
	st.Median, st.P90 = stats.DurationQuantile(times, 0.5), stats.DurationQuantile(times, 0.9)
	st.Mean = sum / time.Duration(len(times))
	st.Full /= float64(len(boards))
	st.Semi /= float64(len(boards))
	return st, nil
}

// String formats the statistics on one line.
func (s VCStats) String() string {
	return fmt.Sprintf("positions %d median %.3fms p90 %.3fms mean %.3fms (%s) full %.0f semi %.0f wins %d",
		s.Positions, ms(s.Median), ms(s.P90), ms(s.Mean), clockName(s.CPU), s.Full, s.Semi, s.Wins)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func clockName(cpu bool) string {
	if cpu {
		return "cpu"
	}
	return "wall"
}

// PlayStats compares the incremental update (vc.Builder.Play) with a rebuild
// (Build) per move along random games; times are for both colours.
type PlayStats struct {
	Games       int           // games played
	Moves       int           // moves measured
	PlayMedian  time.Duration // median time of Play (both colours' Builders) per move
	PlayP90     time.Duration // 90th percentile of Play
	BuildMedian time.Duration // median time of Build (both colours) of the same positions
	BuildP90    time.Duration // 90th percentile of Build
	PlayTotal   time.Duration // total Play time over all moves
	BuildTotal  time.Duration // total Build time over all moves
	Rebuilds    int           // Plays that fell back to a rebuild (see vc.Builder.Play)
	CPU         bool          // times are thread CPU times (Linux), not wall-clock times
}

// MeasurePlay plays games random games on a size x size board from seed (colours
// alternate, until a side has won) and times, after every move, Play on two Builders
// that follow the game (one per colour) and a fresh Build of both colours.
func MeasurePlay(size, games int, cfg vc.Config, seed uint64) (PlayStats, error) {
	if err := cfg.Validate(); err != nil {
		return PlayStats{}, err
	}
	g, err := hex.NewGeometry(size, size)
	if err != nil {
		return PlayStats{}, fmt.Errorf("benchutil: %w", err)
	}
	clock, cpu, unlock := lockedClock()
	defer unlock()
	st := PlayStats{Games: games, CPU: cpu}
	r := rand.New(rand.NewPCG(seed, 0x706c6179))
	inc := [2]*vc.Builder{vc.NewBuilder(cfg), vc.NewBuilder(cfg)}
	fresh := vc.NewBuilder(cfg)
	cols := [2]hex.Color{hex.Black, hex.White}
	var pt, bt []time.Duration
	cells := make([]hex.Cell, g.N)
	for n := 0; n < games; n++ {
		b := hex.NewBoardGeometry(g)
		for i := range cells {
			cells[i] = hex.Cell(i)
		}
		r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		for k, c := range cols {
			if err := inc[k].Build(b, c); err != nil {
				return st, err
			}
		}
		col := hex.Black
		for _, p := range cells {
			b.PlayStone(col, p)
			col = col.Opp()
			t0 := clock()
			for k := range inc {
				before := inc[k].Rebuilds()
				if err := inc[k].Play(b, p); err != nil {
					return st, err
				}
				st.Rebuilds += inc[k].Rebuilds() - before
			}
			t1 := clock()
			for _, c := range cols {
				if err := fresh.Build(b, c); err != nil {
					return st, err
				}
			}
			t2 := clock()
			pt = append(pt, t1-t0)
			bt = append(bt, t2-t1)
			st.PlayTotal += t1 - t0
			st.BuildTotal += t2 - t1
			if b.Winner() != hex.Empty {
				break
			}
		}
	}
	st.Moves = len(pt)
	st.PlayMedian, st.PlayP90 = stats.DurationQuantile(pt, 0.5), stats.DurationQuantile(pt, 0.9)
	st.BuildMedian, st.BuildP90 = stats.DurationQuantile(bt, 0.5), stats.DurationQuantile(bt, 0.9)
	return st, nil
}

// String formats the statistics on one line.
func (s PlayStats) String() string {
	return fmt.Sprintf("games %d moves %d: Play median %.3fms p90 %.3fms, Build median %.3fms p90 %.3fms (%s); total %.2fx faster; %d Plays rebuilt",
		s.Games, s.Moves, ms(s.PlayMedian), ms(s.PlayP90), ms(s.BuildMedian), ms(s.BuildP90), clockName(s.CPU),
		float64(s.BuildTotal)/float64(max(s.PlayTotal, 1)), s.Rebuilds)
}
