package gtp

import (
	"testing"
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
	if ok {
		t.Fatalf("6x6 solved within 2 nodes without VCs? got %q", got)
	}
	ok, got = exec(t, e, "param_dfs")
	if !ok || got == "" {
		t.Fatalf("param_dfs listing failed: %q", got)
	}
}
