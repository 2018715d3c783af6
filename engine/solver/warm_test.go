//go:build !race

package solver

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestWarm: warm loads the first word (the key) of both slots of each child's
// bucket, as reached and rotated, and only for the children in kids; on a table of
// big entries (more than 64 cells) it loads nothing.
func TestWarm(t *testing.T) {
	cfg := DefaultConfig()
	cfg.TTBits = 8
	s := New(cfg)
	g := hex.MustGeometry(5, 5)
	s.setup(g)
	b := hex.NewBoardGeometry(g)
	b.PlayStone(hex.Black, g.At(2, 2))
	hf, hrf := s.hashes(b)
	n1 := hex.Cell(g.N - 1)
	zx := s.zob[hex.White]
	moves := []hex.Cell{g.At(0, 0), g.At(1, 3), g.At(4, 1)}
	var kids hex.Bitset
	kids.Set(moves[0])
	kids.Set(moves[2])
	// a child's entry as reached, another's as rotated, and one of a child not in kids
	keys := []uint64{hf ^ zx[moves[0]] ^ s.zmove, hrf ^ zx[n1-moves[2]] ^ s.zmove, hf ^ zx[moves[1]] ^ s.zmove}
	for _, k := range keys {
		s.pnStore(&pnEntry{key: k, pn: 2, dn: 3, best: hex.NoCell})
	}
	var want uint64
	for _, m := range []hex.Cell{moves[0], moves[2]} {
		for _, k := range []uint64{hf ^ zx[m] ^ s.zmove, hrf ^ zx[n1-m] ^ s.zmove} {
			i := k & s.pn.mask
			want += s.pn.small[i].key + s.pn.small[i^1].key
		}
	}
	if want != keys[0]+keys[1] {
		t.Fatalf("the stored keys are not where the test expects them")
	}
	if got := s.pn.warm(moves, kids, hf, hrf, zx, s.zmove, n1); got != want {
		t.Fatalf("warm loaded words summing to %d, want %d", got, want)
	}
	big := newPNTable(8)
	big.reset(hex.MustGeometry(9, 9))
	if got := big.warm(moves, kids, hf, hrf, zx, s.zmove, n1); got != 0 {
		t.Fatalf("warm on big entries = %d, want 0", got)
	}
}
