package solver

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestWindow: the widening window is base + ceil(factor × n), capped at n, and all
// n children without widening or with fewer than two.
func TestWindow(t *testing.T) {
	tests := []struct {
		base   int
		factor float64
		n      int
		want   int
	}{
		{0, 0, 10, 10},
		{1, 0.25, 0, 0},
		{1, 0.25, 1, 1},
		{1, 0.25, 2, 2},
		{1, 0.25, 3, 2},
		{1, 0.25, 4, 2},
		{1, 0.25, 5, 3},
		{1, 0.25, 20, 6},
		{1, 0, 20, 1},
		{0, 0.5, 7, 4},
		{2, 1, 5, 5},
		{30, 0.25, 20, 20},
	}
	for _, tc := range tests {
		c := Config{WideningBase: tc.base, WideningFactor: tc.factor}
		if got := c.window(tc.n); got != tc.want {
			t.Errorf("base %d factor %v: window(%d) = %d, want %d", tc.base, tc.factor, tc.n, got, tc.want)
		}
	}
}

// TestWideningConfig: Validate rejects widening settings out of range (DFS ignores
// widening but not a bad setting).
func TestWideningConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"on", Config{WideningBase: 1, WideningFactor: 0.25}, true},
		{"factor only", Config{WideningFactor: 1}, true},
		{"negative base", Config{WideningBase: -1, WideningFactor: 0.25}, false},
		{"negative factor", Config{WideningBase: 1, WideningFactor: -0.1}, false},
		{"factor over 1", Config{WideningBase: 1, WideningFactor: 1.5}, false},
		{"factor NaN", Config{WideningBase: 1, WideningFactor: math.NaN()}, false},
		{"dfs ignores it", Config{Algorithm: DFS, WideningBase: 1, WideningFactor: 0.5}, true},
		{"dfs out of range", Config{Algorithm: DFS, WideningFactor: 2}, false},
	}
	for _, tc := range tests {
		if err := tc.cfg.Validate(); (err == nil) != tc.ok {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// TestWideningSameWinners: with progressive widening (the usual setting, a window of
// one child, a pure factor) DFPN gives the table's value for every 4x4 and 5x5
// opening and (except the window of one child, which is slow there) for six 6x6
// openings (three won by each side), as without it.
func TestWideningSameWinners(t *testing.T) {
	known := knownOpenings(t)
	settings := []struct {
		name   string
		base   int
		factor float64
	}{
		{"off", 0, 0},
		{"1+0.25n", 1, 0.25},
		{"1", 1, 0},
		{"0.5n", 0, 0.5},
	}
	six := []string{"c1", "e1", "a2", "a3", "f2", "e5"}
	for _, st := range settings {
		mk := func() Config {
			c := DefaultConfig()
			c.TTBits, c.WideningBase, c.WideningFactor = 16, st.base, st.factor
			return c
		}
		checkSmallOpenings(t, st.name, mk(), known)
		if st.name == "1" || (testing.Short() && st.name != "1+0.25n") {
			continue // a window of one child is slow on 6x6 (30,000 nodes for a3)
		}
		s := New(mk())
		start := time.Now()
		b := hex.MustBoard(6, 6)
		for _, name := range six {
			r := solveOpening(t, s, b, name)
			if (r.Winner == hex.Black) != known[6][name] {
				t.Errorf("%s: 6x6 opening %s winner %s, table says black wins=%v", st.name, name, r.Winner, known[6][name])
			}
			t.Logf("%s %s %d nodes %v", st.name, name, r.Stats.Nodes, time.Since(start))
		}
	}
}

// TestWidenDominated: the window is sized as if the candidates local domination
// pruned were still children (at the end of the order), capped at the children left.
func TestWidenDominated(t *testing.T) {
	s := New(Config{WideningBase: 1, WideningFactor: 0.5})
	moves := []hex.Cell{5, 3, 8, 1, 9, 2}
	tests := []struct {
		dominated uint8
		want      int
	}{
		{0, 4}, // 1 + ceil(0.5 × 6)
		{2, 5}, // 1 + ceil(0.5 × 8)
		{4, 6}, // 1 + ceil(0.5 × 10) = 6
		{30, 6},
	}
	for _, tc := range tests {
		e := pnEntry{dominated: tc.dominated}
		pb := plyBuf{win: make([]hex.Cell, 0, 8)}
		got := s.widen(append([]hex.Cell(nil), moves...), &e, &pb)
		if len(got) != tc.want {
			t.Errorf("dominated %d: window %v, want the first %d of %v", tc.dominated, got, tc.want, moves)
			continue
		}
		for i, m := range got {
			if m != moves[i] {
				t.Errorf("dominated %d: window %v, want the first %d of %v", tc.dominated, got, tc.want, moves)
				break
			}
		}
	}
}

// solveOpening solves b after a Black stone at the cell named name with s, and takes
// the stone back.
func solveOpening(t *testing.T, s *Solver, b *hex.Board, name string) Result {
	t.Helper()
	c, err := b.Geometry().ParseCell(name)
	if err != nil {
		t.Fatal(err)
	}
	b.PlayStone(hex.Black, c)
	r, err := s.Solve(context.Background(), b)
	b.Undo()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// checkSmallOpenings solves every 4x4 and 5x5 opening with a solver of configuration
// cfg and reports (labelled label) each value that differs from the table known.
func checkSmallOpenings(t *testing.T, label string, cfg Config, known map[int]map[string]bool) {
	t.Helper()
	for _, n := range []int{4, 5} {
		ops, err := New(cfg).SolveOpenings(context.Background(), n, n, nil)
		if err != nil {
			t.Fatal(err)
		}
		g := hex.MustGeometry(n, n)
		for _, o := range ops {
			if name := g.CellName(o.Cell); o.BlackWins != known[n][name] {
				t.Errorf("%s: %dx%d opening %s black wins=%v, table says %v", label, n, n, name, o.BlackWins, known[n][name])
			}
		}
	}
}
