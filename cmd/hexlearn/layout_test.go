package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutRules checks the repository rules of docs/design.md that a change can break
// silently: every file of cmd/hexlearn (tests too) is at most 200 lines (flags to configs,
// a pipeline call, printing), the README at most 200 lines, and no package under
// engine/ imports a hexlearn package outside engine/ and internal/.
func TestLayoutRules(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if n := lines(t, f); n > 200 {
			t.Errorf("cmd/hexlearn/%s has %d lines (at most 200: move the work into a library package)", f, n)
		}
	}
	if n := lines(t, filepath.Join("..", "..", "README.md")); n > 200 {
		t.Errorf("README.md has %d lines (at most 200: the rest belongs in docs/)", n)
	}
	const mod = "github.com/hexlearn/hexlearn/"
	root := filepath.Join("..", "..", "engine")
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.Contains(path, "testdata") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, mod); ok && !strings.HasPrefix(rest, "engine/") && !strings.HasPrefix(rest, "internal/") {
				t.Errorf("%s imports %s: engine/ may import only engine/ and internal/", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func lines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}
