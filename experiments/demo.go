package experiments

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/experiments/strength"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/internal/report"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/selfplay"
	"github.com/hexlearn/hexlearn/train"
)

// DemoConfig is the budget of the end-to-end demo. DefaultDemo is the embedded default.
type DemoConfig struct {
	Size      int
	Positions int64  // self-play corpus size
	Depth, K  int    // self-play search
	Folds     int    // cross-validation folds
	Hidden    []int  // hidden sizes swept
	Epochs    int    // epochs swept (every epoch is a checkpoint)
	Seed      uint64 // seeds everything
	Workers   int    // 0: all cores
	Opening   int    // random opening moves of each self-play game
	Search    int    // depth of experiments 3 and 4
	// Self is the hexlearn binary; when set, the demo ends with experiment 7's matches
	// (learned+patterns against exact, XH against H) at MatchTime per move over
	// MatchOpenings seeded openings.
	Self          string
	MatchTime     time.Duration
	MatchOpenings int
	// BuiltinSize, when positive and Self is set, ends the demo with the binary's
	// built-in learned player against the exact player on that board size (the strength
	// ladder of experiments/strength) at BuiltinTime per move over BuiltinOpenings
	// seeded openings, each played twice. On 6x6 that match is even by the nature of
	// the board: both players find the winning line of almost every opening, so every
	// game goes to the side its opening favours. On 8x8 the learned player scores about
	// 60% (docs/results.md, "Strength ladder").
	BuiltinSize     int
	BuiltinTime     time.Duration
	BuiltinOpenings int
	Log             io.Writer
}

// DefaultDemo runs in a few minutes on 2 cores.
func DefaultDemo() DemoConfig {
	return DemoConfig{Size: 6, Positions: 40000, Depth: 2, K: 6, Folds: 5, Hidden: []int{10, 20, 30, 40, 50},
		Epochs: 120, Seed: 1, Opening: 2, Search: 3, MatchTime: 100 * time.Millisecond, MatchOpenings: 4,
		BuiltinSize: 8, BuiltinTime: 200 * time.Millisecond, BuiltinOpenings: 16}
}

