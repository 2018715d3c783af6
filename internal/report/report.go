// Package report writes experiment reports: a directory holding a Markdown summary,
// CSV tables and plots in PNG and SVG (gonum.org/v1/plot). Every file is written
// atomically, so an interrupted experiment leaves only whole files.
package report

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"image/color"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// Report accumulates a Markdown summary and writes its files into Dir.
type Report struct {
	Dir string
	md  bytes.Buffer
}

// New creates the report directory (and parents) and starts a summary titled title.
func New(dir, title string) (*Report, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("report: %w", err)
	}
	r := &Report{Dir: dir}
	fmt.Fprintf(&r.md, "# %s\n\n", title)
	return r, nil
}

// Printf appends Markdown text to the summary.
func (r *Report) Printf(format string, a ...any) { fmt.Fprintf(&r.md, format, a...) }

// Table appends a Markdown table to the summary and writes the same rows to name.csv.
func (r *Report) Table(name string, header []string, rows [][]string) error {
	r.md.WriteString("| " + strings.Join(header, " | ") + " |\n|")
	for range header {
		r.md.WriteString("---|")
	}
	r.md.WriteString("\n")
	for _, row := range rows {
		r.md.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	r.md.WriteString("\n")
	return r.CSV(name, header, rows)
}

// CSV writes name.csv with a header row.
func (r *Report) CSV(name string, header []string, rows [][]string) error {
	return fileutil.WriteAtomic(filepath.Join(r.Dir, name+".csv"), func(w io.Writer) error {
		cw := csv.NewWriter(w)
		if err := cw.Write(header); err != nil {
			return err
		}
		if err := cw.WriteAll(rows); err != nil {
			return err
		}
		cw.Flush()
		return cw.Error()
	})
}

// Image links a plot (written with SavePlot under name) into the summary.
func (r *Report) Image(name, caption string) {
	fmt.Fprintf(&r.md, "![%s](%s.png)\n\n*%s* ([SVG](%s.svg))\n\n", caption, name, caption, name)
}

// Close writes the summary as README.md.
func (r *Report) Close() error {
	return fileutil.WriteFileAtomic(filepath.Join(r.Dir, "README.md"), r.md.Bytes())
}

// SavePlot writes p as name.png and name.svg in the report directory.
func (r *Report) SavePlot(p *plot.Plot, name string) error {
	return SavePlot(p, r.Dir, name)
}

// SavePlot writes p as dir/name.png and dir/name.svg (6 x 4 inches).
func SavePlot(p *plot.Plot, dir, name string) error {
	for _, ext := range []string{"png", "svg"} {
		wt, err := p.WriterTo(6*vg.Inch, 4*vg.Inch, ext)
		if err != nil {
			return fmt.Errorf("report: plot %s.%s: %w", name, ext, err)
		}
		if err := fileutil.WriteAtomic(filepath.Join(dir, name+"."+ext), func(w io.Writer) error {
			_, err := wt.WriteTo(w)
			return err
		}); err != nil {
			return fmt.Errorf("report: plot %s.%s: %w", name, ext, err)
		}
	}
	return nil
}

// Palette is the colour cycle of every plot hexlearn draws (opaque, straight alpha).
var Palette = []color.NRGBA{
	{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255},
	{255, 127, 14, 255}, {148, 103, 189, 255}, {140, 86, 75, 255},
}

// Color returns the palette colour of series i.
func Color(i int) color.NRGBA { return Palette[i%len(Palette)] }

// Translucent returns the palette colour of series i with opacity alpha (0..255), for
// fills that overlap. It is a straight-alpha colour, so it renders as the same hue.
func Translucent(i int, alpha uint8) color.NRGBA {
	c := Color(i)
	c.A = alpha
	return c
}

// Scatter returns a scatter plot of y against x with the diagonal y = x when diag is set.
func Scatter(title, xlabel, ylabel string, x, y []float64, diag bool) (*plot.Plot, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("report: scatter %q: %d x values, %d y values", title, len(x), len(y))
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	pts := make(plotter.XYs, len(x))
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range x {
		pts[i].X, pts[i].Y = x[i], y[i]
		lo = math.Min(lo, math.Min(x[i], y[i]))
		hi = math.Max(hi, math.Max(x[i], y[i]))
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return nil, fmt.Errorf("report: scatter %q: %w", title, err)
	}
	s.GlyphStyle.Color = Color(0)
	s.GlyphStyle.Radius = vg.Points(2)
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(s, plotter.NewGrid())
	if diag && len(x) > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
		if err == nil {
			l.Color = color.Gray{128}
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
			p.Add(l)
			p.Legend.Add("y = x", l)
			p.Legend.Top, p.Legend.Left = true, true
		}
	}
	return p, nil
}

