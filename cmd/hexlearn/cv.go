package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/train"
)

func init() {
	c := &command{
		name:    "cv",
		writes:  true,
		summary: "cross-validation sweep over hidden sizes and epochs",
		usage: `hexlearn cv --data DIR --size N [--folds 10] [--hidden 10,20,30,40,50] [--epochs 300]
            [--per-ply [--ply-width W]] [--target value|winner|outcome] [--seed S] --report DIR [--json]

Runs k-fold cross-validation of one-hidden-layer networks on the N x N rows of a
dataset for every hidden size, recording the validation error after every epoch, so
one run covers every epoch count (Kahl et al. 2007, section 3). Folds run in
parallel on the available cores. The structure is selected by the minimum mean
validation error, ties broken by the smaller standard deviation, and checked once on
a held-out fold (RMSE and Spearman rank correlation against the exact evaluator).
Writes sweep.md, sweep.csv, sweep.png, sweep.svg and sweep.json into --report
(with --per-ply, one set per ply range: plies-LO-HI.*).`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
		var outs outputs
		defer func() { outs.cleanup(err) }()
		fs := newFlags(c, stdout)
		outs.addForce(fs)
		var lf learnFlags
		lf.register(fs.FlagSet)
		folds := fs.Int("folds", 10, "number of folds k")
		hiddenS := fs.String("hidden", "10,20,30,40,50", "hidden sizes to try, comma-separated")
		epochs := fs.Int("epochs", 300, "epochs per run (validation error recorded after each)")
		workers := fs.Int("workers", 0, "runs trained at once (0: all cores)")
		tie := fs.Float64("tie", 0, "relative tolerance under which mean errors count as tied")
		report := fs.String("report", "", "directory for the report (required)")
		jsonOut := fs.Bool("json", false, "print the selection as JSON")
		agree := fs.Int("agree", 50, "held-out positions on which to check that the learned depth-1 move is one the exact evaluator rates best (0: skip)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usageErr("unexpected arguments %q", fs.Args())
		}
		if err := intIn("agree", *agree, 0, 1_000_000); err != nil {
			return err
		}
		hidden, err := parseInts(*hiddenS, "hidden")
		if err != nil {
			return err
		}
		if err := intIn("folds", *folds, 2, 1000); err != nil {
			return err
		}
		if err := intIn("epochs", *epochs, 1, 1_000_000); err != nil {
			return err
		}
		if err := intIn("workers", *workers, 0, maxWorkers); err != nil {
			return err
		}
		if err := floatIn("tie", *tie, 0, 1); err != nil {
			return err
		}
		if err := outs.dir("report", *report, "sweep.*", "plies-*"); err != nil {
			return err
		}
		w, h, base, err := lf.config()
		if err != nil {
			return err
		}
		cc := pipeline.CVConfig{Data: lf.data, Width: w, Height: h, OpenOnly: lf.openOnly, Base: base,
			Folds: *folds, Hidden: hidden, Epochs: *epochs, Workers: *workers, Tie: *tie,
			PerPly: lf.perPly, PlyWidth: lf.plyWidth, Agree: *agree, Report: *report,
			Meter: &progress.Bars{W: stderr, Desc: "cv"},
			OnSkip: func(r train.PlyRange, rows, folds int) {
				fmt.Fprintf(stderr, "cv: skipping plies %d..%d: %d rows are too few for %d folds\n", r.MinPly, r.MaxPly, rows, folds)
			}}
		if !*jsonOut {
			cc.OnPart = func(p pipeline.CVPart) { printCVPart(stdout, p) }
		}
		cv, err := pipeline.CrossValidate(ctx, cc)
		if err != nil {
			return err
		}
		if *jsonOut {
			type sel struct {
				Label      string           `json:"label"`
				Rows       int              `json:"rows"`
				BestHidden int              `json:"best_hidden"`
				BestEpochs int              `json:"best_epochs"`
				BestMean   float64          `json:"best_mean"`
				BestStd    float64          `json:"best_std"`
				Holdout    *train.Metrics   `json:"holdout"`
				Agreement  *train.Agreement `json:"best_move_agreement"`
			}
			var out []sel
			for _, p := range cv.Parts {
				r := p.Result
				out = append(out, sel{r.Label, r.Rows, r.BestHidden, r.BestEpochs, r.BestMean, r.BestStd, r.Holdout, r.Agreement})
			}
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", " ")
			return enc.Encode(out)
		}
		return nil
	}
	register(c)
}

// printCVPart prints the selection of one part of a sweep and its report files.
func printCVPart(w io.Writer, p pipeline.CVPart) {
	res := p.Result
	what := fmt.Sprintf("%dx%d", res.W, res.H)
	if p.Label != "" {
		what += " " + p.Label
	}
	fmt.Fprintf(w, "%s: %d rows, %d folds: best %d hidden, %d epochs (mean validation error %.5g, std %.3g); %.3f s/epoch/run, %.1f s\n",
		what, res.Rows, res.Folds, res.BestHidden, res.BestEpochs, res.BestMean, res.BestStd, res.EpochSeconds, res.Seconds)
	fmt.Fprintf(w, "  held-out %s", res.Holdout)
	if a := res.Agreement; a != nil && a.Total > 0 {
		fmt.Fprintf(w, "; depth-1 move rated best by the exact evaluator on %d of %d positions", a.Same, a.Total)
	}
	fmt.Fprintf(w, "\n  report: %s\n", strings.Join(p.Paths, " "))
}
