package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/version"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline/loop"
	"github.com/hexlearn/hexlearn/player"
)

// BuiltinRecipe is how the built-in model of one board size is made.
type BuiltinRecipe struct {
	Size      int
	Positions int64 // self-play rows
	Hidden    int
	Epochs    int
	// PlyWidth, when positive, trains one network per range of PlyWidth plies.
	PlyWidth int
	// Features is the network's input layer (zero value: one input per cell).
	Features model.Features
	// LearnRate is the trainer's step size (0: the trainer's default).
	LearnRate float64
	// Target is what the network learns (zero value: model.TargetValue, the exact
	// evaluator's value; model.TargetPlayouts: the share of random playouts Black
	// wins, labelled with train.DefaultPlayouts playouts per row).
	Target model.Target
	// Loop, when set, goes on from the corpus network with the self-improving loop
	// (pipeline/loop; Size, Seed, Start, Workers and Meter are BuildBuiltins'): the
	// built-in model is the loop's last generation. Its self-play and gates play a
	// fixed number of MCTS expansions per move (Gate.Expansions), so the generations
	// follow from the seed on any machine.
	Loop *loop.Config
}

// DefaultRecipes are the recipes of the models built into the binary (5x5 to 11x11):
// a self-play corpus of the exact player, and a one-hidden-layer value network trained
// on its open positions. 8x8 and 11x11 take two-distance inputs
// (model.FeaturesTwoDist): on 11x11 that network beat the cell network of the same
// corpus 19–1 at 0.5 s per move; on 8x8 it needs twice the cell network's 300,000
// positions to beat it (docs/history.md, "Connectivity features"). The 11x11 network
// learns the random playouts' result instead of the exact value (model.TargetPlayouts,
// from six times the positions) and stands in for the learned player's playouts
// (docs/history.md, "A network for the playouts").
//
// On 6x6 to 9x9 the self-improving loop goes on from the corpus network
// (recipeLoop): the built-in model is its last gated generation. 5x5 has none: there
// the player's connections decide every game whatever its network, so the loop's
// gates end 100–100 and no candidate can pass (docs/results.md, "The self-improving
// loop").
func DefaultRecipes() []BuiltinRecipe {
	return []BuiltinRecipe{
		{Size: 5, Positions: 20000, Hidden: 32, Epochs: 40},
		{Size: 6, Positions: 40000, Hidden: 48, Epochs: 40, Loop: recipeLoop(6, model.FeaturesTwoDist)},
		{Size: 7, Positions: 60000, Hidden: 64, Epochs: 40, Loop: recipeLoop(7, model.FeaturesTwoDist)},
		{Size: 8, Positions: 600000, Hidden: 64, Epochs: 20, Features: model.FeaturesTwoDist, LearnRate: 0.001, Loop: recipeLoop(8, "")},
		{Size: 9, Positions: 80000, Hidden: 64, Epochs: 40, Loop: recipeLoop9()},
		{Size: 10, Positions: 60000, Hidden: 64, Epochs: 40},
		{Size: 11, Positions: 300000, Hidden: 64, Epochs: 40, Features: model.FeaturesTwoDist, LearnRate: 0.001, Target: model.TargetPlayouts},
	}
}

// recipeLoop is the loop of the size x size recipe, with candidates of the inputs
// feat ("": the corpus network's): the configuration of the 8x8 loop of docs/results.md ("The
// self-improving loop": 800 self-play games of 300 expansions per move, candidates
// learning from the last 4 iterations for 10 epochs, gates of 32 to 320 games), with
// gates at 300 expansions per move instead of 0.15 s so that the generations follow
// from the seed. It stops at generation 3 (at most 10 iterations): in that loop's
// matches generations 4-6 were no stronger than generation 3 (docs/results.md, "The
// self-improving loop"). Every candidate also learns the solver's winners of 12,000
// random positions (Config.Solved, 500 nodes each): with them its values name the
// winner of positions H-search leaves open more often. The size sets the self-play's
// moves drawn from the visits (Config.Explore); the seed and the start network are
// BuildBuiltins'.
func recipeLoop(size int, feat model.Features) *loop.Config {
	c := loop.DefaultConfig(size)
	c.Games, c.Shards, c.Expansions, c.Window = 800, 2, 300, 4
	c.Train.Epochs, c.Train.PolicyWeight, c.Train.Features = 10, 1, feat
	c.Gate.Time, c.Gate.Expansions, c.Gate.MaxGames, c.Gate.MinGames = 0, 300, 320, 32
	c.Generations, c.MaxIterations = 3, 10
	c.Solved, c.SolvedNodes = 12000, 500
	return &c
}

