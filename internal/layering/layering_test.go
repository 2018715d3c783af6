package layering

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLayering: no package of this module imports a package of a higher layer, the
// helpers import only engine/* and internal/*, and every package is in a layer.
func TestLayering(t *testing.T) {
	root, module, err := ModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	imports, err := ModuleImports(root, module)
	if err != nil {
		t.Fatal(err)
	}
	// The walk must have found the module: every layer and the helpers.
	for _, want := range []string{"engine/hex", "model", "dataset", "player", "selfplay", "train", "pipeline", "experiments", "cmd/hexlearn", "internal/fileutil", "internal/layering"} {
		if _, ok := imports[want]; !ok {
			t.Errorf("package %s not found under %s", want, root)
		}
	}
	for _, v := range Check(imports) {
		t.Error(v)
	}
}

// TestCheck runs the checker over synthetic import lists: every upward import, a
// helper importing above engine and a package outside every layer are reported;
// imports within a layer, downward and of the helpers are not.
func TestCheck(t *testing.T) {
	tests := []struct {
		name    string
		imports map[string][]string
		want    []string // "from -> to" of the violations
	}{
		{"downward and same layer", map[string][]string{
			"cmd/hexlearn":         {"experiments", "pipeline", "player", "engine/hex", "internal/progress"},
			"experiments":          {"experiments/match", "pipeline", "selfplay", "train", "model"},
			"experiments/match":    {"engine/hex", "internal/fileutil"},
			"pipeline":             {"selfplay", "train", "player", "dataset", "engine/gtp"},
			"selfplay":             {"player", "train", "dataset", "engine/search"},
			"train":                {"selfplay", "model", "dataset", "internal/report"},
			"player":               {"model", "dataset", "engine/gtp", "internal/stats"},
			"model":                {"dataset", "engine/hex"},
			"dataset":              {"model", "engine/hex"},
			"engine/solver":        {"engine/vc", "engine/vc/internal/gen", "internal/brute"},
			"engine/vc":            {"engine/hex"},
			"internal/benchutil":   {"engine/vc", "internal/stats"},
			"internal/layering":    nil,
			"engine/vc/internal/x": {"engine/hex"},
		}, nil},
		{"engine imports model", map[string][]string{"engine/search": {"model", "engine/hex"}},
			[]string{"engine/search -> model"}},
		{"train imports experiments/report (before internal/report)", map[string][]string{"train": {"experiments/report", "internal/fileutil"}},
			[]string{"train -> experiments/report"}},
		{"player imports selfplay", map[string][]string{"player": {"selfplay", "engine/gtp"}},
			[]string{"player -> selfplay"}},
		{"player imports pipeline", map[string][]string{"player": {"pipeline"}},
			[]string{"player -> pipeline"}},
		{"selfplay imports pipeline", map[string][]string{"selfplay": {"pipeline"}},
			[]string{"selfplay -> pipeline"}},
		{"pipeline imports experiments", map[string][]string{"pipeline": {"experiments/strength"}},
			[]string{"pipeline -> experiments/strength"}},
		{"experiments imports cmd", map[string][]string{"experiments/match": {"cmd/hexlearn"}},
			[]string{"experiments/match -> cmd/hexlearn"}},
		{"model imports player", map[string][]string{"dataset": {"player"}, "model": {"player", "selfplay"}},
			[]string{"dataset -> player", "model -> player", "model -> selfplay"}},
		{"helper imports model", map[string][]string{"internal/stats": {"model", "engine/hex", "internal/fileutil"}},
			[]string{"internal/stats -> model"}},
		{"helper imports cmd", map[string][]string{"internal/x": {"cmd/hexlearn"}},
			[]string{"internal/x -> cmd/hexlearn"}},
		{"package in no layer", map[string][]string{"tools/gen": {"engine/hex"}, ".": nil},
			[]string{". -> ", "tools/gen -> "}},
		{"import of a package in no layer", map[string][]string{"engine/hex": {"tools/gen"}},
			[]string{"engine/hex -> tools/gen"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, v := range Check(tc.imports) {
				got = append(got, v.From+" -> "+v.To)
				if v.Reason == "" || !strings.Contains(v.String(), v.From) {
					t.Errorf("violation %+v: no reason or a message without the importer", v)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("violations %q, want %q", got, tc.want)
			}
		})
	}
}

// TestModuleImports parses a small module on disk: module imports (of tests, of
// files for other systems) are found module-relative, other imports, testdata,
// dot and underscore directories and nested modules are not, and an upward import
// in it is reported by Check.
func TestModuleImports(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/m\n\ngo 1.26\n")
	write("engine/hex/hex.go", "package hex\n")
	write("engine/vc/vc.go", "package vc\n\nimport (\n\t\"fmt\"\n\t\"example.com/m/engine/hex\"\n)\n\nvar _ = fmt.Sprint\nvar _ hex.T\n")
	write("engine/vc/vc_linux.go", "//go:build linux\n\npackage vc\n\nimport _ \"example.com/m/internal/stats\"\n")
	write("engine/vc/x_test.go", "package vc_test\n\nimport (\n\t_ \"example.com/m/engine/vc\"\n\t_ \"example.com/m/model\"\n)\n")
	write("model/model.go", "package model\n\nimport _ \"example.com/m/engine/hex\"\n")
	write("internal/stats/stats.go", "package stats\n")
	write("engine/vc/testdata/bad.go", "package bad\n\nimport _ \"example.com/m/cmd/x\"\n")
	write("engine/.hidden/h.go", "package h\n\nimport _ \"example.com/m/cmd/x\"\n")
	write("engine/_old/o.go", "package o\n\nimport _ \"example.com/m/cmd/x\"\n")
	write("tools/go.mod", "module example.com/tools\n")
	write("tools/t.go", "package tools\n\nimport _ \"example.com/m/cmd/x\"\n")

	gotRoot, module, err := ModuleRoot(filepath.Join(root, "engine", "vc"))
	if err != nil {
		t.Fatal(err)
	}
	if gotRoot != root || module != "example.com/m" {
		t.Fatalf("ModuleRoot: %q %q, want %q example.com/m", gotRoot, module, root)
	}
	imports, err := ModuleImports(root, module)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"engine/hex":     nil,
		"engine/vc":      {"engine/hex", "internal/stats", "model"},
		"model":          {"engine/hex"},
		"internal/stats": nil,
	}
	if len(imports) != len(want) {
		t.Errorf("packages %v, want %v", imports, want)
	}
	for k, w := range want {
		if got, ok := imports[k]; !ok || !slices.Equal(got, w) {
			t.Errorf("%s imports %q, want %q", k, got, w)
		}
	}
	var got []string
	for _, v := range Check(imports) {
		got = append(got, v.String())
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "engine/vc imports model: upward import") {
		t.Errorf("violations %q, want engine/vc's import of model", got)
	}

	if _, _, err := ModuleRoot(string(filepath.Separator)); !errors.Is(err, ErrNoModule) {
		t.Errorf("ModuleRoot(/): %v, want ErrNoModule", err)
	}
	write("bad/x.go", "package x\n\nimport (\n")
	if _, err := ModuleImports(root, module); err == nil || !strings.Contains(err.Error(), "x.go") {
		t.Errorf("a file that does not parse: %v, want an error naming it", err)
	}
}
