package vc_test

import (
	"os"
	"testing"

	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/benchutil"
)

// benzeneLists is DefaultConfig with Benzene's list sizes (25 VCs and 50 SCs per pair;
// Benzene's are soft limits), for comparing with Benzene's build times.
func benzeneLists() vc.Config {
	c := vc.DefaultConfig()
	c.MaxFull, c.MaxSemi = 25, 50
	return c
}

// before16 is DefaultConfig with the limits before the OR retune of issue 16: 5 VCs
// per pair and ORs of at most 4 SCs, no edge templates.
func before16() vc.Config {
	c := vc.DefaultConfig()
	c.MaxFull, c.MaxOr, c.EdgeTemplates = 5, 4, false
	return c
}

// beforeTemplates is DefaultConfig as it was before the edge templates joined it
// (issue 16): ORs of at most 5 SCs, no templates.
func beforeTemplates() vc.Config {
	c := vc.DefaultConfig()
	c.MaxOr, c.EdgeTemplates = 5, false
	return c
}

// TestMeasure prints the benchmark statistics (thread CPU time, minimum of 3 builds
// per position, both colours; internal/benchutil.MeasureVC) when
// HEXLEARN_VC_MEASURE=1; the numbers are in the README.
func TestMeasure(t *testing.T) {
	if os.Getenv("HEXLEARN_VC_MEASURE") != "1" {
		t.Skip("set HEXLEARN_VC_MEASURE=1")
	}
	for _, size := range []int{8, 11} {
		boards, err := vc.BenchPositions(size)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name string
			cfg  vc.Config
		}{{"H 5/16/4", before16()}, {"H 6/16/5", beforeTemplates()}, {"H", vc.DefaultConfig()}, {"H+edge", vc.HEdgeConfig()}, {"XH", vc.XHConfig()}, {"H M=20", vc.AnshelevichConfig()}, {"H 25/50", benzeneLists()}} {
			st, err := benchutil.MeasureVC(boards, c.cfg, true, 3)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%dx%d %-6s %v", size, size, c.name, st)
		}
	}
}

// TestMeasurePlay prints Play-versus-Build statistics along random games on 8x8 and
// 11x11 (internal/benchutil.MeasurePlay) when HEXLEARN_VC_MEASURE=1.
func TestMeasurePlay(t *testing.T) {
	if os.Getenv("HEXLEARN_VC_MEASURE") != "1" {
		t.Skip("set HEXLEARN_VC_MEASURE=1")
	}
	for _, size := range []int{8, 11} {
		for _, c := range []struct {
			name string
			cfg  vc.Config
		}{{"H", vc.DefaultConfig()}, {"H+edge", vc.HEdgeConfig()}, {"H M=20", vc.AnshelevichConfig()}} {
			st, err := benchutil.MeasurePlay(size, 10, c.cfg, 1)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%dx%d %-6s %v", size, size, c.name, st)
		}
	}
}
