package main

import (
	"flag"

	"github.com/hexlearn/hexlearn/dataset"
)

// datasetOpts holds the flags of the dataset subcommands.
type datasetOpts struct {
	asJSON, dedupe, augment bool
	force                   bool
	bins                    int
	format, out             string
	scale                   float64
}

// datasetSubFlags registers the flags of subcommand sub on fs.
func datasetSubFlags(sub string, fs *flag.FlagSet, o *datasetOpts) {
	switch sub {
	case "stats":
		fs.BoolVar(&o.asJSON, "json", false, "print the statistics as JSON")
		fs.IntVar(&o.bins, "bins", 10, "value histogram bins")
	case "export":
		fs.StringVar(&o.format, "format", "", "csv or fann (required)")
		fs.StringVar(&o.out, "out", "", "output file (required)")
		fs.BoolVar(&o.force, "force", false, "overwrite an existing output file")
		fs.Float64Var(&o.scale, "scale", 0, "fann: divide values by this (e.g. 40 maps the exact evaluator's range onto [-1, 1])")
		fs.BoolVar(&o.dedupe, "dedupe", false, "drop repeated positions (first kept)")
		fs.BoolVar(&o.augment, "augment", false, "add the images under the true board symmetries")
	case "merge":
		fs.StringVar(&o.out, "out", "", "output file (required)")
		fs.BoolVar(&o.force, "force", false, "overwrite an existing output file")
		fs.BoolVar(&o.dedupe, "dedupe", false, "drop repeated positions (first kept)")
	}
}

// readTables reads several dataset paths into one table.
func readTables(paths []string) (*dataset.Table, error) {
	var all *dataset.Table
	for _, p := range paths {
		t, err := dataset.ReadPath(p, nil)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = t
		} else {
			all.Rows = append(all.Rows, t.Rows...)
		}
	}
	return all, nil
}
