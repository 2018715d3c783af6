package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/train"
)

func init() {
	c := &command{
		name:    "train",
		writes:  true,
		summary: "train a learned evaluator and write a model file",
		usage: `hexlearn train --data DIR --size N --hidden H --epochs E [--per-ply [--ply-width W]]
               [--target value|winner|outcome|playouts|search] [--playouts N] [--features cells|twodist] [--rotate] [--seed S]
               [--policy [--policy-weight W]] [--holdout F] [--sweep FILE] --out MODEL [--json]

Trains a one-hidden-layer network (one per ply range with --per-ply) on the N x N rows
of a dataset with minibatch Adam and writes a versioned model file (atomically). A
fraction --holdout of the rows (chosen with the seed) is kept out of training and
used to report RMSE and Spearman rank correlation against the exact evaluator; use
--holdout 0 to train on everything. --sweep names a sweep .json written by
'hexlearn cv': its selection is recorded in the model (and supplies --hidden and
--epochs when they are not given). The same data and seed give the same model bytes.

--features twodist gives the network, besides the stones, Queenbee's two-distance
potentials of every empty cell for both colours and their minima: connectivity, which
the cell inputs cannot represent. Such a network is evaluated from scratch at every
leaf (about 20 microseconds on 8x8 instead of 0.35 incrementally); it trains best with
--lr 0.001. The model file records the feature set; 'hexlearn gtp --model' plays it.
--rotate also trains on every training row turned by 180 degrees, added after the
held-out split (a position the data holds twice can still fall on both sides).

--target playouts trains a logistic network on the share of --playouts N random
playouts (those of the learned MCTS: bridge intrusions answered) that Black wins from
each position, counted before the held-out split (about 1 ms a row on 11x11 with
256 playouts, on every core). The learned player takes such a network's probability
for the playouts' result and runs none of its own by default.

--policy also trains a policy head on the network's hidden layer: one logit per cell,
whose softmax over the empty cells is the move priors, fitted to the share of the
player's search visits each move received (the rows of 'selfplay --mode player'; rows
without them add no policy loss). The loss is the value's plus --policy-weight times
the policy's cross-entropy; the held-out report adds the policy's cross-entropy and how
often its top move is the search's most visited one. Such a model file is format
version 2 (docs/formats.md), and its natural move ordering is the policy's.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		var outs outputs
		fs := newFlags(c, stdout)
		outs.addForce(fs)
		var lf learnFlags
		lf.register(fs.FlagSet)
		hidden := fs.Int("hidden", 0, "hidden units")
		epochs := fs.Int("epochs", 0, "epochs")
		holdout := fs.Float64("holdout", 0.1, "fraction of rows held out for the quality report")
		sweep := fs.String("sweep", "", "sweep .json from 'hexlearn cv' to record (and take --hidden/--epochs from)")
		features := fs.String("features", "cells", "network inputs: cells (one per cell) or twodist (adds two-distance potentials)")
		rotate := fs.Bool("rotate", false, "also train on each training row rotated by 180 degrees (same colours, side to move and label)")
		policy := fs.Bool("policy", false, "also train a policy head (move priors) on the visit shares of the player's search (selfplay --mode player)")
		policyWeight := fs.Float64("policy-weight", train.DefaultPolicyWeight, "with --policy: the weight of the policy's cross-entropy against the value loss (above 0, at most 1000)")
		out := fs.String("out", "", "model file to write (required)")
		jsonOut := fs.Bool("json", false, "print the result as JSON")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usageErr("unexpected arguments %q", fs.Args())
		}
		if err := outs.file("out", *out); err != nil {
			return err
		}
		if math.IsNaN(*holdout) || *holdout < 0 || *holdout >= 1 {
			return usageErr("--holdout %g: want a fraction in [0, 1)", *holdout)
		}
		var sr *train.SweepResult
		if *sweep != "" {
			if err := inputPath("sweep", *sweep); err != nil {
				return err
			}
			var err error
			if sr, err = pipeline.ReadSweep(*sweep); err != nil {
				return err
			}
			if *hidden == 0 {
				*hidden = sr.BestHidden
			}
			if *epochs == 0 {
				*epochs = sr.BestEpochs
			}
		}
		if *hidden < 1 || *hidden > 100_000 {
			return usageErr("--hidden %d: want 1..100000 (or give --sweep)", *hidden)
		}
		if *epochs < 1 || *epochs > 1_000_000 {
			return usageErr("--epochs %d: want 1..1000000 (or give --sweep)", *epochs)
		}
		weightGiven := false
		fs.Visit(func(f *flag.Flag) { weightGiven = weightGiven || f.Name == "policy-weight" })
		if weightGiven && !*policy {
			return usageErr("--policy-weight applies with --policy only")
		}
		if !(*policyWeight > 0 && *policyWeight <= 1000) {
			return usageErr("--policy-weight %g: want a weight above 0, at most 1000", *policyWeight)
		}
		feat, err := model.ParseFeatures(*features)
		if err != nil {
			return usageErr("--features must be cells or twodist, got %q", *features)
		}
		w, h, base, err := lf.config()
		if err != nil {
			return err
		}
		// Loaded here rather than by Fit: Fit's OpenOnly would add "open-only" to the
		// model's provenance, which this command's models have never recorded (Note
		// records its --holdout and --rotate).
		ex, err := pipeline.LoadExamples(lf.data, w, h, lf.openOnly)
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		fc := pipeline.FitConfig{Data: lf.data, Width: w, Height: h, Examples: ex, Hidden: *hidden, Epochs: *epochs,
			Seed: base.Seed, Features: feat, LearnRate: base.LearnRate, BatchSize: base.BatchSize,
			Target: base.Target, Playouts: base.Playouts, SearchMix: base.SearchMix, Output: base.Output, Holdout: *holdout, Rotate: *rotate,
			Policy: *policy, PolicyWeight: *policyWeight,
			Sweep: sr, Note: fmt.Sprintf("holdout=%g rotate=%v", *holdout, *rotate),
			Meter: &progress.Bars{W: stderr, Desc: "train"}}
		if lf.perPly {
			fc.PlyWidth = lf.plyWidth
		}
		fit, err := pipeline.Fit(ctx, fc)
		if err != nil {
			return err
		}
		m, mt := fit.Model, fit.Holdout
		if err := m.WriteFile(*out); err != nil {
			return err
		}
		if *jsonOut {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", " ")
			return enc.Encode(map[string]any{"model": *out, "rows": fit.Rows, "nets": len(m.Nets),
				"hidden": fc.Hidden, "epochs": fc.Epochs, "seed": fc.Seed, "dataset_hash": m.Provenance.DatasetHash, "holdout": mt})
		}
		fmt.Fprintf(stdout, "trained %dx%d %s model: %s, %d-%d-1, %s on %s (seed %d)\n",
			m.W, m.H, m.Target, progress.Count(int64(len(m.Nets)), "network"), m.Inputs(), fc.Hidden,
			progress.Count(int64(fc.Epochs), "epoch"), progress.Count(int64(fit.Rows), "row"), fc.Seed)
		if mt != nil {
			fmt.Fprintf(stdout, "held-out %s\n", mt)
		}
		fmt.Fprintf(stdout, "wrote %s\n", *out)
		return nil
	}
	register(c)
}
