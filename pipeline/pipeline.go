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
	"strconv"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/selfplay"
	"github.com/hexlearn/hexlearn/train"
)

// ErrConfig reports an invalid pipeline configuration.
var ErrConfig = errors.New("pipeline: bad configuration")

// CorpusConfig configures Corpus: exact-evaluator self-play (selfplay.ModeSelf by
// default) that logs every evaluated board. It holds every setting of the selfplay
// command.
type CorpusConfig struct {
	Width, Height int
	// Exactly one of Positions and Games is positive. Positions is the number of rows
	// to write (with shards, shard i writes its share of them from its own games);
	// Games is the number of games of the whole run, all shards together.
	Positions int64
	Games     int
	// Mode is the kind of games (the zero value is selfplay.ModeSelf; the demo uses
	// selfplay.ModeMixed).
	Mode selfplay.Mode
	// Play is how the games are played (nil: DefaultPlay()).
	Play *Play
	Seed uint64
	// Workers is the number of parallel games (0: all cores); the output does not
	// depend on it.
	Workers int
	// Shard and Shards split the games by index: shard i of n plays games i, i+n,
	// i+2n, ... (Shards 0: one shard).
	Shard, Shards int
	// GamesPerFile starts a new file after this many games (0: 1000).
	GamesPerFile int
	// Timings records measured evaluation times in cost_us (the files then differ
	// between runs).
	Timings bool
	// Exact is the exact evaluator's configuration (nil: circuit.DefaultExactConfig).
	Exact *circuit.ExactConfig
	// Light replaces Exact's H-search limits by LightVC's.
	Light bool
	// LabelNodes, when positive, labels the true winner of every row the evaluator did
	// not prove with the solver, at most LabelNodes nodes per position.
	LabelNodes int64
	// Metadata holds entries added to the metadata of every file, beside the run's
	// settings and the evaluator's description (the selfplay command records its
	// --light there as evaluator.light).
	Metadata map[string]string
	// Meter, if set, receives the progress of the run (one part): the rows written
	// counting the games beside them, or with Games the games counting the rows.
	Meter Meter
}

// Play is how the games of a corpus are played.
type Play struct {
	// Depth and K are the alpha-beta search of both players: its depth in plies and
	// the moves searched per node (K 0: every move).
	Depth, K int
	// Opening is the number of uniformly random moves that start every game.
	Opening int
	// Temperature, when positive, samples the TempPlies moves after the opening from a
	// softmax over the moves' 1-ply values (divided by Temperature) instead of
	// searching.
	Temperature float64
	TempPlies   int
	// StopAtProof ends a game once the evaluator proves a winner; by default games
	// are played until a chain is complete.
	StopAtProof bool
}

// DefaultPlay is the play of a corpus whose config gives none: depth 2, k 8, two
// random opening moves, every later move searched, games played out.
func DefaultPlay() Play { return Play{Depth: 2, K: 8, Opening: 2} }

// LightVC returns the lighter H-search limits of CorpusConfig.Light: fewer
// connections kept per pair than vc.DefaultConfig, smaller ORs and no edge templates
// (faster, fewer connections found).
func LightVC() vc.Config {
	c := vc.DefaultConfig()
	c.MaxFull, c.MaxSemi, c.MaxOr, c.EdgeTemplates = 3, 4, 3, false
	return c
}

// selfplayConfig returns the selfplay configuration of c.
func (c CorpusConfig) selfplayConfig() selfplay.Config {
	play := DefaultPlay()
	if c.Play != nil {
		play = *c.Play
	}
	ecfg := circuit.DefaultExactConfig()
	if c.Exact != nil {
		ecfg = *c.Exact
	}
	if c.Light {
		ecfg.VC = LightVC()
	}
	info := selfplay.DescribeExact(ecfg)
	for k, v := range c.Metadata {
		info[k] = v
	}
	shards := c.Shards
	if shards == 0 {
		shards = 1
	}
	cfg := selfplay.Config{
		Width: c.Width, Height: c.Height, Mode: c.Mode, Games: c.Games, Positions: c.Positions,
		Search: search.Params{Depth: play.Depth, K: play.K}, Opening: play.Opening,
		Temperature: play.Temperature, TempPlies: play.TempPlies, StopAtProof: play.StopAtProof,
		Seed: c.Seed, Workers: c.Workers, Shard: c.Shard, Shards: shards,
		Timings: c.Timings, GamesPerFile: c.GamesPerFile,
		NewEvaluator:  func() (search.Evaluator, error) { return selfplay.NewExact(ecfg) },
		EvaluatorInfo: info, Meter: c.Meter,
	}
	if n := c.LabelNodes; n > 0 {
		info["labeler"] = "solver"
		info["labeler.max_nodes"] = strconv.FormatInt(n, 10)
		cfg.NewLabeler = func() func(context.Context, *hex.Board) (hex.Color, bool, error) {
			return selfplay.SolverLabeler(n)
		}
	}
	return cfg
}

// FileName is the name of part part of the corpus's files (they name the board size,
// seed and shard, so the files of all shards can share one directory).
func (c CorpusConfig) FileName(part int) string {
	cfg := c.selfplayConfig()
	return cfg.FileName(part)
}

