package main

import (
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/experiments"
)

func init() {
	c := &command{
		name:    "bench",
		summary: "run the quick benchmark set and print a table with ratios",
		usage: `hexlearn bench [GROUP ...] [--size 6,11] [--time S] [--positions P] [--seed S] [--json]

Runs the quick benchmark set on seeded midgame positions and prints a table. GROUP is
any of ` + strings.Join(experiments.BenchGroups, ", ") + ` (default: all). Every ratio compares
two items measured in the same run: XH- vs H-search, learned vs exact evaluation,
LB-tree vs a linear scan, learned vs exact search nodes per second.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stderr)
		sizes := fs.String("size", "6,11", "comma-separated board sides")
		secs := fs.Float64("time", 0.3, "seconds per measured item")
		positions := fs.Int("positions", 20, "midgame positions per size")
		seed := fs.Uint64("seed", 1, "seed of the positions")
		jsonOut := fs.Bool("json", false, "print the rows as JSON")
		var groups []string
		for len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			groups, args = append(groups, args[0]), args[1:]
		}
		if err := fs.Parse(args); err != nil {
			return err
		}
		groups = append(groups, fs.Args()...)
		cfg := experiments.BenchConfig{Groups: groups, Positions: *positions, Seed: *seed,
			Time: time.Duration(*secs * float64(time.Second)), Log: stderr}
		if *secs <= 0 {
			return usageErr("--time must be positive")
		}
		for _, s := range strings.Split(*sizes, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil {
				return usageErr("--size: %q is not a number", s)
			}
			cfg.Sizes = append(cfg.Sizes, n)
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
		experiments.WriteBenchTable(stdout, rows)
		return nil
	}
	register(c)
}
