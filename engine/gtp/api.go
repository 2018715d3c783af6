// Package gtp is hexlearn's engine for the Hex dialect of the Go Text Protocol spoken by
// HexGui and Benzene.
//
// The extension API in this file is fixed: files of this package register extra
// commands from init() (vc.go: vc-* commands; eval.go: eval-resist, param_search and the
// searching genmove; solver.go: dfs-solve-state and dfs-solver-find-winning).
package gtp

import (
	"fmt"
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Handler answers one GTP command; args are the words after the command name. The
// returned string is the answer body (it may span lines or be empty); a non-nil error
// is answered as "? message".
type Handler func(e *Engine, args []string) (string, error)

// GenMoveFunc chooses a move for colour c on b; b must be left unchanged.
type GenMoveFunc func(e *Engine, b *hex.Board, c hex.Color) (hex.Cell, error)

var (
	extMu      sync.Mutex
	extensions = map[string]Handler{}
	genMove    GenMoveFunc
)

// Register adds a command to every Engine; call it from init() in a file of this
// package. It panics on a duplicate name.
func Register(name string, h Handler) {
	extMu.Lock()
	defer extMu.Unlock()
	if _, dup := extensions[name]; dup {
		panic(fmt.Sprintf("gtp: command %q registered twice", name))
	}
	extensions[name] = h
}

// RegisterGenMove installs the searching genmove policy (call from init). Without one,
// genmove uses the simple built-in policy.
func RegisterGenMove(f GenMoveFunc) {
	extMu.Lock()
	defer extMu.Unlock()
	genMove = f
}

// State returns the per-engine extension state stored under key, creating it with init
// on first use (for example an extension's search parameters).
func (e *Engine) State(key string, init func() any) any {
	if e.state == nil {
		e.state = map[string]any{}
	}
	v, ok := e.state[key]
	if !ok {
		v = init()
		e.state[key] = v
	}
	return v
}
