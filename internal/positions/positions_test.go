package positions

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestRandom: the positions are deterministic by seed, distinct, undecided, alternate
// Black first, and have stones in the documented range.
func TestRandom(t *testing.T) {
	for _, tc := range []struct{ size, n int }{{4, 30}, {8, 50}} {
		a, b := Random(tc.size, tc.n, 7), Random(tc.size, tc.n, 7)
		c := Random(tc.size, tc.n, 8)
		if len(a) != tc.n {
			t.Fatalf("%dx%d: %d positions, want %d", tc.size, tc.size, len(a), tc.n)
		}
		seen := map[uint64]bool{}
		same := 0
		for i := range a {
			if a[i].Hash() != b[i].Hash() {
				t.Fatalf("%dx%d: position %d differs between runs with one seed", tc.size, tc.size, i)
			}
			if a[i].Hash() == c[i].Hash() {
				same++
			}
			if seen[a[i].Hash()] {
				t.Errorf("%dx%d: position %d repeated", tc.size, tc.size, i)
			}
			seen[a[i].Hash()] = true
			n := a[i].NumStones()
			if a[i].Winner() != hex.Empty || n < 1 || n > tc.size*tc.size/2 {
				t.Errorf("%dx%d: position %d has %d stones, winner %v", tc.size, tc.size, i, n, a[i].Winner())
			}
			if nb, nw := a[i].Stones(hex.Black).Count(), a[i].Stones(hex.White).Count(); nb != nw && nb != nw+1 {
				t.Errorf("%dx%d: position %d has %d black and %d white stones", tc.size, tc.size, i, nb, nw)
			}
		}
		if same == len(a) {
			t.Errorf("%dx%d: seeds 7 and 8 give the same positions", tc.size, tc.size)
		}
	}
	if got := Sampled(3, 5, 2, 1, rand.NewPCG(1, 2)); len(got) == 0 || got[0].NumStones() != 2 {
		t.Errorf("Sampled(3, 5, 2, 1): %d positions", len(got))
	}
}
