package vc

import (
	"bytes"
	"os"
	"testing"

	"github.com/hexlearn/hexlearn/engine/vc/internal/gen"
)

// TestGeneratedFilesUpToDate fails when a generated H-search file (hsearch_w*.go)
// differs from a fresh rendering of internal/gen/hsearch.go.tmpl: run
// "go generate ./engine/vc" after editing the template.
func TestGeneratedFilesUpToDate(t *testing.T) {
	for _, f := range gen.Widths {
		want, err := gen.Render(f.Width)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(f.File)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./engine/vc", f.File)
		}
		// every instance defines the engine's functions with its own suffix
		// (the crossing rules only where XH-search runs: not the packed one-word one)
		names := []string{"run", "process", "andFull", "semiAnd", "dominated", "minimalPos", "addFull", "addSemi", "orRule"}
		if !f.Packed {
			names = append(names, "crossTriple")
		}
		for _, name := range names {
			if !bytes.Contains(want, []byte(") "+name+f.W+"(")) {
				t.Errorf("%s: no %s%s", f.File, name, f.W)
			}
		}
		if got := bytes.Contains(want, []byte(") crossTriple"+f.W+"(")); got == f.Packed {
			t.Errorf("%s: crossing rules present %v, want %v", f.File, got, !f.Packed)
		}
	}
}
