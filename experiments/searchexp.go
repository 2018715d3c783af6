package experiments

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/report"
	"github.com/hexlearn/hexlearn/model"
	hexplayer "github.com/hexlearn/hexlearn/player"
)

func init() {
	add(&Experiment{
		Name:  "3-firstmove",
		Title: "time for the first move, learned vs exact search at the same depth",
		Paper: "0.57 s (learned) vs 47.28 s (exact) on 6x6; 44.26 s at depth 3 (learned) vs 87.64 s at depth 1 (exact) on 11x11.",
		Run:   runFirstMove,
	})
	add(&Experiment{
		Name:  "4-prove",
		Title: "proving the empty board a first-player win with the learned search and the pattern database",
		Paper: "the empty 6x6 board proved a first-player win by a depth-3 search with the pattern database in 18.2 s and 1,389 nodes.",
		Run:   runProve,
	})
	add(&Experiment{
		Name:  "5-center",
		Title: "the first move chosen at depth 3",
		Paper: "on 11x11 the depth-3 learned search opens in the centre.",
		Run:   runCenter,
	})
	add(&Experiment{
		Name:  "6-depth",
		Title: "depth reached at equal time, learned vs exact",
		Paper: "the learned evaluator's speed buys depth: depth 3 in the time the exact evaluator needs for depth 1 on 11x11.",
		Run:   runDepth,
	})
	add(&Experiment{
		Name:  "8-patterns",
		Title: "pattern-database lookups during search: hit rate and time",
		Paper: "average lookups of 15 ms (6x6) and 100 ms (11x11) in the LB-tree.",
		Run:   runPatternLookups,
	})
}

// searcher is the project's player searching by alpha-beta with the limits p over
// one of the experiments' evaluators (the paper compares the evaluators inside the
// same search), with a description.
type searcher struct {
	name string
	pl   *hexplayer.Player
	term *search.WithTerminal // nil without a pattern database
}

// search returns the searcher's outcome on b.
func (s *searcher) search(ctx context.Context, b *hex.Board) (search.Outcome, error) {
	d, err := s.pl.Decide(ctx, b, false)
	return d.Outcome, err
}

// newSearcher returns the searcher with limits p over ev.
func newSearcher(name string, ev search.Evaluator, p search.Params) (*searcher, error) {
	pl, err := hexplayer.New(hexplayer.SearchSettings(p), hexplayer.Options{Evaluator: ev})
	if err != nil {
		return nil, err
	}
	return &searcher{name: name, pl: pl}, nil
}

func (env *Env) learnedPlayer(p search.Params, withPatterns bool) (*searcher, error) {
	le, err := model.NewEvaluator(env.Model, env.Size, env.Size)
	if err != nil {
		return nil, err
	}
	if !withPatterns || env.Patterns == nil {
		return newSearcher("learned", le, p)
	}
	term := &search.WithTerminal{Inner: le, Term: env.Patterns}
	s, err := newSearcher("learned+patterns", term, p)
	if s != nil {
		s.term = term
	}
	return s, err
}

func (env *Env) exactPlayer(p search.Params) (*searcher, error) {
	ex, err := circuit.NewExact(env.Exact)
	if err != nil {
		return nil, err
	}
	return newSearcher("exact", ex, p)
}

func emptyBoard(size int) *hex.Board { return hex.MustBoard(size, size) }

func outcomeRow(name string, b *hex.Board, o search.Outcome) []string {
	return []string{name, fmt.Sprint(o.Depth), b.Geometry().CellName(o.Move), fmt.Sprintf("%.3f", o.Time.Seconds()),
		fmt.Sprint(o.Nodes), fmt.Sprint(o.Evals), decidedFor(o.Winner), fmt.Sprint(o.TimedOut)}
}

// verdict says what a search proved: "decided for black" or "undecided".
func verdict(c hex.Color) string {
	if c == hex.Empty {
		return "undecided"
	}
	return "decided for " + c.String()
}

