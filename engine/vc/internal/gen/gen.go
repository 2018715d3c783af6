// Package gen renders engine/vc's H-search engine, one file per carrier width, from the
// template hsearch.go.tmpl: hsearch_w1.go (boards of at most 64 cells, one-word
// carriers), hsearch_w2.go (at most 128 cells) and hsearch_wn.go (any board, all words
// of a bitset). Its command (./run) writes them; run it with "go generate ./engine/vc"
// after editing the template. engine/vc's TestGeneratedFilesUpToDate fails while the
// files are stale.
package gen

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/template"

	"github.com/hexlearn/hexlearn/engine/hex"
)

//go:embed hsearch.go.tmpl
var source string

// Width describes one instance of the template.
type Width struct {
	W     string // suffix of the generated names: "1", "2" or "N"
	Small bool   // at most two words: Builder.doneAnd (two words per pair) applies
	Words int    // carrier words read
	Cells int    // most cells of a board the instance serves (when Small)
}

// Widths are the instances generated, with their file names.
var Widths = []struct {
	File string
	Width
}{
	{"hsearch_w1.go", Width{W: "1", Small: true, Words: 1, Cells: 64}},
	{"hsearch_w2.go", Width{W: "2", Small: true, Words: 2, Cells: 128}},
	{"hsearch_wn.go", Width{W: "N", Words: len(hex.Bitset{})}},
}

// Render returns the gofmt-formatted source of instance w. The template's function w
// writes one expression per carrier word: {{w "x[#]&^y[#]" "|"}} gives
// "x[0]&^y[0]|x[1]&^y[1]" for two words (# is the word index).
func Render(w Width) ([]byte, error) {
	words := func(pattern, sep string) string {
		parts := make([]string, w.Words)
		for i := range parts {
			parts[i] = strings.ReplaceAll(pattern, "#", strconv.Itoa(i))
		}
		return strings.Join(parts, sep)
	}
	t, err := template.New("hsearch").Funcs(template.FuncMap{"w": words}).Parse(source)
	if err != nil {
		return nil, fmt.Errorf("gen: template: %w", err)
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, w); err != nil {
		return nil, fmt.Errorf("gen: width %s: %w", w.W, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gen: width %s: generated code does not parse: %w", w.W, err)
	}
	return out, nil
}

// Write renders every instance into dir, each through a temporary file renamed into
// place.
func Write(dir string) error {
	for _, f := range Widths {
		src, err := Render(f.Width)
		if err != nil {
			return err
		}
		name := filepath.Join(dir, f.File)
		tmp := name + ".tmp"
		if err := os.WriteFile(tmp, src, 0o644); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
		if err := os.Rename(tmp, name); err != nil {
			return fmt.Errorf("gen: %w", err)
		}
	}
	return nil
}
