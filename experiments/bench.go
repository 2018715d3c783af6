package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/stats"
	"github.com/hexlearn/hexlearn/model"
	hexplayer "github.com/hexlearn/hexlearn/player"
)

// BenchGroups are the groups of the quick benchmark set, in the order they run.
var BenchGroups = []string{"vc", "circuit", "eval", "patterns", "search"}

// BenchConfig configures the quick benchmark set of 'hexlearn bench'.
type BenchConfig struct {
	Sizes     []int         // board sides (default 6 and 11; the vc group uses engine/vc's fixed positions on 8x8 and 11x11)
	Groups    []string      // subset of BenchGroups (default all)
	Positions int           // midgame positions per size (default 20)
	Time      time.Duration // time per measured item (default 300 ms)
	Seed      uint64
	Log       io.Writer // progress (nil: discarded)
	// BenzeneAll compares Benzene's 25/50 lists with Benzene's reference data too (the
	// vc group; minutes on 11x11), not only the default H-search.
	BenzeneAll bool
}

// BenchRow is one measured item. Ratio compares it with Baseline, measured in the same
// run: Ratio > 1 means this item is that many times faster than its baseline.
type BenchRow struct {
	Size     int
	Group    string
	Name     string
	PerOp    time.Duration // mean time per operation
	Median   time.Duration // median over positions, where measured per position
	P90      time.Duration
	Baseline string
	Ratio    float64
	Note     string
}

// midgamePositions returns n distinct undecided positions with cells/4..cells/2
// stones from seeded random games.
func midgamePositions(size, n int, seed uint64) []*hex.Board {
	cells := size * size
	return positions.Sampled(size, n, cells/4, max(1, cells/4), rand.NewPCG(seed, 0x6d6964))
}

// RandomModel returns a network of the paper's shape (cells-hidden-1, tanh) with
// seeded random weights: its speed is that of a trained network of the same shape.
func RandomModel(size, hidden int, seed uint64) *model.Model {
	rng := rand.New(rand.NewPCG(seed, 0x6e6574))
	cells := size * size
	n := model.Net{MinPly: 0, MaxPly: cells, Hidden: hidden, W1: make([]float32, cells*hidden),
		B1: make([]float32, hidden), W2: make([]float32, hidden)}
	for i := range n.W1 {
		n.W1[i] = float32(rng.NormFloat64() / math.Sqrt(float64(cells)))
	}
	for i := range n.W2 {
		n.W2[i] = float32(rng.NormFloat64() / math.Sqrt(float64(hidden)))
		n.B1[i] = float32(rng.NormFloat64() * 0.1)
	}
	return &model.Model{W: size, H: size, Target: model.TargetValue, Output: model.OutputTanh,
		Scaling: model.Scaling{Offset: 0, Scale: 1}, Nets: []model.Net{n}}
}

// timeIt runs op repeatedly for about d (at least once) and returns the mean time.
func timeIt(ctx context.Context, d time.Duration, op func()) time.Duration {
	n := 0
	start := time.Now()
	for {
		op()
		n++
		if el := time.Since(start); el >= d || ctx.Err() != nil {
			return el / time.Duration(n)
		}
	}
}

// perPosition times op on every position (repeating each for d/len) and returns the
// mean, median and 90th percentile.
func perPosition(ctx context.Context, d time.Duration, bs []*hex.Board, op func(b *hex.Board)) (mean, med, p90 time.Duration) {
	ts := make([]float64, 0, len(bs))
	each := d / time.Duration(max(1, len(bs)))
	var sum float64
	for _, b := range bs {
		t := timeIt(ctx, each, func() { op(b) })
		ts = append(ts, float64(t))
		sum += float64(t)
	}
	if len(ts) == 0 {
		return 0, 0, 0
	}
	return time.Duration(sum / float64(len(ts))), time.Duration(stats.QuantileOf(ts, 0.5)), time.Duration(stats.QuantileOf(ts, 0.9))
}

