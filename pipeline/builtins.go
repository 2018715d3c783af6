package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hexlearn/hexlearn/internal/version"
	"github.com/hexlearn/hexlearn/model"
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
func DefaultRecipes() []BuiltinRecipe {
	return []BuiltinRecipe{
		{Size: 5, Positions: 20000, Hidden: 32, Epochs: 40},
		{Size: 6, Positions: 40000, Hidden: 48, Epochs: 40},
		{Size: 7, Positions: 60000, Hidden: 64, Epochs: 40},
		{Size: 8, Positions: 600000, Hidden: 64, Epochs: 20, Features: model.FeaturesTwoDist, LearnRate: 0.001},
		{Size: 9, Positions: 80000, Hidden: 64, Epochs: 40},
		{Size: 10, Positions: 60000, Hidden: 64, Epochs: 40},
		{Size: 11, Positions: 300000, Hidden: 64, Epochs: 40, Features: model.FeaturesTwoDist, LearnRate: 0.001, Target: model.TargetPlayouts},
	}
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
	File       string
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
		if err := fit.Model.WriteFile(rep.File); err != nil {
			return reps, err
		}
		if c.OnModel != nil {
			c.OnModel(rep)
		}
		reps = append(reps, rep)
	}
	return reps, nil
}
