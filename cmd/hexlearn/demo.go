package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hexlearn/hexlearn/experiments"
)

func init() {
	c := &command{
		name:    "demo",
		writes:  true,
		summary: "run the whole pipeline on 6x6 with a small budget and write a report",
		usage: `hexlearn demo [--out DIR] [--seed S] [--positions P] [--workers W] [--builtin-openings K]

The embedded default main job: on 6x6 it runs self-play with the exact evaluator,
a cross-validation sweep, training of the selected network, the goal-pattern database,
experiments 1-4 and experiment 7's matches (the new model against the exact player,
XH- against H-search); then the binary's built-in 8x8 learned player plays the exact
player at 0.2 s per move over K seeded openings, each twice with colours exchanged
(0 skips it). It writes a report directory (README.md with links, CSV tables, PNG and
SVG plots, SGF files). A few minutes on 2 cores. The same seed gives the same corpus,
model and openings (timed searches make the games themselves vary).`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
		var outs outputs
		defer func() { outs.cleanup(err) }()
		def := experiments.DefaultDemo()
		fs := newFlags(c, stdout)
		outs.addForce(fs)
		out := fs.String("out", "hexlearn-demo", "report directory")
		seed := fs.Uint64("seed", def.Seed, "seed of every random choice")
		positions := fs.Int64("positions", def.Positions, "self-play corpus size")
		workers := fs.Int("workers", 0, "parallel self-play and training workers (0: all cores)")
		builtinOpenings := fs.Int("builtin-openings", def.BuiltinOpenings, "openings of the built-in 8x8 learned player's match against exact (0: no match)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := intIn("positions", *positions, 100, maxCount); err != nil {
			return err
		}
		if err := intIn("workers", *workers, 0, maxWorkers); err != nil {
			return err
		}
		if err := intIn("builtin-openings", *builtinOpenings, 0, def.BuiltinSize*def.BuiltinSize); err != nil {
			return err
		}
		if err := outs.dir("out", *out, "README.md"); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		def.Seed, def.Positions, def.Workers, def.Log = *seed, *positions, *workers, stderr
		if *builtinOpenings == 0 {
			def.BuiltinSize = 0
		}
		def.BuiltinOpenings = *builtinOpenings
		if self, err := os.Executable(); err == nil {
			def.Self = self // the demo's matches start this binary as GTP engines
		}
		if err := experiments.Demo(ctx, def, *out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "demo report: %s\n", filepath.Join(*out, "README.md"))
		return nil
	}
	register(c)
}
