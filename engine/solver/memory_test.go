package solver

import (
	"testing"
	"unsafe"
)

func TestTableBytes(t *testing.T) {
	small, big := TableBytes(DFPN, 64, 20), TableBytes(DFPN, 81, 20)
	if small == 0 || small%(1<<20) != 0 || big < 4*small {
		t.Errorf("2^20 DFPN entries: %d bytes up to 8x8, %d above (the compact form should be under a quarter)", small, big)
	}
	if TableBytes(DFPN, 36, 21) != 2*small || TableBytes(DFPN, 64, 10) != small>>10 {
		t.Error("table bytes not proportional to the entries")
	}
	if got, want := TableBytes(DFS, 64, 0), uint64(unsafe.Sizeof(ttEntry{})); got != want {
		t.Errorf("DFS entry: %d bytes, want %d", got, want)
	}
	if got, want := TableBytes(DFPN, 64, 0), uint64(unsafe.Sizeof(pnSmall{})); got != want {
		t.Errorf("DFPN entry up to 8x8: %d bytes, want %d", got, want)
	}
}

func TestTTBitsFor(t *testing.T) {
	const gib = 1 << 30
	e := TableBytes(DFPN, 64, 0) // one entry up to 8x8
	for _, tc := range []struct {
		name           string
		cells, workers int
		budget         uint64
		want           int
	}{
		{"8x8, plenty: the 8x8 cap", 64, 2, 6 * gib, 23},
		{"8x8, two workers, just short of 2^23 each", 64, 2, 2*e<<23 - 1, 22},
		{"8x8, one worker, exactly 2^20", 64, 1, e << 20, 20},
		{"three workers share a table of four", 64, 3, 4 * e << 20, 20},
		{"three workers, not enough for four", 64, 3, 3 * e << 20, 19},
		{"6x6 never above 2^20", 36, 1, 100 * gib, 20},
		{"7x7 cap", 49, 2, 100 * gib, 22},
		{"11x11 cap", 121, 1, 100 * gib, 21},
		{"no memory: the floor", 64, 2, 0, minAutoTTBits},
		{"zero workers count as one", 64, 0, e << 20, 20},
	} {
		if got := TTBitsFor(DFPN, tc.cells, tc.workers, tc.budget); got != tc.want {
			t.Errorf("%s: TTBitsFor = %d, want %d", tc.name, got, tc.want)
		}
	}
	d := TableBytes(DFS, 64, 0)
	if got := TTBitsFor(DFS, 64, 2, 2*d<<21); got != 21 {
		t.Errorf("DFS, two workers, room for 2 x 2^21 entries: TTBitsFor = %d, want 21", got)
	}
	// whatever the budget, the choice fits it (above the floor) and is a valid TTBits
	for budget := uint64(1 << 20); budget < 64*gib; budget = budget*3 + 1 {
		for _, cells := range []int{9, 25, 49, 64, 100, 169} {
			b := TTBitsFor(DFPN, cells, 2, budget)
			cfg := DefaultConfig()
			cfg.TTBits = b
			if err := cfg.Validate(); err != nil {
				t.Fatalf("budget %d cells %d: %v", budget, cells, err)
			}
			if b > minAutoTTBits && 2*TableBytes(DFPN, cells, b) > budget {
				t.Fatalf("budget %d cells %d: 2^%d entries per worker do not fit", budget, cells, b)
			}
		}
	}
}
