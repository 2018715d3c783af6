// Package pipeline runs the steps of hexlearn's training pipeline (Kahl, Edelkamp &
// Hildebrand 2007, sections 3-5) as library calls with a config struct and a context:
// Corpus (self-play with the exact evaluator into an Arrow dataset), CrossValidate
// (the k-fold sweep that selects the network's structure, with its report files), Fit
// (train a network), BuildPatterns (the goal-pattern database) and BuildBuiltins
// (corpus and network for every board size whose model ships inside the binary). It
// sits between the libraries (selfplay, train, model, engine/patterns, player) and the
// front ends (cmd/hexlearn, experiments); it prints nothing and reports progress
// through the Meter of each config (progress.go).
package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/selfplay"
	"github.com/hexlearn/hexlearn/train"
)

// ErrConfig reports an invalid pipeline configuration.
var ErrConfig = errors.New("pipeline: bad configuration")

// CorpusConfig configures Corpus: exact-evaluator self-play (selfplay.ModeSelf by
// default) that logs every evaluated board.
type CorpusConfig struct {
	Width, Height int
	Positions     int64 // rows to write
	Depth, K      int   // the self-play search (0: 2 and 8)
	Seed          uint64
	Workers       int // parallel games (0: all cores); the output does not depend on it
	// Mode is the kind of games (the zero value is selfplay.ModeSelf; the demo uses
	// selfplay.ModeMixed).
	Mode selfplay.Mode
	// Opening is the number of random opening moves of each game (0: 2; negative: none).
	Opening int
	// Exact is the exact evaluator's configuration (nil: circuit.DefaultExactConfig).
	Exact *circuit.ExactConfig
	// Meter, if set, receives the rows written (one part of Positions positions)
	// and, as its count, the games written.
	Meter Meter
}

// Corpus plays self-play games into dir (created if needed) and returns what it wrote.
// The same config gives byte-identical files.
func Corpus(ctx context.Context, dir string, c CorpusConfig) (selfplay.Result, error) {
	if c.Positions < 1 {
		return selfplay.Result{}, fmt.Errorf("%w: corpus positions %d (want >= 1)", ErrConfig, c.Positions)
	}
	if c.Depth == 0 {
		c.Depth = 2
	}
	if c.K == 0 {
		c.K = 8
	}
	switch {
	case c.Opening == 0:
		c.Opening = 2
	case c.Opening < 0:
		c.Opening = 0
	}
	ecfg := circuit.DefaultExactConfig()
	if c.Exact != nil {
		ecfg = *c.Exact
	}
	cfg := selfplay.Config{
		Width: c.Width, Height: c.Height, Mode: c.Mode, Positions: c.Positions,
		Search: search.Params{Depth: c.Depth, K: c.K}, Opening: c.Opening, Seed: c.Seed,
		Workers: c.Workers, Shards: 1, GamesPerFile: 1000,
		NewEvaluator:  func() (search.Evaluator, error) { return selfplay.NewExact(ecfg) },
		EvaluatorInfo: selfplay.DescribeExact(ecfg),
	}
	meter := meterOr(c.Meter)
	meter.Start("", c.Positions, "position")
	cfg.Progress = func(p selfplay.Progress) {
		meter.Count(int64(p.Games), "game")
		meter.Set(p.Rows)
	}
	res, err := selfplay.Run(ctx, dir, cfg)
	meter.Done(err)
	return res, err
}

// FitConfig configures Fit.
type FitConfig struct {
	Data          string // dataset file or directory
	Width, Height int
	// Examples, if set, are trained on instead of Data's rows.
	Examples *train.Examples
	Hidden   int
	Epochs   int
	Seed     uint64
	// OpenOnly trains on the positions the exact evaluator leaves open (decided
	// positions are the job of the search's proofs and the pattern database).
	OpenOnly bool
	// PlyWidth, when positive, trains one network per range of PlyWidth plies (the
	// paper's layered partition; train.Examples.PlyRanges); 0 trains one network.
	PlyWidth int
	// Features is the network's input layer (zero value: one input per cell).
	Features model.Features
	// LearnRate is the trainer's step size (0: the trainer's default).
	LearnRate float64
	// Target is what the network learns (zero value: model.TargetValue). The
	// playouts target labels the rows with train.DefaultPlayouts playouts each
	// before the held-out split.
	Target model.Target
	// Holdout is the fraction of rows kept out of training for the quality report.
	Holdout float64
	// Meter, if set, receives the epochs trained (one part of Epochs epochs).
	Meter Meter
}