// decidedFor names the colour a search proved to win, or "undecided".
func decidedFor(c hex.Color) string {
	if c == hex.Empty {
		return "undecided"
	}
	return c.String()
}

var outcomeHeader = []string{"player", "depth", "move", "seconds", "nodes", "evaluations", "decided for", "timed out"}

func runFirstMove(ctx context.Context, env *Env, r *report.Report) error {
	if env.Model == nil {
		return ErrNeedModel
	}
	p := search.Params{Depth: env.Depth, K: env.K, TTBits: 18}
	lp, err := env.learnedPlayer(p, false)
	if err != nil {
		return err
	}
	ep, err := env.exactPlayer(p)
	if err != nil {
		return err
	}
	b := emptyBoard(env.Size)
	var rows [][]string
	var secs [2]float64
	for i, pl := range []*searcher{lp, ep} {
		o, err := pl.search(ctx, b)
		if err != nil {
			return err
		}
		secs[i] = o.Time.Seconds()
		rows = append(rows, outcomeRow(pl.name, b, o))
		env.logf("  %s: %s at depth %d in %.2f s (%d nodes)", pl.name, b.Geometry().CellName(o.Move), o.Depth, o.Time.Seconds(), o.Nodes)
	}
	r.Printf("First move from the empty board, depth %d, k = %d, both searches identical but for the evaluator.\n\n", env.Depth, env.K)
	if err := r.Table("firstmove", outcomeHeader, rows); err != nil {
		return err
	}
	r.Printf("Learned search is %.1fx faster than exact search at the same depth.\n", secs[1]/math.Max(secs[0], 1e-9))
	return barPlot(r, "firstmove", "first-move search time", "seconds", []report.Bar{{Label: "learned", Value: secs[0]}, {Label: "exact", Value: secs[1]}}, 0)
}

func runProve(ctx context.Context, env *Env, r *report.Report) error {
	if env.Model == nil {
		return ErrNeedModel
	}
	if env.Patterns == nil {
		return ErrNeedPatterns
	}
	p := search.Params{Depth: env.Depth, K: env.K, RootK: hex.MaxCells, TTBits: 18}
	lp, err := env.learnedPlayer(p, true)
	if err != nil {
		return err
	}
	lp.term.Timed = true
	b := emptyBoard(env.Size)
	o, err := lp.search(ctx, b)
	if err != nil {
		return err
	}
	rows := [][]string{outcomeRow(lp.name, b, o)}
	// The exact player proves with circuit.ProofExactConfig (20 VCs and 30 SCs per pair).
	proof := *env
	proof.Exact = circuit.ProofExactConfig()
	ep, err := proof.exactPlayer(p)
	if err != nil {
		return err
	}
	oe, err := ep.search(ctx, b)
	if err != nil {
		return err
	}
	rows = append(rows, outcomeRow("exact (winning VCs, M = 20 VCs, 30 SCs)", b, oe))
	r.Printf("Depth-%d search from the empty board, every first move searched, k = %d below the root. A position is decided when the pattern database (learned player) or a winning virtual connection (exact player) says so. \"Decided for black\" means Black wins in every line searched (the k-best limit makes this a proof only relative to the replies searched, as in the paper).\n\n", env.Depth, env.K)
	if err := r.Table("prove", outcomeHeader, rows); err != nil {
		return err
	}
	st := lp.term.Stats
	r.Printf("Pattern database: %s; %d probes, %d hits (%.1f%%), %.2f µs per lookup.\n", env.Patterns.Size(), st.Probes, st.Hits,
		100*float64(st.Hits)/math.Max(1, float64(st.Probes)), float64(st.Time.Nanoseconds())/1e3/math.Max(1, float64(st.Probes)))
	env.logf("  learned+patterns: %s in %.2f s, %d nodes; exact: %s in %.2f s, %d nodes",
		verdict(o.Winner), o.Time.Seconds(), o.Nodes, verdict(oe.Winner), oe.Time.Seconds(), oe.Nodes)
	return barPlot(r, "prove", "time to classify the empty board", "seconds",
		[]report.Bar{{Label: "learned+patterns", Value: o.Time.Seconds()}, {Label: "exact", Value: oe.Time.Seconds()}}, 0)
}

