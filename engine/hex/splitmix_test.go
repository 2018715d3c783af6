package hex

import "testing"

// TestSplitMix64 checks the generator against the reference sequence from seed 0.
func TestSplitMix64(t *testing.T) {
	var s SplitMix64
	for i, want := range []uint64{0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, 0x06c45d188009454f} {
		if got := s.Next(); got != want {
			t.Fatalf("value %d: %#x, want %#x", i, got, want)
		}
	}
}
