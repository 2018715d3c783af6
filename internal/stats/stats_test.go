package stats

import (
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"
)

func TestQuantile(t *testing.T) {
	tests := []struct {
		v    []float64
		p    float64
		want float64
	}{
		{nil, 0.5, 0},
		{[]float64{7}, 0.9, 7},
		{[]float64{1, 2, 3, 4}, 0.5, 2},
		{[]float64{1, 2, 3, 4, 5}, 0.5, 3},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 0.9, 9},
		{[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, 0.9, 10},
		{[]float64{1, 2, 3}, 0, 1},
		{[]float64{1, 2, 3}, 1, 3},
	}
	for _, tc := range tests {
		if got := Quantile(tc.v, tc.p); got != tc.want {
			t.Errorf("Quantile(%v, %g) = %g, want %g", tc.v, tc.p, got, tc.want)
		}
	}
	for _, bad := range []struct {
		v []float64
		p float64
	}{{[]float64{2, 1}, 0.5}, {[]float64{1, 2}, 1.5}, {[]float64{1, 2}, -0.1}} {
		if got := Quantile(bad.v, bad.p); !math.IsNaN(got) {
			t.Errorf("Quantile(%v, %g) = %g, want NaN", bad.v, bad.p, got)
		}
	}
}

// TestQuantileNearestRank checks Quantile against the nearest-rank rule written out
// (the rule experiments used before gonum), on random data of every length to 50.
func TestQuantileNearestRank(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for n := 1; n <= 50; n++ {
		v := make([]float64, n)
		for i := range v {
			v[i] = rng.Float64()
		}
		for _, p := range []float64{0, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 1} {
			s := append([]float64(nil), v...)
			sort.Float64s(s)
			i := int(math.Ceil(p*float64(n))) - 1
			want := s[max(0, min(i, n-1))]
			if got := QuantileOf(v, p); got != want {
				t.Fatalf("n %d p %g: %g, nearest rank %g", n, p, got, want)
			}
		}
	}
}

func TestDurationQuantile(t *testing.T) {
	ts := []time.Duration{5 * time.Millisecond, time.Millisecond, 3 * time.Millisecond, 2 * time.Millisecond}
	if got := DurationQuantile(ts, 0.5); got != 2*time.Millisecond {
		t.Errorf("median %v, want 2ms", got)
	}
	if got := DurationQuantile(ts, 0.9); got != 5*time.Millisecond {
		t.Errorf("p90 %v, want 5ms", got)
	}
	if ts[0] != 5*time.Millisecond {
		t.Errorf("input modified: %v", ts)
	}
}

func TestSpearman(t *testing.T) {
	a := []float64{1, 2, 3, 4, 5}
	tests := []struct {
		name string
		a, b []float64
		want float64 // NaN: want NaN
	}{
		{"same order", a, []float64{10, 20, 30, 40, 50}, 1},
		{"reversed", a, []float64{5, 4, 3, 2, 1}, -1},
		{"ties and infinities", a, []float64{math.Inf(-1), math.Inf(-1), 0, 1, math.Inf(1)}, 0.9746794344808963},
		{"constant", a, []float64{3, 3, 3, 3, 3}, math.NaN()},
		{"one row", []float64{1}, []float64{2}, math.NaN()},
		{"length mismatch", a, []float64{1, 2}, math.NaN()},
	}
	for _, tc := range tests {
		got := Spearman(tc.a, tc.b)
		if math.IsNaN(tc.want) {
			if !math.IsNaN(got) {
				t.Errorf("%s: %g, want NaN", tc.name, got)
			}
			continue
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: %.16g, want %.16g", tc.name, got, tc.want)
		}
	}
}

// TestSpearmanPearsonOfRanks checks Spearman against Pearson's correlation of the
// ranks written out, on random data with ties.
func TestSpearmanPearsonOfRanks(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	for trial := 0; trial < 100; trial++ {
		n := 2 + rng.Intn(60)
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i] = float64(rng.Intn(10))
			b[i] = a[i] + rng.NormFloat64()*3
		}
		ra, rb := Ranks(a), Ranks(b)
		var ma, mb float64
		for i := range ra {
			ma += ra[i] / float64(n)
			mb += rb[i] / float64(n)
		}
		var sab, saa, sbb float64
		for i := range ra {
			sab += (ra[i] - ma) * (rb[i] - mb)
			saa += (ra[i] - ma) * (ra[i] - ma)
			sbb += (rb[i] - mb) * (rb[i] - mb)
		}
		want := sab / math.Sqrt(saa*sbb)
		got := Spearman(a, b)
		if saa == 0 || sbb == 0 {
			if !math.IsNaN(got) {
				t.Fatalf("constant column: %g, want NaN", got)
			}
			continue
		}
		if math.Abs(got-want) > 1e-12 {
			t.Fatalf("n %d: %.16g, Pearson of ranks %.16g", n, got, want)
		}
	}
}

func TestRanks(t *testing.T) {
	got := Ranks([]float64{30, 10, 20, 10})
	want := []float64{4, 1.5, 3, 1.5}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Ranks = %v, want %v", got, want)
		}
	}
}
