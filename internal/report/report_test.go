package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReportWritesEveryFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	r, err := New(dir, "Test report")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Table("t", []string{"a", "b"}, [][]string{{"1", "2"}, {"3", "4"}}); err != nil {
		t.Fatal(err)
	}
	p, err := Scatter("s", "x", "y", []float64{1, 2, 3}, []float64{1, 2.5, 2}, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SavePlot(p, "scatter"); err != nil {
		t.Fatal(err)
	}
	h, err := Histograms("h", "x", "count", 10, []string{"a", "b"}, [][]float64{{1, 2, 2, 3}, {2, 3, 3, 4}})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SavePlot(h, "hist"); err != nil {
		t.Fatal(err)
	}
	l, err := Lines("l", "x", "y", []Series{{Name: "a", X: []float64{1, 2}, Y: []float64{3, 4}, Err: []float64{0.1, 0.2}}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SavePlot(l, "lines"); err != nil {
		t.Fatal(err)
	}
	bars, err := Bars("b", "s", []Bar{{Label: "x", Value: 1}, {Label: "y", Value: 3}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.SavePlot(bars, "bars"); err != nil {
		t.Fatal(err)
	}
	if _, err := Bars("bad", "", nil, 0); err == nil {
		t.Error("empty bar chart accepted")
	}
	r.Image("scatter", "a scatter")
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"README.md", "t.csv", "scatter.png", "scatter.svg", "hist.png", "hist.svg", "lines.png", "lines.svg", "bars.png", "bars.svg"} {
		st, err := os.Stat(filepath.Join(dir, f))
		if err != nil || st.Size() == 0 {
			t.Errorf("%s missing or empty: %v", f, err)
		}
	}
	md, _ := os.ReadFile(filepath.Join(dir, "README.md"))
	if !strings.Contains(string(md), "| 3 | 4 |") || !strings.Contains(string(md), "scatter.png") {
		t.Errorf("summary lacks table or image:\n%s", md)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "t.csv"))
	if string(csv) != "a,b\n1,2\n3,4\n" {
		t.Errorf("csv = %q", csv)
	}
	if _, err := Lines("bad", "x", "y", []Series{{X: []float64{1}, Y: nil}}, 0); err == nil {
		t.Error("mismatched series accepted")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}