// Demo runs the whole pipeline into dir: self-play, a cross-validation sweep, training
// of the selected structure, the goal-pattern database and experiments 1-4, and
// writes dir/README.md linking every part.
func Demo(ctx context.Context, cfg DemoConfig, dir string) error {
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	logf := func(format string, a ...any) { fmt.Fprintf(cfg.Log, format+"\n", a...) }
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	start := time.Now()
	idx, err := report.New(dir, fmt.Sprintf("hexlearn demo: the whole pipeline on %dx%d", cfg.Size, cfg.Size))
	if err != nil {
		return err
	}
	idx.Printf("Self-play with the exact evaluator → cross-validation sweep → training → goal-pattern database → experiments 1-4. Seed %d.\n\n", cfg.Seed)
	stage := func(name string) func() float64 {
		logf("demo: %s ...", name)
		t := time.Now()
		return func() float64 { s := time.Since(t).Seconds(); logf("demo: %s done in %.1f s", name, s); return s }
	}

	// 1. Self-play corpus.
	done := stage("self-play")
	dataDir := filepath.Join(dir, "data")
	exCfg := circuit.SearchExactConfig()
	res, err := pipeline.Corpus(ctx, dataDir, pipeline.CorpusConfig{Width: cfg.Size, Height: cfg.Size, Positions: cfg.Positions,
		Play: &pipeline.Play{Depth: cfg.Depth, K: cfg.K, Opening: cfg.Opening}, Seed: cfg.Seed, Workers: cfg.Workers,
		Mode: selfplay.ModeMixed, Exact: &exCfg, Meter: &progress.Bars{W: cfg.Log, Desc: "demo: self-play"}})
	if err != nil {
		return fmt.Errorf("demo: self-play: %w", err)
	}
	secs := done()
	idx.Printf("## 1. Self-play corpus\n\n%d positions from %d games (mixed self-play and random play, depth %d, k %d) in %.1f s: [data/](data/).\n\n", res.Rows, res.Games, cfg.Depth, cfg.K, secs)

	// 2. Cross-validation sweep.
	done = stage("cross-validation sweep")
	table, err := dataset.ReadPath(dataDir, nil)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	all, err := train.FromTable(table, cfg.Size, cfg.Size)
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	// The network learns the open positions; decided ones (clamped values) are the
	// pattern database's and winning-VC detection's job.
	exs := all.Open(circuit.LogClamp)
	base := train.Config{Seed: cfg.Seed}
	cv, err := pipeline.CrossValidate(ctx, pipeline.CVConfig{Examples: exs, Base: base, Folds: cfg.Folds, Hidden: cfg.Hidden,
		Epochs: cfg.Epochs, Workers: cfg.Workers, Report: filepath.Join(dir, "cv"), Name: "cv", SkipHoldout: true, SkipJSON: true,
		Meter: &progress.Bars{W: cfg.Log, Desc: "demo: cross-validation"}})
	if err != nil {
		return fmt.Errorf("demo: sweep: %w", err)
	}
	sw := cv.Parts[0].Result
	secs = done()
	idx.Printf("## 2. Cross-validation sweep\n\n%d-fold over hidden sizes %v and 1..%d epochs on the %d open positions of the %d rows (decided positions are left to the pattern database) in %.1f s: best %d hidden neurons, %d epochs (validation error %.4f ± %.4f). Report: %s.\n\n",
		cfg.Folds, cfg.Hidden, cfg.Epochs, exs.Rows(), all.Rows(), secs, sw.BestHidden, sw.BestEpochs, sw.BestMean, sw.BestStd,
		fileLinks(dir, cv.Parts[0].Paths))

	// 3. Training.
	done = stage("training")
	fit, err := pipeline.Fit(ctx, pipeline.FitConfig{Examples: exs, Hidden: sw.BestHidden, Epochs: sw.BestEpochs, Seed: cfg.Seed,
		Meter: &progress.Bars{W: cfg.Log, Desc: "demo: training"}})
	if err != nil {
		return fmt.Errorf("demo: train: %w", err)
	}
	m := fit.Model
	modelPath := filepath.Join(dir, "model.hexmodel")
	if err := m.WriteFile(modelPath); err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	met := train.Evaluate(m, exs)
	secs = done()
	idx.Printf("## 3. Training\n\n%d-%d-1 network, %d epochs, in %.1f s: [model.hexmodel](model.hexmodel). On the training data: %s.\n\n", cfg.Size*cfg.Size, sw.BestHidden, sw.BestEpochs, secs, met.String())

	// 4. Goal-pattern database from the corpus's winning positions.
	done = stage("pattern database")
	// Every position is examined with the proof search's larger H-search limits
	// (circuit.ProofExactConfig: 20 VCs, 30 SCs per pair), not only the rows whose
	// self-play evaluator (lighter limits) saw a win: the extra patterns are what lets
	// the learned search decide the empty board at depth 3 (experiment 4).
	dbPath := filepath.Join(dir, "patterns.lbt")
	pr, err := pipeline.BuildPatterns(ctx, pipeline.PatternsConfig{From: dataDir, Size: cfg.Size, Finder: "proof", Verify: 12,
		Out: dbPath, Raw: true,
		Meter: &progress.Bars{W: cfg.Log, Desc: "demo: pattern database"}})
	if err != nil {
		return fmt.Errorf("demo: %w", err)
	}
	db := pr.DB
	secs = done()
	idx.Printf("## 4. Goal-pattern database\n\n%s from the winning connections of the corpus's positions (H-search with the proof limits) in %.1f s: [patterns.lbt](patterns.lbt).\n\n", db.Size(), secs)

	// 5. Experiments 1-4.
	loaded, err := model.LoadFor(modelPath, cfg.Size, cfg.Size)
	if err != nil {
		return fmt.Errorf("demo: reloading the model: %w", err)
	}
	env := Env{Size: cfg.Size, Seed: cfg.Seed, Model: loaded, Patterns: db, Depth: cfg.Search, K: 10, Positions: 200, Log: cfg.Log}
	idx.Printf("## 5. Experiments\n\n")
	names := []string{"1-values", "2-evaltime", "3-firstmove", "4-prove"}
	if cfg.Self != "" {
		names = append(names, "7-match")
	}
	for _, name := range names {
		e := env
		if name == "7-match" {
			e.Self, e.ModelPath, e.PatternsPath = cfg.Self, modelPath, dbPath
			e.Time, e.Openings = cfg.MatchTime, cfg.MatchOpenings
		}
		done = stage("experiment " + name)
		if err := Run(ctx, name, e, filepath.Join(dir, name)); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
		secs = done()
		ex, _ := Lookup(name)
		idx.Printf("- [%s](%s/README.md): %s (%.1f s).\n", name, name, ex.Title, secs)
	}
	if cfg.Self != "" && cfg.BuiltinSize > 0 {
		if err := demoBuiltinMatch(ctx, cfg, dir, idx, stage); err != nil {
			return err
		}
	}
	idx.Printf("\nTotal time: %.1f s.\n", time.Since(start).Seconds())
	return idx.Close()
}

