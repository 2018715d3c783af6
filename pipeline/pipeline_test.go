package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/internal/version"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
	"github.com/hexlearn/hexlearn/train"
)

// TestBuildBuiltinsDeterministic regenerates a tiny built-in model twice from nothing:
// the same seed gives the same corpus and the same model bytes, and the model is valid
// for its size.
func TestBuildBuiltinsDeterministic(t *testing.T) {
	recipes := []BuiltinRecipe{{Size: 4, Positions: 600, Hidden: 4, Epochs: 3}}
	var files [2][]byte
	var corpora [2][]byte
	for i := range files {
		dir := t.TempDir()
		cfg := BuiltinsConfig{Recipes: recipes, Seed: 3, Workers: 1 + i, Work: filepath.Join(dir, "work"), Out: filepath.Join(dir, "out")}
		meter := &countMeter{}
		var told []BuiltinReport
		cfg.Meter = meter
		cfg.OnModel = func(r BuiltinReport) { told = append(told, r) }
		reps, err := BuildBuiltins(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if len(reps) != 1 || reps[0].Rows != 600 || reps[0].Games == 0 || reps[0].Hidden != 4 || !reflect.DeepEqual(told, reps) {
			t.Fatalf("reports %+v, told %+v", reps, told)
		}
		if want := []string{"4x4 self-play/600/position", "4x4 training/3/epoch"}; !reflect.DeepEqual(meter.parts, want) ||
			len(meter.errs) != 2 || meter.errs[0] != nil || meter.errs[1] != nil {
			t.Fatalf("progress %+v, want parts %q", meter, want)
		}
		m, err := model.LoadFor(reps[0].File, 4, 4)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Nets) != 1 || m.Nets[0].Hidden != 4 {
			t.Fatalf("model %+v", m.Nets)
		}
		if files[i], err = os.ReadFile(reps[0].File); err != nil {
			t.Fatal(err)
		}
		matches, _ := filepath.Glob(filepath.Join(cfg.Work, "corpus-4x4-seed3-600", "*.arrow"))
		if len(matches) != 1 {
			t.Fatalf("corpus files %v", matches)
		}
		if corpora[i], err = os.ReadFile(matches[0]); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(corpora[0], corpora[1]) {
		t.Error("same seed, different corpus bytes")
	}
	if !bytes.Equal(files[0], files[1]) {
		t.Error("same seed, different model bytes")
	}
}

func TestBuildBuiltinsErrors(t *testing.T) {
	if _, err := BuildBuiltins(context.Background(), BuiltinsConfig{}); !errors.Is(err, ErrConfig) {
		t.Errorf("no directories: %v", err)
	}
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := BuildBuiltins(ctx, BuiltinsConfig{Work: filepath.Join(dir, "w"), Out: filepath.Join(dir, "o")})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("cancelled run left %d entries", len(ents))
	}
	if _, err := Fit(context.Background(), FitConfig{Hidden: 0, Epochs: 1}); !errors.Is(err, ErrConfig) {
		t.Errorf("fit hidden 0: %v", err)
	}
	if _, err := Corpus(context.Background(), dir, CorpusConfig{Width: 3, Height: 3}); !errors.Is(err, ErrConfig) {
		t.Errorf("corpus of 0 positions: %v", err)
	}
}

