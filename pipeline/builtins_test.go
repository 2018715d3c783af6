package pipeline

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/internal/version"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline/loop"
	"github.com/hexlearn/hexlearn/player"
)

// builtinSeed is the seed the built-in models are made with ('hexlearn models
// build' without --seed).
const builtinSeed = 1

// TestBuiltinRebuild remakes the smallest built-in model (5x5) from nothing with its
// recipe and seed, as 'hexlearn models build --sizes 5' does, and finds it byte for
// byte the file the binary embeds (player/models/5x5.model); another seed makes
// another file. The bytes are those of amd64: Go may fuse a multiply and an add into
// one instruction on other architectures, which changes the floats' last bits.
func TestBuiltinRebuild(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skipf("the built-in models are the bytes amd64 computes; this is %s", runtime.GOARCH)
	}
	var recipe BuiltinRecipe
	for _, r := range DefaultRecipes() {
		if r.Size == 5 {
			recipe = r
		}
	}
	want, err := os.ReadFile(filepath.Join("..", "player", "models", player.BuiltinName(5, 5)))
	if err != nil {
		t.Fatal(err)
	}
	build := func(seed uint64) [32]byte {
		data, _, _ := buildOne(t, recipe, seed)
		return sha256.Sum256(data)
	}
	if got, w := build(builtinSeed), sha256.Sum256(want); got != w {
		t.Fatalf("5x5 rebuilt with seed %d: sha256 %x, the built-in's %x; remake the built-in models "+
			"(go run ./cmd/hexlearn models build --out player/models)", builtinSeed, got, w)
	}
	if build(builtinSeed+1) == sha256.Sum256(want) {
		t.Errorf("seed %d gives the built-in 5x5 model too: the seed does not reach the build", builtinSeed+1)
	}
}

// TestBuiltinLoopRecipe: a recipe with a loop (a tiny 5x5 one, gated at fixed
// expansions) builds the corpus network, runs the loop from it under the work
// directory and writes its last generation, which records the loop and the release
// number; the same seed gives the same bytes twice.
func TestBuiltinLoopRecipe(t *testing.T) {
	lc := loop.DefaultConfig(5)
	lc.Games, lc.Shards, lc.Expansions, lc.Explore = 6, 2, 20, 2
	lc.Train = loop.TrainConfig{Hidden: 6, Epochs: 2, LearnRate: 0.003, SearchMix: 0.5, Rotate: true}
	lc.Gate = loop.GateConfig{Expansions: 16, MaxGames: 16, MinGames: 2, Elo0: -400, Elo1: -300, Alpha: 0.05, Beta: 0.05}
	lc.Generations, lc.MaxIterations = 1, 2
	lc.Solved, lc.SolvedNodes = 20, 100_000
	recipe := BuiltinRecipe{Size: 5, Positions: 600, Hidden: 6, Epochs: 2, Loop: &lc}
	build := func() ([]byte, BuiltinReport, string) { return buildOne(t, recipe, 3) }
	a, rep, work := build()
	// The gate's hypotheses (-400 and -300 Elo) let a candidate about as strong as its
	// parent through, so that the file is a loop generation.
	if rep.LoopIterations == 0 || rep.Generation != 1 {
		t.Fatalf("want generation 1 of the loop, the report says %+v", rep)
	}
	m, err := model.ReadFile(rep.File)
	if err != nil {
		t.Fatal(err)
	}
	if m.Provenance.CodeVersion != version.Number {
		t.Errorf("code version %q, want the release number %q", m.Provenance.CodeVersion, version.Number)
	}
	if l := m.Provenance.Loop; l == nil || l.Generation != 1 || l.Parent != 0 || l.Gate == "" {
		t.Errorf("the file's loop provenance is %+v, want generation 1 with parent 0 and its gate", m.Provenance.Loop)
	}
	if !strings.Contains(m.Provenance.Config, " loop-seed=3 loop-generation=1 ") || !strings.Contains(m.Provenance.Config, " solved=20 solved-nodes=100000") {
		t.Errorf("the provenance does not name the loop: %q", m.Provenance.Config)
	}
	loops, _ := filepath.Glob(filepath.Join(work, "*-loop-*", "loop.json"))
	if len(loops) != 1 {
		t.Errorf("want one loop directory under the work directory, found %v", loops)
	}
	if b, _, _ := build(); !bytes.Equal(a, b) {
		t.Error("two builds with the same seed wrote different files")
	}
}

// buildOne builds recipe with seed in a temporary directory and returns the model
// file's bytes, the report and the work directory.
func buildOne(t *testing.T, recipe BuiltinRecipe, seed uint64) ([]byte, BuiltinReport, string) {
	t.Helper()
	dir := t.TempDir()
	reps, err := BuildBuiltins(context.Background(), BuiltinsConfig{Recipes: []BuiltinRecipe{recipe}, Seed: seed,
		Work: filepath.Join(dir, "work"), Out: filepath.Join(dir, "out")})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(reps[0].File)
	if err != nil {
		t.Fatal(err)
	}
	return data, reps[0], filepath.Join(dir, "work")
}
