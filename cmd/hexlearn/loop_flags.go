package main

import (
	"errors"
	"flag"
	"strings"

	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline/loop"
)

// loopFlags are the flags of 'hexlearn loop' that make its loop.Config (the runner's
// are runnerFlags).
type loopFlags struct {
	dir                                                      string
	size, games, shards, expansions, opening, explore        *int
	hidden, epochs, window, gateGames, gateMin, generations  *int
	gateExpansions                                           *int
	labelNodes, solved, solvedNodes                          *int64
	maxIter, workers                                         *int
	seed                                                     *uint64
	start, features                                          *string
	lr, mix, gateTime, elo0, elo1, alpha, beta, policyWeight *float64
	rotate, cont, policy                                     *bool
	set                                                      settingFlags
}

// settingFlags collects repeated --set NAME=VALUE flags.
type settingFlags []string

func (s *settingFlags) String() string { return strings.Join(*s, ",") }
func (s *settingFlags) Set(v string) error {
	if _, _, ok := strings.Cut(v, "="); !ok {
		return errors.New("want NAME=VALUE (a flag of 'hexlearn gtp' without its dashes)")
	}
	*s = append(*s, v)
	return nil
}

// addLoopFlags registers the loop's flags on fs.
func addLoopFlags(fs *flagSet) *loopFlags {
	def := loop.DefaultConfig(8)
	f := &loopFlags{}
	fs.StringVar(&f.dir, "dir", "", "the loop's directory (required; created, or resumed)")
	f.size = fs.Int("size", 0, "board size N (required)")
	f.seed = fs.Uint64("seed", def.Seed, "seed of the self-play, the trainings and the gates' openings")
	f.start = fs.String("start", def.Start, "the first generation's network: builtin or a model file")
	f.games = fs.Int("games", def.Games, "self-play games per iteration")
	f.shards = fs.Int("shards", def.Shards, "self-play shards per iteration (cluster tasks; --runner local plays them one after the other)")
	f.expansions = fs.Int("expansions", def.Expansions, "MCTS expansions per self-play move")
	f.opening = fs.Int("opening", def.Opening, "random moves that start a self-play game")
	f.explore = fs.Int("explore", 0, "self-play moves after the opening drawn from the search's visits (default: the board's side)")
	f.labelNodes = fs.Int64("label-nodes", 0, "label the winner of every self-play position H-search leaves open with the solver, at most N nodes each (0: none)")
	f.solved = fs.Int64("solved", 0, "random positions the solver labels once (at most --solved-nodes nodes each); the decided ones join every candidate's training (0: none)")
	f.solvedNodes = fs.Int64("solved-nodes", loop.DefaultSolvedNodes, "solver nodes per position of --solved")
	f.hidden = fs.Int("hidden", def.Train.Hidden, "the candidates' hidden units")
	f.epochs = fs.Int("epochs", def.Train.Epochs, "the candidates' training epochs")
	f.lr = fs.Float64("lr", def.Train.LearnRate, "the candidates' learning rate")
	f.features = fs.String("features", "", "the candidates' inputs: cells or twodist (default: the start network's)")
	f.mix = fs.Float64("search-mix", def.Train.SearchMix, "the weight of the game's result against the search's value in the candidates' target")
	f.rotate = fs.Bool("rotate", def.Train.Rotate, "also learn every position turned by 180 degrees")
	f.cont = fs.Bool("continue", def.Train.Continue, "start each candidate from the best network's weights where the shapes agree (else from random ones)")
	f.policy = fs.Bool("policy", def.Train.Policy, "train the candidates' policy head on the search's visit shares (the MCTS's priors)")
	f.policyWeight = fs.Float64("policy-weight", 1, "the policy loss's weight against the value's")
	f.window = fs.Int("window", def.Window, "iterations of self-play a candidate learns from")
	f.gateTime = fs.Float64("gate-time", def.Gate.Time.Seconds(), "seconds per move in the gate")
	f.gateExpansions = fs.Int("gate-expansions", 0, "MCTS expansions per move in the gate instead of --gate-time (0: use the time); the gates then follow from --seed on any machine")
	f.gateGames = fs.Int("gate-games", def.Gate.MaxGames, "at most this many gate games")
	f.gateMin = fs.Int("gate-min-games", def.Gate.MinGames, "gate games before the SPRT may stop")
	f.elo0 = fs.Float64("elo0", def.Gate.Elo0, "the SPRT's null hypothesis: the candidate is this many Elo stronger")
	f.elo1 = fs.Float64("elo1", def.Gate.Elo1, "the SPRT's alternative: this many Elo stronger (above --elo0)")
	f.alpha = fs.Float64("alpha", def.Gate.Alpha, "the SPRT's false acceptance rate")
	f.beta = fs.Float64("beta", def.Gate.Beta, "the SPRT's false rejection rate")
	f.generations = fs.Int("generations", def.Generations, "stop after this many new generations")
	f.maxIter = fs.Int("max-iterations", 0, "stop after this many iterations (0: 3 × --generations)")
	f.workers = fs.Int("workers", 0, "self-play games at once (0: all cores)")
	fs.Var(&f.set, "set", "a player setting NAME=VALUE (a 'hexlearn gtp' flag without its dashes; repeat it)")
	return f
}

