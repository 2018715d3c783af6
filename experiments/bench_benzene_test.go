package experiments

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/vc"
)

// TestCompareBenzeneTiny: on a hand-made reference the comparison finds what is known.
// On 3x3 a black stone at b2 has a winning VC (4 cells) and White none: Benzene's
// "yes" for Black is found, its (made-up) "yes" for White is missed, and a made-up
// "no" for Black on a4 a1 b2 is a claim Benzene does not make, which the solver
// confirms.
func TestCompareBenzeneTiny(t *testing.T) {
	ref, err := vc.ParseBenzeneReference(3, "black yes 4 2.0 2.0 b2\nwhite yes 3 4.0 4.0 b2\nblack no - 1.0 1.0 b2 a1\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := compareBenzene(context.Background(), ref, 3, "tiny", "H-search", vc.DefaultConfig(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cmp.Benzene != 2 || r.Cmp.Found != 1 || len(r.Cmp.Extra) != 1 || r.Sound != 1 || r.Unsound != 0 || r.Unchecked != 0 || r.Positions != 2 {
		t.Errorf("result %+v", r)
	}
	// Benzene's time per position is the smaller of its two lines: 2 ms and 1 ms.
	if r.Benzene.Milliseconds() != 1 && r.Benzene.Milliseconds() != 2 {
		t.Errorf("Benzene's median %v, want between 1 and 2 ms", r.Benzene)
	}
	note := r.Row().Note
	for _, want := range []string{"found 1 of Benzene's 2 winning VCs (50%)", "1 claims Benzene does not make (0 unsound, 1 sound, 0 unchecked)"} {
		if !strings.Contains(note, want) {
			t.Errorf("note %q lacks %q", note, want)
		}
	}
}

// TestCheckClaim: the solver confirms a true winning VC and refutes a false one (White
// claims to win 3x3 against a black stone at b2, Black to move).
func TestCheckClaim(t *testing.T) {
	ref, err := vc.ParseBenzeneReference(3, "black yes 4 0 0 b2\nwhite yes 4 0 0 b2\n")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false} {
		if sound, err := checkClaim(context.Background(), ref[i]); err != nil || sound != want {
			t.Errorf("%s's claim: sound %v, %v; want %v", ref[i].Color, sound, err, want)
		}
	}
}

// BenchmarkBenzeneCoverage compares H-search configurations with Benzene's connection
// builder on the reference positions of engine/vc/testdata (vc.BenzeneReference):
// coverage of Benzene's winning edge-to-edge VCs, claims Benzene does not make (and
// the unsound ones among them), and the median build time of both colours next to
// Benzene's. Tune on the tuning set; report the held-out set:
//
//	go test ./experiments -run '^$' -bench 'BenzeneCoverage/11x11/tuning' -benchtime 1x
func BenchmarkBenzeneCoverage(b *testing.B) {
	for _, size := range []int{8, 11, 13} {
		for _, set := range []string{vc.BenzeneTuning, vc.BenzeneHeldOut} {
			for _, nc := range vcBenchConfigs()[:3] {
				b.Run(fmt.Sprintf("%dx%d/%s/%s", size, size, set, strings.ReplaceAll(nc.name, " ", "_")), func(b *testing.B) {
					var r BenzeneResult
					var err error
					for b.Loop() {
						if r, err = CompareWithBenzene(context.Background(), size, set, nc.name, nc.cfg, 3); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(r.Cmp.Coverage(), "coverage-%")
					b.ReportMetric(float64(r.Cmp.Found), "found")
					b.ReportMetric(float64(r.Cmp.Benzene), "benzene")
					b.ReportMetric(float64(len(r.Cmp.Extra)), "extra")
					b.ReportMetric(float64(r.Unsound), "unsound")
					b.ReportMetric(float64(r.Unchecked), "unchecked")
					b.ReportMetric(float64(r.Median)/1e6, "median-ms")
					b.ReportMetric(float64(r.Benzene)/1e6, "benzene-ms")
				})
			}
		}
	}
}
