package pipeline

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"runtime"
	"testing"

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
