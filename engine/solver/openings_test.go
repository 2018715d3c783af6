package solver

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// knownOpenings is the win map of one-stone openings (KnownOpenings, the published
// values): size -> winning cells.
func knownOpenings(t testing.TB) map[int]map[string]bool {
	out := map[int]map[string]bool{}
	for n := 1; n <= hex.MaxSize; n++ {
		wins, ok := KnownOpenings(n)
		if !ok {
			continue
		}
		m := map[string]bool{}
		for _, c := range hex.MustGeometry(n, n).CellNames(wins) {
			m[c] = true
		}
		out[n] = m
	}
	if len(out) != 6 {
		t.Fatalf("openings table: sizes %v", len(out))
	}
	return out
}

// TestParseOpenings: the table's parser names the line of a bad row.
func TestParseOpenings(t *testing.T) {
	for _, bad := range []string{"x\ta1", "3\tz9", "3", "0\ta1"} {
		if _, err := parseOpenings("# c\nsize\tcells\n" + bad + "\n"); err == nil || !strings.Contains(err.Error(), "line 3") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	m, err := parseOpenings("3\tc1 a2\n")
	if err != nil || m[3].Count() != 2 {
		t.Errorf("good table: %v %v", m, err)
	}
}

func checkOpenings(t *testing.T, n int, cfg Config) {
	known := knownOpenings(t)[n]
	s := New(cfg)
	start := time.Now()
	var nodes int64
	ops, err := s.SolveOpenings(context.Background(), n, n, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := hex.MustGeometry(n, n)
	for _, o := range ops {
		nodes += o.Nodes
		name := g.CellName(o.Cell)
		if o.BlackWins != known[name] {
			t.Errorf("%dx%d opening %s: solver says black wins=%v, table says %v", n, n, name, o.BlackWins, known[name])
		}
	}
	t.Logf("%dx%d: %d openings, %d nodes, %v", n, n, len(ops), nodes, time.Since(start))
}

func TestOpenings3to5(t *testing.T) {
	for n := 3; n <= 5; n++ {
		checkOpenings(t, n, Config{})
		checkOpenings(t, n, Config{Connector: vc.NewCompact()})
		checkOpenings(t, n, Config{Algorithm: DFS, Connector: vc.NewCompact()})
		if n < 5 {
			checkOpenings(t, n, EngineVCConfig())
		}
		checkOpenings(t, n, Config{Connector: NewVCConnector(vc.FastVCConfig())})
	}
}

func TestOpenings6(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	checkOpenings(t, 6, DefaultConfig())
	fast := DefaultConfig() // engine/vc's builder with the FastVC rules as the connector
	fast.Connector = NewVCConnector(vc.FastVCConfig())
	checkOpenings(t, 6, fast)
	dfs := DefaultConfig()
	dfs.Algorithm = DFS
	checkOpenings(t, 6, dfs)
}

func TestOpenings7(t *testing.T) {
	if os.Getenv("HEXLEARN_SOLVE7") == "" {
		t.Skip("set HEXLEARN_SOLVE7=1 to solve all 7x7 openings")
	}
	checkOpenings(t, 7, DefaultConfig())
}

// TestSolveOpeningsParallel: the parallel openings solver gives the table's win map
// with one, two and three workers (on square and rectangular boards), marks exactly the
// second cell of each 180°-rotation pair as Rotated, and reports a bad worker count.
func TestSolveOpeningsParallel(t *testing.T) {
	known := knownOpenings(t)
	small := func() Config { c := DefaultConfig(); c.TTBits = 14; return c }
	sizes := []int{3, 4, 5}
	if !testing.Short() {
		sizes = append(sizes, 6)
	}
	for _, n := range sizes {
		g := hex.MustGeometry(n, n)
		for _, workers := range []int{1, 2, 3} {
			ops, err := SolveOpeningsParallel(context.Background(), n, n, workers, small, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(ops) != g.N {
				t.Fatalf("%dx%d, %d workers: %d openings, want %d", n, n, workers, len(ops), g.N)
			}
			for i, o := range ops {
				name := g.CellName(o.Cell)
				if o.Cell != hex.Cell(i) {
					t.Fatalf("%dx%d: result %d is for %s", n, n, i, name)
				}
				if o.BlackWins != known[n][name] {
					t.Errorf("%dx%d, %d workers: opening %s black wins=%v, table says %v", n, n, workers, name, o.BlackWins, known[n][name])
				}
				if want := o.Cell > g.Rotate180(o.Cell); o.Rotated != want {
					t.Errorf("%dx%d: opening %s Rotated=%v, want %v", n, n, name, o.Rotated, want)
				}
			}
		}
	}
	// A rectangular board: each opening against a sequential solve of the same board.
	seq, err := New(small()).SolveOpenings(context.Background(), 4, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	par, err := SolveOpeningsParallel(context.Background(), 4, 3, 2, small, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range seq {
		if seq[i].BlackWins != par[i].BlackWins {
			t.Errorf("4x3 opening %d: sequential %v, parallel %v", i, seq[i].BlackWins, par[i].BlackWins)
		}
	}
	if _, err := SolveOpeningsParallel(context.Background(), 4, 4, 0, small, nil); !errors.Is(err, ErrBadConfig) {
		t.Errorf("0 workers: got %v, want ErrBadConfig", err)
	}
	if _, err := SolveOpeningsParallel(context.Background(), 0, 4, 1, small, nil); err == nil {
		t.Error("a 0x4 board gave no error")
	}
}

// TestSolveOpeningsParallelCancel: a cancelled context stops every worker with an error.
func TestSolveOpeningsParallelCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	small := func() Config { c := DefaultConfig(); c.TTBits = 14; return c }
	if _, err := SolveOpeningsParallel(ctx, 6, 6, 2, small, nil); err == nil {
		t.Fatal("a cancelled context gave no error")
	}
}

// TestSolveOpeningsWith: a per-opening node limit reports the undecided openings as
// Unknown and goes on; openings given in Done are not searched (Resumed, with the
// given value, their rotations too), and resuming from the decided openings of a run
// gives the table's win map.
func TestSolveOpeningsWith(t *testing.T) {
	known := knownOpenings(t)
	small := func() Config { c := DefaultConfig(); c.TTBits = 14; return c }
	limited := func() Config { c := small(); c.MaxNodes = 3; return c }
	tests := []struct {
		name    string
		n       int
		workers int
		mk      func() Config
		done    []string // cells given as decided (with the table's value)
		split   bool
		easy    bool // OpeningsOptions.EasyFirst
	}{
		{"5x5 limited", 5, 2, limited, nil, false, false},
		{"5x5 resumed from some", 5, 1, small, []string{"a1", "c3", "e5", "b4"}, false, false},
		{"4x4 resumed from all", 4, 2, small, []string{"a1", "b1", "c1", "d1", "a2", "b2", "c2", "d2"}, false, false},
		{"5x5 separate tables", 5, 2, small, nil, false, false},
		{"5x5 split", 5, 2, small, nil, true, false},
		{"6x6 split, 3 workers", 6, 3, small, nil, true, false},
		{"5x5 split limited", 5, 2, limited, nil, true, false},
		{"5x5 split resumed from some", 5, 2, small, []string{"a1", "c3", "e5", "b4"}, true, false},
		{"5x5 split, easy first", 5, 2, small, nil, true, true},
		{"5x5 split shared", 5, 2, small, nil, true, false},
		{"6x6 split shared, 3 workers", 6, 3, small, nil, true, false},
		{"5x5 split shared limited", 5, 2, limited, nil, true, false},
		{"5x5 one worker, easy first", 5, 1, small, []string{"b4"}, false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := hex.MustGeometry(tc.n, tc.n)
			var done []Opening
			given := map[hex.Cell]bool{}
			for _, name := range tc.done {
				c, err := g.ParseCell(name)
				if err != nil {
					t.Fatal(err)
				}
				done = append(done, Opening{Cell: c, BlackWins: known[tc.n][name], Nodes: 7})
				given[c], given[g.Rotate180(c)] = true, true
			}
			reported := 0
			var searched []hex.Cell // in the order they finished
			var stored []int        // their StoredProofs
			ops, err := SolveOpeningsWith(context.Background(), tc.n, tc.n, tc.mk, OpeningsOptions{
				Workers: tc.workers, Done: done, Progress: func(o Opening) {
					reported++
					if !o.Rotated && !o.Resumed {
						searched = append(searched, o.Cell)
						stored = append(stored, o.StoredProofs)
					}
				},
				SeparateTables: tc.name == "5x5 separate tables", Split: tc.split, EasyFirst: tc.easy,
				Shared: strings.Contains(tc.name, "shared")})
			if err != nil {
				t.Fatal(err)
			}
			if reported != g.N {
				t.Errorf("progress called %d times, want %d", reported, g.N)
			}
			if tc.split || tc.workers == 1 {
				// one opening at a time: they finish in the order handed out
				var want []hex.Cell
				for m := hex.Cell(0); int(m) < g.N; m++ {
					if m <= g.Rotate180(m) && !given[m] {
						want = append(want, m)
					}
				}
				hardOrder(g, want)
				if tc.easy {
					slices.Reverse(want)
				}
				if !slices.Equal(searched, want) {
					t.Errorf("openings searched in the order %v, want %v", searched, want)
				}
				// the proof store carries over from one opening to the next
				if !slices.IsSorted(stored) || (!strings.HasSuffix(tc.name, "limited") && stored[len(stored)-1] == 0) {
					t.Errorf("stored proofs after each opening: %v, want a non-decreasing count ending above 0", stored)
				}
			}
			unknown := 0
			for i, o := range ops {
				name := g.CellName(o.Cell)
				if o.Cell != hex.Cell(i) {
					t.Fatalf("result %d is for %s", i, name)
				}
				if o.Resumed != given[o.Cell] { // a resumed opening's rotation is resumed too
					t.Errorf("%s: Resumed=%v, given (or its rotation)=%v", name, o.Resumed, given[o.Cell])
				}
				if o.Resumed && !o.Rotated && o.Nodes != 7 {
					t.Errorf("%s: resumed with %d nodes, want the given 7", name, o.Nodes)
				}
				if o.Unknown {
					unknown++
					continue
				}
				if o.BlackWins != known[tc.n][name] {
					t.Errorf("%s: black wins=%v, table says %v", name, o.BlackWins, known[tc.n][name])
				}
			}
			if limited := strings.HasSuffix(tc.name, "limited"); limited != (unknown > 0) {
				t.Errorf("%d unknown openings", unknown)
			}
		})
	}
}

// TestHardOrder: the openings are sorted by distance to White's edges, then to the
// middle row (7x7: the hardest searches a4, g2, a3, b4 and g1 come within the first
// eight), and the sort is a permutation.
func TestHardOrder(t *testing.T) {
	tests := []struct {
		n     int
		first string
	}{
		{7, "a4 a3 g3 a2 g2 a1 g1 b4 b3 f3"},
		{4, "a2 d2 a3 d3 a1 d1 a4 d4 b2 c2"},
	}
	for _, tc := range tests {
		g := hex.MustGeometry(tc.n, tc.n)
		var cells []hex.Cell
		for m := hex.Cell(0); int(m) < g.N; m++ {
			if tc.n == 4 || m <= g.Rotate180(m) { // 7x7: the searched ones
				cells = append(cells, m)
			}
		}
		want := len(cells)
		hardOrder(g, cells)
		var names []string
		seen := map[hex.Cell]bool{}
		for i, c := range cells {
			seen[c] = true
			if i < 10 {
				names = append(names, g.CellName(c))
			}
		}
		if got := strings.Join(names, " "); got != tc.first {
			t.Errorf("%dx%d: order starts %q, want %q", tc.n, tc.n, got, tc.first)
		}
		if len(seen) != want {
			t.Errorf("%dx%d: %d distinct cells, want %d", tc.n, tc.n, len(seen), want)
		}
	}
}
