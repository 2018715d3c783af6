package loop

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// tinyConfig is a loop on 5x5 small enough for a test.
func tinyConfig() Config {
	c := DefaultConfig(5)
	c.Games, c.Shards, c.Expansions, c.Explore = 6, 2, 20, 2
	c.Train = TrainConfig{Hidden: 6, Epochs: 2, LearnRate: 0.003, SearchMix: 0.5, Rotate: true}
	c.Gate = GateConfig{Time: 5 * time.Millisecond, MaxGames: 4, MinGames: 2, Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05}
	c.Generations, c.MaxIterations, c.Workers = 1, 2, 2
	return c
}

// TestLoopRunsAndResumes: a tiny loop writes its state, the self-play shards with the
// search's targets, a candidate that records where it came from, the gates and the
// report; run again it does nothing new (everything is done), and a directory of
// another configuration is refused.
func TestLoopRunsAndResumes(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig()
	st, err := Run(context.Background(), dir, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Iterations) == 0 || len(st.Generations) == 0 || st.Generations[0].Model != "gen-000.model" {
		t.Fatalf("state %+v", st)
	}
	it := st.Iterations[0]
	if !allDone(it.Shards) || it.Games != cfg.Games || it.Rows == 0 || it.Candidate == "" || it.Gate == nil || !it.Gate.Done {
		t.Fatalf("iteration 0: %+v", it)
	}
	var tab dataset.Table
	for k := 0; k < cfg.Shards; k++ {
		t1, err := dataset.ReadPath(shardDir(dir, 0, k), nil)
		if err != nil {
			t.Fatal(err)
		}
		tab.Rows = append(tab.Rows, t1.Rows...)
	}
	searched := 0
	for _, r := range tab.Rows {
		if r.Search != nil {
			searched++
		}
	}
	if searched == 0 || int64(len(tab.Rows)) != it.Rows {
		t.Fatalf("%d rows (state %d), %d with search targets", len(tab.Rows), it.Rows, searched)
	}
	cand, err := model.ReadFile(filepath.Join(dir, it.Candidate))
	if err != nil {
		t.Fatal(err)
	}
	if cand.Target != model.TargetSearch || cand.Provenance.Loop == nil || cand.Provenance.Loop.Parent != 0 || cand.Provenance.Loop.ParentHash != st.Generations[0].Hash {
		t.Fatalf("candidate %s, provenance %+v", cand.Target, cand.Provenance.Loop)
	}
	for _, g := range st.Generations[1:] {
		m, err := model.ReadFile(filepath.Join(dir, g.Model))
		if err != nil || m.Provenance.Loop.Generation != g.Index || m.Provenance.Loop.Gate == "" {
			t.Fatalf("generation %d: %v %+v", g.Index, err, m.Provenance.Loop)
		}
	}
	for _, f := range []string{"loop.json", "report/README.md", "report/elo.png", "report/iterations.csv"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	before, _ := os.ReadFile(filepath.Join(dir, "loop.json"))
	if _, err := Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(filepath.Join(dir, "loop.json"))
	if string(before) != string(after) {
		t.Error("a finished loop did more work when run again")
	}
	other := cfg
	other.Games = 8
	if _, err := Run(context.Background(), dir, other); !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), "another configuration") {
		t.Errorf("another configuration: %v", err)
	}
}

// TestLoopFirstCandidateDeterministic: the same seed gives the same first candidate,
// byte for byte (self-play at a fixed number of expansions, seeded training); another
// seed another one.
func TestLoopFirstCandidateDeterministic(t *testing.T) {
	cand := func(seed uint64) string {
		dir := t.TempDir()
		cfg := tinyConfig()
		cfg.Seed, cfg.MaxIterations = seed, 1
		cfg.Gate.MaxGames, cfg.Gate.MinGames = 2, 2
		if _, err := Run(context.Background(), dir, cfg); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(iterDir(dir, 0), "candidate.model"))
		if err != nil {
			t.Fatal(err)
		}
		return hashOf(data)
	}
	a, b := cand(3), cand(3)
	if a != b {
		t.Fatal("the same seed gave two first candidates")
	}
	if cand(4) == a {
		t.Error("another seed gave the same first candidate")
	}
}