// Bench runs the quick benchmark set.
func Bench(ctx context.Context, cfg BenchConfig) ([]BenchRow, error) {
	cfg = cfg.withDefaults()
	for _, g := range cfg.Groups {
		if !contains(BenchGroups, g) {
			return nil, fmt.Errorf("%w: unknown benchmark group %q (known: %s)", ErrBadEnv, g, strings.Join(BenchGroups, ", "))
		}
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	var rows []BenchRow
	for _, size := range cfg.Sizes {
		if size < 2 || size > hex.MaxSize {
			return nil, fmt.Errorf("%w: benchmark size %d", ErrBadEnv, size)
		}
		bs := midgamePositions(size, cfg.Positions, cfg.Seed)
		for _, group := range cfg.Groups {
			if err := ctx.Err(); err != nil {
				return rows, err
			}
			fmt.Fprintf(cfg.Log, "bench %dx%d %s\n", size, size, group)
			var rs []BenchRow
			var err error
			switch group {
			case "vc":
				// The fixed positions of engine/vc/testdata where they exist (8x8, 11x11).
				vbs := bs
				if fixed, err := vc.BenchPositions(size); err == nil && len(fixed) > 0 {
					vbs = fixed
				}
				rs = benchVC(ctx, cfg, vbs)
				var brs []BenchRow
				brs, err = benchBenzene(ctx, size, cfg.BenzeneAll)
				rs = append(rs, brs...)
			case "circuit":
				rs, err = benchCircuit(ctx, cfg, bs)
			case "eval":
				rs, err = benchEval(ctx, cfg, size, bs)
			case "patterns":
				rs, err = benchPatterns(ctx, cfg, size)
			case "search":
				rs, err = benchSearch(ctx, cfg, size)
				if err == nil {
					var ps []BenchRow
					ps, err = benchPlayers(ctx, cfg, openPositions(size, cfg.Positions, cfg.Seed))
					rs = append(rs, ps...)
				}
			}
			if err != nil {
				return rows, fmt.Errorf("bench %s %dx%d: %w", group, size, size, err)
			}
			for i := range rs {
				rs[i].Size, rs[i].Group = size, group
			}
			rows = append(rows, rs...)
		}
	}
	return rows, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func benchVC(ctx context.Context, cfg BenchConfig, bs []*hex.Board) []BenchRow {
	var rows []BenchRow
	var hMean time.Duration
	for k, nc := range vcBenchConfigs() {
		c, name := nc.cfg, nc.name+", both colours"
		vb, vw := vc.NewBuilder(c), vc.NewBuilder(c)
		var full, semi int
		for _, b := range bs {
			_ = vb.Build(b, hex.Black)
			_ = vw.Build(b, hex.White)
			f1, s1 := vb.Counts()
			f2, s2 := vw.Counts()
			full += f1 + f2
			semi += s1 + s2
		}
		mean, med, p90 := perPosition(ctx, cfg.Time, bs, func(b *hex.Board) {
			_ = vb.Build(b, hex.Black)
			_ = vw.Build(b, hex.White)
		})
		row := BenchRow{Name: name, PerOp: mean, Median: med, P90: p90,
			Note: fmt.Sprintf("%d positions; %d VCs, %d SCs per position", len(bs), full/max(1, len(bs)), semi/max(1, len(bs)))}
		if k > 0 {
			row.Baseline, row.Ratio = "H-search", float64(hMean)/float64(mean)
		} else {
			hMean = mean
		}
		rows = append(rows, row)
	}
	return rows
}

// namedVC is an H-search configuration with its name in the benchmark tables.
type namedVC struct {
	name string
	cfg  vc.Config
}

// vcBenchConfigs are the configurations of the vc group: the default H-search,
// H-search with the FastVC rules (vc.FastVCConfig), H-search with Benzene's list
// sizes (25 VCs and 50 SCs per pair) and XH-search.
func vcBenchConfigs() []namedVC {
	big := vc.DefaultConfig()
	big.MaxFull, big.MaxSemi = 25, 50
	return []namedVC{{"H-search", vc.DefaultConfig()}, {"H-search, FastVC rules", vc.FastVCConfig()},
		{"H-search, Benzene's 25/50 lists", big}, {"XH-search", vc.XHConfig()}}
}

// benchBenzene compares the default H-search and the FastVC rules (with all, also
// Benzene's 25/50 lists; not XH-search) with Benzene's reference data on the held-out positions of the size
// (vc.BenzeneReference), one build per position and colour; no rows for a size
// without reference data.
func benchBenzene(ctx context.Context, size int, all bool) ([]BenchRow, error) {
	var rows []BenchRow
	n := 2
	if all {
		n = 3
	}
	for _, nc := range vcBenchConfigs()[:n] {
		r, err := CompareWithBenzene(ctx, size, vc.BenzeneHeldOut, nc.name, nc.cfg, 1)
		if errors.Is(err, vc.ErrNoReference) {
			return nil, nil
		}
		if err != nil {
			return rows, err
		}
		rows = append(rows, r.Row())
	}
	return rows, nil
}

func benchCircuit(ctx context.Context, cfg BenchConfig, bs []*hex.Board) ([]BenchRow, error) {
	var rows []BenchRow
	for _, s := range []circuit.Solver{circuit.DefaultConfig().Solver} {
		cc := circuit.DefaultConfig()
		cc.Solver = s
		c, err := circuit.New(cc)
		if err != nil {
			return nil, err
		}
		mean, med, p90 := perPosition(ctx, cfg.Time, bs, func(b *hex.Board) {
			_, _ = c.Solve(b, hex.Black, nil)
			_, _ = c.Solve(b, hex.White, nil)
		})
		rows = append(rows, BenchRow{Name: "circuit solve (" + s.String() + "), both colours, no VC links", PerOp: mean, Median: med, P90: p90})
	}
	return rows, nil
}

func benchEval(ctx context.Context, cfg BenchConfig, size int, bs []*hex.Board) ([]BenchRow, error) {
	ex, err := circuit.NewExact(circuit.SearchExactConfig())
	if err != nil {
		return nil, err
	}
	hidden := 30
	if size > 6 {
		hidden = 50
	}
	m := RandomModel(size, hidden, cfg.Seed)
	le, err := model.NewEvaluator(m, size, size)
	if err != nil {
		return nil, err
	}
	exMean, exMed, exP90 := perPosition(ctx, cfg.Time, bs, func(b *hex.Board) { ex.Evaluate(b) })
	scratch, _, _ := perPosition(ctx, cfg.Time, bs, func(b *hex.Board) { le.Evaluate(b) })
	// Incremental, as inside a search: play a stone, evaluate, undo.
	var incr time.Duration
	{
		var total time.Duration
		for _, b := range bs {
			cells := b.EmptyCells()
			list := cells.AppendCells(nil)
			le.Reset(b)
			c := b.ToMove()
			i := 0
			total += timeIt(ctx, cfg.Time/time.Duration(max(1, len(bs))), func() {
				p := list[i%len(list)]
				i++
				b.PlayStone(c, p)
				le.Play(c, p)
				le.Evaluate(b)
				b.Undo()
				le.Undo(c, p)
			})
		}
		incr = total / time.Duration(max(1, len(bs)))
	}
	// One random playout to the end, as the learned MCTS runs from a node it expands.
	po := search.NewPlayouts(cfg.Seed)
	poMean, poMed, poP90 := perPosition(ctx, cfg.Time, bs, func(b *hex.Board) { po.Run(b, 1) })
	shape := fmt.Sprintf("%d-%d-1", size*size, hidden)
	return []BenchRow{
		{Name: "exact evaluation (H-search + circuits)", PerOp: exMean, Median: exMed, P90: exP90},
		{Name: "learned evaluation " + shape + ", from scratch", PerOp: scratch, Baseline: "exact evaluation", Ratio: float64(exMean) / float64(scratch)},
		{Name: "learned evaluation " + shape + ", incremental play+eval+undo", PerOp: incr, Baseline: "exact evaluation", Ratio: float64(exMean) / float64(incr)},
		{Name: "random playout to the end (bridge answers)", PerOp: poMean, Median: poMed, P90: poP90, Baseline: "exact evaluation", Ratio: float64(exMean) / float64(max(poMean, 1)),
			Note: fmt.Sprintf("%.0f playouts/s", 1/math.Max(poMean.Seconds(), 1e-12))},
	}, nil
}

// benchPatterns fills a database from the winning connections of random positions and
// times containment queries against a linear scan of the same patterns.
func benchPatterns(ctx context.Context, cfg BenchConfig, size int) ([]BenchRow, error) {
	db, err := patterns.New(size, size)
	if err != nil {
		return nil, err
	}
	ex, err := circuit.NewExact(circuit.SearchExactConfig())
	if err != nil {
		return nil, err
	}
	// Late positions have winning connections; their patterns fill the database.
	g := hex.MustGeometry(size, size)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x706174))
	cells := make([]hex.Cell, g.N)
	deadline := time.Now().Add(4 * cfg.Time)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		for i := range cells {
			cells[i] = hex.Cell(i)
		}
		rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		b := hex.NewBoardGeometry(g)
		for i := 0; i < g.N && b.Winner() == hex.Empty; i++ {
			b.PlayStone(b.ToMove(), cells[i])
			if i < g.N/3 {
				continue
			}
			a, err := ex.Analyse(b)
			if err != nil {
				return nil, err
			}
			if a.BlackVC {
				_, _ = db.AddWin(b, hex.Black, a.BlackCarrier)
				break
			}
		}
	}
	queries := randomPositions(size, 200, cfg.Seed+1)
	hits := 0
	for _, q := range queries {
		if db.MatchBlack(q) {
			hits++
		}
	}
	entries := db.Entries()
	tree := timeIt(ctx, cfg.Time, func() {
		for _, q := range queries {
			db.MatchBlack(q)
		}
	}) / time.Duration(len(queries))
	scan := timeIt(ctx, cfg.Time, func() {
		for _, q := range queries {
			bl, wh := q.Stones(hex.Black), q.Stones(hex.White)
			for i := range entries {
				if entries[i].Matches(&bl, &wh) {
					break
				}
			}
		}
	}) / time.Duration(len(queries))
	note := fmt.Sprintf("%s, %d/%d queries matched", db.Size(), hits, len(queries))
	return []BenchRow{
		{Name: "linear scan of the patterns (Black query)", PerOp: scan, Note: note},
		{Name: "LB-tree containment query (Black query)", PerOp: tree, Baseline: "linear scan", Ratio: float64(scan) / float64(tree), Note: note},
	}, nil
}

