// Package gtp is hexlearn's engine for the Hex dialect of the Go Text Protocol spoken by
// HexGui and Benzene.
//
// The engine knows no move-choosing policy: genmove asks the Player it is given
// (player.go; package player's Player is hexlearn's). The extension API in this file is
// fixed: files of this package register extra commands from init() (vc.go: vc-*
// commands; eval.go: eval-resist; player.go: param_player, param_search and
// param_game; solver.go: dfs-solve-state and dfs-solver-find-winning).
package gtp

import (
	"fmt"
	"sync"
)

// Handler answers one GTP command; args are the words after the command name. The
// returned string is the answer body (it may span lines or be empty); a non-nil error
// is answered as "? message".
type Handler func(e *Engine, args []string) (string, error)

var (
	extMu      sync.Mutex
	extensions = map[string]Handler{}
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
