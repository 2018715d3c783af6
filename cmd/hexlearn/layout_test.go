package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLayoutRules checks the repository rules of docs/design.md that a change can break
// silently: every file of cmd/hexlearn (tests too) is at most 200 lines (flags to configs,
// a pipeline call, printing) and the README at most 200 lines. The import layers are
// checked by internal/layering.
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
}

func lines(t *testing.T, path string) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(data), "\n")
}
