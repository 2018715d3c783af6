package circuit

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

func newExact(t testing.TB) *Exact {
	t.Helper()
	x, err := NewExact(DefaultExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestExactWinningVC(t *testing.T) {
	x := newExact(t)
	// 3x3 after b2: Black's centre stone has a winning VC (two bridges to the edges).
	b, _ := hex.ParsePosition(3, 3, "b2")
	a, err := x.Analyse(b)
	if err != nil {
		t.Fatal(err)
	}
	if !a.BlackVC || a.Winner != hex.Black {
		t.Fatalf("3x3 after b2: %+v", a)
	}
	if r := x.Evaluate(b); r.Winner != hex.Black || r.Value != MaxValue {
		t.Fatalf("Evaluate: %+v", r)
	}
	// An empty 6x6 board is undecided for H-search.
	b = hex.MustBoard(6, 6)
	a, err = x.Analyse(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Winner != hex.Empty || a.BlackVC || a.WhiteVC || math.Abs(a.Value) > 0.05 {
		t.Fatalf("empty 6x6: winner %v vc %v %v value %v", a.Winner, a.BlackVC, a.WhiteVC, a.Value)
	}
}

func TestExactMustplay(t *testing.T) {
	x := newExact(t)
	// 6x6 after c4: Black has winning semi-connections but no VC (H-search), so White,
	// to move, must play in their intersection.
	b, _ := hex.ParsePosition(6, 6, "c4")
	a, err := x.Analyse(b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Winner != hex.Empty || a.BlackVC || a.BlackSemis == 0 || !a.HasMustplay || a.Mustplay.IsEmpty() {
		t.Fatalf("6x6 c4: %+v", a)
	}
	r := x.Evaluate(b)
	if !r.HasMustplay || r.Mustplay != a.Mustplay {
		t.Fatalf("Evaluate lost the mustplay: %+v", r)
	}
	// The same position with Black to move: Black plays the key and wins.
	b.SetToMove(hex.Black)
	if a, _ = x.Analyse(b); a.Winner != hex.Black || a.HasMustplay {
		t.Fatalf("6x6 c4, Black to move: %+v", a)
	}
	// A finished game.
	b, _ = hex.ParsePosition(2, 2, "a1 b1 a2")
	if a, err = x.Analyse(b); err != nil || a.Winner != hex.Black {
		t.Fatalf("finished game: %v %v", a.Winner, err)
	}
}

// linkSet is the set of VC pairs of one colour, mapped by f.
func linkSet(bl *vc.Builder, f func(hex.Cell) hex.Cell) map[[2]hex.Cell]bool {
	set := map[[2]hex.Cell]bool{}
	bl.EachFull(func(x, y hex.Cell, _ *vc.Conn) bool {
		x, y = f(x), f(y)
		if x > y {
			x, y = y, x
		}
		set[[2]hex.Cell{x, y}] = true
		return true
	})
	return set
}

func sameSet(a, b map[[2]hex.Cell]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// TestExactSymmetry: when H-search finds mirror-image connection sets on the rotated
// and reflected boards, the exact evaluation is exactly mirrored (E unchanged by the
// rotation, negated by the reflection). Positions where H-search itself is not
// symmetric are counted and logged (that is a property of package vc).
func TestExactSymmetry(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x, err := NewExact(SearchExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	checked, asym := 0, 0
	for i := 0; i < 40; i++ {
		n := 3 + rng.IntN(4)
		b := randomBoard(rng, n, n, rng.IntN(n*n/3+1))
		g := b.Geometry()
		a, err := x.Analyse(b)
		if err != nil {
			t.Fatal(err)
		}
		if math.IsNaN(a.Value) {
			t.Fatal("NaN")
		}
		bl, wl := linkSet(x.vb, func(p hex.Cell) hex.Cell { return p }), linkSet(x.vw, func(p hex.Cell) hex.Cell { return p })
		root := func(bd *hex.Board) func(hex.Cell) hex.Cell {
			return func(p hex.Cell) hex.Cell {
				if p.IsEdge() || bd.At(p) == hex.Empty {
					return p
				}
				return bd.Find(p)
			}
		}
		for _, rot := range []bool{true, false} {
			var m *hex.Board
			var f func(hex.Cell) hex.Cell
			if rot {
				m, f = b.Rotated(), g.Rotate180
			} else {
				m, f = b.Reflected(), g.Transpose
			}
			ma, err := x.Analyse(m)
			if err != nil {
				t.Fatal(err)
			}
			mb := linkSet(x.vb, func(p hex.Cell) hex.Cell { return p })
			mw := linkSet(x.vw, func(p hex.Cell) hex.Cell { return p })
			// Map the original's pairs onto the mirrored board (chains by their roots there).
			mapped := func(s map[[2]hex.Cell]bool) map[[2]hex.Cell]bool {
				out := map[[2]hex.Cell]bool{}
				r := root(m)
				for k := range s {
					x, y := r(f(k[0])), r(f(k[1]))
					if x > y {
						x, y = y, x
					}
					out[[2]hex.Cell{x, y}] = true
				}
				return out
			}
			var symmetric bool
			if rot {
				symmetric = sameSet(mapped(bl), mb) && sameSet(mapped(wl), mw)
			} else {
				symmetric = sameSet(mapped(bl), mw) && sameSet(mapped(wl), mb)
			}
			if !symmetric {
				asym++
				continue
			}
			checked++
			want := a.E
			if !rot {
				want = -a.E
			}
			if math.Abs(ma.E-want) > 1e-9 {
				t.Fatalf("rotation %v: E %v, want %v on\n%s", rot, ma.E, want, b.Diagram())
			}
		}
	}
	t.Logf("%d mirrored evaluations checked, %d skipped because H-search found different connection sets", checked, asym)
	if checked < 20 {
		t.Fatalf("only %d symmetric cases", checked)
	}
}

func TestExactNoAllocs(t *testing.T) {
	x, err := NewExact(SearchExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := hex.ParsePosition(6, 6, "c3 d4 e2")
	for i := 0; i < 3; i++ { // warm the buffers up
		x.Analyse(b)
	}
	if a := testing.AllocsPerRun(3, func() { x.Analyse(b) }); a != 0 {
		t.Errorf("%v allocations per exact evaluation", a)
	}
}

// TestEvaluateMatchesAnalyse: the early-exit Evaluate agrees with the full Analyse on
// random positions (winner, mustplay, value), and MoveScores after it gives the
// energies of the full analysis.
func TestEvaluateMatchesAnalyse(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	x, err := NewExact(SearchExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := NewExact(SearchExactConfig())
	decided := 0
	for i := 0; i < 40; i++ {
		n := 3 + rng.IntN(3)
		b := randomBoard(rng, n, n, rng.IntN(n*n/2+1))
		a, err := ref.Analyse(b)
		if err != nil {
			t.Fatal(err)
		}
		r := x.Evaluate(b)
		if r.Winner != a.Winner {
			t.Fatalf("winner %v, Analyse %v on\n%s", r.Winner, a.Winner, b.Diagram())
		}
		if a.Winner != hex.Empty {
			decided++
			if r.Value != WinValue(a.Winner) {
				t.Fatalf("decided value %v", r.Value)
			}
		} else if r.Value != a.Value || r.HasMustplay != a.HasMustplay || r.Mustplay != a.Mustplay {
			t.Fatalf("result %+v, Analyse value %v mustplay %v %v", r, a.Value, a.HasMustplay, a.Mustplay)
		}
		scores := make([]float64, hex.NumPoints)
		x.MoveScores(b, scores)
		em := b.EmptyCells()
		for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
			if scores[p] != ref.res.Energy(p) {
				t.Fatalf("energy of %s: %v, Analyse %v", b.Geometry().CellName(p), scores[p], ref.res.Energy(p))
			}
		}
	}
	if decided == 0 || decided == 40 {
		t.Fatalf("%d of 40 positions decided: the test covers only one path", decided)
	}
}
