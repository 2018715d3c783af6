package circuit

import (
	"math"
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestEvaluateChildEqualsEvaluate: without fill-in and where no list limit (40 VCs
// and SCs per pair) drops a connection, updating the anchor's connections gives
// exactly the connections of a build (vc.TestPlayEqualsBuild), so EvaluateChild must
// answer as Evaluate does for every child of random 4x4-6x6 positions, and
// EvaluateLine for lines of two and three stones: the same winner and mustplay, the
// same value and move scores up to rounding. MoveScores after Anchor must give the
// anchor's own scores; the same stones with their colours swapped are refused.
func TestEvaluateChildEqualsEvaluate(t *testing.T) {
	cfg := DefaultExactConfig()
	cfg.VC.MaxFull, cfg.VC.MaxSemi = 40, 40
	anc, _ := NewExact(cfg)
	ref, _ := NewExact(cfg)
	rng := rand.New(rand.NewSource(9))
	want := make([]float64, hex.NumPoints)
	got := make([]float64, hex.NumPoints)
	children, open, skipped, lines := 0, 0, 0, 0
	for i := 0; i < 60; i++ {
		n := 4 + i%3
		b := brute.RandomPosition(rng, n, rng.Intn(n*n/2))
		if b.Winner() != hex.Empty {
			continue
		}
		ra, rr := anc.Anchor(b), ref.Evaluate(b)
		sameResult(t, "anchor", b, ra.Winner, rr.Winner, ra.HasMustplay, rr.HasMustplay, ra.Mustplay, rr.Mustplay, ra.Value, rr.Value)
		if ra.Winner == hex.Empty {
			anc.MoveScores(b, got)
			ref.MoveScores(b, want)
			sameScores(t, "anchor", b, got, want)
		}
		me := b.ToMove()
		em := b.EmptyCells()
		for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
			b.PlayStone(me, p)
			rc, ok := anc.EvaluateChild(b, p)
			if !ok {
				t.Fatalf("child %s refused:\n%s", b.Geometry().CellName(p), b.Diagram())
			}
			rr := ref.Evaluate(b)
			if vb, vw := ref.Builders(); vb.Truncated() || vw.Truncated() || anc.anchor.truncated {
				skipped++ // a limit dropped connections: the lists may differ
				b.Undo()
				continue
			}
			sameResult(t, "child "+b.Geometry().CellName(p), b, rc.Winner, rr.Winner, rc.HasMustplay, rr.HasMustplay, rc.Mustplay, rr.Mustplay, rc.Value, rr.Value)
			children++
			if rc.Winner == hex.Empty {
				open++
				anc.MoveScores(b, got)
				ref.MoveScores(b, want)
				sameScores(t, "child "+b.Geometry().CellName(p), b, got, want)
			}
			b.Undo()
		}
		// lines of two and three stones, in turn from the anchor's side to move
		for k := 2; k <= 3; k++ {
			cells := em.AppendCells(nil)
			rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			if len(cells) < k+1 {
				continue
			}
			line := cells[:k]
			c := me
			for _, p := range line {
				b.PlayStone(c, p)
				c = c.Opp()
			}
			if b.Winner() == hex.Empty {
				rl, ok := anc.EvaluateLine(b, line)
				if !ok {
					t.Fatalf("line %v refused:\n%s", line, b.Diagram())
				}
				rr := ref.Evaluate(b)
				if vb, vw := ref.Builders(); vb.Truncated() || vw.Truncated() || anc.anchor.truncated {
					skipped++
				} else {
					sameResult(t, "line", b, rl.Winner, rr.Winner, rl.HasMustplay, rr.HasMustplay, rl.Mustplay, rr.Mustplay, rl.Value, rr.Value)
					lines++
					if rl.Winner == hex.Empty {
						anc.MoveScores(b, got)
						ref.MoveScores(b, want)
						sameScores(t, "line", b, got, want)
					}
				}
				// the same stones in another order are not the line
				if k == 2 {
					if _, ok := anc.EvaluateLine(b, []hex.Cell{line[1], line[0]}); ok {
						t.Fatalf("a line with its colours swapped evaluated:\n%s", b.Diagram())
					}
				}
			}
			for range line {
				b.Undo()
			}
		}
	}
	t.Logf("%d children and %d lines compared (%d children open), %d skipped: a list limit was reached", children, lines, open, skipped)
	if lines < 50 {
		t.Fatalf("%d lines compared", lines)
	}
	if open == 0 || children < 500 {
		t.Fatalf("%d children, %d open", children, open)
	}
}

func sameResult(t *testing.T, what string, b *hex.Board, w1, w2 hex.Color, h1, h2 bool, m1, m2 hex.Bitset, v1, v2 float64) {
	t.Helper()
	if w1 != w2 || h1 != h2 || m1 != m2 || math.Abs(v1-v2) > 1e-9*(1+math.Abs(v2)) {
		t.Fatalf("%s: winner %v mustplay %v %s value %v, Evaluate: %v %v %s %v\n%s", what, w1, h1,
			b.Geometry().FormatCells(m1), v1, w2, h2, b.Geometry().FormatCells(m2), v2, b.Diagram())
	}
}

func sameScores(t *testing.T, what string, b *hex.Board, got, want []float64) {
	t.Helper()
	em := b.EmptyCells()
	for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
		if math.Abs(got[p]-want[p]) > 1e-9*(1+math.Abs(want[p])) {
			t.Fatalf("%s: score of %s %v, Evaluate's %v\n%s", what, b.Geometry().CellName(p), got[p], want[p], b.Diagram())
		}
	}
}

