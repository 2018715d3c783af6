package solver

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

func envInt(k string, d int) int {
	if v, err := strconv.Atoi(os.Getenv(k)); err == nil {
		return v
	}
	return d
}

// TestExperiment measures the solver on all openings of one size with settings from
// the environment (HEXLEARN_EXP=size, EXP_FULL, EXP_SEMI, EXP_OR, EXP_NOVC); it is
// skipped unless HEXLEARN_EXP is set. An answer against the openings table fails it.
func TestExperiment(t *testing.T) {
	n := envInt("HEXLEARN_EXP", 0)
	if n == 0 {
		t.Skip("set HEXLEARN_EXP=size")
	}
	cfg := Config{TTBits: 20}
	if envInt("EXP_NOVC", 0) == 0 {
		vcfg := vc.DefaultConfig()
		vcfg.MaxFull = envInt("EXP_FULL", vcfg.MaxFull)
		vcfg.MaxSemi = envInt("EXP_SEMI", vcfg.MaxSemi)
		vcfg.MaxOr = envInt("EXP_OR", vcfg.MaxOr)
		cfg.Connector = NewVCConnector(vcfg)
	}
	if envInt("EXP_HS", 0) == 1 {
		hs := vc.NewCompact()
		hs.MaxFull = envInt("EXP_FULL", hs.MaxFull)
		hs.MaxSemi = envInt("EXP_SEMI", hs.MaxSemi)
		hs.MaxOr = envInt("EXP_OR", hs.MaxOr)
		hs.SemiAnd = envInt("EXP_SEMIAND", 0) == 1
		cfg.Connector = hs
	}
	cfg.NoInferior = envInt("EXP_NOINF", 0) == 1
	known := knownOpenings(t)[n]
	if known == nil {
		t.Fatalf("HEXLEARN_EXP=%d: %s has no values for that size", n, "openings.tsv")
	}
	s := New(cfg)
	start := time.Now()
	var nodes int64
	g := hex.MustGeometry(n, n)
	_, err := s.SolveOpenings(context.Background(), n, n, func(o Opening) {
		nodes += o.Nodes
		name := g.CellName(o.Cell)
		if o.BlackWins != known[name] {
			t.Errorf("%s: solver says black wins=%v, table says %v", name, o.BlackWins, known[name])
		}
		t.Logf("%s black=%v nodes=%d %v", name, o.BlackWins, o.Nodes, o.Elapsed.Round(time.Millisecond))
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("total nodes %d time %v", nodes, time.Since(start))
}
