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
