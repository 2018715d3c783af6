package experiments

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func TestBenchRunsEveryGroup(t *testing.T) {
	rows, err := Bench(context.Background(), BenchConfig{Sizes: []int{4}, Positions: 2, Time: 5 * time.Millisecond, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	groups := map[string]int{}
	for _, r := range rows {
		groups[r.Group]++
		if r.PerOp <= 0 {
			t.Errorf("%s: no time measured", r.Name)
		}
		if r.Baseline != "" && !(r.Ratio > 0) {
			t.Errorf("%s: ratio %v against %s", r.Name, r.Ratio, r.Baseline)
		}
	}
	for _, g := range BenchGroups {
		if groups[g] == 0 {
			t.Errorf("group %s produced no row", g)
		}
	}
	var buf bytes.Buffer
	WriteBenchTable(&buf, rows)
	if !strings.Contains(buf.String(), "LB-tree") || !strings.Contains(buf.String(), "4x4") {
		t.Errorf("table:\n%s", buf.String())
	}
	if _, err := Bench(context.Background(), BenchConfig{Groups: []string{"nope"}}); !errors.Is(err, ErrBadEnv) {
		t.Errorf("unknown group: %v", err)
	}
}

func TestRandomModelIsValid(t *testing.T) {
	m := RandomModel(5, 7, 3)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := m.CheckSize(5, 5); err != nil {
		t.Fatal(err)
	}
}

// TestBenchPlayers: the search group measures both players as hexlearn gtp builds
// them on positions H-search leaves open (seed 2's three 11x11 positions have 83–91
// empty cells, more than the 64 below which the solver is asked first, and 11x11 has
// no book): both search every one, the learned player is compared with the exact one.
func TestBenchPlayers(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 2 x 3 moves")
	}
	rows, err := Bench(context.Background(), BenchConfig{Sizes: []int{11}, Groups: []string{"search"}, Positions: 3, Time: 50 * time.Millisecond, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	found := map[string]BenchRow{}
	for _, r := range rows {
		for _, kind := range []string{"exact", "learned"} {
			if strings.HasPrefix(r.Name, kind+" player (hexlearn gtp)") {
				found[kind] = r
			}
		}
	}
	ex, le := found["exact"], found["learned"]
	if !strings.Contains(ex.Note, "3 of 3 moves searched") || ex.PerOp <= 0 || strings.HasPrefix(ex.Note, "0 nodes/s") {
		t.Errorf("exact player row %+v", ex)
	}
	if le.Baseline != "exact player" || !strings.Contains(le.Note, "expansions/s") || !strings.Contains(le.Note, "3 of 3 moves searched") {
		t.Errorf("learned player row %+v", le)
	}
	if bs := openPositions(11, 3, 2); len(bs) != 3 {
		t.Fatalf("%d open positions, want 3", len(bs))
	}
}
