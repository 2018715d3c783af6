package vc_test

import (
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// fillValue returns whether the side to move wins b with the cells of set given to
// colour c (brute force), b unchanged.
func fillValue(b *hex.Board, c hex.Color, set hex.Bitset, memo map[uint64]bool) bool {
	to := b.ToMove()
	n := ice.Fill(b, set, c)
	defer func() {
		for range n {
			b.Undo()
		}
		b.SetToMove(to)
	}()
	switch b.Winner() {
	case to:
		return true
	case to.Opp():
		return false
	}
	return brute.MoverWins(b, memo)
}

// TestDecompositionOracle checks Builder.Decomposition against brute force on random
// positions of several sizes, both colours built and both sides to move: filling
// the carrier it reports with the builder's colour, and filling the whole region,
// leaves the winner unchanged, and the carrier lies in the region. It fails when
// fewer than 100 decompositions are found, so that the check stays meaningful.
func TestDecompositionOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	sizes := [][2]int{{3, 3}, {4, 4}, {5, 5}, {4, 3}, {5, 4}, {6, 4}, {5, 6}, {6, 6}}
	per := 1200
	if testing.Short() {
		per = 300
	}
	bl := vc.NewBuilder(vc.DefaultConfig())
	found, positions := 0, 0
	for _, sz := range sizes {
		memo := map[uint64]bool{}
		for i := 0; i < per; i++ {
			empty := min(sz[0]*sz[1]-2, 5+rng.Intn(9))
			b := brute.RandomSetup(rng, sz[0], sz[1], empty)
			if b == nil || b.Winner() != hex.Empty {
				continue
			}
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := bl.Build(b, c); err != nil {
					t.Fatal(err)
				}
				car, reg, ok := bl.Decomposition(b)
				positions++
				if !ok {
					continue
				}
				found++
				if e := b.EmptyCells(); !car.SubsetOf(&reg) || !reg.SubsetOf(&e) {
					t.Fatalf("carrier %v not inside region %v, or region not empty cells\n%s", b.Geometry().CellNames(car), b.Geometry().CellNames(reg), b.Diagram())
				}
				for _, to := range []hex.Color{hex.Black, hex.White} {
					b.SetToMove(to)
					want := fillValue(b, c, hex.Bitset{}, memo)
					if got := fillValue(b, c, car, memo); got != want {
						t.Fatalf("%v fills carrier %v: mover %v wins %v, before %v\n%s", c, b.Geometry().CellNames(car), to, got, want, b.Diagram())
					}
					if got := fillValue(b, c, reg, memo); got != want {
						t.Fatalf("%v fills region %v: mover %v wins %v, before %v\n%s", c, b.Geometry().CellNames(reg), to, got, want, b.Diagram())
					}
				}
			}
		}
	}
	t.Logf("%d decompositions in %d positions and colours", found, positions)
	if found < 100 {
		t.Errorf("only %d decompositions found: the oracle checks too little", found)
	}
}
