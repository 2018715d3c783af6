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

// Palette is the colour cycle used for series.
var Palette = []color.Color{
	color.RGBA{31, 119, 180, 255}, color.RGBA{214, 39, 40, 255}, color.RGBA{44, 160, 44, 255},
	color.RGBA{255, 127, 14, 255}, color.RGBA{148, 103, 189, 255}, color.RGBA{140, 86, 75, 255},
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
	s.GlyphStyle.Color = Palette[0]
	s.GlyphStyle.Radius = vg.Points(2)
	s.GlyphStyle.Shape = draw.CircleGlyph{}
	p.Add(s, plotter.NewGrid())
	if diag && len(x) > 0 {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: lo}, {X: hi, Y: hi}})
		if err == nil {
			l.Color = color.Gray{128}
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(4)}
			p.Add(l)
		}
	}
	return p, nil
}

// Histograms returns overlaid histograms (bins each) of the named samples.
func Histograms(title, xlabel string, bins int, names []string, samples [][]float64) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, "count"
	for i, s := range samples {
		if len(s) == 0 {
			continue
		}
		h, err := plotter.NewHist(plotter.Values(s), bins)
		if err != nil {
			return nil, fmt.Errorf("report: histogram %q: %w", names[i], err)
		}
		c := Palette[i%len(Palette)]
		h.LineStyle.Color = c
		r, g, b, _ := c.RGBA()
		h.FillColor = color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 90}
		p.Add(h)
		p.Legend.Add(names[i], h)
	}
	p.Legend.Top = true
	return p, nil
}

// Series is one line of a line plot, with optional symmetric error bars.
type Series struct {
	Name string
	X, Y []float64
	Err  []float64 // nil: no error bars
}

// Lines returns a line plot of the series, with error bars where given.
func Lines(title, xlabel, ylabel string, series []Series) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text, p.X.Label.Text, p.Y.Label.Text = title, xlabel, ylabel
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if len(s.X) != len(s.Y) || (s.Err != nil && len(s.Err) != len(s.Y)) {
			return nil, fmt.Errorf("report: series %q has mismatched lengths", s.Name)
		}
		pts := make(plotter.XYs, len(s.X))
		for j := range s.X {
			pts[j].X, pts[j].Y = s.X[j], s.Y[j]
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("report: series %q: %w", s.Name, err)
		}
		l.Color = Palette[i%len(Palette)]
		p.Add(l)
		p.Legend.Add(s.Name, l)
		if s.Err != nil {
			e := make(errPoints, len(s.X))
			for j := range s.X {
				e[j] = errPoint{s.X[j], s.Y[j], s.Err[j]}
			}
			eb, err := plotter.NewYErrorBars(e)
			if err != nil {
				return nil, fmt.Errorf("report: series %q error bars: %w", s.Name, err)
			}
			eb.Color = l.Color
			p.Add(eb)
		}
	}
	p.Legend.Top = true
	return p, nil
}

type errPoint struct{ x, y, e float64 }
type errPoints []errPoint

func (e errPoints) Len() int                    { return len(e) }
func (e errPoints) XY(i int) (float64, float64) { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) {
	return e[i].e, e[i].e
}

// Bars returns a bar chart with one labelled bar per value.
func Bars(title, ylabel string, labels []string, v []float64) (*plot.Plot, error) {
	if len(labels) != len(v) {
		return nil, fmt.Errorf("report: bars %q: %d labels, %d values", title, len(labels), len(v))
	}
	p := plot.New()
	p.Title.Text, p.Y.Label.Text = title, ylabel
	bc, err := plotter.NewBarChart(plotter.Values(v), vg.Points(40))
	if err != nil {
		return nil, fmt.Errorf("report: bars %q: %w", title, err)
	}
	bc.Color = Palette[0]
	p.Add(bc, plotter.NewGrid())
	p.NominalX(labels...)
	return p, nil
}
