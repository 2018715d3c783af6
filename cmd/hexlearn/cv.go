package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/train"
)

// learnFlags are the training flags cv and train share.
type learnFlags struct {
	data, size, target, output string
	perPly                     bool
	plyWidth, batch            int
	lr                         float64
	seed                       uint64
	openOnly                   bool
}

func (l *learnFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.data, "data", "", "dataset file or directory of *.arrow files (required)")
	fs.StringVar(&l.size, "size", "", "board size N or WxH (required)")
	fs.StringVar(&l.target, "target", "value", "value (the exact evaluator's value) or winner (the solver's true winner)")
	fs.StringVar(&l.output, "output", "", "output unit for a value target: tanh (default) or linear")
	fs.BoolVar(&l.perPly, "per-ply", false, "one network per ply range (the paper's layered partition)")
	fs.IntVar(&l.plyWidth, "ply-width", 1, "plies per range with --per-ply")
	fs.IntVar(&l.batch, "batch", 256, "minibatch size")
	fs.Float64Var(&l.lr, "lr", 0.003, "Adam learning rate")
	fs.Uint64Var(&l.seed, "seed", 1, "seed for folds, initialisation and shuffling")
	fs.BoolVar(&l.openOnly, "open-only", false, "use only open positions (|value| < 20): decided positions carry the circuit's clamped values and are left to VCs and patterns")
}

// load checks the flags and reads the examples.
func (l *learnFlags) load() (*train.Examples, train.Config, error) {
	var cfg train.Config
	if l.data == "" {
		return nil, cfg, usageErr("--data is required")
	}
	if err := inputPath("data", l.data); err != nil {
		return nil, cfg, err
	}
	w, h, err := parseBoardSize(l.size)
	if err != nil {
		return nil, cfg, err
	}
	switch l.target {
	case "value", "winner":
	default:
		return nil, cfg, usageErr("--target must be value or winner, got %q", l.target)
	}
	switch l.output {
	case "", "tanh", "linear":
	default:
		return nil, cfg, usageErr("--output must be tanh or linear, got %q", l.output)
	}
	if l.target == "winner" && l.output != "" {
		return nil, cfg, usageErr("--output applies to the value target only (winner uses a logistic output)")
	}
	if err := intIn("ply-width", l.plyWidth, 1, hex.MaxSize*hex.MaxSize); err != nil {
		return nil, cfg, err
	}
	if err := intIn("batch", l.batch, 1, 1<<20); err != nil {
		return nil, cfg, err
	}
	if !(l.lr > 0) || l.lr > 1 {
		return nil, cfg, usageErr("--lr %g: want a learning rate in (0, 1]", l.lr)
	}
	cfg = train.Config{BatchSize: l.batch, LearnRate: l.lr, Seed: l.seed, Target: model.Target(l.target), Output: model.Output(l.output)}
	ex, err := train.ReadExamples(l.data, w, h)
	if err != nil {
		return nil, cfg, err
	}
	if l.openOnly {
		if ex = ex.Open(circuit.LogClamp); ex.Rows() == 0 {
			return nil, cfg, fmt.Errorf("%s: no open positions (every row is decided)", l.data)
		}
	}
	return ex, cfg, nil
}

func parseBoardSize(s string) (int, int, error) {
	if s == "" {
		return 0, 0, usageErr("--size is required")
	}
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		hs = ws
	}
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil || w < 1 || h < 1 || w > 19 || h > 19 {
		return 0, 0, usageErr("--size must be N or WxH with sides 1..19, got %q", s)
	}
	return w, h, nil
}

