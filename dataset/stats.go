package dataset

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/stats"
	"gonum.org/v1/gonum/stat"
)

// Summary is a five-number-plus summary of a sample.
type Summary struct {
	N      int     `json:"n"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	Mean   float64 `json:"mean"`
	StdDev float64 `json:"sd"`
	P10    float64 `json:"p10"`
	Median float64 `json:"median"`
	P90    float64 `json:"p90"`
}

// summarize returns the summary of xs (sorted in place): population mean and
// standard deviation (gonum stat.PopMeanStdDev) and nearest-rank quantiles
// (internal/stats.Quantile).
func summarize(xs []float64) Summary {
	s := Summary{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	sort.Float64s(xs)
	s.Min, s.Max = xs[0], xs[len(xs)-1]
	s.Mean, s.StdDev = stat.PopMeanStdDev(xs, nil)
	s.P10, s.Median, s.P90 = stats.Quantile(xs, 0.1), stats.Quantile(xs, 0.5), stats.Quantile(xs, 0.9)
	return s
}

// Bin is one histogram bin [Lo, Hi) (the last bin includes Hi).
type Bin struct {
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	Count int     `json:"count"`
}

// Stats describes a dataset: what `hexlearn dataset stats` prints.
type Stats struct {
	Rows       int            `json:"rows"`
	Games      int            `json:"games"`
	Played     int            `json:"played"`     // rows that occurred in games (the rest were seen in searches only)
	Sizes      map[string]int `json:"sizes"`      // rows per board size "WxH"
	PerPly     map[int]int    `json:"per_ply"`    // rows per ply
	Duplicates int            `json:"duplicates"` // rows whose position occurred earlier
	Value      Summary        `json:"value"`
	ValueHist  []Bin          `json:"value_hist"`
	BlackVC    int            `json:"black_wins_vc"` // rows with a winning VC for Black
	WhiteVC    int            `json:"white_wins_vc"`
	BlackWins  int            `json:"black_won_game"` // rows from games Black won
	WhiteWins  int            `json:"white_won_game"`
	TrueKnown  int            `json:"true_winner_known"` // rows with a known game-theoretic winner
	Cost       Summary        `json:"cost_us"`           // over the rows with a measured cost (microseconds)
	CostTotal  float64        `json:"cost_total_us"`     // total measured cost, microseconds
}

// ComputeStats computes the statistics of t with a value histogram of bins bins.
func (t *Table) ComputeStats(bins int) Stats {
	st := Stats{Rows: len(t.Rows), Sizes: map[string]int{}, PerPly: map[int]int{}}
	games := map[uint64]struct{}{}
	vals := make([]float64, 0, len(t.Rows))
	var costs []float64
	for i := range t.Rows {
		e := &t.Rows[i]
		games[e.GameID] = struct{}{}
		st.Sizes[Size{e.Width, e.Height}.String()]++
		st.PerPly[e.Ply]++
		if e.Played {
			st.Played++
		}
		if !math.IsNaN(e.Value) {
			vals = append(vals, e.Value)
		}
		if e.BlackWinsVC {
			st.BlackVC++
		}
		if e.WhiteWinsVC {
			st.WhiteVC++
		}
		switch e.Winner {
		case hex.Black:
			st.BlackWins++
		case hex.White:
			st.WhiteWins++
		}
		if e.TrueWinner != hex.Empty {
			st.TrueKnown++
		}
		if e.CostUS != NoCost {
			costs = append(costs, float64(e.CostUS))
			st.CostTotal += float64(e.CostUS)
		}
	}
	st.Games = len(games)
	st.Duplicates = t.Duplicates()
	st.Value = summarize(vals)
	st.Cost = summarize(costs)
	if bins > 0 && len(vals) > 0 && !math.IsInf(st.Value.Min, 0) && !math.IsInf(st.Value.Max, 0) {
		lo, hi := st.Value.Min, st.Value.Max
		if hi == lo {
			hi = lo + 1
		}
		w := (hi - lo) / float64(bins)
		st.ValueHist = make([]Bin, bins)
		for i := range st.ValueHist {
			st.ValueHist[i] = Bin{Lo: lo + float64(i)*w, Hi: lo + float64(i+1)*w}
		}
		for _, v := range vals {
			k := int((v - lo) / w)
			if k >= bins {
				k = bins - 1
			}
			st.ValueHist[k].Count++
		}
	}
	return st
}

// WriteText prints the statistics for people.
func (st *Stats) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "rows %d  games %d  played %d  searched-only %d  duplicates %d (%.1f%%)\n",
		st.Rows, st.Games, st.Played, st.Rows-st.Played, st.Duplicates, pct(st.Duplicates, st.Rows))
	sizes := make([]string, 0, len(st.Sizes))
	for k := range st.Sizes {
		sizes = append(sizes, k)
	}
	sort.Strings(sizes)
	b.WriteString("sizes")
	for _, k := range sizes {
		fmt.Fprintf(&b, "  %s: %d", k, st.Sizes[k])
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "winning VC: black %d  white %d   game winner: black %d  white %d   true winner known %d\n",
		st.BlackVC, st.WhiteVC, st.BlackWins, st.WhiteWins, st.TrueKnown)
	v := st.Value
	fmt.Fprintf(&b, "value (Black's view): n %d  min %.4g  p10 %.4g  median %.4g  mean %.4g  p90 %.4g  max %.4g  sd %.4g\n",
		v.N, v.Min, v.P10, v.Median, v.Mean, v.P90, v.Max, v.StdDev)
	if len(st.ValueHist) > 0 {
		maxc := 0
		for _, h := range st.ValueHist {
			maxc = max(maxc, h.Count)
		}
		for _, h := range st.ValueHist {
			bar := 0
			if maxc > 0 {
				bar = h.Count * 40 / maxc
			}
			fmt.Fprintf(&b, "  [%8.3f, %8.3f) %7d %s\n", h.Lo, h.Hi, h.Count, strings.Repeat("#", bar))
		}
	}
	if st.Cost.N == 0 {
		b.WriteString("cost: not measured (selfplay --timings records it)\n")
	} else {
		c := st.Cost
		fmt.Fprintf(&b, "cost (µs): n %d  min %.0f  median %.0f  mean %.1f  p90 %.0f  max %.0f  total %.3f s\n",
			c.N, c.Min, c.Median, c.Mean, c.P90, c.Max, st.CostTotal/1e6)
	}
	b.WriteString("positions per ply:\n")
	plies := make([]int, 0, len(st.PerPly))
	for p := range st.PerPly {
		plies = append(plies, p)
	}
	sort.Ints(plies)
	for _, p := range plies {
		fmt.Fprintf(&b, "  ply %3d: %d\n", p, st.PerPly[p])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