func runCenter(ctx context.Context, env *Env, r *report.Report) error {
	if env.Model == nil {
		return ErrNeedModel
	}
	lp, err := env.learnedPlayer(search.Params{Depth: env.Depth, K: env.K, RootK: hex.MaxCells, TTBits: 20}, true)
	if err != nil {
		return err
	}
	b := emptyBoard(env.Size)
	o, err := lp.search(ctx, b)
	if err != nil {
		return err
	}
	g := b.Geometry()
	x, y := g.XY(o.Move)
	c := float64(env.Size-1) / 2
	dist := hexDistance(x, y, int(math.Round(c)), int(math.Round(c)))
	if err := r.Table("center", outcomeHeader, [][]string{outcomeRow(lp.name, b, o)}); err != nil {
		return err
	}
	r.Printf("The first move is %s, %d cells from the centre %s.\n", g.CellName(o.Move), dist, g.CellName(g.At(int(c), int(c))))
	env.logf("  first move %s (%d from the centre) in %.1f s", g.CellName(o.Move), dist, o.Time.Seconds())
	return nil
}

// hexDistance is the distance between two cells on the hex grid.
func hexDistance(x1, y1, x2, y2 int) int {
	dx, dy := x2-x1, y2-y1
	if (dx >= 0) == (dy >= 0) {
		return max(abs(dx), abs(dy)) + min(abs(dx), abs(dy))
	}
	return max(abs(dx), abs(dy))
}

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func runDepth(ctx context.Context, env *Env, r *report.Report) (err error) {
	if env.Model == nil {
		return ErrNeedModel
	}
	// Only open positions are compared: where the exact evaluator already sees a winning
	// connection its search ends at once, which says nothing about speed.
	ex, err := circuit.NewExact(env.Exact)
	if err != nil {
		return err
	}
	n := min(env.Positions, 50)
	positions := []*hex.Board{emptyBoard(env.Size)}
	for _, b := range randomPositions(env.Size, 4*n, env.Seed) {
		if len(positions) > n {
			break
		}
		a, err := ex.Analyse(b)
		if err != nil {
			return err
		}
		if a.Winner == hex.Empty {
			positions = append(positions, b)
		}
	}
	n = len(positions) - 1
	p := search.Params{Depth: search.MaxDepth, K: env.K, Time: env.Time, TTBits: 18}
	lp, err := env.learnedPlayer(p, false)
	if err != nil {
		return err
	}
	ep, err := env.exactPlayer(p)
	if err != nil {
		return err
	}
	var rows [][]string
	var sum, sumSq [2]float64
	bar := env.progress("depth", len(positions), "position")
	defer func() { bar.Done(err) }()
	for i, b := range positions {
		bar.Set(int64(i))
		var d [2]int
		for j, pl := range []*searcher{lp, ep} {
			o, err := pl.search(ctx, b)
			if err != nil {
				return err
			}
			d[j] = o.Depth
			sum[j] += float64(o.Depth)
			sumSq[j] += float64(o.Depth * o.Depth)
		}
		rows = append(rows, []string{fmt.Sprint(i), fmt.Sprint(b.NumStones()), fmt.Sprint(d[0]), fmt.Sprint(d[1])})
	}
	r.Printf("Iterative deepening with %v per search (k = %d) on the empty board and %d random positions that the exact evaluator does not see decided (no winning connection); depth of the last completed iteration. The learned search runs without the pattern database, so neither search stops early on a win.\n\n", env.Time, env.K, n)
	if err := r.Table("depth", []string{"position", "stones", "learned depth", "exact depth"}, rows); err != nil {
		return err
	}
	k := float64(len(positions))
	r.Printf("Mean depth: learned %.2f, exact %.2f.\n", sum[0]/k, sum[1]/k)
	env.logf("  mean depth at %v: learned %.2f, exact %.2f", env.Time, sum[0]/k, sum[1]/k)
	bars := make([]report.Bar, 2)
	for j, name := range []string{"learned", "exact"} {
		lo, hi := meanCI(sum[j], sumSq[j], k)
		bars[j] = report.Bar{Label: name, Value: sum[j] / k}.WithInterval(lo, hi)
	}
	return barPlot(r, "depth", "mean depth reached at equal time (95% CI)", "depth (plies)", bars, 0)
}