func parseInts(s, flagName string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > 100_000 {
			return nil, usageErr("--%s %q: want a comma-separated list of integers 1..100000", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}

func init() {
	c := &command{
		name:    "cv",
		writes:  true,
		summary: "cross-validation sweep over hidden sizes and epochs",
		usage: `hexlearn cv --data DIR --size N [--folds 10] [--hidden 10,20,30,40,50] [--epochs 300]
            [--per-ply [--ply-width W]] [--target value|winner] [--seed S] --report DIR [--json]

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
		ex, base, err := lf.load()
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := os.MkdirAll(*report, 0o755); err != nil {
			return fmt.Errorf("create report directory: %w", err)
		}
		type part struct {
			name, label string
			ex          *train.Examples
		}
		parts := []part{{"sweep", "", ex}}
		if lf.perPly {
			parts = nil
			for _, r := range ex.PlyRanges(lf.plyWidth) {
				p := ex.Partition(r)
				if p.Rows() < 2*(*folds) {
					fmt.Fprintf(stderr, "cv: skipping plies %d..%d: %d rows are too few for %d folds\n", r.MinPly, r.MaxPly, p.Rows(), *folds)
					continue
				}
				parts = append(parts, part{fmt.Sprintf("plies-%02d-%02d", r.MinPly, r.MaxPly), fmt.Sprintf("plies %d..%d", r.MinPly, r.MaxPly), p})
			}
			if len(parts) == 0 {
				return fmt.Errorf("no ply range has enough rows for %d folds", *folds)
			}
		}
		var results []*train.SweepResult
		for _, p := range parts {
			desc := "cv"
			if p.label != "" {
				desc += " " + p.label
			}
			total := len(hidden) * *folds * *epochs
			bar := progress.New(stderr, desc, int64(total), "epoch")
			sc := train.SweepConfig{Folds: *folds, Hidden: hidden, Epochs: *epochs, Base: base, Workers: *workers,
				TieTolerance: *tie, Progress: func(d, _ int) { bar.Set(int64(d)) }}
			res, err := train.Sweep(ctx, p.ex, sc)
			bar.Done(err)
			if err != nil {
				return err
			}
			res.Label = p.label
			mt, m, held, err := train.HoldoutCheck(ctx, p.ex, res, base)
			if err != nil {
				return fmt.Errorf("held-out check: %w", err)
			}
			res.Holdout = mt
			if *agree > 0 {
				if res.Agreement, err = bestMoveAgreement(m, held, *agree); err != nil {
					return err
				}
			}
			paths, err := res.WriteReport(*report, p.name)
			if err != nil {
				return err
			}
			js, err := json.MarshalIndent(res, "", " ")
			if err != nil {
				return err
			}
			jpath := *report + "/" + p.name + ".json"
			if err := fileutil.WriteFileAtomic(jpath, append(js, '\n')); err != nil {
				return err
			}
			paths = append(paths, jpath)
			results = append(results, res)
			if !*jsonOut {
				what := fmt.Sprintf("%dx%d", res.W, res.H)
				if p.label != "" {
					what += " " + p.label
				}
				fmt.Fprintf(stdout, "%s: %d rows, %d folds: best %d hidden, %d epochs (mean validation error %.5g, std %.3g); %.3f s/epoch/run, %.1f s\n",
					what, res.Rows, res.Folds, res.BestHidden, res.BestEpochs, res.BestMean, res.BestStd, res.EpochSeconds, res.Seconds)
				fmt.Fprintf(stdout, "  held-out %s", mt)
				if a := res.Agreement; a != nil && a.Total > 0 {
					fmt.Fprintf(stdout, "; depth-1 move rated best by the exact evaluator on %d of %d positions", a.Same, a.Total)
				}
				fmt.Fprintf(stdout, "\n  report: %s\n", strings.Join(paths, " "))
			}
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
			for _, r := range results {
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

// bestMoveAgreement compares the depth-1 best moves of model m and the exact evaluator
// on up to n undecided positions of held (in row order).
func bestMoveAgreement(m *model.Model, held *train.Examples, n int) (*train.Agreement, error) {
	learned, err := model.NewEvaluator(m, held.W, held.H)
	if err != nil {
		return nil, err
	}
	exact, err := circuit.NewExact(circuit.DefaultExactConfig())
	if err != nil {
		return nil, err
	}
	var boards []*hex.Board
	for i := 0; i < held.Rows() && len(boards) < n; i++ {
		b, err := held.Board(i)
		if err != nil {
			return nil, err
		}
		if b.Winner() == hex.Empty && b.NumStones() < held.Cells() {
			boards = append(boards, b)
		}
	}
	same, total := model.Agreement(boards, exact, learned)
	return &train.Agreement{Same: same, Total: total}, nil
}
