package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPaths checks the validation of input and output paths: missing inputs fail
// (exit 1) and outputs that are directories, files where a directory is wanted, or
// existing results are refused (exit 2) before any work, unless --force.
func TestPaths(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "existing")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	expDir := filepath.Join(dir, "exp")
	if err := os.MkdirAll(expDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(expDir, "README.md"), []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	trainArgs := []string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--holdout", "0"}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{append(trainArgs, "--out", dir), 2, "is a directory"},
		{append(trainArgs, "--out", file), 2, "file exists (use --force"},
		{append(trainArgs, "--out", filepath.Join(dir, "no", "such", "m.model")), 2, "does not exist"},
		{append(trainArgs, "--out", file, "--force"), 0, ""},
		{[]string{"train", "--data", filepath.Join(dir, "missing"), "--size", "3", "--hidden", "2", "--epochs", "1", "--out", filepath.Join(dir, "m")}, 1, "--data"},
		{[]string{"selfplay", "--size", "3", "--games", "1", "--out", file}, 2, "is a file, want a directory"},
		{[]string{"experiment", "2", "--size", "3", "--model", tinyModel, "--out", expDir}, 2, "would overwrite README.md"},
		{[]string{"experiment", "2", "--size", "3", "--model", filepath.Join(dir, "nope.model"), "--out", filepath.Join(dir, "e2")}, 1, "--model"},
		{[]string{"dataset", "merge", "--out", file, goldenData}, 2, "file exists"},
		{[]string{"dataset", "stats", filepath.Join(dir, "missing")}, 1, "missing"},
		{[]string{"patterns", "build", "--from", goldenData, "--out", dir}, 2, "is a directory"},
	} {
		// These runs stop at validation (or, with --force, train one tiny epoch).
		var o, e bytes.Buffer
		code := runCommand(context.Background(), tc.args, &o, &e)
		errs := e.String()
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 1 {
			t.Errorf("%v: exit %d, want %d and a short message with %q:\n%s", tc.args, code, tc.code, tc.want, errs)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(expDir, "README.md")); string(b) != "old" {
		t.Errorf("the existing report was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, "e2")); err == nil {
		t.Errorf("a failed experiment left its directory")
	}
}

func TestFlagErrorText(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"eval", "--size", "abc"}, `hexlearn eval: --size "abc": want a whole number`},
		{[]string{"eval", "--size"}, "hexlearn eval: --size needs a value"},
		{[]string{"solve", "--timeout", "5"}, `hexlearn solve: --timeout "5": want a duration such as 30s or 2m`},
		{[]string{"selfplay", "--json=maybe"}, `hexlearn selfplay: --json "maybe": want true or false`},
		{[]string{"selfplay", "-frob"}, "hexlearn selfplay: unknown flag --frob"},
		{[]string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--out", "OUT/m", "--lr", "1e9"},
			"hexlearn train: --lr 1e+09: want a learning rate in (0, 1]"},
		{[]string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--out", "OUT/m", "--features", "pagerank"},
			`hexlearn train: --features must be cells or twodist, got "pagerank"`},
		{[]string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--out", "OUT/m", "--target", "playouts", "--playouts", "0"},
			"hexlearn train: --playouts 0: want 1..65536"},
		{[]string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--out", "OUT/m", "--target", "moves"},
			`hexlearn train: --target must be value, winner, outcome, playouts or search, got "moves"`},
	} {
		out := t.TempDir()
		for i := range tc.args {
			tc.args[i] = strings.ReplaceAll(tc.args[i], "OUT", out)
		}
		code, _, errs, _ := runCancelled(tc.args)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code != 2 || lines[0] != tc.want || len(lines) != 2 {
			t.Errorf("%v: exit %d\n%s\nwant exit 2 and first line %q", tc.args, code, errs, tc.want)
		}
	}
}
