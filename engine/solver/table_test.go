package solver

import (
	"context"
	"errors"
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestSmallTableEntries: on boards of up to 64 cells the table stores one-word sets
// (pnSmall); a solver whose table is forced to full entries searches exactly the same
// trees (same winner, proof set, move and node count) on every 5x5 and 6x6 opening
// and on 7x7 and 8x8 two-stone positions, the table (small: entries are replaced)
// carrying over between them (in a new generation every other position). A board of more than 64 cells gets full entries.
func TestSmallTableEntries(t *testing.T) {
	mk := func() Config {
		cfg := DefaultConfig()
		cfg.TTBits, cfg.MaxNodes = 12, 4000
		return cfg
	}
	rng := rand.New(rand.NewSource(3))
	sizes := []int{5, 6, 7, 8}
	if testing.Short() {
		sizes = sizes[:2]
	}
	for _, n := range sizes {
		g := hex.MustGeometry(n, n)
		small, full := New(mk()), New(mk())
		full.pn.big = make([]pnEntry, 1<<12)
		full.pn.w, full.pn.h = g.W, g.H
		var positions []*hex.Board
		for m := hex.Cell(0); n <= 6 && int(m) < g.N; m++ {
			b := hex.NewBoardGeometry(g)
			b.PlayStone(hex.Black, m)
			positions = append(positions, b)
		}
		for i := 0; n > 6 && i < 4; i++ {
			positions = append(positions, brute.RandomPosition(rng, n, 2))
		}
		var nodes int64
		for i, b := range positions {
			if i%2 == 1 { // a new generation every other position
				newGeneration([]*Solver{small, full})
			}
			rs, es := small.Solve(context.Background(), b)
			rf, ef := full.Solve(context.Background(), b)
			nodes += rs.Stats.Nodes
			if (es == nil) != (ef == nil) || rs.Winner != rf.Winner || rs.Move != rf.Move || rs.Proof != rf.Proof || rs.Stats.Nodes != rf.Stats.Nodes {
				t.Fatalf("%dx%d position %d: small entries %v %v %v %d nodes (%v), full entries %v %v %v %d nodes (%v)\n%s",
					n, n, i, rs.Winner, rs.Move, rs.Proof, rs.Stats.Nodes, es, rf.Winner, rf.Move, rf.Proof, rf.Stats.Nodes, ef, b.Diagram())
			}
		}
		if small.pn.small == nil || small.pn.big != nil {
			t.Errorf("%dx%d: the table does not hold small entries", n, n)
		}
		t.Logf("%dx%d: %d positions, %d nodes", n, n, len(positions), nodes)
	}
	s := New(mk())
	b := hex.MustBoard(9, 9)
	b.PlayStone(hex.Black, b.Geometry().At(4, 4))
	if _, err := s.Solve(context.Background(), b); err != nil && !errors.Is(err, ErrLimit) {
		t.Fatal(err)
	}
	if s.pn.big == nil || s.pn.small != nil {
		t.Error("9x9: the table does not hold full entries")
	}
}

// TestTableGenerations: a full bucket replaces an entry stored before the last
// nextGen before any entry of the current generation, however much work the old one
// cost, and otherwise the entry of less work; probes find old entries as before. Both
// entry forms (boards of at most 64 cells and larger ones).
func TestTableGenerations(t *testing.T) {
	for _, n := range []int{8, 9} {
		tb := newPNTable(4)
		tb.reset(hex.MustGeometry(n, n))
		// keys 0x10, 0x21, 0x30, ... all fall in the bucket of slots 0 and 1
		store := func(key uint64, work uint32) {
			tb.store(&pnEntry{key: key, pn: 1, dn: 1, work: work})
		}
		has := func(key uint64) bool {
			var e pnEntry
			return tb.probe(key, &e)
		}
		store(0x10, 100)
		store(0x21, 50)
		tb.nextGen()
		if !has(0x10) || !has(0x21) {
			t.Fatalf("%dx%d: a new generation lost entries", n, n)
		}
		store(0x30, 1) // both old: the one of less work (0x21) goes
		if !has(0x10) || has(0x21) || !has(0x30) {
			t.Fatalf("%dx%d: both entries old: want 0x21 replaced: 0x10 %v 0x21 %v 0x30 %v", n, n, has(0x10), has(0x21), has(0x30))
		}
		store(0x40, 1) // the old entry goes before the current one, despite its work
		if has(0x10) || !has(0x30) || !has(0x40) {
			t.Fatalf("%dx%d: want the old 0x10 replaced: 0x10 %v 0x30 %v 0x40 %v", n, n, has(0x10), has(0x30), has(0x40))
		}
		store(0x40, 7) // the same key: in place
		store(0x50, 1) // both current: the one of less work (0x30) goes
		if has(0x30) || !has(0x40) || !has(0x50) {
			t.Fatalf("%dx%d: both current: want 0x30 replaced: 0x30 %v 0x40 %v 0x50 %v", n, n, has(0x30), has(0x40), has(0x50))
		}
	}
}

// TestSharedTableBucketLock: every key of a bucket takes the same lock, at every
// table size (the stripe once came from the key's bits above the index, so two keys
// of one bucket of a table under 2^13 entries could write its slots at once).
func TestSharedTableBucketLock(t *testing.T) {
	for bits := 10; bits <= 16; bits++ {
		tab := newSharedPNTable(bits)
		for k := uint64(0); k < 1<<14; k += 977 {
			// keys of k's bucket: the other slot, and bits above the index
			for _, k2 := range []uint64{k ^ 1, k ^ 1<<bits, k ^ 1<<(bits+2), k ^ 1<<40} {
				a := tab.lock(k)
				a.Unlock()
				b := tab.lock(k2)
				b.Unlock()
				if a != b {
					t.Fatalf("2^%d entries: keys %x and %x of one bucket take two locks", bits, k, k2)
				}
			}
		}
	}
}

// TestRotatedProbe: a solved entry is found from the 180° rotation of its position,
// with its proof and move turned; an open entry is not (its children depend on the
// inferior-cell pruning of the orientation that made it, which the rotation does not
// preserve). Both entry forms (7x7 and 9x9).
func TestRotatedProbe(t *testing.T) {
	for _, n := range []int{7, 9} {
		cfg := DefaultConfig()
		cfg.TTBits = 10
		s := New(cfg)
		g := hex.MustGeometry(n, n)
		s.setup(g)
		n1 := hex.Cell(g.N - 1)
		b, r := hex.NewBoardGeometry(g), hex.NewBoardGeometry(g)
		b.PlayStone(hex.Black, g.At(1, 2))
		b.PlayStone(hex.White, g.At(3, 1))
		r.PlayStone(hex.Black, n1-g.At(1, 2))
		r.PlayStone(hex.White, n1-g.At(3, 1))
		h, hr := s.hashes(b)
		rh, rhr := s.hashes(r)
		if h != rhr || hr != rh || h == hr {
			t.Fatalf("%dx%d: the hashes of the position and its rotation do not swap", n, n)
		}
		var kids hex.Bitset
		kids.Set(g.At(0, 0))
		kids.Set(g.At(2, 3))
		s.pnStore(&pnEntry{key: h, pn: 3, dn: 5, must: kids, kids: kids, best: hex.NoCell})
		var got pnEntry
		if !s.pnProbe(h, hr, &got) || got.kids != kids {
			t.Fatalf("%dx%d: the open entry is not found from its own orientation", n, n)
		}
		if s.pnProbe(rh, rhr, &got) {
			t.Fatalf("%dx%d: the open entry is found from the rotated position", n, n)
		}
		s.pnStore(&pnEntry{key: h, pn: 0, dn: pnInf, kids: kids, best: g.At(2, 3)})
		if !s.pnProbe(rh, rhr, &got) || got.pn != 0 || got.kids != s.rotate(kids) || got.best != n1-g.At(2, 3) {
			t.Fatalf("%dx%d: the solved entry from the rotation: pn %d kids %v best %v, want 0 %v %v",
				n, n, got.pn, got.kids, got.best, s.rotate(kids), n1-g.At(2, 3))
		}
		if pn, dn, proof := s.pnValues(rh, rhr); pn != 0 || dn != pnInf || proof != s.rotate(kids) {
			t.Fatalf("%dx%d: values from the rotation: %d %d %v", n, n, pn, dn, proof)
		}
	}
}