func benchSearch(ctx context.Context, cfg BenchConfig, size int) ([]BenchRow, error) {
	hidden := 30
	if size > 6 {
		hidden = 50
	}
	le, err := model.NewEvaluator(RandomModel(size, hidden, cfg.Seed), size, size)
	if err != nil {
		return nil, err
	}
	ex, err := circuit.NewExact(circuit.SearchExactConfig())
	if err != nil {
		return nil, err
	}
	var rows []BenchRow
	var exactRate float64
	tac, err := circuit.NewTacticsFill(circuit.SearchExactConfig().VC, circuit.SearchExactConfig().FillIn)
	if err != nil {
		return nil, err
	}
	for _, e := range []struct {
		name    string
		ev      search.Evaluator
		vcPlies int
	}{{"exact", ex, 0}, {"learned", le, 0}, {"learned + H-search proofs", le, hexplayer.LearnedVCPlies}} {
		s, err := search.New(e.ev, search.Params{Depth: search.MaxDepth, K: 10, Time: 2 * cfg.Time, TTBits: 18, VCPlies: e.vcPlies})
		if err != nil {
			return nil, err
		}
		note := ""
		if e.vcPlies > 0 {
			s.SetTactics(tac)
			note = fmt.Sprintf(", proofs on %d plies (--search alphabeta)", e.vcPlies)
		}
		o, err := s.Search(ctx, hex.MustBoard(size, size))
		if err != nil {
			return nil, err
		}
		rate := float64(o.Nodes) / math.Max(o.Time.Seconds(), 1e-9)
		row := BenchRow{Name: "alpha-beta search, " + e.name + " evaluator (k = 10)", PerOp: time.Duration(float64(time.Second) / math.Max(rate, 1e-9)),
			Note: fmt.Sprintf("%.0f nodes/s, depth %d in %.2f s%s", rate, o.Depth, o.Time.Seconds(), note)}
		if e.name == "exact" {
			exactRate = rate
		} else {
			row.Baseline, row.Ratio = "exact search", rate/math.Max(exactRate, 1e-9)
		}
		rows = append(rows, row)
	}
	// The learned player's search: MCTS over the learned value with the potential
	// ordering as priors and H-search near the root.
	ord, err := model.NewOrdering(le, model.OrderPotential)
	if err != nil {
		return nil, err
	}
	mp := search.DefaultMCTSParams()
	mp.Time = 2 * cfg.Time
	m, err := search.NewMCTS(ord, tac, mp)
	if err != nil {
		return nil, err
	}
	o, err := m.Search(ctx, hex.MustBoard(size, size))
	if err != nil {
		return nil, err
	}
	rate := float64(o.Nodes) / math.Max(o.Time.Seconds(), 1e-9)
	rows = append(rows, BenchRow{Name: "MCTS, learned evaluator + H-search, 8x8 parameters", PerOp: time.Duration(float64(time.Second) / math.Max(rate, 1e-9)),
		Baseline: "exact search", Ratio: rate / math.Max(exactRate, 1e-9),
		Note: fmt.Sprintf("%.0f expansions/s, deepest ply %d in %.2f s, %d H-search calls", rate, o.Depth, o.Time.Seconds(), o.Tactics)})
	return rows, nil
}

