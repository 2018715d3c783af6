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
// no book): both search every one, the learned player is compared with the exact one,
// and each player with --fastvc with itself without it.
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
			if strings.HasPrefix(r.Name, kind+" player (hexlearn gtp --fastvc)") {
				found[kind+" fastvc"] = r
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
	for _, kind := range []string{"exact", "learned"} {
		if r := found[kind+" fastvc"]; r.Baseline != kind+" player" || !(r.Ratio > 0) || !strings.Contains(r.Note, "3 of 3 moves searched") {
			t.Errorf("%s player with --fastvc: row %+v, want a ratio against the %s player", kind, r, kind)
		}
	}
	if bs := openPositions(11, 3, 2); len(bs) != 3 {
		t.Fatalf("%d open positions, want 3", len(bs))
	}
}

// TestWriteBenchMarkdown: one table per group in BenchGroups order, rows by board size,
// each with its ratio and the command that measures it again; a header line with the
// date and the command for every table; pipes in cells escaped.
func TestWriteBenchMarkdown(t *testing.T) {
	rows := []BenchRow{
		{Size: 11, Group: "eval", Name: "exact evaluation (H-search + circuits)", PerOp: 4800 * time.Microsecond, Median: 4 * time.Millisecond, P90: 9 * time.Millisecond},
		{Size: 6, Group: "eval", Name: "learned evaluation 36-30-1 | scratch", PerOp: 533 * time.Nanosecond, Baseline: "exact evaluation", Ratio: 229.1},
		{Size: 6, Group: "vc", Name: "XH-search, both colours", PerOp: 2 * time.Millisecond, Baseline: "H-search", Ratio: 0.125, Note: "20 positions"},
	}
	cfg := BenchConfig{Groups: []string{"vc", "eval"}, Sizes: []int{6, 11}, Time: 500 * time.Millisecond, Seed: 3}
	var buf bytes.Buffer
	WriteBenchMarkdown(&buf, cfg, rows, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	out := buf.String()
	for _, want := range []string{
		"Measured 2026-12-02, hexlearn ",
		"`hexlearn bench vc eval --markdown --size 6,11 --time 0.5 --positions 20 --seed 3`.",
		"| 6x6 | XH-search, both colours | 2.000 ms | - | - | 8.0x slower than H-search | 20 positions | `hexlearn bench vc --markdown --size 6 --time 0.5 --positions 20 --seed 3` |",
		"| 6x6 | learned evaluation 36-30-1 \\| scratch | 533 ns | - | - | 229.1x faster than exact evaluation | — | `hexlearn bench eval --markdown --size 6 --time 0.5 --positions 20 --seed 3` |",
		"| 11x11 | exact evaluation (H-search + circuits) | 4.800 ms | 4.000 ms | 9.000 ms | — | — | `hexlearn bench eval --markdown --size 11 --time 0.5 --positions 20 --seed 3` |",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q:\n%s", want, out)
		}
	}
	vc, eval := strings.Index(out, "**`vc`"), strings.Index(out, "**`eval`")
	small, big := strings.Index(out, "| 6x6 | learned"), strings.Index(out, "| 11x11 | exact")
	if vc < 0 || eval < vc || small < eval || big < small || strings.Contains(out, "**`search`") {
		t.Errorf("tables out of order or a table without rows:\n%s", out)
	}
	buf.Reset()
	WriteBenchMarkdown(&buf, BenchConfig{}, nil, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if !strings.Contains(buf.String(), "`hexlearn bench --markdown --size 6,11 --time 0.3 --positions 20 --seed 0`") || strings.Contains(buf.String(), "| board") {
		t.Errorf("defaults, no rows:\n%s", buf.String())
	}
}
