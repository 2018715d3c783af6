package train

import (
	"encoding/csv"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// WriteReport writes the sweep report into dir (which must exist): NAME.csv (mean,
// standard deviation and per-fold validation error for every hidden size and epoch
// count), NAME.md (summary, selection and a table at epoch checkpoints), NAME.png and
// NAME.svg (validation error against epochs per hidden size, with error bars of one
// standard deviation). Every file is written atomically. It returns the paths.
func (r *SweepResult) WriteReport(dir, name string) ([]string, error) {
	base := filepath.Join(dir, name)
	var paths []string
	if err := fileutil.WriteAtomic(base+".csv", r.WriteCSV); err != nil {
		return nil, err
	}
	paths = append(paths, base+".csv")
	if err := fileutil.WriteAtomic(base+".md", func(w io.Writer) error { return r.WriteMarkdown(w, name) }); err != nil {
		return nil, err
	}
	paths = append(paths, base+".md")
	p, err := r.Plot()
	if err != nil {
		return nil, err
	}
	for _, format := range []string{"png", "svg"} {
		wt, err := p.WriterTo(16*vg.Centimeter, 10*vg.Centimeter, format)
		if err != nil {
			return nil, fmt.Errorf("train: plot: %w", err)
		}
		path := base + "." + format
		if err := fileutil.WriteAtomic(path, func(w io.Writer) error { _, err := wt.WriteTo(w); return err }); err != nil {
			return nil, err
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// WriteCSV writes one line per (hidden, epochs): hidden, epochs, mean, std, then the
// validation error of each fold.
func (r *SweepResult) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	head := []string{"hidden", "epochs", "mean", "std"}
	for f := 1; f <= r.Folds; f++ {
		head = append(head, "fold"+strconv.Itoa(f))
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
	for i, h := range r.Hidden {
		for e := 0; e < r.Epochs; e++ {
			rec := []string{strconv.Itoa(h), strconv.Itoa(e + 1), g(r.Mean[i][e]), g(r.Std[i][e])}
			for f := 0; f < r.Folds; f++ {
				rec = append(rec, g(r.Err[i][f][e]))
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Checkpoints returns the epoch counts the Markdown table shows: about ten evenly
// spaced counts, the last epoch and the selected one.
func (r *SweepResult) Checkpoints() []int {
	step := max(1, r.Epochs/10)
	var cs []int
	seen := map[int]bool{}
	add := func(e int) {
		if !seen[e] && e >= 1 && e <= r.Epochs {
			seen[e] = true
			cs = append(cs, e)
		}
	}
	for e := step; e <= r.Epochs; e += step {
		add(e)
	}
	add(r.Epochs)
	add(r.BestEpochs)
	// sort
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j] < cs[j-1]; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	return cs
}

func (r *SweepResult) errorName() string {
	if r.Output == "logistic" {
		return "mean cross-entropy of the winner"
	}
	return "mean squared error of the scaled target"
}

// WriteMarkdown writes the human-readable report.
func (r *SweepResult) WriteMarkdown(w io.Writer, name string) error {
	var b strings.Builder
	title := fmt.Sprintf("Cross-validation sweep, %dx%d", r.W, r.H)
	if r.Label != "" {
		title += ", " + r.Label
	}
	fmt.Fprintf(&b, "# %s\n\n", title)
	fmt.Fprintf(&b, "- examples: %d (data %s)\n", r.Rows, r.DataHash)
	fmt.Fprintf(&b, "- %d-fold cross-validation, hidden sizes %v, up to %d epochs, seed %d\n", r.Folds, r.Hidden, r.Epochs, r.Seed)
	fmt.Fprintf(&b, "- target %s, output %s; validation error = %s\n", r.Target, r.Output, r.errorName())
	fmt.Fprintf(&b, "- selection (minimum mean validation error, ties within %g broken by the smaller standard deviation): **%d hidden units, %d epochs** (mean %.6g, std %.3g)\n",
		r.TieTolerance, r.BestHidden, r.BestEpochs, r.BestMean, r.BestStd)
	fmt.Fprintf(&b, "- wall time %.1f s; %.4f s per epoch per run\n", r.Seconds, r.EpochSeconds)
	if m := r.Holdout; m != nil {
		fmt.Fprintf(&b, "- held-out check of the selection against the exact evaluator, %s\n", m)
	}
	if a := r.Agreement; a != nil && a.Total > 0 {
		fmt.Fprintf(&b, "- the learned depth-1 move is one the exact evaluator rates best on %d of %d held-out positions (%.1f%%)\n",
			a.Same, a.Total, 100*float64(a.Same)/float64(a.Total))
	}
	fmt.Fprintf(&b, "\nMean ± standard deviation of the validation error over folds (full table: %s.csv; plot: %s.png, %s.svg).\n\n", name, name, name)
	cs := r.Checkpoints()
	b.WriteString("| hidden |")
	for _, e := range cs {
		fmt.Fprintf(&b, " %d ep |", e)
	}
	b.WriteString("\n|---:|")
	for range cs {
		b.WriteString("---:|")
	}
	b.WriteString("\n")
	for i, h := range r.Hidden {
		fmt.Fprintf(&b, "| %d |", h)
		for _, e := range cs {
			cell := fmt.Sprintf("%.4g ± %.2g", r.Mean[i][e-1], r.Std[i][e-1])
			if h == r.BestHidden && e == r.BestEpochs {
				cell = "**" + cell + "**"
			}
			fmt.Fprintf(&b, " %s |", cell)
		}
		b.WriteString("\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

type errPoints struct {
	x, y, s []float64
}

func (p errPoints) Len() int                        { return len(p.x) }
func (p errPoints) XY(i int) (float64, float64)     { return p.x[i], p.y[i] }
func (p errPoints) YError(i int) (float64, float64) { return p.s[i], p.s[i] }
func (p errPoints) appendPoint(x, y, s float64) errPoints {
	p.x, p.y, p.s = append(p.x, x), append(p.y, y), append(p.s, s)
	return p
}

// Plot draws mean validation error against epochs, one line per hidden size, with
// error bars (± one standard deviation over folds) at about 15 epochs per line.
func (r *SweepResult) Plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("%d-fold CV on %dx%d: validation error vs epochs", r.Folds, r.W, r.H)
	if r.Label != "" {
		p.Title.Text += " (" + r.Label + ")"
	}
	p.X.Label.Text = "epochs"
	p.Y.Label.Text = "validation error (" + r.shortErrorName() + ")"
	p.Add(plotter.NewGrid())
	step := max(1, r.Epochs/15)
	for i, h := range r.Hidden {
		line := make(plotter.XYs, r.Epochs)
		var bars errPoints
		for e := 0; e < r.Epochs; e++ {
			line[e].X, line[e].Y = float64(e+1), r.Mean[i][e]
			// Offset the bars of each hidden size a little so they do not hide each other.
			if (e+1)%step == 0 || e == 0 {
				bars = bars.appendPoint(float64(e+1)+float64(i)*float64(step)/float64(2*len(r.Hidden)), r.Mean[i][e], r.Std[i][e])
			}
		}
		l, err := plotter.NewLine(line)
		if err != nil {
			return nil, fmt.Errorf("train: plot: %w", err)
		}
		l.Color = report.Color(i)
		l.Dashes = plotutil.Dashes(i)
		eb, err := plotter.NewYErrorBars(bars)
		if err != nil {
			return nil, fmt.Errorf("train: plot: %w", err)
		}
		eb.Color = report.Color(i)
		p.Add(l, eb)
		p.Legend.Add(fmt.Sprintf("%d hidden", h), l)
	}
	p.Legend.Top = true
	return p, nil
}

func (r *SweepResult) shortErrorName() string {
	if r.Output == "logistic" {
		return "cross-entropy"
	}
	return "MSE of scaled target"
}
