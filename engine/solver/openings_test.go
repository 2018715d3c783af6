package solver

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// openingsFile is a copy of the project's shared table of known opening values
// (shared/testdata/openings.tsv: published solver results, 3x3..8x8), kept here so the
// test runs in any checkout.
const openingsFile = "testdata/openings.tsv"

// knownOpenings reads the win map of one-stone openings: size -> winning cells.
func knownOpenings(t testing.TB) map[int]map[string]bool {
	f, err := os.Open(openingsFile)
	if err != nil {
		t.Fatalf("openings table: %v", err)
	}
	defer f.Close()
	out := map[int]map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "size") || strings.TrimSpace(line) == "" {
			continue
		}
		parts := strings.Split(line, "\t")
		n, err := strconv.Atoi(parts[0])
		if err != nil {
			t.Fatalf("bad line %q", line)
		}
		m := map[string]bool{}
		for _, c := range strings.Fields(parts[1]) {
			m[c] = true
		}
		out[n] = m
	}
	return out
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
	}
}

func TestOpenings6(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	checkOpenings(t, 6, DefaultConfig())
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
