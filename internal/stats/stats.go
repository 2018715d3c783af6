// Package stats holds the summary statistics the project shares, on top of
// gonum.org/v1/gonum/stat: quantiles of measurements (median, p90) and the Spearman
// rank correlation, which gonum/stat does not have (it is Pearson's correlation,
// stat.Correlation, of the ranks).
package stats

import (
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/stat"
)

// Quantile returns the p-quantile (0 <= p <= 1) of sorted, which must be in
// ascending order, by the nearest-rank rule (gonum's stat.Empirical): the smallest
// value with at least a fraction p of the data at or below it. It returns 0 for an
// empty slice and NaN for p outside [0, 1] or unsorted data.
func Quantile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	if !(p >= 0 && p <= 1) || !sort.Float64sAreSorted(sorted) {
		return math.NaN()
	}
	return stat.Quantile(p, stat.Empirical, sorted, nil)
}

// QuantileOf returns the p-quantile of v (see Quantile); v is not modified.
func QuantileOf(v []float64, p float64) float64 {
	s := slices.Clone(v)
	sort.Float64s(s)
	return Quantile(s, p)
}

// DurationQuantile returns the p-quantile of ts (see Quantile); ts is not modified.
func DurationQuantile(ts []time.Duration, p float64) time.Duration {
	v := make([]float64, len(ts))
	for i, t := range ts {
		v[i] = float64(t)
	}
	return time.Duration(QuantileOf(v, p))
}

// Spearman returns the Spearman rank correlation of a and b (average ranks for
// ties): Pearson's correlation (stat.Correlation) of their ranks. It is NaN when
// the lengths differ, there are fewer than two rows or a column is constant.
func Spearman(a, b []float64) float64 {
	if len(a) != len(b) || len(a) < 2 {
		return math.NaN()
	}
	ra, rb := Ranks(a), Ranks(b)
	if constant(ra) || constant(rb) {
		return math.NaN()
	}
	return stat.Correlation(ra, rb, nil)
}

// Ranks returns the 1-based ranks of v in ascending order, tied values sharing
// their average rank.
func Ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return v[idx[i]] < v[idx[j]] })
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		avg := float64(i+j)/2 + 1
		for k := i; k <= j; k++ {
			r[idx[k]] = avg
		}
		i = j + 1
	}
	return r
}

func constant(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

// Wilson returns the 95% Wilson score interval for k successes in n trials ([0, 1]
// for none): the interval the project gives every match score.
func Wilson(k, n int) (lo, hi float64) {
	if n == 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(k) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return math.Max(0, mid-half), math.Min(1, mid+half)
}