// openPositions returns n seeded midgame positions (as midgamePositions) that the
// players' H-search (with fill-in and the edge templates) leaves undecided, where a
// search has something to do; fewer if 20n samples hold fewer.
func openPositions(size, n int, seed uint64) []*hex.Board {
	cfg := circuit.SearchExactConfig()
	cfg.FillIn, cfg.VC.EdgeTemplates = true, true
	ex, err := circuit.NewExact(cfg)
	if err != nil {
		return nil
	}
	var open []*hex.Board
	for _, b := range midgamePositions(size, 20*n, seed) {
		if len(open) < n && b.Winner() == hex.Empty && ex.Evaluate(b).Winner == hex.Empty {
			open = append(open, b)
		}
	}
	return open
}

// benchPlayers measures the players as hexlearn gtp builds them (player.Settings with
// the time per move, built-in model, book and solver included) on the positions bs,
// one genmove each for the side to move: the search's nodes per second (for the
// learned player's MCTS, expansions), median depth (MCTS: the deepest ply reached)
// and H-search calls per second (the exact player's evaluations, the learned
// player's tactics), over the moves a search made (the others came from the book or
// the solver first; where the solver ran first and did not decide, the search had
// the rest of the time, a quarter by default).
//
// Each player is measured twice: with the default connections, then with the FastVC
// rules (hexlearn gtp --fastvc, vc.FastVCConfig). A player whose every move came from
// the book or the solver gets no row. The learned row's ratio compares its expansions
// per second with the exact player's nodes per second; a --fastvc row's compares its
// rate with the same player's with the default connections.
func benchPlayers(ctx context.Context, cfg BenchConfig, bs []*hex.Board) ([]BenchRow, error) {
	if len(bs) == 0 {
		return nil, nil // H-search decides every sampled position (tiny boards)
	}
	var rows []BenchRow
	var exactRate float64
	defaultRate := map[hexplayer.Kind]float64{}
	for _, pl := range []struct {
		kind hexplayer.Kind
		fast bool
	}{{hexplayer.Exact, false}, {hexplayer.Learned, false}, {hexplayer.Exact, true}, {hexplayer.Learned, true}} {
		kind := pl.kind
		p, err := hexplayer.New(hexplayer.Settings{Kind: hexplayer.Set(kind), Time: hexplayer.Set(cfg.Time), FastVC: hexplayer.Set(pl.fast)}, hexplayer.Options{})
		if err != nil {
			return nil, err
		}
		var nodes, tactics, children, playouts int64
		var spent time.Duration
		var depths []int
		mcts := false
		for _, b := range bs {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			d, err := p.Decide(ctx, b, false)
			if err != nil {
				return nil, err
			}
			if st := d.Outcome.Stats; d.Searched {
				hs := st.Tactics
				if kind == hexplayer.Exact {
					hs = st.Evals
				}
				nodes, tactics, playouts, spent = nodes+st.Nodes, tactics+hs, playouts+st.Playouts, spent+st.Time
				children += st.TacticsAnchored
				depths = append(depths, st.Depth)
				mcts = mcts || p.Searches() == hexplayer.SearchMCTS
			}
		}
		if len(depths) == 0 || nodes == 0 {
			continue // every move came from the book or the solver: no search to measure
		}
		sec := math.Max(spent.Seconds(), 1e-9)
		rate := float64(nodes) / sec
		flag := ""
		if pl.fast {
			flag = " --fastvc"
		}
		row := BenchRow{Name: fmt.Sprintf("%s player (hexlearn gtp%s), %s per move", kind, flag, cfg.Time), PerOp: time.Duration(float64(time.Second) / math.Max(rate, 1e-9))}
		what := "nodes"
		if mcts {
			what = "expansions"
		}
		calls := fmt.Sprintf("%.0f H-search calls/s", float64(tactics)/sec)
		if children > 0 {
			calls += fmt.Sprintf(" (%.0f/s updating the root's connections for a child)", float64(children)/sec)
		}
		row.Note = fmt.Sprintf("%.0f %s/s, median depth %d, %s; %d of %d moves searched",
			rate, what, medianInt(depths), calls, len(depths), len(bs))
		if len(depths) < len(bs) {
			row.Note += " (the rest: book or solver)"
		}

		if playouts > 0 {
			row.Note += fmt.Sprintf("; %.0f playouts/s", float64(playouts)/sec)
		}
		switch {
		case pl.fast && defaultRate[kind] > 0:
			row.Baseline, row.Ratio = fmt.Sprintf("%s player", kind), rate/defaultRate[kind]
		case pl.fast:
		case kind == hexplayer.Exact:
			exactRate = rate
		case exactRate > 0:
			row.Baseline, row.Ratio = "exact player", rate/math.Max(exactRate, 1e-9)
		}
		if !pl.fast {
			defaultRate[kind] = rate
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// medianInt is the median of v (0 for none).
func medianInt(v []int) int {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// WriteBenchTable prints rows as an aligned text table.
func WriteBenchTable(w io.Writer, rows []BenchRow) {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Size < rows[j].Size })
	fmt.Fprintf(w, "%-5s %-9s %-62s %12s %12s %12s  %s\n", "board", "group", "item", "per op", "median", "p90", "ratio / note")
	for _, r := range rows {
		note := strings.TrimSpace(strings.Join([]string{benchRatio(r), r.Note}, "; "))
		note = strings.Trim(note, "; ")
		fmt.Fprintf(w, "%-5s %-9s %-62s %12s %12s %12s  %s\n", fmt.Sprintf("%dx%d", r.Size, r.Size), r.Group, r.Name,
			fmtDur(r.PerOp), fmtDur(r.Median), fmtDur(r.P90), note)
	}
}

func fmtDur(d time.Duration) string {
	switch {
	case d == 0:
		return "-"
	case d < time.Microsecond:
		return fmt.Sprintf("%d ns", d.Nanoseconds())
	case d < time.Millisecond:
		return fmt.Sprintf("%.2f µs", float64(d.Nanoseconds())/1e3)
	default:
		return fmt.Sprintf("%.3f ms", float64(d.Nanoseconds())/1e6)
	}
}