// Histograms returns overlaid histograms (bins each) of the named samples, counted in
// ylabel units (e.g. "positions"). The bins are shared, so the bars line up.
func Histograms(title, xlabel, ylabel string, bins int, names []string, samples [][]float64) (*plot.Plot, error) {
	if len(names) != len(samples) {
		return nil, fmt.Errorf("report: histogram %q: %d names, %d samples", title, len(names), len(samples))
	}
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range samples {
		for _, v := range s {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		h, err := plotter.NewHist(plotter.Values(s), bins)
		if err != nil {
			return nil, fmt.Errorf("report: histogram %q: %w", names[i], err)
		}
		if hi > lo { // rebin onto the common range
			h.Bins = commonBins(s, lo, hi, bins)
		}
		h.LineStyle.Color = Color(i)
		h.FillColor = Translucent(i, 90)
		p.Add(h)
		p.Legend.Add(names[i], h)
	}
	p.Y.Min = 0
	p.Legend.Top = true
	return p, nil
}

// commonBins counts s into n equal bins over [lo, hi].
func commonBins(s []float64, lo, hi float64, n int) []plotter.HistogramBin {
	w := (hi - lo) / float64(n)
	bins := make([]plotter.HistogramBin, n)
	for i := range bins {
		bins[i].Min, bins[i].Max = lo+float64(i)*w, lo+float64(i+1)*w
	}
	for _, v := range s {
		i := min(n-1, max(0, int((v-lo)/w)))
		bins[i].Weight++
	}
	return bins
}

// Series is one line of a line plot, with optional error bars: Err gives symmetric
// ones (± Err), Low and High the ends of an interval (e.g. a 95% confidence interval).
type Series struct {
	Name      string
	X, Y      []float64
	Err       []float64 // nil: none
	Low, High []float64 // nil: none
}

// Lines returns a line plot of the series, with error bars where given. yMax > 0
// extends the y axis to at least yMax (e.g. 100 for percentages).
func Lines(title, xlabel, ylabel string, series []Series, yMax float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if len(s.X) != len(s.Y) || (s.Err != nil && len(s.Err) != len(s.Y)) ||
			(s.Low != nil || s.High != nil) && (len(s.Low) != len(s.Y) || len(s.High) != len(s.Y)) {
			return nil, fmt.Errorf("report: series %q has mismatched lengths", s.Name)
		}
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j].X, pts[j].Y = s.X[j], s.Y[j]
		}
		l, dots, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("report: series %q: %w", s.Name, err)
		}
		l.Color = Color(i)
		dots.GlyphStyle.Color = Color(i)
		dots.GlyphStyle.Shape = draw.CircleGlyph{}
		dots.GlyphStyle.Radius = vg.Points(1.5)
		p.Add(l, dots)
		p.Legend.Add(s.Name, l, dots)
		if s.Err != nil || s.Low != nil {
			e := make(errPoints, len(s.X))
			for j := range s.X {
				e[j] = errPoint{x: s.X[j], y: s.Y[j]}
				if s.Err != nil {
					e[j].lo, e[j].hi = s.Err[j], s.Err[j]
				} else {
					e[j].lo, e[j].hi = s.Y[j]-s.Low[j], s.High[j]-s.Y[j]
				}
			}
			eb, err := plotter.NewYErrorBars(e)
			if err != nil {
				return nil, fmt.Errorf("report: series %q error bars: %w", s.Name, err)
			}
			eb.Color = Color(i)
			p.Add(eb)
		}
	}
	if yMax > 0 {
		p.Y.Max = math.Max(p.Y.Max, yMax)
	}
	p.Legend.Top = true
	return p, nil
}

type errPoint struct{ x, y, lo, hi float64 }
type errPoints []errPoint

func (e errPoints) Len() int                    { return len(e) }
func (e errPoints) XY(i int) (float64, float64) { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) {
	return e[i].lo, e[i].hi
}

// Bar is one bar of a bar chart: a value and, when Lo < Hi, an interval around it
// (e.g. a 95% confidence interval) drawn as an error bar.
type Bar struct {
	Label     string
	Value     float64
	Lo, Hi    float64
	hasBounds bool
}

// WithInterval returns b with the interval [lo, hi].
func (b Bar) WithInterval(lo, hi float64) Bar { b.Lo, b.Hi, b.hasBounds = lo, hi, true; return b }

// Bars returns a bar chart with one labelled bar per entry, the y axis from 0 (or the
// lowest value) to at least yMax (0: fit the data and the intervals).
func Bars(title, ylabel string, bars []Bar, yMax float64) (*plot.Plot, error) {
	if len(bars) == 0 {
		return nil, fmt.Errorf("report: bars %q: no bars", title)
	}
	p := plot.New()
	p.Title.Text, p.Y.Label.Text = title, ylabel
	v := make(plotter.Values, len(bars))
	labels := make([]string, len(bars))
	var e errPoints
	top, bottom := 0.0, 0.0
	for i, b := range bars {
		v[i], labels[i] = b.Value, b.Label
		top, bottom = math.Max(top, b.Value), math.Min(bottom, b.Value)
		if b.hasBounds {
			e = append(e, errPoint{x: float64(i), y: b.Value, lo: b.Value - b.Lo, hi: b.Hi - b.Value})
			top, bottom = math.Max(top, b.Hi), math.Min(bottom, b.Lo)
		}
	}
	bc, err := plotter.NewBarChart(v, vg.Points(40))
	if err != nil {
		return nil, fmt.Errorf("report: bars %q: %w", title, err)
	}
	bc.Color = Color(0)
	bc.LineStyle.Color = Color(0)
	p.Add(plotter.NewGrid(), bc)
	if len(e) > 0 {
		eb, err := plotter.NewYErrorBars(e)
		if err != nil {
			return nil, fmt.Errorf("report: bars %q: %w", title, err)
		}
		eb.Color = color.Gray{40}
		eb.CapWidth = vg.Points(10)
		p.Add(eb)
	}
	p.NominalX(labels...)
	p.X.Min, p.X.Max = -0.6, float64(len(bars))-0.4 // whole bars, with a margin
	p.Y.Min = bottom
	p.Y.Max = math.Max(yMax, top*1.05)
	if p.Y.Max <= p.Y.Min {
		p.Y.Max = p.Y.Min + 1
	}
	return p, nil
}