// Corpus plays self-play games into dir (created if needed) and returns what it wrote.
// The same config gives byte-identical files (Timings aside), whatever Workers is.
// When ctx is cancelled it stops and returns ctx's error; completed files remain.
func Corpus(ctx context.Context, dir string, c CorpusConfig) (selfplay.Result, error) {
	if (c.Positions > 0) == (c.Games > 0) || c.Positions < 0 || c.Games < 0 {
		return selfplay.Result{}, fmt.Errorf("%w: corpus of %d positions and %d games (want exactly one positive)", ErrConfig, c.Positions, c.Games)
	}
	if c.LabelNodes < 0 {
		return selfplay.Result{}, fmt.Errorf("%w: corpus label nodes %d (want >= 0)", ErrConfig, c.LabelNodes)
	}
	return selfplay.Run(ctx, dir, c.selfplayConfig())
}

// FitConfig configures Fit. It holds every setting of the train command.
type FitConfig struct {
	Data          string // dataset file or directory
	Width, Height int
	// Examples, if set, are trained on instead of Data's rows (Data then only names
	// them in errors).
	Examples *train.Examples
	Hidden   int
	Epochs   int
	Seed     uint64
	// OpenOnly trains on the positions the exact evaluator leaves open (decided
	// positions are the job of the search's proofs and the pattern database), and
	// records "open-only" in the model's provenance.
	OpenOnly bool
	// PlyWidth, when positive, trains one network per range of PlyWidth plies (the
	// paper's layered partition; train.Examples.PlyRanges); 0 trains one network.
	PlyWidth int
	// Features is the network's input layer (zero value: one input per cell).
	Features model.Features
	// LearnRate is the trainer's step size and BatchSize its minibatch size (0: the
	// trainer's defaults, train.Config).
	LearnRate float64
	BatchSize int
	// Target is what the network learns (zero value: model.TargetValue). The
	// playouts target labels the rows with Playouts random playouts each (0:
	// train.DefaultPlayouts) before the held-out split.
	Target   model.Target
	Playouts int
	// SearchMix is the search target's weight of the game's result (0:
	// train.DefaultSearchMix).
	SearchMix float64
	// Output is the output unit of a value target (zero value: model.OutputTanh; the
	// other targets have a logistic output).
	Output model.Output
	// Policy also trains a policy head (the move priors) on the visit shares of the
	// player's search, its loss weighted by PolicyWeight (0:
	// train.DefaultPolicyWeight); see train.Config.Policy.
	Policy       bool
	PolicyWeight float64
	// Holdout is the fraction of rows kept out of training for the quality report.
	Holdout float64
	// Rotate also trains on every training row turned by 180 degrees, added after the
	// held-out split (train.Examples.WithRotations).
	Rotate bool
	// Sweep, if set, is the cross-validation sweep that chose Hidden and Epochs; the
	// model's provenance records its selection.
	Sweep *train.SweepResult
	// Note is appended to the model's provenance config (the train command records
	// its --holdout and --rotate there).
	Note string
	// Meter, if set, receives the epochs trained (one part of Epochs epochs per
	// network).
	Meter Meter
}

// FitResult is a trained model with its held-out quality.
type FitResult struct {
	Model   *model.Model
	Rows    int            // training rows (rotations included)
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
	if !(c.Holdout >= 0 && c.Holdout < 1) {
		return FitResult{}, fmt.Errorf("%w: holdout %g (want [0, 1))", ErrConfig, c.Holdout)
	}
	ex, err := c.Examples, error(nil)
	if ex == nil {
		if ex, err = LoadExamples(c.Data, c.Width, c.Height, c.OpenOnly); err != nil {
			return FitResult{}, err
		}
	} else if c.OpenOnly {
		if ex = ex.Open(circuit.LogClamp); ex.Rows() == 0 {
			return FitResult{}, fmt.Errorf("%s: no open positions (every row is decided)", c.Data)
		}
	}
	if c.Target == model.TargetPlayouts && ex.Playout == nil {
		lab := *ex // the caller's Examples stay unlabelled
		if err := lab.LabelPlayouts(ctx, c.Playouts, c.Seed); err != nil {
			return FitResult{}, err
		}
		ex = &lab
	}
	part, held := ex, (*train.Examples)(nil)
	if c.Holdout > 0 {
		if part, held, err = train.SplitHoldout(ex, c.Holdout, c.Seed); err != nil {
			return FitResult{}, err
		}
	}
	if c.Rotate {
		part = part.WithRotations() // after the split: no held-out row is added by its image
	}
	cfg := train.Config{Hidden: c.Hidden, Epochs: c.Epochs, BatchSize: c.BatchSize, LearnRate: c.LearnRate,
		Seed: c.Seed, Target: c.Target, Playouts: c.Playouts, SearchMix: c.SearchMix, Output: c.Output, Features: c.Features,
		Policy: c.Policy, PolicyWeight: c.PolicyWeight, Meter: c.Meter}
	if c.PlyWidth > 0 {
		cfg.PlyRanges = part.PlyRanges(c.PlyWidth)
	}
	m, err := train.Train(ctx, part, cfg)
	if err != nil {
		return FitResult{}, err
	}
	r := FitResult{Model: m, Rows: part.Rows()}
	if held != nil {
		v := train.Evaluate(m, held)
		r.Holdout = &v
		m.Provenance.TrainError = "held-out " + v.String()
	}
	if sr := c.Sweep; sr != nil {
		m.Provenance.Sweep = fmt.Sprintf("%d-fold CV on %d rows (%s), hidden %v, up to %d epochs: best %d hidden, %d epochs, mean %.6g, std %.3g",
			sr.Folds, sr.Rows, sr.DataHash, sr.Hidden, sr.Epochs, sr.BestHidden, sr.BestEpochs, sr.BestMean, sr.BestStd)
	}
	if c.OpenOnly {
		m.Provenance.Config += " open-only"
	}
	if c.Note != "" {
		m.Provenance.Config += " " + c.Note
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
