package gtp

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

func run(t *testing.T, e *Engine, line string) (string, error) {
	t.Helper()
	f := strings.Fields(line)
	return e.Run(context.Background(), f[0], f[1:]...)
}

func mustRun(t *testing.T, e *Engine, line string) string {
	t.Helper()
	a, err := run(t, e, line)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return a
}

func TestEvalResist(t *testing.T) {
	e := New()
	mustRun(t, e, "boardsize 5")
	mustRun(t, e, "play b c3")
	a := mustRun(t, e, "eval-resist black")
	tok := strings.Fields(a)
	if len(tok) != 6 || tok[0] != "res" || tok[2] != "rew" || tok[4] != "reb" || !strings.HasPrefix(a, " ") {
		t.Fatalf("answer %q", a)
	}
	var v [3]float64
	for i := range v {
		x, err := strconv.ParseFloat(tok[2*i+1], 64)
		if err != nil {
			t.Fatal(err)
		}
		v[i] = x
	}
	if !(v[0] > 0) || v[0]-(v[1]-v[2]) > 1e-3 || v[0]-(v[1]-v[2]) < -1e-3 {
		t.Fatalf("res %v rew %v reb %v", v[0], v[1], v[2])
	}
	if _, err := run(t, e, "eval-resist purple"); err == nil {
		t.Fatal("bad colour accepted")
	}
	if _, err := run(t, e, "eval-resist"); err == nil {
		t.Fatal("missing colour accepted")
	}
}

func TestParamSearch(t *testing.T) {
	e := New()
	mustRun(t, e, "param_search depth 2")
	mustRun(t, e, "param_search k 4")
	mustRun(t, e, "param_search time 1.5")
	mustRun(t, e, "param_search root_k 0")
	mustRun(t, e, "param_search vc_plies 3")
	got := mustRun(t, e, "param_search")
	want := "[string] depth 2\n[string] k 4\n[string] root_k 0\n[string] time 1.5\n[string] vc_plies 3"
	if got != want {
		t.Fatalf("param_search shows %q, want %q", got, want)
	}
	for _, bad := range []string{"param_search depth 0", "param_search depth x", "param_search k -1", "param_search time -2", "param_search colour 3", "param_search depth", "param_search vc_plies -1"} {
		if _, err := run(t, e, bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

func TestSearchingGenmove(t *testing.T) {
	e := New()
	mustRun(t, e, "boardsize 6")
	mustRun(t, e, "param_search time 3")
	start := time.Now()
	a := mustRun(t, e, "genmove b")
	if el := time.Since(start); el > 10*time.Second {
		t.Errorf("genmove took %v", el)
	}
	if _, err := e.Board().Geometry().ParseCell(a); err != nil {
		t.Fatalf("genmove answered %q: %v", a, err)
	}
	if e.Board().NumStones() != 1 {
		t.Fatalf("genmove did not play:\n%s", e.Board().Diagram())
	}
	// A win in one is found: Black a4 or b4 completes the chain. After ICE fill-in (the
	// default) every move is a proved win (a4-b4 is captured), and the finishing move
	// must still be preferred.
	for _, pl := range []Player{{}, {NoFillIn: true}, {NoTemplates: true}} {
		e.SetPlayer(pl)
		mustRun(t, e, "boardsize 4")
		for _, m := range []string{"b b1", "w a3", "b b2", "w c3", "b b3", "w d3"} {
			mustRun(t, e, "play "+m)
		}
		a = mustRun(t, e, "genmove b")
		if a != "a4" && a != "b4" {
			t.Fatalf("%s: genmove b answered %s, not a winning move", pl.Describe(), a)
		}
		st, err := evalStateOf(e)
		if err != nil {
			t.Fatal(err)
		}
		if got := st.fast.Config().FillIn; got == pl.NoFillIn {
			t.Errorf("%s: the search's evaluator has FillIn %v", pl.Describe(), got)
		}
		if got := st.fast.Config().VC.EdgeTemplates; got == pl.NoTemplates {
			t.Errorf("%s: the search's evaluator has EdgeTemplates %v", pl.Describe(), got)
		}
	}
}

// FuzzParamSearch: any arguments either set valid parameters or are refused with an
// error; nothing panics.
func FuzzParamSearch(f *testing.F) {
	for _, s := range []string{"depth 3", "k 0", "time 1.5", "root_k 36", "depth -1", "time NaN", "time 1e300", "k 99999", "foo 1", "depth"} {
		f.Add(s)
	}
	e := New()
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if _, err := e.Run(context.Background(), "param_search", args...); err != nil {
			return
		}
		st, err := evalStateOf(e)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.searcher.Params().Validate(); err != nil {
			t.Fatalf("%q left invalid parameters: %v", line, err)
		}
	})
}
