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
