package gtp

import (
	"context"
	"strings"
	"testing"
)

func vcRun(t *testing.T, e *Engine, line string) string {
	t.Helper()
	f := strings.Fields(line)
	a, err := e.Run(context.Background(), f[0], f[1:]...)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return a
}

func TestVCCommands(t *testing.T) {
	e := New()
	vcRun(t, e, "boardsize 5")
	for _, m := range []string{"b c2", "w a1", "b b4", "w e5"} {
		vcRun(t, e, "play "+m)
	}
	if a := vcRun(t, e, "vc-build black"); !strings.Contains(a, "winning yes") {
		t.Errorf("vc-build black: %q", a)
	}
	full := vcRun(t, e, "vc-between-cells-full black north south")
	ok := false
	for _, line := range strings.Split(full, "\n") {
		if !strings.HasPrefix(line, "black north south full ") {
			t.Errorf("bad line %q", line)
		}
		has := true
		for _, c := range []string{"c1", "d1", "b3", "c3", "a5", "b5"} {
			has = has && strings.Contains(line, " "+c+" ")
		}
		ok = ok || has
	}
	if !ok {
		t.Errorf("no carrier with c1 d1 b3 c3 a5 b5 in:\n%s", full)
	}
	if a := vcRun(t, e, "vc-between-cells-full white west east"); a != "" {
		t.Errorf("white west east: %q", a)
	}
	semi := vcRun(t, e, "vc-between-cells-semi black c2 b4")
	if semi == "" || !strings.HasPrefix(semi, "black c2 b4 semi ") {
		t.Errorf("semi c2 b4: %q", semi)
	}
	// White to move is lost (Black has a winning VC): the mustplay is empty.
	if a := vcRun(t, e, "vc-get-mustplay white"); a != "" {
		t.Errorf("mustplay white: %q", a)
	}
	e3 := New()
	vcRun(t, e3, "boardsize 3")
	if a := vcRun(t, e3, "vc-get-mustplay white"); !strings.Contains(" "+a+" ", " b2 ") {
		t.Errorf("mustplay white on empty 3x3: %q", a)
	}
	if a := vcRun(t, e, "vc-param"); !strings.Contains(a, "[bool] edge_templates 1") {
		t.Errorf("vc-param (edge templates on by default): %q", a)
	}
	vcRun(t, e, "vc-param edge_templates 0")
	vcRun(t, e, "vc-param xh 1")
	if a := vcRun(t, e, "vc-param"); !strings.Contains(a, "[bool] xh 1") || !strings.Contains(a, "[bool] edge_templates 0") {
		t.Errorf("vc-param: %q", a)
	}
	for _, bad := range []string{"vc-build red", "vc-build", "vc-between-cells-full black z9 south",
		"vc-param max_or 1", "vc-param nope 1", "vc-param edge_templates 2", "vc-get-mustplay"} {
		f := strings.Fields(bad)
		if _, err := e.Run(context.Background(), f[0], f[1:]...); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
