package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/selfplay"
)

// corpusAndModel makes the tiny corpus and model of the golden test: 600 positions of
// 4x4 self-play with seed 3 (two workers), and a 16-4-1 network trained 3 epochs on
// its open positions with 10% held out. It returns the corpus directory, the
// digest of the corpus rows and the digest of the model file (code version blanked:
// it names the build).
func corpusAndModel(t *testing.T) (dir, rows, modelSum string) {
	t.Helper()
	ctx := context.Background()
	dir = filepath.Join(t.TempDir(), "corpus")
	if _, err := Corpus(ctx, dir, CorpusConfig{Width: 4, Height: 4, Positions: 600, Seed: 3, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	tab, err := dataset.ReadPath(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for i := range tab.Rows {
		fmt.Fprintf(h, "%+v\n", tab.Rows[i])
	}
	rows = hex.EncodeToString(h.Sum(nil))
	meter := &countMeter{}
	fit, err := Fit(ctx, FitConfig{Data: dir, Width: 4, Height: 4, Hidden: 4, Epochs: 3, Seed: 3, OpenOnly: true, Holdout: 0.1,
		Meter: meter})
	if err != nil {
		t.Fatal(err)
	}
	if len(meter.parts) != 1 || meter.parts[0] != "/3/epoch" || meter.done != 3 || len(meter.errs) != 1 || meter.errs[0] != nil {
		t.Errorf("fit progress %+v", meter)
	}
	fit.Model.Provenance.CodeVersion = ""
	path := filepath.Join(t.TempDir(), "m.model")
	if err := fit.Model.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return dir, rows, hex.EncodeToString(s[:])
}

// TestGoldenCorpusAndModel pins the rows of a tiny self-play corpus and the bytes of
// the model trained on it (testdata/golden.sha256).
func TestGoldenCorpusAndModel(t *testing.T) {
	want := readGolden(t)
	_, rows, m := corpusAndModel(t)
	if rows != want["corpus.rows"] {
		t.Errorf("corpus rows digest %s, want %s", rows, want["corpus.rows"])
	}
	if m != want["fit.model"] {
		t.Errorf("model digest %s, want %s", m, want["fit.model"])
	}
}

// TestCorpusAndFitOptions: Fit on preloaded Examples trains the same networks as Fit
// on the dataset path, and the demo's corpus options (mixed games, no opening, another
// exact configuration) change the corpus, deterministically.
func TestCorpusAndFitOptions(t *testing.T) {
	ctx := context.Background()
	dir, _, _ := corpusAndModel(t)
	ex, err := LoadExamples(dir, 4, 4, true)
	if err != nil {
		t.Fatal(err)
	}
	fc := FitConfig{Data: dir, Width: 4, Height: 4, Hidden: 4, Epochs: 3, Seed: 3}
	fromData, err := Fit(ctx, FitConfig{Data: dir, Width: 4, Height: 4, Hidden: 4, Epochs: 3, Seed: 3, OpenOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	fc.Examples = ex
	fromEx, err := Fit(ctx, fc)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromData.Model.Nets, fromEx.Model.Nets) || fromData.Rows != fromEx.Rows {
		t.Error("Fit on Examples and on the same open rows by path differ")
	}
	// PlyWidth trains one network per ply range (here one per ply), each covering its rows' plies.
	meterPP := &countMeter{}
	pp, err := Fit(ctx, FitConfig{Examples: ex, Width: 4, Height: 4, Hidden: 4, Epochs: 3, Seed: 3, PlyWidth: 1, Meter: meterPP})
	if err != nil {
		t.Fatal(err)
	}
	ranges := ex.PlyRanges(1)
	if len(ranges) < 2 || len(pp.Model.Nets) != len(ranges) {
		t.Fatalf("ply width 1: %d networks for ranges %v", len(pp.Model.Nets), ranges)
	}
	for i, r := range ranges {
		if n := pp.Model.Nets[i]; n.MinPly != r.MinPly || n.MaxPly != r.MaxPly {
			t.Errorf("network %d covers plies %d..%d, want %v", i, n.MinPly, n.MaxPly, r)
		}
	}
	if meterPP.done != int64(3*len(ranges)) {
		t.Errorf("per-ply fit reported %d epochs, want %d", meterPP.done, 3*len(ranges))
	}
	if _, err := Fit(ctx, FitConfig{Examples: ex, Width: 4, Height: 4, Hidden: 4, Epochs: 3, PlyWidth: -1}); !errors.Is(err, ErrConfig) {
		t.Errorf("ply width -1: %v", err)
	}
	exact := circuit.SearchExactConfig()
	digest := func(c CorpusConfig) string {
		t.Helper()
		d := filepath.Join(t.TempDir(), "c")
		if _, err := Corpus(ctx, d, c); err != nil {
			t.Fatal(err)
		}
		tab, err := dataset.ReadPath(d, nil)
		if err != nil {
			t.Fatal(err)
		}
		h := sha256.New()
		for i := range tab.Rows {
			fmt.Fprintf(h, "%+v\n", tab.Rows[i])
		}
		return hex.EncodeToString(h.Sum(nil))
	}
	meter := &countMeter{}
	demo := CorpusConfig{Width: 4, Height: 4, Positions: 300, Seed: 3, Workers: 1,
		Mode: selfplay.ModeMixed, Play: &Play{Depth: 2, K: 8}, Exact: &exact, Meter: meter}
	a := digest(demo)
	if meter.starts != 1 || meter.parts[0] != "/300/position" || meter.done != 300 || meter.count == 0 ||
		!meter.units["game"] || len(meter.errs) != 1 || meter.errs[0] != nil {
		t.Errorf("corpus progress %+v", meter)
	}
	demo.Workers = 2
	if b := digest(demo); a != b {
		t.Error("same seed, different mixed corpus")
	}
	if digest(CorpusConfig{Width: 4, Height: 4, Positions: 300, Seed: 3}) == a {
		t.Error("the corpus options changed nothing")
	}
}
