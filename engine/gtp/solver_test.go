package gtp

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestDFSSolveState(t *testing.T) {
	tests := []struct {
		setup []string
		cmd   string
		ok    bool
		want  string
	}{
		{[]string{"boardsize 4", "play b d1"}, "dfs-solve-state white", true, "black"},
		{[]string{"boardsize 4", "play b a1"}, "dfs-solve-state white", true, "white"},
		{[]string{"boardsize 4", "play b a1"}, "dfs-solve-state", true, "white"},
		{[]string{"boardsize 3"}, "dfs-solve-state black", true, "black"},
		{[]string{"boardsize 3"}, "dfs-solve-state white", true, "white"},
		{[]string{"boardsize 4", "play b d1"}, "dfs-solver-find-winning white", true, ""},
		{[]string{"boardsize 4"}, "dfs-solver-find-winning black", true, "d1 c2 b3 a4"},
		{[]string{"boardsize 3"}, "dfs-solver-find-winning black", true, "c1 a2 b2 c2 a3"},
		{[]string{"boardsize 3"}, "dfs-solve-state purple", false, ""},
		{[]string{"boardsize 2", "play b a1", "play w b1", "play b a2"}, "dfs-solve-state white", false, ""},
		{[]string{"boardsize 3"}, "param_dfs max_nodes x", false, ""},
		{[]string{"boardsize 3"}, "param_dfs bogus 1", false, ""},
		{[]string{"boardsize 3"}, "param_dfs use_vc 0", true, ""},
	}
	for _, tc := range tests {
		e := newSimple()
		lines := append(append([]string{}, tc.setup...), tc.cmd)
		ok, got := exec(t, e, lines...)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("%v then %q = (%v, %q), want (%v, %q)", tc.setup, tc.cmd, ok, got, tc.ok, tc.want)
		}
	}
}

func TestDFSNodeLimit(t *testing.T) {
	e := newSimple()
	ok, got := exec(t, e, "boardsize 6", "param_dfs max_nodes 2", "param_dfs use_vc 0", "dfs-solve-state black")
	if !ok || got != Unknown {
		t.Fatalf("6x6 within 2 nodes without VCs: got (%v, %q), want %q", ok, got, Unknown)
	}
	if ok, got := exec(t, e, "dfs-solver-find-winning black"); ok || !strings.HasPrefix(got, "unknown") {
		t.Fatalf("find-winning within 2 nodes: got (%v, %q), want an error starting with unknown", ok, got)
	}
	ok, got = exec(t, e, "param_dfs")
	if !ok || got == "" {
		t.Fatalf("param_dfs listing failed: %q", got)
	}
}

// TestDFSDefaultTimeout checks that the solver commands have a time limit by default,
// that param_dfs shows and changes it, and that a solve stopped by it answers unknown.
func TestDFSDefaultTimeout(t *testing.T) {
	e := newSimple()
	ok, got := exec(t, e, "param_dfs")
	if want := fmt.Sprintf("timeout %g", DefaultSolveTimeout.Seconds()); !ok || !strings.Contains(got, want) {
		t.Fatalf("param_dfs = %q, want it to show %q", got, want)
	}
	start := time.Now()
	ok, got = exec(t, e, "boardsize 11", "param_dfs timeout 0.2", "dfs-solve-state black")
	// 0.4 s on an idle machine; up to 8 s with other jobs loading it (the solver's
	// table of 2^20 entries is allocated and touched first). Without the limit an
	// 11x11 solve runs for hours.
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("dfs-solve-state with timeout 0.2 took %v", el)
	}
	if !ok || got != Unknown {
		t.Errorf("11x11 in 0.2 s: got (%v, %q), want %q", ok, got, Unknown)
	}
}

// TestAnalyzeCommandsListed checks that hexgui-analyze_commands offers every command
// except the protocol, board and game commands HexGui issues itself.
func TestAnalyzeCommandsListed(t *testing.T) {
	notAnalysis := map[string]bool{
		"protocol_version": true, "name": true, "version": true, "known_command": true,
		"list_commands": true, "quit": true, "boardsize": true, "clear_board": true,
		"play": true, "undo": true, "genmove": true, "loadsgf": true, "savesgf": true,
		"hexgui-analyze_commands": true,
	}
	e := newSimple()
	ok, got := exec(t, e, "hexgui-analyze_commands")
	if !ok {
		t.Fatal(got)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(got, "\n") {
		parts := strings.SplitN(line, "/", 3)
		if len(parts) != 3 || parts[2] == "" {
			t.Errorf("malformed analyze line %q (want TYPE/LABEL/COMMAND)", line)
			continue
		}
		cmd := strings.Fields(parts[2])[0]
		if !e.Known(cmd) {
			t.Errorf("analyze line %q names an unknown command", line)
		}
		listed[cmd] = true
	}
	for _, c := range e.Commands() {
		if !notAnalysis[c] && !listed[c] {
			t.Errorf("command %s is missing from hexgui-analyze_commands", c)
		}
	}
}
