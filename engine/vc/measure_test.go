package vc_test

import (
	"fmt"
	"testing"
	"time"

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

// ms is a duration in milliseconds, for b.ReportMetric.
func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// reportVC reports the build statistics of benchutil.MeasureVC as metrics: median
// and 90th percentile of a position's build (both colours; thread CPU time on Linux,
// minimum of the repetitions) in ms, and the VCs and SCs per position.
func reportVC(b *testing.B, st benchutil.VCStats) {
	b.ReportMetric(ms(st.Median), "median-ms")
	b.ReportMetric(ms(st.P90), "p90-ms")
	b.ReportMetric(st.Full, "VCs")
	b.ReportMetric(st.Semi, "SCs")
}

// BenchmarkBuildConfigs measures H-search builds of both colours on the fixed
// benchmark positions (vc.BenchPositions, 8x8 and 11x11) for each configuration
// compared in docs/results.md (internal/benchutil.MeasureVC: thread CPU time, minimum
// of 3 builds per position): one op is the whole set; median-ms and p90-ms are per
// position. Run it with
//
//	go test ./engine/vc -run '^$' -bench BuildConfigs -benchtime 1x
func BenchmarkBuildConfigs(b *testing.B) {
	for _, size := range []int{8, 11} {
		boards, err := vc.BenchPositions(size)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range []struct {
			name string
			cfg  vc.Config
		}{{"H-5-16-4", before16()}, {"H-6-16-5", beforeTemplates()}, {"H", vc.DefaultConfig()}, {"H+edge", vc.HEdgeConfig()},
			{"XH", vc.XHConfig()}, {"H-M20", vc.AnshelevichConfig()}, {"H-25-50", benzeneLists()}} {
			b.Run(fmt.Sprintf("%dx%d/%s", size, size, c.name), func(b *testing.B) {
				var st benchutil.VCStats
				var err error
				for b.Loop() {
					if st, err = benchutil.MeasureVC(boards, c.cfg, true, 3); err != nil {
						b.Fatal(err)
					}
				}
				reportVC(b, st)
			})
		}
	}
}

// BenchmarkPlayVsBuild measures the incremental update (Builder.Play) against a
// rebuild along 10 random games on 8x8 and 11x11 (internal/benchutil.MeasurePlay;
// both colours, thread CPU time): medians per move in ms, the total speed-up and the
// Plays that fell back to a rebuild. One op is the 10 games. Run it with
//
//	go test ./engine/vc -run '^$' -bench PlayVsBuild -benchtime 1x
func BenchmarkPlayVsBuild(b *testing.B) {
	for _, size := range []int{8, 11} {
		for _, c := range []struct {
			name string
			cfg  vc.Config
		}{{"H", vc.DefaultConfig()}, {"H+edge", vc.HEdgeConfig()}, {"H-M20", vc.AnshelevichConfig()}} {
			b.Run(fmt.Sprintf("%dx%d/%s", size, size, c.name), func(b *testing.B) {
				var st benchutil.PlayStats
				var err error
				for b.Loop() {
					if st, err = benchutil.MeasurePlay(size, 10, c.cfg, 1); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(ms(st.PlayMedian), "play-median-ms")
				b.ReportMetric(ms(st.PlayP90), "play-p90-ms")
				b.ReportMetric(ms(st.BuildMedian), "build-median-ms")
				b.ReportMetric(ms(st.BuildP90), "build-p90-ms")
				b.ReportMetric(float64(st.BuildTotal)/float64(max(st.PlayTotal, 1)), "speedup")
				b.ReportMetric(float64(st.Rebuilds), "rebuilds")
			})
		}
	}
}