// given reports whether flag name was given on the command line.
func given(fs *flagSet, name string) bool {
	ok := false
	fs.Visit(func(f *flag.Flag) { ok = ok || f.Name == name })
	return ok
}

// config checks the flags and returns the loop's configuration (without a runner).
func (f *loopFlags) config(fs *flagSet) (loop.Config, error) {
	if f.dir == "" {
		return loop.Config{}, usageErr("--dir is required")
	}
	if err := checkAll(intIn("size", *f.size, 2, 19), intIn("games", *f.games, 1, maxCount), intIn("shards", *f.shards, 1, *f.games),
		intIn("expansions", *f.expansions, 1, 1<<22), intIn("opening", *f.opening, 0, 361), intIn("explore", *f.explore, 0, 361),
		intIn("hidden", *f.hidden, 1, 4096), intIn("epochs", *f.epochs, 1, 100_000), intIn("window", *f.window, 1, 1000),
		intIn("gate-games", *f.gateGames, 2, 100_000), intIn("gate-expansions", *f.gateExpansions, 0, 1<<22), intIn("gate-min-games", *f.gateMin, 0, *f.gateGames),
		intIn("generations", *f.generations, 0, 10_000), intIn("max-iterations", *f.maxIter, 0, 100_000), intIn("workers", *f.workers, 0, maxWorkers),
		floatIn("lr", *f.lr, 1e-6, 1), floatIn("search-mix", *f.mix, 1e-9, 1), floatIn("policy-weight", *f.policyWeight, 1e-6, 1000), floatIn("elo0", *f.elo0, -2000, 2000),
		floatIn("elo1", *f.elo1, *f.elo0+1e-9, 2000), floatIn("alpha", *f.alpha, 1e-6, 0.5), floatIn("beta", *f.beta, 1e-6, 0.5)); err != nil {
		return loop.Config{}, err
	}
	gt, err := seconds("gate-time", *f.gateTime, 0.001)
	if err != nil {
		return loop.Config{}, err
	}
	if *f.start != "builtin" {
		if err := inputPath("start", *f.start); err != nil {
			return loop.Config{}, err
		}
	}
	cfg := loop.DefaultConfig(*f.size)
	cfg.Seed, cfg.Start, cfg.Games, cfg.Shards, cfg.Expansions, cfg.Opening = *f.seed, *f.start, *f.games, *f.shards, *f.expansions, *f.opening
	if cfg.LabelNodes = *f.labelNodes; cfg.LabelNodes < 0 || cfg.LabelNodes > 1<<30 {
		return loop.Config{}, usageErr("--label-nodes %d: want 0 (none) up to %d", cfg.LabelNodes, 1<<30)
	}
	if cfg.Solved, cfg.SolvedNodes = *f.solved, *f.solvedNodes; cfg.Solved < 0 || cfg.Solved > 1<<24 {
		return loop.Config{}, usageErr("--solved %d: want 0 (none) up to %d", cfg.Solved, 1<<24)
	}
	if cfg.SolvedNodes < 1 || cfg.SolvedNodes > 1<<30 {
		return loop.Config{}, usageErr("--solved-nodes %d: want 1 up to %d", cfg.SolvedNodes, 1<<30)
	}
	if cfg.Solved == 0 {
		cfg.SolvedNodes = 0
	}
	if given(fs, "explore") {
		cfg.Explore = *f.explore
	}
	cfg.Train = loop.TrainConfig{Hidden: *f.hidden, Epochs: *f.epochs, LearnRate: *f.lr, SearchMix: *f.mix, Rotate: *f.rotate, Continue: *f.cont,
		Policy: *f.policy, PolicyWeight: *f.policyWeight}
	if *f.features != "" {
		feat, err := model.ParseFeatures(*f.features)
		if err != nil {
			return loop.Config{}, usageErr("--features: %v", err)
		}
		cfg.Train.Features = feat
	}
	cfg.Window, cfg.Player = *f.window, f.set
	if *f.gateExpansions > 0 {
		if given(fs, "gate-time") {
			return loop.Config{}, usageErr("--gate-time and --gate-expansions: give one of them")
		}
		gt = 0
	}
	cfg.Gate = loop.GateConfig{Time: gt, Expansions: *f.gateExpansions, MaxGames: *f.gateGames, MinGames: *f.gateMin, Elo0: *f.elo0, Elo1: *f.elo1, Alpha: *f.alpha, Beta: *f.beta}
	cfg.Generations, cfg.MaxIterations, cfg.Workers = *f.generations, *f.maxIter, *f.workers
	return cfg, nil
}