// TestBuildBuiltinsReusedWork: a work directory that holds the corpus of an earlier run
// with another seed gives the same model as a fresh one (the corpora are not mixed).
func TestBuildBuiltinsReusedWork(t *testing.T) {
	recipes := []BuiltinRecipe{{Size: 4, Positions: 600, Hidden: 4, Epochs: 3}}
	build := func(work, out string, seed uint64) []byte {
		t.Helper()
		reps, err := BuildBuiltins(context.Background(), BuiltinsConfig{Recipes: recipes, Seed: seed, Workers: 1, Work: work, Out: out})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(reps[0].File)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	dir := t.TempDir()
	work := filepath.Join(dir, "work")
	build(work, filepath.Join(dir, "out1"), 3)
	reused := build(work, filepath.Join(dir, "out2"), 4)
	fresh := build(filepath.Join(dir, "work2"), filepath.Join(dir, "out3"), 4)
	if !bytes.Equal(reused, fresh) {
		t.Error("seed 4 in a work directory with a seed-3 corpus: model differs from a fresh build")
	}
}

// TestBuildBuiltinsFeatures: a recipe's input layer, step size and target reach the
// model (its feature set, input count, target and recorded configuration), as the
// 11x11 recipe needs.
func TestBuildBuiltinsFeatures(t *testing.T) {
	dir := t.TempDir()
	recipes := []BuiltinRecipe{{Size: 4, Positions: 300, Hidden: 4, Epochs: 2, Features: model.FeaturesTwoDist, LearnRate: 0.001, Target: model.TargetPlayouts}}
	reps, err := BuildBuiltins(context.Background(), BuiltinsConfig{Recipes: recipes, Seed: 5, Workers: 1,
		Work: filepath.Join(dir, "work"), Out: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.LoadFor(reps[0].File, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	if m.Features != model.FeaturesTwoDist || reps[0].Inputs != m.Inputs() || m.Inputs() == 16 {
		t.Fatalf("features %q, inputs %d (report %d)", m.Features, m.Inputs(), reps[0].Inputs)
	}
	if !strings.Contains(m.Provenance.Config, "lr=0.001") {
		t.Fatalf("config %q does not record the step size", m.Provenance.Config)
	}
	if m.Target != model.TargetPlayouts || !strings.Contains(m.Provenance.Config, fmt.Sprintf("playouts=%d", train.DefaultPlayouts)) ||
		!strings.Contains(reps[0].Quality, "playout RMSE") {
		t.Fatalf("target %q, config %q, quality %q", m.Target, m.Provenance.Config, reps[0].Quality)
	}
}

// TestBuiltinsFollowRecipes: every built-in model has its recipe's target, input
// layer and hidden units, and records its recipe's corpus size, the seed and the
// release, so the binary's models are what `hexlearn models build` remakes (the 5x5
// one is remade byte for byte by TestBuiltinRebuild).
func TestBuiltinsFollowRecipes(t *testing.T) {
	for _, r := range DefaultRecipes() {
		m, err := player.Builtin(r.Size, r.Size)
		if err != nil {
			t.Fatalf("%dx%d: %v", r.Size, r.Size, err)
		}
		target := r.Target
		if target == "" {
			target = model.TargetValue
		}
		features, hidden := r.Features, r.Hidden
		if r.Loop != nil { // a loop generation learns the search's targets, with the loop's network
			target, hidden = model.TargetSearch, r.Loop.Train.Hidden
			if r.Loop.Train.Features != "" {
				features = r.Loop.Train.Features
			}
		}
		if m.Target != target || m.Features != features || m.Nets[0].Hidden != hidden {
			t.Errorf("%dx%d: built-in target %q, features %q, %d hidden; recipe %q, %q, %d",
				r.Size, r.Size, m.Target, m.Features, m.Nets[0].Hidden, target, features, hidden)
		}
		want := fmt.Sprintf(" recipe=builtin positions=%d holdout=%g", r.Positions, builtinHoldout)
		if r.Loop != nil {
			// A loop generation records the recipe, the loop's seed and which generation it
			// is; its own training seed is the loop's, plus its iteration.
			want = fmt.Sprintf(" recipe=builtin positions=%d holdout=%g loop-seed=%d ", r.Positions, builtinHoldout, builtinSeed)
			if pv := m.Provenance; !strings.Contains(pv.Config, want) || pv.Loop == nil || pv.CodeVersion != version.Number {
				t.Errorf("%dx%d: provenance %+v, want config with %q, a loop generation, version %s", r.Size, r.Size, pv, want, version.Number)
			}
			if s := r.Loop.Solved; s > 0 && !strings.HasSuffix(m.Provenance.Config, fmt.Sprintf(" solved=%d solved-nodes=%d", s, r.Loop.SolvedNodes)) {
				t.Errorf("%dx%d: provenance %q does not name the recipe's solved set", r.Size, r.Size, m.Provenance.Config)
			}
			continue
		}
		if pv := m.Provenance; !strings.HasSuffix(pv.Config, want) || pv.Seed != builtinSeed || pv.CodeVersion != version.Number {
			t.Errorf("%dx%d: provenance %+v, want config ending %q, seed %d, version %s", r.Size, r.Size, pv, want, builtinSeed, version.Number)
		}
	}
}
