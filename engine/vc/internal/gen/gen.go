// Package gen renders engine/vc's H-search engine, one file per carrier width, from the
// template hsearch.go.tmpl: hsearch_w1.go (boards of at most 64 cells, one-word
// carriers in lists of its own one-word records), hsearch_w1c.go (the same carriers in
// the Builder's Conn lists, for XH-search and Play), hsearch_w2.go (at most 128 cells) and hsearch_wn.go (any board, all words
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
	W     string // suffix of the generated names: "1", "1c", "2" or "N"
	Small bool   // at most two words: Builder.doneAnd (two words per pair) applies
	Words int    // carrier words read
	Cells int    // most cells of a board the instance serves (when Small)
	// Packed: the instance keeps its own lists of one-word records (conn1, packed.go)
	// instead of the Builder's Conn lists, and has no XH-search rules (Build runs XH
	// on small boards with the "1c" instance, Play goes on with it).
	Packed bool
	S      string // suffix of the storage it uses: "1" (b.full1, pending1, ...) or ""
	Rec    string // the connection record of its lists: "conn1" or "Conn"
	Car    string // the carrier type of Rec: "[1]uint64" or "hex.Bitset"
}

// Widths are the instances generated, with their file names.
var Widths = []struct {
	File string
	Width
}{
	{"hsearch_w1.go", Width{W: "1", Small: true, Words: 1, Cells: 64, Packed: true, S: "1", Rec: "conn1", Car: "[1]uint64"}},
	{"hsearch_w1c.go", Width{W: "1c", Small: true, Words: 1, Cells: 64, Rec: "Conn", Car: "hex.Bitset"}},
	{"hsearch_w2.go", Width{W: "2", Small: true, Words: 2, Cells: 128, Rec: "Conn", Car: "hex.Bitset"}},
	{"hsearch_wn.go", Width{W: "N", Words: len(hex.Bitset{}), Rec: "Conn", Car: "hex.Bitset"}},
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
