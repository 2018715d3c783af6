package model

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/twodist"
	"github.com/hexlearn/hexlearn/internal/positions"
)

// TestOrderingPotentialDiagram: b2 is the only cell on Black's shortest path (it joins
// the stones touching both of Black's edges) and on White's (it joins a2 and c2), so
// the potential ordering ranks it first, for either model kind and either mover; a1
// and c3 have no two-distance path for Black (White walls it off) and rank last.
func TestOrderingPotentialDiagram(t *testing.T) {
	b, err := hex.ParseDiagram(`
 . B .
  W . W
   . B .`)
	if err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	for _, m := range []*Model{randomModel(3, 3, 4, 1, OutputTanh, 1), twoDistModel(3, 3, 4, 1, 2)} {
		for _, mode := range []OrderMode{OrderPotential, OrderMix, OrderNetwork} {
			if m.Features != FeaturesTwoDist && mode != OrderPotential {
				continue
			}
			for _, toMove := range []hex.Color{hex.Black, hex.White} {
				b.SetToMove(toMove)
				o := newOrdering(t, m, mode)
				o.Evaluate(b)
				scores := make([]float64, hex.NumPoints)
				o.MoveScores(b, scores)
				if mode != OrderPotential {
					continue // the network part is checked against the network in TestOrderingNetwork
				}
				b2, _ := g.ParseCell("b2")
				em := b.EmptyCells()
				for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
					if p != b2 && scores[p] >= scores[b2] {
						t.Errorf("%s %s to move: %s scores %g, b2 %g", m.Features, toMove, g.CellName(p), scores[p], scores[b2])
					}
				}
				if scores[b2] != -4 {
					t.Errorf("b2 scores %g, want -4 (two-distance 1 to each of the four edges)", scores[b2])
				}
				for _, name := range []string{"a1", "c3"} {
					p, _ := g.ParseCell(name)
					if scores[p] > -2*twodist.Inf {
						t.Errorf("%s scores %g, want at most %d (no path for Black)", name, scores[p], -2*twodist.Inf)
					}
				}
			}
		}
	}
}

func newOrdering(t *testing.T, m *Model, mode OrderMode) *Ordering {
	t.Helper()
	e, err := NewEvaluator(m, m.W, m.H)
	if err != nil {
		t.Fatal(err)
	}
	o, err := NewOrdering(e, mode)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOrderingNetwork: the network ordering's score of a cell is the network's output
// pre-activation (from the mover's side) for the input of the position evaluated with
// only that cell's inputs changed to the mover's stone, computed from scratch; the mix
// subtracts MixWeight times the potential sum. Two networks check that the one of the
// position's stone count is used.
func TestOrderingNetwork(t *testing.T) {
	m := twoDistModel(5, 5, 6, 2, 3)
	enc, err := NewEncoder(m)
	if err != nil {
		t.Fatal(err)
	}
	pot := twodist.New(hex.MustGeometry(5, 5))
	for _, mode := range []OrderMode{OrderNetwork, OrderMix} {
		o := newOrdering(t, m, mode)
		for _, b := range positions.Sampled(5, 30, 4, 16, rand.NewPCG(6, 7)) {
			o.Evaluate(b)
			scores := make([]float64, hex.NumPoints)
			o.MoveScores(b, scores)
			x := enc.Encode(b, nil)
			pot.Compute(b)
			k := m.NetFor(b.NumStones())
			em := b.EmptyCells()
			for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
				y := append([]float32(nil), x...)
				i := int(p) * TwoDistPerCell
				clear(y[i : i+TwoDistPerCell])
				sign := 1.0
				if b.ToMove() == hex.White {
					y[i+1], sign = 1, -1
				} else {
					y[i] = 1
				}
				want := sign * float64(m.PreOutput(k, y, nil))
				if mode == OrderMix {
					want -= MixWeight * float64(pot.Potential(hex.Black, p)+pot.Potential(hex.White, p))
				}
				if math.Abs(scores[p]-want) > 1e-4 {
					t.Fatalf("%s: cell %d scores %g, want %g on\n%s", mode, p, scores[p], want, b.Diagram())
				}
			}
		}
	}
}

// TestOrderingErrors: unknown modes and the network orderings of a cells model are
// refused with ErrOrder.
func TestOrderingErrors(t *testing.T) {
	cells, err := NewEvaluator(randomModel(3, 3, 4, 1, OutputTanh, 1), 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		mode OrderMode
		ok   bool
	}{{OrderPotential, true}, {OrderNetwork, false}, {OrderMix, false}, {"energy", false}, {"", false}} {
		if _, err := NewOrdering(cells, tc.mode); (err == nil) != tc.ok || err != nil && !errors.Is(err, ErrOrder) {
			t.Errorf("%q: %v", tc.mode, err)
		}
	}
	if _, err := ParseOrderMode("Mix"); !errors.Is(err, ErrOrder) {
		t.Errorf("ParseOrderMode(Mix): %v", err)
	}
}

// TestOrderingNoAllocs: MoveScores allocates nothing, in every mode and model kind.
func TestOrderingNoAllocs(t *testing.T) {
	b := positions.Random(8, 1, 5)[0]
	for _, tc := range []struct {
		m    *Model
		mode OrderMode
	}{{randomModel(8, 8, 16, 2, OutputTanh, 4), OrderPotential}, {twoDistModel(8, 8, 16, 2, 5), OrderPotential},
		{twoDistModel(8, 8, 16, 2, 5), OrderNetwork}, {twoDistModel(8, 8, 16, 2, 5), OrderMix}} {
		o := newOrdering(t, tc.m, tc.mode)
		scores := make([]float64, hex.NumPoints)
		if n := testing.AllocsPerRun(20, func() {
			o.Evaluate(b)
			o.MoveScores(b, scores)
		}); n != 0 {
			t.Errorf("%s %s: %v allocations per Evaluate and MoveScores", tc.m.Features, tc.mode, n)
		}
	}
}