// TestEvaluateChildSound: with fill-in (the GTP players' configuration) the child's
// own fill-in is skipped, so EvaluateChild may decide less than Evaluate, but what it
// decides is true (brute-force minimax on random 4x4 and 5x5 positions) and every
// winning move of the child's side to move lies in its mustplay. Positions that are
// not a child of the anchor, and children whose stone was filled at the anchor, are
// refused.
func TestEvaluateChildSound(t *testing.T) {
	cfg := SearchExactConfig()
	cfg.FillIn = true
	x, _ := NewExact(cfg)
	rng := rand.New(rand.NewSource(21))
	decided, musts, refused := 0, 0, 0
	for _, sz := range []struct{ n, lo, hi, count int }{{4, 0, 6, 120}, {5, 6, 12, 12}} {
		memo := map[uint64]bool{}
		for i := 0; i < sz.count; i++ {
			b := brute.RandomPosition(rng, sz.n, sz.lo+rng.Intn(sz.hi-sz.lo+1))
			if b.Winner() != hex.Empty || x.Anchor(b).Winner != hex.Empty {
				continue
			}
			filled := x.FilledBoard().Clone()
			me := b.ToMove()
			em := b.EmptyCells()
			for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
				b.PlayStone(me, p)
				r, ok := x.EvaluateChild(b, p)
				switch {
				case filled.At(p) != hex.Empty:
					if ok {
						t.Fatalf("child %s, filled at the anchor, evaluated:\n%s", b.Geometry().CellName(p), b.Diagram())
					}
					refused++
				case !ok:
					t.Fatalf("child %s refused:\n%s", b.Geometry().CellName(p), b.Diagram())
				case b.Winner() != hex.Empty:
				case r.Winner != hex.Empty:
					decided++
					truth := b.ToMove()
					if !brute.Wins(b, memo) {
						truth = truth.Opp()
					}
					if r.Winner != truth {
						t.Fatalf("child %s: decided %v, true winner %v:\n%s", b.Geometry().CellName(p), r.Winner, truth, b.Diagram())
					}
				case r.HasMustplay:
					musts++
					noWinOutside(t, b, r.Mustplay, memo)
				}
				b.Undo()
			}
			// not children: the anchor itself, two stones more, a stone of the wrong colour
			if _, ok := x.EvaluateChild(b, em.First()); ok {
				t.Fatal("the anchor itself evaluated as its child")
			}
			if c := em.First(); c != hex.NoCell {
				b.PlayStone(me.Opp(), c)
				if _, ok := x.EvaluateChild(b, c); ok {
					t.Fatalf("a stone of the wrong colour evaluated as a child:\n%s", b.Diagram())
				}
				b.Undo()
			}
		}
	}
	t.Logf("%d children decided, %d mustplays checked, %d filled children refused", decided, musts, refused)
	if decided == 0 || musts == 0 || refused == 0 {
		t.Fatalf("%d decided, %d mustplays, %d refused: the test checks too little", decided, musts, refused)
	}
}
