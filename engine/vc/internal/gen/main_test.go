package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesUpToDate fails when a generated H-search file of engine/vc differs
// from a fresh rendering of the template (run "go generate ./engine/vc").
func TestGeneratedFilesUpToDate(t *testing.T) {
	for _, f := range Widths {
		want, err := Render(f.Width)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join("..", "..", f.File))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("engine/vc/%s is stale: run go generate ./engine/vc", f.File)
		}
	}
}

// TestRenderWidths checks the instances differ only where the width matters: each
// defines the same functions with its own suffix.
func TestRenderWidths(t *testing.T) {
	for _, f := range Widths {
		src, err := Render(f.Width)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"run", "process", "andFull", "semiAnd", "dominated", "minimalPos", "addFull", "addSemi", "orRule", "crossTriple"} {
			if !bytes.Contains(src, []byte(") "+name+f.W+"(")) {
				t.Errorf("%s: no %s%s", f.File, name, f.W)
			}
		}
	}
}
