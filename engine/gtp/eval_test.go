package gtp

import (
	"context"
	"strconv"
	"strings"
	"testing"
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
