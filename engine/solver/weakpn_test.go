package solver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestWeakPNConfig: Validate takes WeakPN in [0, 1] and rejects the rest.
func TestWeakPNConfig(t *testing.T) {
	tests := []struct {
		weak float64
		ok   bool
	}{
		{0, true}, {0.75, true}, {1, true},
		{-0.01, false}, {1.5, false}, {math.NaN(), false}, {math.Inf(1), false},
	}
	for _, tc := range tests {
		c := DefaultConfig()
		c.WeakPN = tc.weak
		if err := c.Validate(); (err == nil) != tc.ok {
			t.Errorf("WeakPN %v: Validate() = %v, want ok=%v", tc.weak, err, tc.ok)
		}
	}
}

// TestWeakDN: the disproof number is the sum at WeakPN 0, the largest child plus one
// per other child at 1, and the share 1 − WeakPN of the excess in between.
func TestWeakDN(t *testing.T) {
	tests := []struct {
		weak     float64
		children []uint32
		want     uint32
	}{
		{0, []uint32{5, 3, 1}, 9},
		{1, []uint32{5, 3, 1}, 7},
		{0.75, []uint32{5, 3, 1}, 7},  // 7 + floor(2/4)
		{0.75, []uint32{9, 9, 9}, 15}, // 11 + 16/4
		{0.5, []uint32{9, 9, 9}, 19},  // 11 + 16/2
		{1, []uint32{1, 1, 1, 1}, 4},  // unexpanded children: as the sum
		{0.75, []uint32{4}, 4},        // one child
		{0.75, []uint32{pnInf - 1, 7}, pnInf - 1},
	}
	for _, tc := range tests {
		s := New(Config{WeakPN: tc.weak, NoTT: true})
		var sum, top uint32
		for _, c := range tc.children {
			sum, top = satAdd(sum, c), max(top, c)
		}
		if got := s.weakDN(sum, top, len(tc.children)); got != tc.want {
			t.Errorf("WeakPN %v, children %v: weakDN = %d, want %d", tc.weak, tc.children, got, tc.want)
		}
	}
}

// TestWeakThreshold checks the child thresholds against brute force: for random
// children and node thresholds, the threshold of a child is the smallest proof
// number at which the node's disproof number (weakDN) reaches the node's threshold.
func TestWeakThreshold(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, weak := range []float64{0, 0.25, 0.5, 0.75, 0.9, 0.99, 1} {
		s := New(Config{WeakPN: weak, NoTT: true})
		dnOf := func(kids []uint32) uint32 {
			var sum, top uint32
			for _, c := range kids {
				sum, top = satAdd(sum, c), max(top, c)
			}
			return s.weakDN(sum, top, len(kids))
		}
		for trial := 0; trial < 2000; trial++ {
			kids := make([]uint32, 1+rng.IntN(6))
			for i := range kids {
				kids[i] = 1 + uint32(rng.IntN(40))
			}
			dn := dnOf(kids)
			thdn := dn + 1 + uint32(rng.IntN(60))
			c := rng.IntN(len(kids))
			var top uint32
			for _, v := range kids {
				top = max(top, v)
			}
			cp := kids[c]
			var sum uint64
			for _, v := range kids {
				sum += uint64(v)
			}
			excess := sum - min(sum, uint64(top)+uint64(len(kids)-1))
			got := s.weakThreshold(uint64(thdn-dn), uint64(cp), uint64(top), excess)
			if got <= uint64(cp) {
				t.Fatalf("WeakPN %v, children %v, child %d, thdn %d: threshold %d not above the child's %d", weak, kids, c, thdn, got, cp)
			}
			// the smallest child value that brings the node to its threshold
			want := uint64(cp)
			for ; ; want++ {
				kids[c] = uint32(want)
				if dnOf(kids) >= thdn {
					break
				}
			}
			kids[c] = cp
			if got != want {
				t.Errorf("WeakPN %v, children %v, child %d, thdn %d: threshold %d, brute force %d", weak, kids, c, thdn, got, want)
			}
		}
	}
}

// TestWeakPNSameWinners: at WeakPN 0 (the plain sum), 0.75 (the default) and 1 (weak
// proof numbers) DFPN gives the table's value for every 4x4 and 5x5 opening and for
// six 6x6 openings (three won by each side).
func TestWeakPNSameWinners(t *testing.T) {
	known := knownOpenings(t)
	six := []string{"c1", "e1", "a2", "a3", "f2", "e5"}
	for _, weak := range []float64{0, 0.75, 1} {
		mk := func() Config {
			c := DefaultConfig()
			c.TTBits, c.WeakPN = 16, weak
			return c
		}
		checkSmallOpenings(t, fmt.Sprintf("WeakPN %v", weak), mk(), known)
		if testing.Short() && weak != 1 {
			continue
		}
		s := New(mk())
		b := hex.MustBoard(6, 6)
		var nodes int64
		for _, name := range six {
			r := solveOpening(t, s, b, name)
			if (r.Winner == hex.Black) != known[6][name] {
				t.Errorf("WeakPN %v: 6x6 opening %s winner %s, table says black wins=%v", weak, name, r.Winner, known[6][name])
			}
			nodes += r.Stats.Nodes
		}
		t.Logf("WeakPN %v: six 6x6 openings in %d nodes", weak, nodes)
	}
}
