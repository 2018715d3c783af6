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
shares), the game's result and the proved winner where H-search knows it (or, with
--label-nodes N, the solver within N nodes); a candidate network learns from the last
--window iterations' positions (the search target: the proved winner where known, else
the result weighted --search-mix against the search's value); then it plays the best
network at --gate-time per move (or --gate-expansions per move, which makes the whole
loop follow from --seed on any machine), each seeded opening twice, until an SPRT decides
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

func runLoop(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(c, stdout)
	lf := addLoopFlags(fs)
	rf := addRunnerFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	cfg, err := lf.config(fs)
	if err != nil {
		return err
	}
	if cfg.Runner, err = rf.runner(fs); err != nil {
		return err
	}
	dir := lf.dir
	cfg.Meter = &progress.Bars{W: stderr, Desc: "loop"}
	cfg.Log = func(format string, a ...any) { fmt.Fprintf(stdout, format+"\n", a...) }
	begin := time.Now()
	st, err := loop.Run(ctx, dir, cfg)
	if errors.Is(err, loop.ErrConfig) {
		return usageErr("%s", strings.TrimPrefix(err.Error(), loop.ErrConfig.Error()+": "))
	}
	if err != nil {
		return err
	}
	g := st.Generations[len(st.Generations)-1]
	fmt.Fprintf(stdout, "%d generation(s) after the start network in %d iteration(s), %s; the best: %s (Elo %+.0f, %+.0f to %+.0f); report %s\n",
		len(st.Generations)-1, len(st.Iterations), progress.Duration(time.Since(begin)), g.Model, g.Elo, g.EloLo, g.EloHi,
		dir+"/report/README.md")
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
