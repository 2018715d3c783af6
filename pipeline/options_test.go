package pipeline

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/selfplay"
	"github.com/hexlearn/hexlearn/train"
)

// TestCorpusSettings: every setting of CorpusConfig reaches the games and is
// recorded in the files' metadata under the selfplay package's key, and FileName
// names the files Corpus writes.
func TestCorpusSettings(t *testing.T) {
	light := fmt.Sprintf("%+v", LightVC())
	for _, tc := range []struct {
		name  string
		c     CorpusConfig
		files int
		want  map[string]string // metadata entries of the first file
	}{
		{"defaults", CorpusConfig{Positions: 40}, 1,
			map[string]string{"depth": "2", "k": "8", "opening": "2", "games_per_file": "1000", "shards": "1", "mode": "self"}},
		{"play", CorpusConfig{Games: 3, Mode: selfplay.ModeRandom, Play: &Play{Depth: 1, K: 0, Opening: 0, Temperature: 0.5, TempPlies: 2, StopAtProof: true}}, 1,
			map[string]string{"depth": "1", "k": "0", "opening": "0", "temperature": "0.5", "temp_plies": "2", "stop_at_proof": "true", "mode": "random", "games": "3"}},
		{"shards and files", CorpusConfig{Games: 5, Shard: 1, Shards: 2, GamesPerFile: 1, Seed: 9}, 2,
			map[string]string{"shard": "1", "shards": "2", "games_per_file": "1", "seed": "9", "part": "0"}},
		{"light, labels, metadata", CorpusConfig{Games: 4, Mode: selfplay.ModePositions, Light: true, LabelNodes: 500, Timings: true,
			Metadata: map[string]string{"evaluator.light": "true"}}, 1,
			map[string]string{"evaluator.vc": light, "labeler": "solver", "labeler.max_nodes": "500", "evaluator.light": "true", "timings": "true"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.c
			c.Width, c.Height, c.Workers = 3, 3, 1
			dir := t.TempDir()
			res, err := Corpus(context.Background(), dir, c)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Files) != tc.files || filepath.Base(res.Files[0]) != c.FileName(0) {
				t.Fatalf("files %v, want %d named like %s", res.Files, tc.files, c.FileName(0))
			}
			tab, err := dataset.ReadFile(res.Files[0], nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got := tab.Meta.Config[k]; got != v {
					t.Errorf("metadata %s = %q, want %q", k, got, v)
				}
			}
			if c.LabelNodes > 0 {
				labelled := 0
				for _, r := range tab.Rows {
					if r.TrueWinner != hex.Empty {
						labelled++
					}
				}
				if labelled == 0 {
					t.Error("no row labelled")
				}
			}
		})
	}
	for _, c := range []CorpusConfig{
		{Width: 3, Height: 3},                                // neither positions nor games
		{Width: 3, Height: 3, Positions: 10, Games: 2},       // both
		{Width: 3, Height: 3, Games: 2, LabelNodes: -1},      // negative node limit
		{Width: 3, Height: 3, Games: 2, Play: &Play{}},       // depth 0
		{Width: 3, Height: 3, Games: 2, Shard: 2, Shards: 2}, // no such shard
	} {
		_, err := Corpus(context.Background(), t.TempDir(), c)
		if !errors.Is(err, ErrConfig) && !errors.Is(err, selfplay.ErrConfig) {
			t.Errorf("%+v: error %v, want a configuration error", c, err)
		}
	}
}

// TestFitSettings: Fit's rotations, its provenance (note, sweep, open-only), the
// targets beyond value and playouts, and the output unit and batch size.
func TestFitSettings(t *testing.T) {
	ctx := context.Background()
	dir, _, _ := corpusAndModel(t)
	ex, err := LoadExamples(dir, 4, 4, false)
	if err != nil {
		t.Fatal(err)
	}
	base := FitConfig{Data: dir, Examples: ex, Width: 4, Height: 4, Hidden: 3, Epochs: 2, Seed: 5, Holdout: 0.25}
	plain, err := Fit(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	rot := base
	rot.Rotate = true
	rotated, err := Fit(ctx, rot)
	if err != nil {
		t.Fatal(err)
	}
	part, _, err := train.SplitHoldout(ex, 0.25, 5)
	if err != nil {
		t.Fatal(err)
	}
	if want := part.WithRotations().Rows(); rotated.Rows != want || rotated.Rows <= plain.Rows {
		t.Errorf("rotated fit on %d rows, plain %d, want %d", rotated.Rows, plain.Rows, want)
	}
	sr := &train.SweepResult{Folds: 2, Rows: 9, DataHash: "sha256:x", Hidden: []int{3}, Epochs: 2, BestHidden: 3, BestEpochs: 2}
	noted := base
	noted.Note, noted.Sweep, noted.OpenOnly = "holdout=0.25", sr, true
	n, err := Fit(ctx, noted)
	if err != nil {
		t.Fatal(err)
	}
	if cfg := n.Model.Provenance.Config; !strings.HasSuffix(cfg, " open-only holdout=0.25") || strings.Contains(plain.Model.Provenance.Config, "open-only") {
		t.Errorf("provenance configs %q and %q", cfg, plain.Model.Provenance.Config)
	}
	if s := n.Model.Provenance.Sweep; !strings.Contains(s, "2-fold CV on 9 rows (sha256:x)") || plain.Model.Provenance.Sweep != "" {
		t.Errorf("sweep provenance %q", s)
	}
	for _, tc := range []struct {
		target model.Target
		output model.Output
	}{{model.TargetWinner, model.OutputLogistic}, {model.TargetOutcome, model.OutputLogistic}, {model.TargetValue, model.OutputLinear}} {
		c := base
		c.Target, c.BatchSize = tc.target, 7
		if tc.target == model.TargetValue {
			c.Output = model.OutputLinear
		}
		r, err := Fit(ctx, c)
		if err != nil {
			t.Fatalf("%s: %v", tc.target, err)
		}
		if r.Model.Target != tc.target || r.Model.Output != tc.output || !strings.Contains(r.Model.Provenance.Config, "batch=7") {
			t.Errorf("%s: model target %s output %s config %q", tc.target, r.Model.Target, r.Model.Output, r.Model.Provenance.Config)
		}
	}
}
