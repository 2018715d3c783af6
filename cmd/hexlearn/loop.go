package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline/loop"
	"github.com/hexlearn/hexlearn/selfplay"
)

func init() {
	c := &command{
		name:    "loop",
		writes:  true,
		summary: "the self-improving training loop: self-play with the player's own searches, train, gate, repeat",
		usage: `hexlearn loop --dir DIR --size N [--generations G] [--games N] [--expansions E] [flags]
                     [--runner local|slurm|kubernetes [--submit=false] [cluster flags]]
hexlearn loop shard --dir DIR --iteration I --shard K [--workers W]
hexlearn loop report --dir DIR

Runs the self-improving loop (Expert Iteration, gated as AlphaZero's first version):
each iteration the best network so far plays --games self-play games as the learned
player (MCTS with H-search, --expansions per move, no book and no solver, the first
--explore moves after --opening random ones drawn from the search's visits), every
position is logged with the search's targets (the root's backed-up value and visit
shares), the game's result and the proved winner where H-search knows it; a candidate
network learns from the last --window iterations' positions (the search target: the
result weighted --search-mix against the search's value); then it plays the best
network at --gate-time per move, each seeded opening twice, until an SPRT decides
(--elo0, --elo1, --alpha, --beta; at most --gate-games games): accepted, it is the next
generation. The loop stops after --generations new generations (or --max-iterations
iterations). DIR holds loop.json (the configuration and the progress), iter-NNN/ (self-
play shards, candidate, gate) and gen-NNN.model files that record their generation,
parent, targets and gate; DIR/report/README.md shows every generation's Elo with its
interval, as a plot. Run the same command again to resume after Ctrl-C or a crash:
finished shards, trainings and gate games are kept; a DIR started with other flags is
refused.

` + runnerUsage + `

shard plays one self-play shard of an iteration (what the loop runs itself, or a
cluster task runs); report rewrites DIR/report.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) > 0 {
			switch args[0] {
			case "shard":
				return loopShard(ctx, c, args[1:], stdout, stderr)
			case "report":
				return loopReport(c, args[1:], stdout)
			}
		}
		return runLoop(ctx, c, args, stdout, stderr)
	}
	register(c)
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

func runLoop(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	def := loop.DefaultConfig(8)
	fs := newFlags(c, stdout)
	dir := fs.String("dir", "", "the loop's directory (required; created, or resumed)")
	size := fs.Int("size", 0, "board size N (required)")
	seed := fs.Uint64("seed", def.Seed, "seed of the self-play, the trainings and the gates' openings")
	start := fs.String("start", def.Start, "the first generation's network: builtin or a model file")
	games := fs.Int("games", def.Games, "self-play games per iteration")
	shards := fs.Int("shards", def.Shards, "self-play shards per iteration (cluster tasks; --runner local plays them one after the other)")
	expansions := fs.Int("expansions", def.Expansions, "MCTS expansions per self-play move")
	opening := fs.Int("opening", def.Opening, "random moves that start a self-play game")
	explore := fs.Int("explore", -1, "self-play moves after the opening drawn from the search's visits (default: the board's side)")
	hidden := fs.Int("hidden", def.Train.Hidden, "the candidates' hidden units")
	epochs := fs.Int("epochs", def.Train.Epochs, "the candidates' training epochs")
	lr := fs.Float64("lr", def.Train.LearnRate, "the candidates' learning rate")
	features := fs.String("features", "", "the candidates' inputs: cells or twodist (default: the start network's)")
	mix := fs.Float64("search-mix", def.Train.SearchMix, "the weight of the game's result against the search's value in the candidates' target")
	rotate := fs.Bool("rotate", def.Train.Rotate, "also learn every position turned by 180 degrees")
	cont := fs.Bool("continue", def.Train.Continue, "start each candidate from the best network's weights where the shapes agree (else from random ones)")
	window := fs.Int("window", def.Window, "iterations of self-play a candidate learns from")
	gateTime := fs.Float64("gate-time", def.Gate.Time.Seconds(), "seconds per move in the gate")
	gateGames := fs.Int("gate-games", def.Gate.MaxGames, "at most this many gate games")
	gateMin := fs.Int("gate-min-games", def.Gate.MinGames, "gate games before the SPRT may stop")
	elo0 := fs.Float64("elo0", def.Gate.Elo0, "the SPRT's null hypothesis: the candidate is this many Elo stronger")
	elo1 := fs.Float64("elo1", def.Gate.Elo1, "the SPRT's alternative: this many Elo stronger")
	alpha := fs.Float64("alpha", def.Gate.Alpha, "the SPRT's false acceptance rate")
	beta := fs.Float64("beta", def.Gate.Beta, "the SPRT's false rejection rate")
	generations := fs.Int("generations", def.Generations, "stop after this many new generations")
	maxIter := fs.Int("max-iterations", 0, "stop after this many iterations (0: 3 × --generations)")
	workers := fs.Int("workers", 0, "self-play games at once (0: all cores)")
	var set settingFlags
	fs.Var(&set, "set", "a player setting NAME=VALUE (a 'hexlearn gtp' flag without its dashes; repeat it)")
	rf := addRunnerFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if *dir == "" {
		return usageErr("--dir is required")
	}
	runner, err := rf.runner(fs)
	if err != nil {
		return err
	}
	if err := checkAll(intIn("size", *size, 2, 19), intIn("games", *games, 1, maxCount), intIn("shards", *shards, 1, *games),
		intIn("expansions", *expansions, 1, 1<<22), intIn("opening", *opening, 0, 361), intIn("explore", *explore, -1, 361),
		intIn("hidden", *hidden, 1, 4096), intIn("epochs", *epochs, 1, 100_000), intIn("window", *window, 1, 1000),
		intIn("gate-games", *gateGames, 2, 100_000), intIn("gate-min-games", *gateMin, 0, *gateGames),
		intIn("generations", *generations, 0, 10_000), intIn("max-iterations", *maxIter, 0, 100_000), intIn("workers", *workers, 0, maxWorkers),
		floatIn("lr", *lr, 1e-6, 1), floatIn("search-mix", *mix, 1e-9, 1), floatIn("elo1", *elo1, *elo0+1e-9, 2000),
		floatIn("alpha", *alpha, 1e-6, 0.5), floatIn("beta", *beta, 1e-6, 0.5)); err != nil {
		return err
	}
	gt, err := seconds("gate-time", *gateTime, 0.001)
	if err != nil {
		return err
	}
	if *start != "builtin" {
		if err := inputPath("start", *start); err != nil {
			return err
		}
	}
	cfg := loop.DefaultConfig(*size)
	cfg.Seed, cfg.Start, cfg.Games, cfg.Shards, cfg.Expansions, cfg.Opening = *seed, *start, *games, *shards, *expansions, *opening
	if *explore >= 0 {
		cfg.Explore = *explore
	}
	cfg.Train = loop.TrainConfig{Hidden: *hidden, Epochs: *epochs, LearnRate: *lr, SearchMix: *mix, Rotate: *rotate, Continue: *cont}
	if *features != "" {
		f, err := model.ParseFeatures(*features)
		if err != nil {
			return usageErr("--features: %v", err)
		}
		cfg.Train.Features = f
	}
	cfg.Window, cfg.Player = *window, set
	cfg.Gate = loop.GateConfig{Time: gt, MaxGames: *gateGames, MinGames: *gateMin, Elo0: *elo0, Elo1: *elo1, Alpha: *alpha, Beta: *beta}
	cfg.Generations, cfg.MaxIterations, cfg.Workers, cfg.Runner = *generations, *maxIter, *workers, runner
	cfg.Meter = &progress.Bars{W: stderr, Desc: "loop"}
	cfg.Log = func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	begin := time.Now()
	st, err := loop.Run(ctx, *dir, cfg)
	if errors.Is(err, loop.ErrConfig) {
		return usageErr("%s", strings.TrimPrefix(err.Error(), loop.ErrConfig.Error()+": "))
	}
	if err != nil {
		return err
	}
	g := st.Generations[len(st.Generations)-1]
	fmt.Fprintf(stdout, "%d generation(s) after the start network in %d iteration(s), %s; the best: %s (Elo %+.0f, %+.0f to %+.0f); report %s\n",
		len(st.Generations)-1, len(st.Iterations), progress.Duration(time.Since(begin)), g.Model, g.Elo, g.EloLo, g.EloHi,
		*dir+"/report/README.md")
	return nil
}

// loopShard runs 'hexlearn loop shard'.
func loopShard(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(c, stdout)
	dir := fs.String("dir", "", "the loop's directory (required)")
	it := fs.Int("iteration", -1, "the iteration (required)")
	shard := fs.Int("shard", -1, "the shard (default: $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID)")
	workers := fs.Int("workers", 0, "self-play games at once (0: all cores)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if *dir == "" || *it < 0 {
		return usageErr("--dir and --iteration are required")
	}
	k, err := shardIndex(*shard)
	if err != nil {
		return err
	}
	if err := loop.RunShard(ctx, *dir, *it, k, *workers, &progress.Bars{W: stderr, Desc: "loop"}); err != nil {
		if errors.Is(err, loop.ErrConfig) {
			return usageErr("%s", strings.TrimPrefix(err.Error(), loop.ErrConfig.Error()+": "))
		}
		return err
	}
	fmt.Fprintf(stdout, "iteration %d shard %d done\n", *it, k)
	return nil
}

// loopReport runs 'hexlearn loop report'.
func loopReport(c *command, args []string, stdout io.Writer) error {
	fs := newFlags(c, stdout)
	dir := fs.String("dir", "", "the loop's directory (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return usageErr("--dir is required")
	}
	st, err := loop.Load(*dir)
	if err != nil {
		return err
	}
	if err := loop.WriteReport(*dir, st); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s/report/README.md\n", *dir)
	return nil
}

// shardIndex is a shard flag's value, or the batch system's task index when it is not
// given (selfplay.ShardFromEnv).
func shardIndex(flagValue int) (int, error) {
	if flagValue >= 0 {
		return flagValue, nil
	}
	n, _, ok, err := selfplay.ShardFromEnv(os.Getenv)
	if err != nil {
		return 0, usageErr("%v", err)
	}
	if !ok {
		return 0, usageErr("--shard is required (or $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID)")
	}
	return n, nil
}
