package solver

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// TestExperimentCells solves chosen openings (HEXLEARN_EXPCELLS="7 a4 a3"), each with
// a fresh solver, with DefaultConfig changed by the environment: EXP_DFS=1 (DFS),
// EXP_NOMOVER=0 (build the mover's connections too), EXP_ENERGY=1 (circuit-energy
// order), EXP_NODOM=0 (capture-dominated pruning on), EXP_NOKILL=1 (no killer moves and history), EXP_NOINF=1 (no inferior
// pruning), EXP_NORED=1 (no proof-set reduction), EXP_TTBITS (table size), EXP_FULL,
// EXP_SEMI, EXP_OR, EXP_WORK, EXP_SEMIAND (vc.Compact's limits), EXP_SECS (timeout per
// opening, default 60). An answer against the openings table fails the test; an
// opening not solved in time is logged. It is skipped unless HEXLEARN_EXPCELLS is set.
func TestExperimentCells(t *testing.T) {
	spec := strings.Fields(os.Getenv("HEXLEARN_EXPCELLS"))
	if len(spec) < 2 {
		t.Skip("set HEXLEARN_EXPCELLS=\"size cell...\"")
	}
	size, err := strconv.Atoi(spec[0])
	known := knownOpenings(t)[size]
	if err != nil || known == nil {
		t.Fatalf("HEXLEARN_EXPCELLS: bad size %q (want a size of %s)", spec[0], "openings.tsv")
	}
	cfg := DefaultConfig()
	if envInt("EXP_DFS", 0) == 1 {
		cfg.Algorithm = DFS
	}
	if hs, ok := cfg.Connector.(*vc.Compact); ok {
		hs.MaxFull = envInt("EXP_FULL", hs.MaxFull)
		hs.MaxSemi = envInt("EXP_SEMI", hs.MaxSemi)
		hs.MaxOr = envInt("EXP_OR", hs.MaxOr)
		hs.MaxWork = envInt("EXP_WORK", hs.MaxWork)
		hs.SemiAnd = envInt("EXP_SEMIAND", 0) == 1
	}
	cfg.NoMoverVC = envInt("EXP_NOMOVER", 1) == 1
	cfg.Energy = envInt("EXP_ENERGY", 0) == 1
	cfg.NoInferior = envInt("EXP_NOINF", 0) == 1
	cfg.NoReduce = envInt("EXP_NORED", 0) == 1
	cfg.NoDominated = envInt("EXP_NODOM", 1) == 1
	cfg.NoKillers = envInt("EXP_NOKILL", 0) == 1
	cfg.TTBits = envInt("EXP_TTBITS", cfg.TTBits)
	cfg.Timeout = time.Duration(envInt("EXP_SECS", 60)) * time.Second
	g := hex.MustGeometry(size, size)
	for _, name := range spec[1:] {
		c, err := g.ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		s := New(cfg)
		b := hex.MustBoard(size, size)
		b.PlayStone(hex.Black, c)
		r, err := s.Solve(context.Background(), b)
		if err != nil {
			t.Logf("%s: %v nodes=%d", name, err, r.Stats.Nodes)
			continue
		}
		bw := r.Winner == hex.Black
		if bw != known[name] {
			t.Errorf("%s: solver says black wins=%v, table says %v", name, bw, known[name])
		}
		t.Logf("%s black=%v nodes=%d tthits=%d expanded=%d %v", name, bw, r.Stats.Nodes, r.Stats.TTHits, r.Stats.Expanded, r.Stats.Elapsed.Round(time.Millisecond))
	}
}