// FitResult is a trained model with its held-out quality.
type FitResult struct {
	Model   *model.Model
	Rows    int            // training rows
	Holdout *train.Metrics // nil without a holdout
	Elapsed time.Duration
}

// Fit trains one network (by default the value target, tanh output), or one per ply
// range, on the dataset and returns the model; the same data and config give the
// same model bytes.
func Fit(ctx context.Context, c FitConfig) (FitResult, error) {
	start := time.Now()
	if c.Hidden < 1 || c.Epochs < 1 {
		return FitResult{}, fmt.Errorf("%w: hidden %d, epochs %d (want >= 1)", ErrConfig, c.Hidden, c.Epochs)
	}
	if c.PlyWidth < 0 {
		return FitResult{}, fmt.Errorf("%w: ply width %d (want >= 0)", ErrConfig, c.PlyWidth)
	}
	if c.Holdout < 0 || c.Holdout >= 1 {
		return FitResult{}, fmt.Errorf("%w: holdout %g (want [0, 1))", ErrConfig, c.Holdout)
	}
	ex, err := c.Examples, error(nil)
	if ex == nil {
		if ex, err = train.ReadExamples(c.Data, c.Width, c.Height); err != nil {
			return FitResult{}, err
		}
	}
	if c.OpenOnly {
		if ex = ex.Open(circuit.LogClamp); ex.Rows() == 0 {
			return FitResult{}, fmt.Errorf("pipeline: %s: no open positions", c.Data)
		}
	}
	target := c.Target
	switch target {
	case "":
		target = model.TargetValue
	case model.TargetValue:
	case model.TargetPlayouts:
		lab := *ex // the caller's Examples stay unlabelled
		if err := lab.LabelPlayouts(ctx, train.DefaultPlayouts, c.Seed); err != nil {
			return FitResult{}, err
		}
		ex = &lab
	default:
		return FitResult{}, fmt.Errorf("%w: target %q (Fit trains value and playouts models)", ErrConfig, target)
	}
	part, held := ex, (*train.Examples)(nil)
	if c.Holdout > 0 {
		if part, held, err = train.SplitHoldout(ex, c.Holdout, c.Seed); err != nil {
			return FitResult{}, err
		}
	}
	cfg := train.Config{Hidden: c.Hidden, Epochs: c.Epochs, Seed: c.Seed, Target: target,
		Features: c.Features, LearnRate: c.LearnRate}
	nets := 1
	if c.PlyWidth > 0 {
		cfg.PlyRanges = part.PlyRanges(c.PlyWidth)
		nets = len(cfg.PlyRanges)
	}
	meter := meterOr(c.Meter)
	meter.Start("", int64(c.Epochs*nets), "epoch")
	done := int64(0)
	cfg.OnEpoch = func(_, _ int, _ float64) { done++; meter.Set(done) }
	m, err := train.Train(ctx, part, cfg)
	meter.Done(err)
	if err != nil {
		return FitResult{}, err
	}
	r := FitResult{Model: m, Rows: part.Rows()}
	if held != nil {
		v := train.Evaluate(m, held)
		r.Holdout = &v
		m.Provenance.TrainError = "held-out " + v.String()
	}
	if c.OpenOnly {
		m.Provenance.Config += " open-only"
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// removeIfEmpty removes dir when it exists and is empty.
func removeIfEmpty(dir string) {
	if ents, err := os.ReadDir(dir); err == nil && len(ents) == 0 {
		os.Remove(dir)
	}
}