// recipeLoop9 is the 9x9 recipe's loop: recipeLoop's, stopped at generation 1. Its
// first generation took four iterations (gates 118–116 and 53–61 rejected by the SPRT,
// 176–144 without a decision, then 85–55) and about an hour on 2 cores, so a further
// generation would cost about as much again (docs/results.md, "The self-improving
// loop").
func recipeLoop9() *loop.Config {
	c := recipeLoop(9, model.FeaturesTwoDist)
	c.Generations = 1
	return c
}

// BuiltinsConfig configures BuildBuiltins.
type BuiltinsConfig struct {
	Recipes []BuiltinRecipe // nil: DefaultRecipes
	Seed    uint64
	Workers int    // self-play workers (0: all cores)
	Work    string // directory for the corpora (kept, one sub-directory per size, seed and corpus size)
	Out     string // directory for the NxN.model files (player/models in the repository)
	// Meter, if set, receives two parts per size: "NxN self-play" (Corpus's
	// positions and games) and "NxN training" (Fit's epochs).
	Meter Meter
	// OnModel, if set, receives the report of every model as soon as its file is
	// written.
	OnModel func(BuiltinReport)
}

// BuiltinReport is what BuildBuiltins did for one size.
type BuiltinReport struct {
	Size       int
	Rows       int64  // self-play rows
	Games      int    // self-play games
	Inputs     int    // network inputs (cells, or the feature set's inputs)
	Hidden     int    // hidden units of the network
	TrainRows  int    // open rows trained on (the holdout excluded)
	Quality    string // held-out metrics
	CorpusTime time.Duration
	TrainTime  time.Duration
	// Generation is the loop generation the model is (0: the corpus network, or no
	// loop); LoopIterations the loop's iterations up to the one that made it (all of
	// them when none passed its gate) and LoopTime the loop's time.
	Generation     int
	LoopIterations int
	LoopTime       time.Duration
	File           string
}

// builtinHoldout is the share of a built-in model's open rows held out of training
// for its quality report.
const builtinHoldout = 0.1

