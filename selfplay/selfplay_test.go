package selfplay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/player"
)

// toyEval is a cheap deterministic evaluator: stones near the middle row count for
// Black, near the middle column for White; a finished chain decides. It counts its
// calls and the distinct boards it saw.
type toyEval struct {
	calls int64
}

func (t *toyEval) Evaluate(b *hex.Board) search.Result {
	atomic.AddInt64(&t.calls, 1)
	if w := b.Winner(); w != hex.Empty {
		if w == hex.Black {
			return search.Result{Value: 10, Winner: w}
		}
		return search.Result{Value: -10, Winner: w}
	}
	g := b.Geometry()
	v := 0.0
	for c := hex.Cell(0); int(c) < g.N; c++ {
		x, y := g.XY(c)
		switch b.At(c) {
		case hex.Black:
			v += 1 / (1 + math.Abs(float64(x)-float64(g.W-1)/2))
		case hex.White:
			v -= 1 / (1 + math.Abs(float64(y)-float64(g.H-1)/2))
		}
	}
	return search.Result{Value: v}
}

// trackingToy adds the Tracker hooks, checking that the search keeps them in step.
type trackingToy struct {
	toyEval
	stones int
	bad    bool
}

func (t *trackingToy) Reset(b *hex.Board)           { t.stones = b.NumStones() }
func (t *trackingToy) Play(c hex.Color, p hex.Cell) { t.stones++ }
func (t *trackingToy) Undo(c hex.Color, p hex.Cell) { t.stones-- }
func (t *trackingToy) Evaluate(b *hex.Board) search.Result {
	if t.stones != b.NumStones() {
		t.bad = true
	}
	return t.toyEval.Evaluate(b)
}

func toyConfig(w, h int) Config {
	return Config{
		Width: w, Height: h, Mode: ModeSelf, Games: 6,
		Search: search.Params{Depth: 2, K: 4}, Opening: 2, Seed: 5, Shards: 1,
		GamesPerFile:  4,
		NewEvaluator:  func() (search.Evaluator, error) { return &toyEval{}, nil },
		EvaluatorInfo: map[string]string{"evaluator": "toy"},
	}
}

// dirBytes returns the concatenated bytes of the files of dir in name order.
func dirBytes(t *testing.T, dir string) []byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
		b, _ := os.ReadFile(filepath.Join(dir, e.Name()))
		out = append(out, []byte(e.Name())...)
		out = append(out, b...)
	}
	return out
}

func TestDeterministicAcrossWorkers(t *testing.T) {
	base := t.TempDir()
	var ref []byte
	for _, workers := range []int{1, 3} {
		cfg := toyConfig(5, 5)
		cfg.Workers = workers
		dir := filepath.Join(base, "w", string(rune('0'+workers)))
		res, err := Run(context.Background(), dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 6 || len(res.Files) != 2 {
			t.Fatalf("workers %d: %+v", workers, res)
		}
		got := dirBytes(t, dir)
		if ref == nil {
			ref = got
		} else if !bytes.Equal(ref, got) {
			t.Fatal("output depends on the number of workers")
		}
	}
	cfg := toyConfig(5, 5)
	cfg.Seed = 6
	dir := filepath.Join(base, "other")
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(dirBytes(t, dir), ref) {
		t.Fatal("a different seed gave the same data")
	}
}

func TestShardsUnionEqualsUnsharded(t *testing.T) {
	base := t.TempDir()
	cfg := toyConfig(4, 4)
	cfg.Games = 7
	cfg.Mode = ModeMixed
	if _, err := Run(context.Background(), filepath.Join(base, "all"), cfg); err != nil {
		t.Fatal(err)
	}
	whole, err := dataset.ReadPath(filepath.Join(base, "all"), nil)
	if err != nil {
		t.Fatal(err)
	}
	games := 0
	for i := 0; i < 3; i++ {
		c := cfg
		c.Shard, c.Shards = i, 3
		res, err := Run(context.Background(), filepath.Join(base, "sharded"), c)
		if err != nil {
			t.Fatal(err)
		}
		games += res.Games
	}
	if games != 7 {
		t.Fatalf("shards played %d games", games)
	}
	parts, err := dataset.ReadPath(filepath.Join(base, "sharded"), nil)
	if err != nil {
		t.Fatal(err)
	}
	key := func(rows []dataset.Example) []string {
		var ks []string
		for _, e := range rows {
			ks = append(ks, strings.Join([]string{
				string(rune(e.GameID)), string(i8(e.Cells)), string(rune(e.ToMove)),
				string(rune(int(e.Value * 1000))), string(rune(e.Winner)), boolS(e.Played)}, "|"))
		}
		sort.Strings(ks)
		return ks
	}
	a, b := key(whole.Rows), key(parts.Rows)
	if len(a) != len(b) {
		t.Fatalf("unsharded %d rows, shards %d rows", len(a), len(b))
	}
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("row sets differ at %d", i)
		}
	}
}