// demoBuiltinMatch plays the binary's built-in learned player against the exact player
// on cfg.BuiltinSize (strength.Run, report in dir/builtin-match) and summarises the
// score in the demo's index.
func demoBuiltinMatch(ctx context.Context, cfg DemoConfig, dir string, idx *report.Report, stage func(string) func() float64) error {
	var players []strength.Entrant
	for _, name := range []string{"learned", "exact"} {
		p, _ := strength.Builtin(cfg.Self, name)
		players = append(players, p)
	}
	const sub = "builtin-match"
	done := stage(fmt.Sprintf("built-in learned player against exact on %dx%d", cfg.BuiltinSize, cfg.BuiltinSize))
	meter := &progress.Bars{W: cfg.Log, Desc: "demo: built-in match"}
	meter.Start("", int64(2*cfg.BuiltinOpenings), "game")
	res, err := strength.Run(ctx, strength.Config{Sizes: []int{cfg.BuiltinSize}, Times: []time.Duration{cfg.BuiltinTime},
		Players: players, Openings: cfg.BuiltinOpenings, Seed: cfg.Seed, Dir: filepath.Join(dir, sub),
		Progress: func(p strength.Progress) { meter.Set(int64(p.Done)) }})
	meter.Done(err)
	if err != nil {
		return fmt.Errorf("demo: built-in match: %w", err)
	}
	secs := done()
	idx.Printf("\n## 6. The built-in learned player\n\n")
	for _, l := range res.Ladders {
		for _, p := range l.Pairs {
			line := fmt.Sprintf("%dx%d at %s s per move, %d seeded openings each played twice (colours exchanged): %s %d - %d %s (%.1f%%, 95%% CI %.1f%%..%.1f%%)",
				l.Size, l.Size, strength.Seconds(l.Time), l.Openings, p.A, p.WinsA, p.WinsB, p.B,
				100*float64(p.WinsA)/float64(max(p.Games, 1)), 100*p.Lo, 100*p.Hi)
			fmt.Fprintf(cfg.Log, "demo: %s\n", line)
			idx.Printf("The binary's built-in model for %dx%d (MCTS over the network's values, H-search proofs and the DFPN solver; `hexlearn gtp --player learned`) against the exact player (alpha-beta over H-search and the resistance circuit), as by `hexlearn experiment strength`: %s, in %.1f s. Report: [%s/](%s/README.md).\n", l.Size, l.Size, line, secs, sub, sub)
		}
	}
	return nil
}

// fileLinks links the files at paths (inside dir) from dir's README, Markdown pages
// first: "[cv/cv.md](cv/cv.md), [cv/cv.csv](cv/cv.csv), ...".
func fileLinks(dir string, paths []string) string {
	var pages, others []string
	for _, p := range paths {
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			rel = p
		}
		rel = filepath.ToSlash(rel)
		link := fmt.Sprintf("[%s](%s)", rel, rel)
		if filepath.Ext(p) == ".md" {
			pages = append(pages, link)
		} else {
			others = append(others, link)
		}
	}
	return strings.Join(append(pages, others...), ", ")
}
