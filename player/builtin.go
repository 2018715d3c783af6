package player

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"

	"github.com/hexlearn/hexlearn/model"
)

// The built-in models, one file NxN.model per board size; BuildBuiltins regenerates
// them (hexlearn models build --out player/models).
//
//go:embed models/*.model
var builtinFS embed.FS

// ErrNoBuiltin reports a board size without a built-in model: the learned player
// plays such a size with the exact player's search (with a note).
var ErrNoBuiltin = errors.New("player: no built-in model for this board size")

var (
	builtinMu    sync.Mutex
	builtinCache = map[string]*model.Model{}
)

// BuiltinName is the file name of the built-in model of a w x h board.
func BuiltinName(w, h int) string { return fmt.Sprintf("%dx%d.model", w, h) }

// Builtin returns the built-in model of a w x h board (ErrNoBuiltin if there is none).
// The model is loaded and validated once and shared: do not modify it.
func Builtin(w, h int) (*model.Model, error) {
	name := BuiltinName(w, h)
	builtinMu.Lock()
	defer builtinMu.Unlock()
	if m, ok := builtinCache[name]; ok {
		return m, nil
	}
	data, err := builtinFS.ReadFile("models/" + name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w (%dx%d; built in: %v)", ErrNoBuiltin, w, h, BuiltinSizes())
	}
	if err != nil {
		return nil, fmt.Errorf("player: built-in model %s: %w", name, err)
	}
	m, err := model.Load(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("player: built-in model %s: %w", name, err)
	}
	if err := m.CheckSize(w, h); err != nil {
		return nil, fmt.Errorf("player: built-in model %s: %w", name, err)
	}
	builtinCache[name] = m
	return m, nil
}

// BuiltinSizes lists the board sizes with a built-in model ("8x8", ...), smallest first.
func BuiltinSizes() []string {
	ents, _ := builtinFS.ReadDir("models")
	var out []string
	for _, e := range ents {
		var w, h int
		if _, err := fmt.Sscanf(e.Name(), "%dx%d.model", &w, &h); err == nil {
			out = append(out, fmt.Sprintf("%dx%d", w, h))
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) < len(out[j])
		}
		return out[i] < out[j]
	})
	return out
}
