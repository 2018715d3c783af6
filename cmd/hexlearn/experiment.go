package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/experiments"
)

func init() {
	c := &command{
		name:    "experiment",
		writes:  true,
		summary: "run one of the paper's experiments and write its report",
		usage: `hexlearn experiment NAME --size N [--model MODEL] [--patterns DB] [--depth D] [--k K]
              [--time S] [--positions P] [--openings K] [--seed S] --out DIR

Runs a named, seeded experiment after Kahl, Edelkamp & Hildebrand (2007), section 6, and
writes a report directory (README.md, CSV, PNG and SVG plots). NAME is the experiment's
name, number or word: ` + strings.Join(experiments.Names(), ", ") + `.

'hexlearn experiment strength' is the strength ladder: a round robin at equal time per
move between learned, exact, exact-xh and any GTP engines given with --engine
NAME=CMDLINE, over several sizes and times per move, with scores, Elo table with error
bars, plots and SGF files; see 'hexlearn experiment strength -h'.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
		if len(args) > 0 && args[0] == "strength" {
			return runStrength(ctx, args[1:], stdout, stderr) // its own flags: strength.go
		}
		var outs outputs
		defer func() { outs.cleanup(err) }()
		fs := newFlags(c, stdout)
		outs.addForce(fs)
		size := fs.Int("size", 0, "board side")
		modelPath := fs.String("model", "", "learned model file (from 'hexlearn train'), or 'builtin' (the binary's model for --size)")
		dbPath := fs.String("patterns", "", "goal-pattern database (from 'hexlearn patterns build')")
		depth := fs.Int("depth", 3, "search depth")
		k := fs.Int("k", 10, "k-best successor limit")
		secs := fs.Float64("time", 1, "seconds per search (experiment 6) and per move (experiment 7)")
		positions := fs.Int("positions", 300, "positions sampled (experiments 2, 6, 8, 9)")
		openings := fs.Int("openings", 0, "openings played in experiment 7 (0: every cell)")
		seed := fs.Uint64("seed", 1, "seed of every random choice")
		out := fs.String("out", "", "report directory")
		// Accept the experiment name before or after the flags.
		var name string
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			name, args = args[0], args[1:]
		}
		if err := fs.Parse(args); err != nil {
			return err
		}
		if name == "" && fs.NArg() > 0 {
			name = fs.Arg(0)
		}
		if name == "" {
			return usageErr("name an experiment: %s", strings.Join(experiments.Names(), ", "))
		}
		if _, err := experiments.Lookup(name); err != nil {
			return usageErr("unknown experiment %q (want %s)", name, strings.Join(experiments.Names(), ", "))
		}
		d, err := seconds("time", *secs, 0.001)
		if err != nil {
			return err
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("depth", *depth, 1, search.MaxDepth),
			intIn("k", *k, 1, hex.MaxCells), intIn("positions", *positions, 1, 100_000),
			intIn("openings", *openings, 0, hex.MaxCells), optionalModel(*modelPath),
			optionalInput("patterns", *dbPath), outs.dir("out", *out, "README.md")); err != nil {
			return err
		}
		env := experiments.Env{Size: *size, Seed: *seed, Depth: *depth, K: *k, Positions: *positions,
			Openings: *openings, Time: d, Log: stderr}
		if *modelPath != "" {
			m, err := loadModelFor(*modelPath, *size, *size)
			if err != nil {
				return err
			}
			env.Model, env.ModelPath = m, *modelPath
		}
		if *dbPath != "" {
			db, _, err := patterns.Load(*dbPath)
			if err != nil {
				return fmt.Errorf("%s: %w", *dbPath, err)
			}
			env.Patterns, env.PatternsPath = db, *dbPath
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if exe, err := os.Executable(); err == nil {
			env.Self = exe
		}
		if err := experiments.Run(ctx, name, env, *out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "report written to %s\n", filepath.Join(*out, "README.md"))
		return nil
	}
	register(c)
}
