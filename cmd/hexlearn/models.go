package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "models",
		summary: "list the built-in models, or regenerate them from nothing",
		usage: `hexlearn models list
hexlearn models build --out DIR [--work DIR] [--sizes 5,6,...] [--seed S] [--workers W]

list prints the models built into the binary (one per board size, 5x5 to 11x11) with
their structure and provenance. build regenerates them from nothing: for every size a
self-play corpus of the exact player (kept under --work) and a value network trained
on its open positions, written to DIR/NxN.model; for the sizes whose recipe has one
(6x6 to 9x9), the self-improving loop (hexlearn loop, at fixed MCTS expansions per move in
self-play and gates) then goes on from that network under --work, and the model is
its last gated generation. To update the binary's models run it
from the repository root with --out player/models and rebuild. The same seed gives the
same files, byte for byte on amd64, whatever --workers is: each records its recipe,
the seed, its corpus's content hash and the release number (not the commit), and the
binary's models are the files of seed 1.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) == 0 {
			return usageErr("want a subcommand: list or build")
		}
		switch args[0] {
		case "list":
			if len(args) > 1 {
				return usageErr("list takes no arguments")
			}
			return modelsList(stdout, stderr)
		case "build":
		case "-h", "--help", "-help":
			fmt.Fprintln(stdout, c.usage)
			return nil
		default:
			return usageErr("unknown subcommand %q (want list or build)", args[0])
		}
		fs := newFlags(c, stdout)
		out := fs.String("out", "", "directory for the NxN.model files (required; player/models updates the binary's)")
		work := fs.String("work", "hexlearn-models-work", "directory for the self-play corpora")
		sizes := fs.String("sizes", "5,6,7,8,9,10,11", "board sizes to build (comma-separated, 5..11)")
		seed := fs.Uint64("seed", 1, "seed of the corpora and the training")
		workers := fs.Int("workers", 0, "parallel self-play games (0: all cores)")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if *out == "" {
			return usageErr("--out is required")
		}
		if err := intIn("workers", *workers, 0, 1024); err != nil {
			return err
		}
		recipes, err := pickRecipes(*sizes)
		if err != nil {
			return err
		}
		start := time.Now()
		reps, err := pipeline.BuildBuiltins(ctx, pipeline.BuiltinsConfig{Recipes: recipes, Seed: *seed,
			Workers: *workers, Work: *work, Out: *out, Meter: &progress.Bars{W: stderr, Desc: "models"},
			OnModel: func(r pipeline.BuiltinReport) {
				loop := ""
				if r.LoopIterations > 0 {
					loop = fmt.Sprintf("  then loop generation %d in %d iterations, %s", r.Generation, r.LoopIterations, r.LoopTime.Round(time.Second))
				}
				fmt.Fprintf(stdout, "%dx%d  %7d positions  self-play %8s  %d-%d-1 on %d rows  training %7s  %s%s  %s\n",
					r.Size, r.Size, r.Rows, r.CorpusTime.Round(time.Second), r.Inputs, r.Hidden, r.TrainRows,
					r.TrainTime.Round(100*time.Millisecond), r.Quality, loop, r.File)
			}})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "built %d model(s) in %s\n", len(reps), time.Since(start).Round(time.Second))
		return nil
	}
	register(c)
}

// pickRecipes selects the default recipes of the listed sizes.
func pickRecipes(list string) ([]pipeline.BuiltinRecipe, error) {
	all := pipeline.DefaultRecipes()
	var out []pipeline.BuiltinRecipe
	for _, f := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		found := false
		for _, r := range all {
			if err == nil && r.Size == n {
				out, found = append(out, r), true
			}
		}
		if !found {
			return nil, usageErr("--sizes: %q is not a built-in size (want 5..11)", strings.TrimSpace(f))
		}
	}
	return out, nil
}

func modelsList(stdout, stderr io.Writer) error {
	for _, s := range player.BuiltinSizes() {
		var w, h int
		fmt.Sscanf(s, "%dx%d", &w, &h)
		m, err := player.Builtin(w, h)
		if err != nil {
			return err
		}
		hid := make([]string, len(m.Nets))
		for i, n := range m.Nets {
			hid[i] = strconv.Itoa(n.Hidden)
		}
		about := m.Provenance.TrainError
		if l := m.Provenance.Loop; l != nil {
			about = fmt.Sprintf("loop generation %d (gate %s)", l.Generation, l.Gate)
		}
		fmt.Fprintf(stdout, "%-6s %s target, %d network(s), %d-%s-1; %s\n", s, m.Target, len(m.Nets), m.Inputs(),
			strings.Join(hid, "/"), about)
	}
	if len(player.BuiltinSizes()) == 0 {
		fmt.Fprintln(stderr, "no built-in models")
	}
	return nil
}
