package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/internal/progress"
)

func init() {
	c := &command{
		name:    "dataset",
		writes:  true,
		summary: "inspect, export and merge training datasets (stats, export, merge)",
		usage: `hexlearn dataset stats [--json] [--bins N] DIR|FILE
       hexlearn dataset export --format csv|fann [--scale S] [--dedupe] [--augment] --out FILE DIR|FILE...
       hexlearn dataset merge [--dedupe] --out FILE DIR|FILE...

stats prints row and game counts, positions per ply, the value distribution,
duplicate positions and the evaluation cost summary. export writes CSV (header,
one column per cell) or a FANN training file (inputs +1 white, 0 empty, -1 black;
output the value). merge concatenates dataset files of one board size into one file.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runDataset(ctx, c, args, stdout, stderr)
	}
	register(c)
}

func runDataset(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("missing subcommand: stats, export or merge")
	}
	if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		fmt.Fprintln(stdout, strings.TrimSpace(c.usage))
		for _, sub := range []string{"stats", "export", "merge"} {
			fs := flag.NewFlagSet(sub, flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			datasetSubFlags(sub, fs, &datasetOpts{})
			fmt.Fprintf(stdout, "\nFlags of %s:\n", sub)
			printFlags(stdout, fs)
		}
		return flag.ErrHelp
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "stats", "export", "merge":
	default:
		return usageErr("unknown dataset subcommand %q (want stats, export or merge)", sub)
	}
	fs := newFlags(c, stdout)
	var o datasetOpts
	datasetSubFlags(sub, fs.FlagSet, &o)
	if err := fs.Parse(rest); err != nil {
		return err
	}
	for _, p := range fs.Args() {
		if err := inputPath("", p); err != nil {
			return err
		}
	}
	outs := outputs{force: o.force}
	switch sub {
	case "stats":
		if fs.NArg() != 1 {
			return usageErr("dataset stats takes one DIR or FILE")
		}
		if err := intIn("bins", o.bins, 1, 10_000); err != nil {
			return err
		}
		t, err := dataset.ReadPath(fs.Arg(0), nil)
		if err != nil {
			return err
		}
		st := t.ComputeStats(o.bins)
		if o.asJSON {
			return json.NewEncoder(stdout).Encode(st)
		}
		files, _ := dataset.Files(fs.Arg(0))
		fmt.Fprintf(stdout, "%s, format version %d, generator %s, code %s\n", progress.Count(int64(len(files)), "file"),
			dataset.FormatVersion, t.Meta.Generator, t.Meta.CodeVersion)
		if len(t.Meta.Config) > 0 {
			keys := make([]string, 0, len(t.Meta.Config))
			for k := range t.Meta.Config {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			fmt.Fprint(stdout, "config:")
			for _, k := range keys {
				fmt.Fprintf(stdout, " %s=%s", k, t.Meta.Config[k])
			}
			fmt.Fprintln(stdout)
		}
		return st.WriteText(stdout)
	case "export":
		if o.format != "csv" && o.format != "fann" {
			return usageErr("--format must be csv or fann")
		}
		if o.out == "" || fs.NArg() == 0 {
			return usageErr("dataset export needs --out and at least one DIR or FILE")
		}
		if err := outs.file("out", o.out); err != nil {
			return err
		}
		if err := floatIn("scale", o.scale, 0, 1e9); err != nil {
			return err
		}
		t, err := readTables(fs.Args())
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if o.augment {
			if t, err = t.Augment(); err != nil {
				return err
			}
		}
		removed := 0
		if o.dedupe {
			t, removed = t.Dedupe()
		}
		if o.format == "csv" {
			err = t.ExportCSV(o.out)
		} else {
			err = t.ExportFANN(o.out, dataset.FANNOptions{Scale: o.scale})
		}
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s to %s (%s", progress.Count(int64(t.Len()), "row"), o.out, o.format)
		if o.dedupe {
			fmt.Fprintf(stdout, ", %s dropped", progress.Count(int64(removed), "duplicate"))
		}
		fmt.Fprintln(stdout, ")")
		return nil
	default: // merge
		if o.out == "" || fs.NArg() == 0 {
			return usageErr("dataset merge needs --out and at least one DIR or FILE")
		}
		if err := outs.file("out", o.out); err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		n, err := dataset.Merge(o.out, fs.Args(), o.dedupe, nil)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s to %s\n", progress.Count(int64(n), "row"), o.out)
		return nil
	}
}
