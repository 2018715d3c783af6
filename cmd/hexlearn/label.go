package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/pipeline"
)

func init() {
	c := &command{
		name:    "label",
		writes:  true,
		summary: "fill a dataset's true_winner column with the solver's values",
		usage: `hexlearn label --out FILE [--max-nodes N] [--workers W] [--limit ROWS] [flags] DIR|FILE

Reads a dataset (a file, or a directory of files of one board size), solves every
distinct position whose true_winner is unknown with the solver of 'hexlearn
solve' (DFPN, ICE, H-search; at most --max-nodes nodes per position), and writes
the rows, with true_winner filled where the solver decided the position, to FILE
(through a temporary file). Positions not decided within the limit stay unknown;
known true winners are kept; a repeated position is solved once. The rows of one
game share a transposition table, emptied between games, so the same input and
--max-nodes give a byte-identical FILE whatever --workers is (a --timeout makes
the labels depend on the machine). Prints positions per second and the share of
rows labelled per ply. Ctrl-C or SIGTERM stops within a second and writes nothing.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		out := fs.String("out", "", "dataset file to write")
		maxNodes := fs.Int64("max-nodes", pipeline.DefaultLabelNodes, "solver nodes per position (a position not decided within them stays unknown)")
		timeout := fs.Duration("timeout", 0, "time limit per position, e.g. 2s (0: none; labels then depend on the machine)")
		workers := fs.Int("workers", 0, "solvers in parallel (0: one per core); the output does not depend on it")
		limit := fs.Int("limit", 0, "label and write only the first ROWS rows (0: all)")
		ttBits := fs.Int("tt-bits", 16, "log2 of each solver's transposition table entries (10..26)")
		outs := outputs{}
		outs.addForce(fs)
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return usageErr("label takes one input DIR or FILE (got %d)", fs.NArg())
		}
		if err := checkAll(intIn("max-nodes", *maxNodes, 1, maxCount), intIn("workers", *workers, 0, maxWorkers),
			intIn("limit", *limit, 0, maxCount), intIn("tt-bits", *ttBits, 10, 26)); err != nil {
			return err
		}
		if *timeout < 0 || *timeout > time.Duration(maxSeconds)*time.Second {
			return usageErr("--timeout %v: want 0 (no limit) up to %v", *timeout, time.Duration(maxSeconds)*time.Second)
		}
		if err := outs.file("out", *out); err != nil {
			return err
		}
		if err := inputPath("", fs.Arg(0)); err != nil {
			return err
		}
		res, err := pipeline.Label(ctx, pipeline.LabelConfig{In: fs.Arg(0), Out: *out, Limit: *limit, MaxNodes: *maxNodes,
			Timeout: *timeout, Workers: *workers, TTBits: *ttBits, Meter: &progress.Bars{W: stderr, Desc: "label"}})
		if err != nil {
			return err
		}
		printLabel(stdout, res, *out)
		return nil
	}
	register(c)
}

// printLabel prints Label's summary: totals, speed and the labelled share per ply.
func printLabel(w io.Writer, r pipeline.LabelResult, out string) {
	fmt.Fprintf(w, "wrote %s to %s: %s labelled now, %s known before, %s unknown\n",
		progress.Count(int64(r.Rows), "row"), out, progress.Count(int64(r.Labelled), "row"),
		progress.Count(int64(r.Known), "row"), progress.Count(int64(r.Rows-r.Known-r.Labelled), "row"))
	fmt.Fprintf(w, "solved %s (%d decided) in %s: %.1f positions/s, %d nodes\n",
		progress.Count(int64(r.Solved), "distinct position"), r.Decided, progress.Duration(r.Elapsed),
		r.PositionsPerSecond(), r.Nodes)
	fmt.Fprintf(w, "%5s %8s %8s %9s %8s %7s\n", "ply", "rows", "known", "labelled", "unknown", "known%")
	for _, p := range r.Plies {
		fmt.Fprintf(w, "%5d %8d %8d %9d %8d %6.1f%%\n", p.Ply, p.Rows, p.Known, p.Labelled,
			p.Rows-p.Known-p.Labelled, 100*float64(p.Known+p.Labelled)/float64(p.Rows))
	}
}
