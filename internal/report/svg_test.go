package report

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// plotKinds builds one plot of every kind the package draws.
func plotKinds(t *testing.T) map[string]*plot.Plot {
	t.Helper()
	out := map[string]*plot.Plot{}
	var err error
	if out["scatter"], err = Scatter("s", "exact value", "learned value", []float64{1, 2, 3}, []float64{1, 2.5, 2}, true); err != nil {
		t.Fatal(err)
	}
	if out["hist"], err = Histograms("h", "log10(µs)", "evaluations", 10, []string{"a", "b", "c"},
		[][]float64{{1, 2, 2, 3}, {2, 3, 3, 4}, {0.5, 5}}); err != nil {
		t.Fatal(err)
	}
	if out["lines"], err = Lines("l", "stones", "agreement (%)", []Series{
		{Name: "a", X: []float64{1, 2}, Y: []float64{30, 40}, Err: []float64{1, 2}},
		{Name: "b", X: []float64{1, 2}, Y: []float64{50, 60}, Low: []float64{45, 50}, High: []float64{55, 70}}}, 100); err != nil {
		t.Fatal(err)
	}
	if out["bars"], err = Bars("b", "win rate (%)", []Bar{(Bar{Label: "x", Value: 25}).WithInterval(10, 45), {Label: "y", Value: 50}}, 100); err != nil {
		t.Fatal(err)
	}
	return out
}

var hexColour = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// TestSVGColours writes every plot kind as SVG, parses it and checks that every fill
// and stroke colour is #rrggbb or none, and that the percentage plots reach 100%.
func TestSVGColours(t *testing.T) {
	dir := t.TempDir()
	for name, p := range plotKinds(t) {
		if err := SavePlot(p, dir, name); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, name+".svg"))
		if err != nil {
			t.Fatal(err)
		}
		dec := xml.NewDecoder(f)
		n := 0
		for {
			tok, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("%s.svg does not parse: %v", name, err)
			}
			el, ok := tok.(xml.StartElement)
			if !ok {
				continue
			}
			check := func(attr, v string) {
				v = strings.TrimSpace(v)
				if v == "none" || v == "" {
					return
				}
				n++
				if !hexColour.MatchString(v) {
					t.Errorf("%s.svg: <%s %s=%q> is not #rrggbb", name, el.Name.Local, attr, v)
				}
			}
			for _, a := range el.Attr {
				switch a.Name.Local {
				case "fill", "stroke":
					check(a.Name.Local, a.Value)
				case "style":
					for _, decl := range strings.Split(a.Value, ";") {
						k, v, _ := strings.Cut(decl, ":")
						if k = strings.TrimSpace(k); k == "fill" || k == "stroke" {
							check(k, v)
						}
					}
				}
			}
		}
		f.Close()
		if n == 0 {
			t.Errorf("%s.svg: no colours found (the test would check nothing)", name)
		}
	}
}

// TestAxesFit checks that a rate axis reaches 100% and that intervals fit the axis.
func TestAxesFit(t *testing.T) {
	ps := plotKinds(t)
	if b := ps["bars"]; b.Y.Max < 100 || b.Y.Min > 0 {
		t.Errorf("win-rate bars: y axis %g..%g, want 0..100", b.Y.Min, b.Y.Max)
	}
	if l := ps["lines"]; l.Y.Max < 100 {
		t.Errorf("percentage lines: y axis up to %g, want 100", l.Y.Max)
	}
	big, err := Bars("b", "s", []Bar{(Bar{Label: "x", Value: 5}).WithInterval(2, 9)}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if bars := ps["bars"]; bars.X.Min > -0.5 || bars.X.Max < 1.5 {
		t.Errorf("two bars on an x axis %g..%g: the outer bars are cut", bars.X.Min, bars.X.Max)
	}
	if big.Y.Max < 9 {
		t.Errorf("bar interval up to 9 but the axis stops at %g", big.Y.Max)
	}
	for name, p := range ps {
		if p.Y.Label.Text == "" {
			t.Errorf("%s: no y-axis label", name)
		}
	}
}
