package main

import (
	"context"
	"encoding/json"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments"
)

func init() {
	c := &command{
		name:    "bench",
		summary: "run the quick benchmark set and print a table with ratios",
		usage: `hexlearn bench [GROUP ...] [--size 6,11] [--time S] [--positions P] [--seed S] [--benzene-all] [--json | --markdown]

Runs the quick benchmark set on seeded midgame positions and prints a table. GROUP is
any of ` + strings.Join(experiments.BenchGroups, ", ") + ` (default: all). Every ratio compares
two items measured in the same run: XH- vs H-search, learned vs exact evaluation,
LB-tree vs a linear scan, learned vs exact search nodes per second. The search
group ends with the two players as 'hexlearn gtp' builds them, one move each at
--time per move on midgame positions H-search leaves open: nodes (MCTS: expansions)
per second, median depth and H-search calls per second of their searches.
On 8x8, 11x11 and 13x13 the vc group also compares the default H-search and the
FastVC rules (vc.FastVCConfig; with --benzene-all also Benzene's 25/50 lists) with
Benzene's connection builder on
held-out positions (engine/vc/testdata/benzene-SIZE-heldout.txt, whatever --seed):
the share of Benzene's winning edge-to-edge VCs found, the claims Benzene does not
make (solved where the position is small enough; unsound ones counted) and the
median build time of both colours next to Benzene's.
--markdown prints the tables of docs/results.md instead: one per group, each row
with its ratio and the command that measures it again, under a line giving the
date, the code version, the machine and the command for all of them.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		sizes := fs.String("size", "6,11", "comma-separated board sides")
		secs := fs.Float64("time", 0.3, "seconds per measured item")
		positions := fs.Int("positions", 20, "midgame positions per size")
		seed := fs.Uint64("seed", 1, "seed of the positions")
		jsonOut := fs.Bool("json", false, "print the rows as JSON")
		benzeneAll := fs.Bool("benzene-all", false, "vc group: compare Benzene's 25/50 lists with Benzene's reference too, not only the default H-search and the FastVC rules (minutes on 11x11)")
		markdown := fs.Bool("markdown", false, "print the rows as the Markdown tables of docs/results.md, with the commands that regenerate them")
		var groups []string
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			groups, args = append(groups, args[0]), args[1:]
		}
		if err := fs.Parse(args); err != nil {
			return err
		}
		groups = append(groups, fs.Args()...)
		d, err := seconds("time", *secs, 0.001)
		if err != nil {
			return err
		}
		if err := intIn("positions", *positions, 1, 100_000); err != nil {
			return err
		}
		if *jsonOut && *markdown {
			return usageErr("--json and --markdown: choose one")
		}
		for _, g := range groups {
			if !slices.Contains(experiments.BenchGroups, g) {
				return usageErr("unknown group %q (want %s)", g, strings.Join(experiments.BenchGroups, ", "))
			}
		}
		cfg := experiments.BenchConfig{Groups: groups, Positions: *positions, Seed: *seed, Time: d, Log: stderr, BenzeneAll: *benzeneAll}
		for _, s := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || n < 2 || n > hex.MaxSize {
				return usageErr("--size %q: want board sides 2..%d, comma-separated", *sizes, hex.MaxSize)
			}
			cfg.Sizes = append(cfg.Sizes, n)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rows, err := experiments.Bench(ctx, cfg)
		if err != nil {
			return err
		}
		if *jsonOut {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rows)
		}
		if *markdown {
			experiments.WriteBenchMarkdown(stdout, cfg, rows, time.Now())
			return nil
		}
		experiments.WriteBenchTable(stdout, rows)
		return nil
	}
	register(c)
}