func i8(c []int8) []byte {
	b := make([]byte, len(c))
	for i, v := range c {
		b[i] = byte(v + 1)
	}
	return b
}

func boolS(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func TestPositionsTarget(t *testing.T) {
	cfg := toyConfig(5, 5)
	cfg.Games, cfg.Positions = 0, 333
	cfg.Workers = 2
	dir := t.TempDir()
	res, err := Run(context.Background(), dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := dataset.ReadPath(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 333 || tab.Len() != 333 {
		t.Fatalf("wrote %d rows (%d read), want 333", res.Rows, tab.Len())
	}
	// Shard shares add up to the target.
	total := int64(0)
	for i := 0; i < 4; i++ {
		c := cfg
		c.Shard, c.Shards = i, 4
		total += c.shardPositions()
	}
	if total != 333 {
		t.Fatalf("shard shares sum to %d", total)
	}
}

// TestRecordsEveryEvaluation checks the paper's "every evaluated board": every board
// the evaluator saw in a game appears exactly once among that game's rows, the game
// positions are marked played, and a tracking evaluator keeps its hooks.
func TestRecordsEveryEvaluation(t *testing.T) {
	inner := &trackingToy{}
	rec := NewRecorder(inner, false)
	wrapped := rec.Wrap()
	if _, ok := wrapped.(search.Tracker); !ok {
		t.Fatal("Wrap lost the Tracker hooks")
	}
	if _, ok := wrapped.(search.Orderer); ok {
		t.Fatal("Wrap invented an Orderer")
	}
	seen := map[uint64]bool{}
	spy := &spyEval{inner: wrapped, seen: seen}
	s, err := search.New(struct {
		*spyEval
		search.Tracker
	}{spy, inner}, search.Params{Depth: 3, K: 5})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := hex.ParsePosition(5, 5, "c3 b4")
	rec.StartGame(9)
	inner.Reset(b)
	rec.EvaluatePlayed(b)
	seen[b.Hash()] = true
	if _, err := s.Search(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	rows := rec.finish(hex.Black)
	if len(rows) != len(seen) || len(rows) < 20 {
		t.Fatalf("%d rows for %d distinct evaluated boards", len(rows), len(seen))
	}
	for i, e := range rows {
		if !seen[e.Hash] || e.GameID != 9 || e.Winner != hex.Black {
			t.Fatalf("row %d: %+v", i, e)
		}
		if (i == 0) != e.Played {
			t.Fatalf("row %d played=%v", i, e.Played)
		}
		if err := e.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	if inner.bad {
		t.Fatal("tracker out of step")
	}
}

type spyEval struct {
	inner search.Evaluator
	seen  map[uint64]bool
}

func (s *spyEval) Evaluate(b *hex.Board) search.Result {
	s.seen[b.Hash()] = true
	return s.inner.Evaluate(b)
}

func TestCancelLeavesWholeFiles(t *testing.T) {
	cfg := toyConfig(6, 6)
	cfg.Games = 1000
	cfg.GamesPerFile = 3
	cfg.Workers = 2
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Meter = &cancelMeter{Meter: progress.Or(nil), after: 8, cancel: cancel}
	dir := t.TempDir()
	_, err := Run(ctx, dir, cfg)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) < 2 {
		t.Fatalf("%d files kept", len(ents))
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("temporary file left: %s", e.Name())
		}
		tab, err := dataset.ReadFile(filepath.Join(dir, e.Name()), nil)
		if err != nil {
			t.Fatal(err)
		}
		games := map[uint64]bool{}
		for _, r := range tab.Rows {
			games[r.GameID] = true
		}
		if len(games) != 3 {
			t.Fatalf("%s holds %d games, want 3", e.Name(), len(games))
		}
	}
}

func TestModes(t *testing.T) {
	for _, m := range []string{"self", "random", "mixed"} {
		mode, err := ParseMode(m)
		if err != nil || mode.String() != m {
			t.Fatalf("mode %s: %v", m, err)
		}
		cfg := toyConfig(4, 4)
		cfg.Mode = mode
		cfg.Temperature, cfg.TempPlies = 0.5, 2
		dir := t.TempDir()
		if _, err := Run(context.Background(), dir, cfg); err != nil {
			t.Fatal(err)
		}
		tab, err := dataset.ReadPath(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		st := tab.ComputeStats(0)
		if st.Games != 6 || st.BlackWins+st.WhiteWins != st.Rows {
			t.Fatalf("%s: %+v", m, st)
		}
	}
	if _, err := ParseMode("both"); !errors.Is(err, ErrConfig) {
		t.Fatal("bad mode accepted")
	}
}

func TestConfigErrors(t *testing.T) {
	tests := []struct {
		name string
		edit func(c *Config)
	}{
		{"both counts", func(c *Config) { c.Positions = 5 }},
		{"no count", func(c *Config) { c.Games = 0 }},
		{"shard out of range", func(c *Config) { c.Shard, c.Shards = 3, 3 }},
		{"size", func(c *Config) { c.Width = 0 }},
		{"time limit", func(c *Config) { c.Search.Time = 1 }},
		{"depth", func(c *Config) { c.Search.Depth = 0 }},
		{"no evaluator", func(c *Config) { c.NewEvaluator = nil }},
	}
	for _, tc := range tests {
		c := toyConfig(3, 3)
		tc.edit(&c)
		if _, err := Run(context.Background(), t.TempDir(), c); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: got %v", tc.name, err)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	if n, src, ok, err := ShardFromEnv(env(map[string]string{"JOB_COMPLETION_INDEX": "3", "SLURM_ARRAY_TASK_ID": "5"})); n != 3 || !ok || err != nil || src != "JOB_COMPLETION_INDEX" {
		t.Fatalf("k8s: %d %v %v", n, ok, err)
	}
	if n, _, ok, _ := ShardFromEnv(env(map[string]string{"SLURM_ARRAY_TASK_ID": "5"})); n != 5 || !ok {
		t.Fatal("slurm")
	}
	if _, _, ok, _ := ShardFromEnv(env(nil)); ok {
		t.Fatal("empty env")
	}
	if _, _, _, err := ShardFromEnv(env(map[string]string{"SLURM_ARRAY_TASK_ID": "x"})); !errors.Is(err, ErrConfig) {
		t.Fatal("bad value accepted")
	}
}

// TestExactAdapter plays a few 4x4 games with the real exact evaluator and checks the
// rows it records: resistances present, value sign consistent with them, proved
// winners recorded as true winners.
func TestExactAdapter(t *testing.T) {
	cfg := toyConfig(4, 4)
	cfg.Games = 2
	cfg.Search = search.Params{Depth: 1, K: 4}
	cfg.NewEvaluator = func() (search.Evaluator, error) { return NewExact(circuit.SearchExactConfig()) }
	dir := t.TempDir()
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	tab, err := dataset.ReadPath(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range tab.Rows {
		if math.IsNaN(e.RBlack) || math.IsNaN(e.RWhite) {
			t.Fatalf("row %d: resistances missing", i)
		}
		if e.TrueWinner == hex.Empty {
			want := math.Log(e.RWhite / e.RBlack)
			if math.Abs(e.Value-want) > 1e-9 && !math.IsInf(want, 0) && e.RBlack > 0 && e.RWhite > 0 {
				t.Fatalf("row %d: value %v, ln(R_W/R_B) = %v", i, e.Value, want)
			}
		} else if (e.TrueWinner == hex.Black) != (e.Value > 0) {
			t.Fatalf("row %d: proved winner %v with value %v", i, e.TrueWinner, e.Value)
		}
		if e.BlackWinsVC && e.TrueWinner != hex.Black || e.WhiteWinsVC && e.TrueWinner != hex.White {
			t.Fatalf("row %d: VC flag without the proved winner", i)
		}
	}
	if tab.Len() < 10 {
		t.Fatalf("only %d rows", tab.Len())
	}
}

// orderToy is an Orderer that insists MoveScores concerns the board it evaluated last.
type orderToy struct {
	toyEval
	last     uint64
	mismatch int
	scored   int
}

func (o *orderToy) Evaluate(b *hex.Board) search.Result {
	o.last = b.Hash()
	return o.toyEval.Evaluate(b)
}

func (o *orderToy) MoveScores(b *hex.Board, scores []float64) {
	o.scored++
	if b.Hash() != o.last {
		o.mismatch++
	}
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		scores[p] = float64(p % 7)
	}
}

// TestCacheKeepsOrderer checks that answering repeated boards from the recorder's
// cache never leaves an Orderer scoring a board it did not evaluate last, and that the
// cache saves inner evaluations.
func TestCacheKeepsOrderer(t *testing.T) {
	inner := &orderToy{}
	rec := NewRecorder(inner, false)
	s, err := search.New(rec.Wrap(), search.Params{Depth: 4, K: 4})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := hex.ParsePosition(5, 5, "c3")
	rec.StartGame(1)
	out, err := s.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if inner.mismatch != 0 || inner.scored == 0 {
		t.Fatalf("%d of %d MoveScores calls on a board not evaluated last", inner.mismatch, inner.scored)
	}
	if rec.Evals() > out.Evals {
		t.Fatalf("the cache costs evaluations: %d inner evaluations for %d search evaluations", rec.Evals(), out.Evals)
	}
	t.Logf("search asked %d evaluations, the evaluator performed %d, %d rows", out.Evals, rec.Evals(), len(rec.rows))
}

// TestSolverLabels labels every row of a 4x4 game with the solver and cross-checks
// the exact evaluator's proofs against the solver's answers.
func TestSolverLabels(t *testing.T) {
	cfg := toyConfig(4, 4)
	cfg.Games = 1
	cfg.NewLabeler = func() func(context.Context, *hex.Board) (hex.Color, bool, error) { return SolverLabeler(0) }
	dir := t.TempDir()
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	tab, err := dataset.ReadPath(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range tab.Rows {
		if e.TrueWinner == hex.Empty {
			t.Fatalf("row %d unlabelled", i)
		}
	}
	// The exact evaluator's proofs agree with the solver.
	cfg.NewEvaluator = func() (search.Evaluator, error) { return NewExact(circuit.SearchExactConfig()) }
	cfg.Search = search.Params{Depth: 1, K: 3}
	cfg.NewLabeler = nil
	dir2 := t.TempDir()
	if _, err := Run(context.Background(), dir2, cfg); err != nil {
		t.Fatal(err)
	}
	tab2, err := dataset.ReadPath(dir2, nil)
	if err != nil {
		t.Fatal(err)
	}
	lab := SolverLabeler(0)
	checked := 0
	for i, e := range tab2.Rows {
		if e.TrueWinner == hex.Empty {
			continue
		}
		b, _ := e.Board()
		w, ok, err := lab(context.Background(), b)
		if err != nil || !ok || w != e.TrueWinner {
			t.Fatalf("row %d: evaluator proved %v, solver says %v (%v, %v)\n%s", i, e.TrueWinner, w, ok, err, b)
		}
		checked++
	}
	t.Logf("%d proofs of the exact evaluator confirmed by the solver", checked)
}

// TestPositionsMode checks ModePositions: one played row per game, from 1 to cells/2
// stones with alternate colours and no finished chain, labelled by the solver (checked
// against brute force), the same rows for any number of workers, and a spread of
// stone counts like experiment 9's positions.
func TestPositionsMode(t *testing.T) {
	var ref []byte
	for _, workers := range []int{1, 2} {
		cfg := toyConfig(4, 4)
		cfg.Mode, cfg.Games, cfg.Workers = ModePositions, 40, workers
		cfg.NewLabeler = func() func(context.Context, *hex.Board) (hex.Color, bool, error) { return SolverLabeler(0) }
		dir := t.TempDir()
		res, err := Run(context.Background(), dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if res.Games != 40 || res.Rows != 40 {
			t.Fatalf("%+v: want 40 games of one row", res)
		}
		got := dirBytes(t, dir)
		if ref != nil {
			if !bytes.Equal(ref, got) {
				t.Fatal("positions depend on the number of workers")
			}
			continue
		}
		ref = got
		tab, err := dataset.ReadPath(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		plies := map[int]bool{}
		for i, e := range tab.Rows {
			b, err := e.Board()
			if err != nil {
				t.Fatal(err)
			}
			nb, nw := b.Stones(hex.Black).Count(), b.Stones(hex.White).Count()
			if !e.Played || e.Ply < 1 || e.Ply > 8 || nb-nw < 0 || nb-nw > 1 || b.Winner() != hex.Empty {
				t.Fatalf("row %d: played %v, %d black and %d white stones, winner %v\n%s", i, e.Played, nb, nw, b.Winner(), b)
			}
			if e.Winner != hex.Empty {
				t.Fatalf("row %d: a game result %v for a position with no game", i, e.Winner)
			}
			if want := bruteWinner(b, map[uint64]hex.Color{}); e.TrueWinner != want {
				t.Fatalf("row %d: true winner %v, brute force %v\n%s", i, e.TrueWinner, want, b)
			}
			plies[e.Ply] = true
		}
		if len(plies) < 6 {
			t.Fatalf("stone counts %v: want most of 1..8", plies)
		}
	}
	if m, err := ParseMode("positions"); err != nil || m != ModePositions || m.String() != "positions" {
		t.Fatalf("ParseMode(positions) = %v, %v", m, err)
	}
}

// bruteWinner returns the winner of b with perfect play, by exhaustive search with
// the positions solved so far in memo.
func bruteWinner(b *hex.Board, memo map[uint64]hex.Color) hex.Color {
	if w := b.Winner(); w != hex.Empty {
		return w
	}
	if w, ok := memo[b.Hash()]; ok {
		return w
	}
	x := b.ToMove()
	win := x.Opp()
	empty := b.EmptyCells()
	for c := empty.First(); c != hex.NoCell; c = empty.Next(c + 1) {
		b.PlayStone(x, c)
		w := bruteWinner(b, memo)
		b.Undo()
		if w == x {
			win = x
			break
		}
	}
	memo[b.Hash()] = win
	return win
}

// cancelMeter cancels a run after a number of progress reports.
type cancelMeter struct {
	progress.Meter
	after  int
	n      int
	cancel func()
}

func (m *cancelMeter) Set(int64) {
	if m.n++; m.n == m.after {
		m.cancel()
	}
}

// logMeter records a run's progress reports.
type logMeter struct {
	start          string // "part/total/unit"
	sets, lastSet  int64
	count          int64
	countUnit      string
	dones          int
	err            error
	decreasingSets bool
}

func (m *logMeter) Start(part string, total int64, unit string) {
	m.start = fmt.Sprintf("%s/%d/%s", part, total, unit)
}
func (m *logMeter) Set(d int64) {
	if d < m.lastSet {
		m.decreasingSets = true
	}
	m.sets++
	m.lastSet = d
}
func (m *logMeter) Count(n int64, unit string) { m.count, m.countUnit = n, unit }
func (m *logMeter) Done(err error)             { m.dones++; m.err = err }

// TestMeter: a run reports one part through its Meter: this shard's games (counting
// the rows beside them) or rows (counting the games), one report per game written.
func TestMeter(t *testing.T) {
	for _, tc := range []struct {
		games, shard, shards int
		positions            int64
		start, countUnit     string
	}{
		{games: 6, shards: 1, start: "/6/game", countUnit: "position"},
		{games: 7, shard: 1, shards: 3, start: "/2/game", countUnit: "position"},
		{positions: 50, shards: 1, start: "/50/position", countUnit: "game"},
		{positions: 50, shard: 1, shards: 3, start: "/17/position", countUnit: "game"},
	} {
		cfg := toyConfig(4, 4)
		cfg.Games, cfg.Positions, cfg.Shard, cfg.Shards = tc.games, tc.positions, tc.shard, tc.shards
		m := &logMeter{}
		cfg.Meter = m
		res, err := Run(context.Background(), t.TempDir(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		done, count := int64(res.Games), res.Rows
		if tc.positions > 0 {
			done, count = res.Rows, int64(res.Games)
		}
		if m.start != tc.start || m.sets != int64(res.Games) || m.lastSet != done || m.decreasingSets ||
			m.count != count || m.countUnit != tc.countUnit || m.dones != 1 || m.err != nil {
			t.Errorf("%+v: meter %+v, result %+v", tc, m, res)
		}
	}
}

// playerConfig is ModePlayer on w x w boards with the built-in learned player at
// expansions per move (no book, no solver, no time limit).
func playerConfig(t *testing.T, w, expansions int) Config {
	t.Helper()
	cfg := toyConfig(w, w)
	cfg.Mode = ModePlayer
	cfg.NewEvaluator = func() (search.Evaluator, error) { return NewExact(circuit.DefaultExactConfig()) }
	cfg.NewPlayer = func() (*player.Player, error) {
		var s player.Settings
		for _, kv := range [][2]string{{"expansions", fmt.Sprint(expansions)}, {"time", "0"}, {"book", "none"}, {"solve-share", "0"}} {
			if err := s.Set(kv[0], kv[1]); err != nil {
				return nil, err
			}
		}
		return player.New(s, player.Options{})
	}
	return cfg
}

// TestPlayerMode: the player's games record only their positions, each with the
// exact evaluator's fields and the targets of the player's search (a value in [-1, 1]
// from Black's point of view, visit shares on the empty cells summing to 1) wherever
// the player searched; the output does not depend on the number of workers; the
// explored moves follow the seed.
func TestPlayerMode(t *testing.T) {
	base := t.TempDir()
	var ref []byte
	for _, workers := range []int{1, 2} {
		cfg := playerConfig(t, 5, 60)
		cfg.Games, cfg.Workers, cfg.TempPlies = 4, workers, 4
		dir := filepath.Join(base, fmt.Sprint(workers))
		if _, err := Run(context.Background(), dir, cfg); err != nil {
			t.Fatal(err)
		}
		got := dirBytes(t, dir)
		if ref == nil {
			ref = got
		} else if !bytes.Equal(ref, got) {
			t.Fatal("the player's games depend on the number of workers")
		}
		tab, err := dataset.ReadPath(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		searched := 0
		for i, e := range tab.Rows {
			if !e.Played || e.Winner == hex.Empty {
				t.Fatalf("row %d: played %v, winner %v: ModePlayer records the games' positions", i, e.Played, e.Winner)
			}
			if e.Search == nil {
				continue
			}
			searched++
			if !(e.Search.Value >= -1 && e.Search.Value <= 1) || e.Search.Policy == nil && e.Search.Value > -1 && e.Search.Value < 1 {
				t.Fatalf("row %d: search targets %+v", i, e.Search)
			}
		}
		if searched < len(tab.Rows)/3 {
			t.Fatalf("%d of %d rows have search targets", searched, len(tab.Rows))
		}
	}
	cfg := playerConfig(t, 5, 60)
	cfg.Games, cfg.TempPlies, cfg.Seed = 4, 4, 99
	dir := filepath.Join(base, "seed99")
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(dirBytes(t, dir), ref) {
		t.Error("another seed gave the same games")
	}
	cfg = playerConfig(t, 5, 60)
	cfg.NewPlayer = nil
	if _, err := Run(context.Background(), filepath.Join(base, "x"), cfg); !errors.Is(err, ErrConfig) {
		t.Errorf("player mode without a player: %v", err)
	}
}