// TestLoopDeterministicWithGateExpansions: with the gate at a fixed number of
// expansions per move the whole loop follows from the seed: two runs give the same
// gate games and the same generations, byte for byte.
func TestLoopDeterministicWithGateExpansions(t *testing.T) {
	run := func() (string, []Generation) {
		dir := t.TempDir()
		cfg := tinyConfig()
		cfg.Gate.Time, cfg.Gate.Expansions = 0, 16
		cfg.Generations, cfg.MaxIterations = 2, 2
		st, err := Run(context.Background(), dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var games []GameRecord
		for _, it := range st.Iterations {
			if it.Gate == nil || !it.Gate.Done {
				t.Fatalf("iteration %d: gate not done", it.Index)
			}
			games = append(games, it.Gate.Games...)
		}
		data, err := json.Marshal(games)
		if err != nil {
			t.Fatal(err)
		}
		return string(data), st.Generations
	}
	g1, gens1 := run()
	g2, gens2 := run()
	if g1 != g2 {
		t.Fatalf("two runs played different gate games:\n%s\n%s", g1, g2)
	}
	if len(gens1) != len(gens2) {
		t.Fatalf("%d and %d generations", len(gens1), len(gens2))
	}
	for i := range gens1 {
		if gens1[i].Hash != gens2[i].Hash {
			t.Errorf("generation %d: model hashes differ", i)
		}
	}
}

// TestLoopResumesStoppedShard: a loop stopped in the middle of its self-play resumes
// it: the finished shards are kept, the unfinished one played again.
func TestLoopResumesStoppedShard(t *testing.T) {
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.MaxIterations = 1
	ctx, cancel := context.WithCancel(context.Background())
	cfg.Runner = stopAfter{k: 1, cancel: cancel}
	if _, err := Run(ctx, dir, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("stopped run: %v", err)
	}
	st, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Iterations[0].Shards; !got[0] || got[1] {
		t.Fatalf("shards after the stop: %v", got)
	}
	cfg.Runner = nil
	if st, err = Run(context.Background(), dir, cfg); err != nil {
		t.Fatal(err)
	}
	if it := st.Iterations[0]; it.Games != cfg.Games || it.Gate == nil || !it.Gate.Done {
		t.Fatalf("resumed iteration %+v", it)
	}
}

// stopAfter runs shards like Local and cancels the run when it reaches shard k.
type stopAfter struct {
	k      int
	cancel func()
}

func (s stopAfter) RunShards(ctx context.Context, dir string, cfg *Config, it int, todo []int) error {
	for _, k := range todo {
		if k == s.k {
			s.cancel()
			return ctx.Err()
		}
		if err := RunShard(ctx, dir, it, k, cfg.Workers, nil); err != nil {
			return err
		}
	}
	return nil
}

// TestSPRT: the test's bounds and decisions on made-up results: a long winning run
// accepts elo1, an even one elo0, and a stalemate at MaxGames falls back to the
// Wilson interval.
func TestSPRT(t *testing.T) {
	g := GateConfig{Time: time.Millisecond, MaxGames: 40, MinGames: 4, Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05}
	llr, lo, hi := sprt(0, 0, g)
	if llr != 0 || math.Abs(lo-math.Log(0.05/0.95)) > 1e-12 || math.Abs(hi-math.Log(0.95/0.05)) > 1e-12 {
		t.Fatalf("bounds %g %g %g", llr, lo, hi)
	}
	res := func(wins, games int) GateResult {
		var r GateResult
		for i := 0; i < games; i++ {
			r.Games = append(r.Games, GameRecord{CandidateWon: i < wins})
		}
		r.decide(g)
		return r
	}
	for _, c := range []struct {
		wins, games    int
		done, accepted bool
	}{
		{3, 3, false, false},  // an odd number of games: never decided
		{2, 2, false, false},  // fewer than MinGames
		{36, 36, true, true},  // a winning run
		{10, 36, true, false}, // a losing run
		{22, 40, true, false}, // no decision at MaxGames, the interval includes 50%
		{34, 40, true, true},  // decided earlier in a real gate; here the interval is above 50%
	} {
		r := res(c.wins, c.games)
		if r.Done != c.done || r.Accepted != c.accepted || r.Wins != c.wins {
			t.Errorf("%d of %d: done %v accepted %v (LLR %.2f): %s", c.wins, c.games, r.Done, r.Accepted, r.LLR, r.Reason)
		}
	}
	if e, lo, hi := res(30, 40).EloDiff(); !(lo < e && e < hi && e > 150 && e < 250) {
		t.Errorf("Elo of 75%%: %g (%g..%g)", e, lo, hi)
	}
	for _, bad := range []GateConfig{{}, {Time: 1, MaxGames: 1}, {Time: 1, MaxGames: 4, Elo0: 10, Elo1: 5, Alpha: 0.05, Beta: 0.05}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}

// TestConfigValidate: bad configurations are refused with ErrConfig.
func TestConfigValidate(t *testing.T) {
	for name, edit := range map[string]func(*Config){
		"size":       func(c *Config) { c.Size = 1 },
		"shards":     func(c *Config) { c.Shards = c.Games + 1 },
		"expansions": func(c *Config) { c.Expansions = 0 },
		"window":     func(c *Config) { c.Window = 0 },
		"hidden":     func(c *Config) { c.Train.Hidden = 0 },
		"mix":        func(c *Config) { c.Train.SearchMix = 2 },
		"setting":    func(c *Config) { c.Player = []string{"depth=0"} },
		"not k=v":    func(c *Config) { c.Player = []string{"depth"} },
		"gate":       func(c *Config) { c.Gate.MaxGames = 0 },
		"gate time":  func(c *Config) { c.Gate.Time = 0 },
		"gate work":  func(c *Config) { c.Gate.Expansions = -1 },
	} {
		c := tinyConfig()
		edit(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestGateOpenings: a gate's openings are every cell when the board has no more than
// its pairs of games, in a seeded order whose first pairs are not the board's first
// rows; the same seed gives the same order.
func TestGateOpenings(t *testing.T) {
	a, b := gateOpenings(8, 128, 1), gateOpenings(8, 128, 1)
	if len(a) != 64 || !slices.Equal(a, b) {
		t.Fatalf("8x8, 128 games: %d openings, same seed equal: %v", len(a), slices.Equal(a, b))
	}
	seen := map[hex.Cell]bool{}
	for _, c := range a {
		seen[c] = true
	}
	if len(seen) != 64 {
		t.Errorf("%d distinct openings of 64", len(seen))
	}
	rows := 0 // openings among the first 16 on rows 1-2 (cells 0-15): 4 expected
	for _, c := range a[:16] {
		if c < 16 {
			rows++
		}
	}
	if rows > 10 {
		t.Errorf("%d of the first 16 openings are on the first two rows: %v", rows, a[:16])
	}
	if c := gateOpenings(11, 40, 3); len(c) != 20 || slices.Equal(c, gateOpenings(11, 40, 4)) {
		t.Errorf("11x11, 40 games: %d openings; seeds 3 and 4 agree", len(c))
	}
}

// TestReportFromFile: a report written from loop.json as read back (what 'hexlearn
// loop report' does) shows each gate's Wilson interval, which loop.json does not hold.
func TestReportFromFile(t *testing.T) {
	gate := &GateResult{Wins: 7, Done: true}
	for i := 0; i < 10; i++ {
		gate.Games = append(gate.Games, GameRecord{Opening: "a1", CandidateWon: i < 7})
	}
	st := &State{Format: stateFormat, Config: Config{Size: 5},
		Generations: []Generation{{Index: 0, Iteration: -1, Parent: -1, Model: "gen-000.model", Hash: strings.Repeat("0", 64)}},
		Iterations:  []Iteration{{Index: 0, Games: 10, Rows: 100, Gate: gate, Generation: -1}}}
	data, err := json.Marshal(st)
	if err != nil {
		t.Fatal(err)
	}
	var back State
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := WriteReport(dir, &back); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "70.0% (39.7–89.2%)"; !strings.Contains(string(md), want) {
		t.Errorf("the report lacks the gate's score and interval %q:\n%s", want, md)
	}
}

// TestLoopSolverLabels: with LabelNodes the self-play shards hold the same games, and
// the solver has labelled the true winner of positions H-search left open; the
// candidate's provenance says so.
func TestLoopSolverLabels(t *testing.T) {
	rows := func(labelNodes int64) ([]dataset.Example, *model.Model) {
		dir := t.TempDir()
		cfg := tinyConfig()
		cfg.MaxIterations, cfg.LabelNodes = 1, labelNodes
		cfg.Gate.MaxGames, cfg.Gate.MinGames = 2, 2
		st, err := Run(context.Background(), dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		var out []dataset.Example
		for k := 0; k < cfg.Shards; k++ {
			tab, err := dataset.ReadPath(shardDir(dir, 0, k), nil)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tab.Rows...)
		}
		cand, err := model.ReadFile(filepath.Join(dir, st.Iterations[0].Candidate))
		if err != nil {
			t.Fatal(err)
		}
		return out, cand
	}
	plain, plainCand := rows(0)
	labelled, cand := rows(100_000)
	if len(plain) != len(labelled) {
		t.Fatalf("%d rows without labels, %d with", len(plain), len(labelled))
	}
	known, added := 0, 0
	for i := range plain {
		p, l := plain[i], labelled[i]
		if p.Hash != l.Hash || p.Winner != l.Winner {
			t.Fatalf("row %d: labelling changed the games", i)
		}
		switch {
		case p.TrueWinner != hex.Empty && l.TrueWinner != p.TrueWinner:
			t.Fatalf("row %d: H-search's proved winner %v became %v", i, p.TrueWinner, l.TrueWinner)
		case p.TrueWinner != hex.Empty:
			known++
		case l.TrueWinner != hex.Empty:
			added++
		}
	}
	// 5x5 is solved within 100,000 nodes from every position: every row is labelled.
	if added == 0 || known+added != len(labelled) {
		t.Errorf("%d rows: %d proved by H-search, %d labelled by the solver", len(labelled), known, added)
	}
	if !strings.Contains(cand.Provenance.Loop.Data, "labelled by the solver within 100000 nodes") || strings.Contains(plainCand.Provenance.Loop.Data, "solver") {
		t.Errorf("provenance %q / %q", cand.Provenance.Loop.Data, plainCand.Provenance.Loop.Data)
	}
}

// TestLoopSolvedSet: with Solved the loop labels that many random positions once (the
// decided ones are every candidate's extra rows, recorded in its provenance) and
// keeps them when it resumes; the same seed gives the same set.
func TestLoopSolvedSet(t *testing.T) {
	run := func(dir string) *State {
		cfg := tinyConfig()
		cfg.MaxIterations, cfg.Solved, cfg.SolvedNodes = 1, 30, 100_000
		cfg.Gate.MaxGames, cfg.Gate.MinGames = 2, 2
		st, err := Run(context.Background(), dir, cfg)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	dir := t.TempDir()
	st := run(dir)
	rows, err := st.solvedRows(dir)
	if err != nil {
		t.Fatal(err)
	}
	// 5x5 is solved within 100,000 nodes from every position.
	if st.Solved != 30 || len(rows) != 30 {
		t.Fatalf("solved set: state %d, %d rows; want 30", st.Solved, len(rows))
	}
	for i, r := range rows {
		if r.Search != nil || r.TrueWinner == hex.Empty {
			t.Fatalf("row %d: %+v", i, r)
		}
	}
	cand, err := model.ReadFile(filepath.Join(dir, st.Iterations[0].Candidate))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(cand.Provenance.Loop.Data, "and 30 random positions with the solver's winners (of 30 drawn)") {
		t.Errorf("provenance %q", cand.Provenance.Loop.Data)
	}
	if rep, err := os.ReadFile(filepath.Join(dir, "report", "README.md")); err != nil || !strings.Contains(string(rep), "Solved set: 30 of 30 random positions") {
		t.Errorf("the report does not name the solved set (%v)", err)
	}
	marker, _ := os.Stat(solvedMarker(dir))
	run(dir)
	if again, _ := os.Stat(solvedMarker(dir)); marker == nil || again == nil || !again.ModTime().Equal(marker.ModTime()) {
		t.Error("a resumed loop made its solved set again")
	}
	other := t.TempDir()
	run(other)
	a, _ := st.solvedRows(dir)
	b, _ := st.solvedRows(other)
	for i := range a {
		if a[i].Hash != b[i].Hash || a[i].TrueWinner != b[i].TrueWinner {
			t.Fatalf("row %d differs between two runs of one seed", i)
		}
	}
}