// BuildBuiltins regenerates the built-in models from nothing: for every recipe a
// self-play corpus (Corpus) and a network (Fit, 10% held out for the report), written
// atomically to Out/NxN.model. The same config gives the same files.
func BuildBuiltins(ctx context.Context, c BuiltinsConfig) ([]BuiltinReport, error) {
	if c.Out == "" || c.Work == "" {
		return nil, fmt.Errorf("%w: builtins need an output and a work directory", ErrConfig)
	}
	recipes := c.Recipes
	if recipes == nil {
		recipes = DefaultRecipes()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.Out, 0o755); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	defer removeIfEmpty(c.Out)
	defer removeIfEmpty(c.Work)
	var reps []BuiltinReport
	for _, r := range recipes {
		// One directory per size, seed and corpus size: Fit reads every dataset file of
		// the directory, so a corpus of an earlier run with another seed or size must not
		// share it (its files have other names and would be mixed in).
		dir := filepath.Join(c.Work, fmt.Sprintf("corpus-%dx%d-seed%d-%d", r.Size, r.Size, c.Seed, r.Positions))
		start := time.Now()
		res, err := Corpus(ctx, dir, CorpusConfig{Width: r.Size, Height: r.Size, Positions: r.Positions,
			Seed: c.Seed, Workers: c.Workers, Meter: subMeter(meterOr(c.Meter), fmt.Sprintf("%dx%d self-play", r.Size, r.Size))})
		if err != nil {
			removeIfEmpty(dir)
			return reps, err
		}
		rep := BuiltinReport{Size: r.Size, Rows: res.Rows, Games: res.Games, CorpusTime: time.Since(start)}
		fit, err := Fit(ctx, FitConfig{Data: dir, Width: r.Size, Height: r.Size, Hidden: r.Hidden, Epochs: r.Epochs,
			PlyWidth: r.PlyWidth, Features: r.Features, LearnRate: r.LearnRate, Target: r.Target, Seed: c.Seed, OpenOnly: true, Holdout: builtinHoldout, Meter: subMeter(meterOr(c.Meter), fmt.Sprintf("%dx%d training", r.Size, r.Size))})
		if err != nil {
			return reps, err
		}
		rep.Inputs, rep.Hidden, rep.TrainRows, rep.TrainTime = fit.Model.Inputs(), r.Hidden, fit.Rows, fit.Elapsed
		// The file records the recipe and the seed, and the release number instead of
		// the build's revision, so that a rebuild at any commit of the same code gives
		// the same bytes (TestBuiltinsRebuild).
		fit.Model.Provenance.CodeVersion = version.Number
		fit.Model.Provenance.Config += fmt.Sprintf(" recipe=builtin positions=%d holdout=%g", r.Positions, builtinHoldout)
		if fit.Holdout != nil {
			rep.Quality = fit.Holdout.String()
		}
		rep.File = filepath.Join(c.Out, player.BuiltinName(r.Size, r.Size))
		final := fit.Model
		if r.Loop != nil {
			if final, err = builtinLoop(ctx, c, r, dir, fit.Model, &rep); err != nil {
				return reps, err
			}
		}
		if err := final.WriteFile(rep.File); err != nil {
			return reps, err
		}
		if c.OnModel != nil {
			c.OnModel(rep)
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// builtinLoopDir is the directory of a recipe's loop next to its corpus directory: its
// name holds a hash of the loop's recorded configuration, so that a changed recipe
// starts a loop of its own instead of meeting one it cannot resume.
func builtinLoopDir(dir string, cfg loop.Config) string {
	data, _ := json.Marshal(cfg)
	return fmt.Sprintf("%s-loop-%x", dir, sha256.Sum256(data))[:len(dir)+len("-loop-")+12]
}

// builtinLoop runs recipe r's loop from the corpus network start (written next to the
// corpus directory dir as its first generation) in builtinLoopDir, and returns the
// loop's last generation with the release number as its code version and the recipe
// in its provenance.
func builtinLoop(ctx context.Context, c BuiltinsConfig, r BuiltinRecipe, dir string, start *model.Model, rep *BuiltinReport) (*model.Model, error) {
	begin := time.Now()
	data, err := start.MarshalBinary()
	if err != nil {
		return nil, err
	}
	startFile := dir + "-start.model"
	if err := fileutil.WriteFileAtomic(startFile, data); err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	cfg := *r.Loop
	cfg.Size, cfg.Seed, cfg.Start, cfg.Workers = r.Size, c.Seed, startFile, c.Workers
	cfg.CodeVersion = version.Number
	cfg.Meter = subMeter(meterOr(c.Meter), fmt.Sprintf("%dx%d loop", r.Size, r.Size))
	loopDir := builtinLoopDir(dir, cfg)
	st, err := loop.Run(ctx, loopDir, cfg)
	if err != nil {
		return nil, err
	}
	last := st.Generations[len(st.Generations)-1]
	m, err := model.ReadFile(filepath.Join(loopDir, last.Model))
	if err != nil {
		return nil, fmt.Errorf("pipeline: %w", err)
	}
	m.Provenance.CodeVersion = version.Number
	// The generation's own iteration, not the loop's count: a loop directory resumed with
	// fewer generations than it already holds must give the same file.
	m.Provenance.Config += fmt.Sprintf(" recipe=builtin positions=%d holdout=%g loop-seed=%d loop-generation=%d loop-iteration=%d games=%d expansions=%d gate-expansions=%d window=%d",
		r.Positions, builtinHoldout, c.Seed, last.Index, last.Iteration, cfg.Games, cfg.Expansions, cfg.Gate.Expansions, cfg.Window)
	if cfg.Solved > 0 {
		m.Provenance.Config += fmt.Sprintf(" solved=%d solved-nodes=%d", cfg.Solved, cfg.SolvedNodes)
	}
	iters := last.Iteration + 1
	if last.Index == 0 { // no candidate passed: every iteration ran for nothing
		iters = len(st.Iterations)
	}
	rep.Generation, rep.LoopIterations, rep.LoopTime = last.Index, iters, time.Since(begin)
	return m, nil
}
