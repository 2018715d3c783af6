package vc

import (
	"bufio"
	"embed"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

//go:embed testdata/bench8.txt testdata/bench11.txt
var benchFS embed.FS

// BenchPositions returns the fixed benchmark positions for board size 8 or 11
// (testdata/benchN.txt: midgame positions of random games, 30–50 moves on 11x11 and
// 16–28 on 8x8, with no winner yet; made by GenerateBenchPositions with seed 1).
func BenchPositions(size int) ([]*hex.Board, error) {
	if size != 8 && size != 11 {
		return nil, fmt.Errorf("vc: no benchmark positions for size %d (have 8 and 11)", size)
	}
	name := fmt.Sprintf("testdata/bench%d.txt", size)
	data, err := benchFS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("vc: %v", err)
	}
	return ParseBenchPositions(size, string(data))
}

// ParseBenchPositions reads one position per line ("a1 b2 ..." moves from the empty
// size x size board, Black first); blank lines and lines starting with # are skipped.
func ParseBenchPositions(size int, text string) ([]*hex.Board, error) {
	var out []*hex.Board
	sc := bufio.NewScanner(strings.NewReader(text))
	ln := 0
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		b, err := hex.ParsePosition(size, size, line)
		if err != nil {
			return nil, fmt.Errorf("vc: benchmark line %d: %v", ln, err)
		}
		out = append(out, b)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("vc: benchmark positions: %v", err)
	}
	return out, nil
}

// GenerateBenchPositions plays n random games on a size x size board from seed and
// returns, for each, the move list after a random number of moves in [lo, hi] at which
// neither side has won yet, in the format ParseBenchPositions reads.
func GenerateBenchPositions(size, n, lo, hi int, seed uint64) ([]string, error) {
	g, err := hex.NewGeometry(size, size)
	if err != nil {
		return nil, err
	}
	if lo < 0 || hi < lo || hi > g.N {
		return nil, fmt.Errorf("vc: bad move range %d..%d for %dx%d", lo, hi, size, size)
	}
	r := rand.New(rand.NewPCG(seed, 0x7663))
	var out []string
	for len(out) < n {
		b := hex.NewBoardGeometry(g)
		cells := make([]hex.Cell, g.N)
		for i := range cells {
			cells[i] = hex.Cell(i)
		}
		r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		k := lo + r.IntN(hi-lo+1)
		col := hex.Black
		for i := 0; i < k; i++ {
			b.PlayStone(col, cells[i])
			col = col.Opp()
		}
		if b.Winner() != hex.Empty {
			continue
		}
		out = append(out, g.FormatMoves(b.Moves()))
	}
	return out, nil
}

// BenchStats summarises builds over a set of positions.
type BenchStats struct {
	Positions int           // positions measured
	Median    time.Duration // median time per position (both colours when Both)
	P90       time.Duration // 90th percentile
	Mean      time.Duration // mean
	CPU       bool          // times are thread CPU times (Linux), not wall-clock times
	Full      float64       // mean number of VCs per position (summed over colours)
	Semi      float64       // mean number of SCs per position
	Wins      int           // positions where a built colour has a winning VC
}

// Measure builds every position with cfg (both colours when both is true, else the
// side to move) reps times and reports the per-position times (the minimum over reps)
// and counts. It reuses one Builder, as the engine does.
func Measure(boards []*hex.Board, cfg Config, both bool, reps int) (BenchStats, error) {
	if err := cfg.Validate(); err != nil {
		return BenchStats{}, err
	}
	if reps < 1 {
		reps = 1
	}
	bl := NewBuilder(cfg)
	var st BenchStats
	clock, isCPU := threadClock()
	st.CPU = isCPU
	if isCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
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
			if d := clock() - t0; d < best {
				best = d
			}
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
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	st.Median = times[len(times)/2]
	st.P90 = times[(len(times)*9)/10]
	if i := (len(times) * 9) / 10; i >= len(times) {
		st.P90 = times[len(times)-1]
	}
	st.Mean = sum / time.Duration(len(times))
	st.Full /= float64(len(boards))
	st.Semi /= float64(len(boards))
	return st, nil
}

// String formats the statistics on one line.
func (s BenchStats) String() string {
	clock := "wall"
	if s.CPU {
		clock = "cpu"
	}
	return "positions " + strconv.Itoa(s.Positions) +
		fmt.Sprintf(" median %.3fms p90 %.3fms mean %.3fms (%s) full %.0f semi %.0f wins %d",
			ms(s.Median), ms(s.P90), ms(s.Mean), clock, s.Full, s.Semi, s.Wins)
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// PlayStats compares the incremental update (Play) with a rebuild (Build) per move
// along random games; times are for both colours.
type PlayStats struct {
	Games       int           // games played
	Moves       int           // moves measured
	PlayMedian  time.Duration // median time of Play (both colours' Builders) per move
	PlayP90     time.Duration // 90th percentile of Play
	BuildMedian time.Duration // median time of Build (both colours) of the same positions
	BuildP90    time.Duration // 90th percentile of Build
	PlayTotal   time.Duration // total Play time over all moves
	BuildTotal  time.Duration // total Build time over all moves
	Rebuilds    int           // Plays that fell back to a rebuild (see Builder.Play)
	CPU         bool          // times are thread CPU times (Linux), not wall-clock times
}

// MeasurePlay plays games random games on a size x size board from seed (colours
// alternate, until a side has won) and times, after every move, Play on two Builders
// that follow the game (one per colour) and a fresh Build of both colours.
func MeasurePlay(size, games int, cfg Config, seed uint64) (PlayStats, error) {
	if err := cfg.Validate(); err != nil {
		return PlayStats{}, err
	}
	g, err := hex.NewGeometry(size, size)
	if err != nil {
		return PlayStats{}, err
	}
	clock, isCPU := threadClock()
	if isCPU {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	st := PlayStats{Games: games, CPU: isCPU}
	r := rand.New(rand.NewPCG(seed, 0x706c6179))
	inc := [2]*Builder{NewBuilder(cfg), NewBuilder(cfg)}
	fresh := NewBuilder(cfg)
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
				before := inc[k].rebuilds
				if err := inc[k].Play(b, p); err != nil {
					return st, err
				}
				st.Rebuilds += inc[k].rebuilds - before
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
	st.PlayMedian, st.PlayP90 = quantiles(pt)
	st.BuildMedian, st.BuildP90 = quantiles(bt)
	return st, nil
}

// quantiles returns the median and the 90th percentile of ts (sorted in place).
func quantiles(ts []time.Duration) (med, p90 time.Duration) {
	if len(ts) == 0 {
		return 0, 0
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i] < ts[j] })
	return ts[len(ts)/2], ts[min((len(ts)*9)/10, len(ts)-1)]
}

// String formats the statistics on one line.
func (s PlayStats) String() string {
	clock := "wall"
	if s.CPU {
		clock = "cpu"
	}
	return fmt.Sprintf("games %d moves %d: Play median %.3fms p90 %.3fms, Build median %.3fms p90 %.3fms (%s); total %.2fx faster; %d Plays rebuilt",
		s.Games, s.Moves, ms(s.PlayMedian), ms(s.PlayP90), ms(s.BuildMedian), ms(s.BuildP90), clock,
		float64(s.BuildTotal)/float64(max(s.PlayTotal, 1)), s.Rebuilds)
}