func runPatternLookups(ctx context.Context, env *Env, r *report.Report) (err error) {
	if env.Model == nil {
		return ErrNeedModel
	}
	if env.Patterns == nil {
		return ErrNeedPatterns
	}
	n := min(env.Positions, 20)
	positions := append([]*hex.Board{emptyBoard(env.Size)}, randomPositions(env.Size, n, env.Seed)...)
	lp, err := env.learnedPlayer(search.Params{Depth: env.Depth, K: env.K, TTBits: 18}, true)
	if err != nil {
		return err
	}
	lp.term.Timed = true
	var rows [][]string
	bar := env.progress("pattern lookups", len(positions), "position")
	defer func() { bar.Done(err) }()
	for i, b := range positions {
		bar.Set(int64(i))
		before := lp.term.Stats
		t := time.Now()
		o, err := lp.search(ctx, b)
		if err != nil {
			return err
		}
		st := lp.term.Stats
		probes, hits := st.Probes-before.Probes, st.Hits-before.Hits
		rows = append(rows, []string{fmt.Sprint(i), fmt.Sprint(b.NumStones()), fmt.Sprint(probes), fmt.Sprint(hits),
			fmt.Sprintf("%.2f", float64((st.Time-before.Time).Nanoseconds())/1e3/math.Max(1, float64(probes))),
			fmt.Sprintf("%.3f", time.Since(t).Seconds()), decidedFor(o.Winner)})
	}
	st := lp.term.Stats
	r.Printf("Depth-%d learned searches (k = %d) with the pattern database as terminal test, on the empty board and %d random positions. Database: %s.\n\n",
		env.Depth, env.K, n, env.Patterns.Size())
	if err := r.Table("pattern_lookups", []string{"position", "stones", "probes", "hits", "µs per lookup", "search s", "decided for"}, rows); err != nil {
		return err
	}
	us := float64(st.Time.Nanoseconds()) / 1e3 / math.Max(1, float64(st.Probes))
	r.Printf("Overall: %d probes, hit rate %.2f%%, %.2f µs per lookup.\n", st.Probes, 100*float64(st.Hits)/math.Max(1, float64(st.Probes)), us)
	env.logf("  %d probes, %d hits, %.2f µs per lookup", st.Probes, st.Hits, us)
	return nil
}

// meanCI returns the normal-approximation 95% confidence interval of the mean of n
// values with sum s and sum of squares sq.
func meanCI(s, sq, n float64) (lo, hi float64) {
	m := s / n
	if n < 2 {
		return m, m
	}
	sd := math.Sqrt(math.Max(0, (sq-n*m*m)/(n-1)))
	half := 1.96 * sd / math.Sqrt(n)
	return m - half, m + half
}

// barPlot saves a bar chart (y axis labelled ylabel, reaching at least yMax) and
// links it into the summary.
func barPlot(r *report.Report, name, title, ylabel string, bars []report.Bar, yMax float64) error {
	p, err := report.Bars(title, ylabel, bars, yMax)
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, name); err != nil {
		return err
	}
	r.Image(name, title)
	return nil
}
