package vc_test

import (
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// moverWinsAfter reports whether the side to move of b wins by playing m (brute force).
func moverWinsAfter(b *hex.Board, m hex.Cell, memo map[uint64]bool) bool {
	x := b.ToMove()
	b.PlayStone(x, m)
	defer b.Undo()
	return b.Winner() == x || !brute.MoverWins(b, memo)
}

// TestFillDeciderOracle checks vc.FillDecider against brute force on positions built
// around engine/ice's inferior patterns (brute.ShoulderPosition) and on random
// positions, square and non-square, with both sides to move: a reported winner is the
// true winner; a reported mustplay holds every move of the side to move that wins on
// both boards, and some winning move when the side to move wins; and
// every move that wins on the filled board wins on the position itself (callers play
// moves found on the filled board). The converse fails on an inferior fill's support
// cells (an opponent's move there may win only on the unfilled board); those moves
// are counted, not rejected.
func TestFillDeciderOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(31))
	fd := vc.NewFillDecider()
	mine, theirs := vc.NewBuilder(vc.DefaultConfig()), vc.NewBuilder(vc.DefaultConfig())
	an := ice.NewAnalyzer()
	sizes := [][2]int{{3, 3}, {4, 4}, {5, 5}, {4, 3}, {5, 4}, {4, 5}, {6, 3}, {6, 5}, {5, 6}, {6, 6}}
	per := 300
	if testing.Short() {
		per = 60
	}
	positions, inferior, decided, wrongFilled, mustplays, infMust, movesChecked, lostByFill := 0, 0, 0, 0, 0, 0, 0, 0
	for _, sz := range sizes {
		memo := map[uint64]bool{}
		for i := 0; i < per; i++ {
			empty := min(sz[0]*sz[1]-3, 6+rng.Intn(7))
			var b *hex.Board
			if i%4 == 3 {
				b = brute.RandomSetup(rng, sz[0], sz[1], empty)
			} else {
				b = brute.ShoulderPosition(rng, sz[0], sz[1], empty)
			}
			if b == nil {
				continue
			}
			for _, to := range []hex.Color{hex.Black, hex.White} {
				b.SetToMove(to)
				positions++
				var r ice.Result
				an.FillIn(b, hex.Black, &r)
				inf := !r.Support[hex.Black].Or(r.Support[hex.White]).IsEmpty()
				r.Undo(b)
				b.SetToMove(to)
				if inf {
					inferior++
				}
				moverWins := brute.MoverWins(b, memo)
				d, err := fd.Decide(b, mine, theirs)
				if err != nil {
					t.Fatal(err)
				}
				if d.Winner != hex.Empty {
					decided++
					if (d.Winner == to) != moverWins {
						t.Fatalf("FillDecider says %s wins, brute force says mover (%s) wins=%v (filled %s):\n%s",
							d.Winner, to, moverWins, b.Geometry().FormatCells(fd.FilledCells()), b.Diagram())
					}
				}
				filled := fd.Filled().Clone()
				open := filled.EmptyCells()
				// winning moves of the filled board win on b too
				if filled.Winner() == hex.Empty {
					for m := open.First(); m != hex.NoCell; m = open.Next(m + 1) {
						movesChecked++
						wf, wb := moverWinsAfter(filled, m, memo), moverWinsAfter(b, m, memo)
						if wb && !wf {
							lostByFill++
							if lostByFill < 3 {
								t.Logf("%s wins by %s on the board but not on the filled board (filled %s, support %s %s):\n%s", to, b.Geometry().CellName(m), b.Geometry().FormatCells(fd.FilledCells()), b.Geometry().FormatCells(r.Support[hex.Black]), b.Geometry().FormatCells(r.Support[hex.White]), b.Diagram())
							}
						}
						if wf && !wb {
							t.Fatalf("%s wins by %s on the filled board (filled %s) but not on:\n%s",
								to, b.Geometry().CellName(m), b.Geometry().FormatCells(fd.FilledCells()), b.Diagram())
						}
					}
				}
				if !d.HasMustplay || d.Winner != hex.Empty {
					continue
				}
				mustplays++
				if inf {
					infMust++
				}
				found := false
				empty := b.EmptyCells()
				for m := empty.First(); m != hex.NoCell; m = empty.Next(m + 1) {
					if !moverWinsAfter(b, m, memo) {
						continue
					}
					if d.Mustplay.Has(m) {
						found = true
						continue
					}
					if open.Has(m) && moverWinsAfter(filled, m, memo) {
						t.Fatalf("%s wins by %s outside the mustplay %s (filled %s):\n%s", to, b.Geometry().CellName(m),
							b.Geometry().FormatCells(d.Mustplay), b.Geometry().FormatCells(fd.FilledCells()), b.Diagram())
					}
					wrongFilled++ // into a filled or support cell: allowed when another wins
				}
				if moverWins && !found {
					t.Fatalf("%s wins but no winning move lies in the mustplay %s (filled %s):\n%s", to,
						b.Geometry().FormatCells(d.Mustplay), b.Geometry().FormatCells(fd.FilledCells()), b.Diagram())
				}
			}
			if len(memo) > 1_000_000 {
				memo = map[uint64]bool{}
			}
		}
	}
	t.Logf("%d positions (with side to move), %d with an inferior fill, %d decided, %d winning-move checks on the filled boards, %d mustplays (%d with an inferior fill), %d winning moves into filled or support cells outside a mustplay",
		positions, inferior, decided, movesChecked, mustplays, infMust, wrongFilled)
	t.Logf("%d winning moves lose on the filled board", lostByFill)
	if inferior < positions/25 {
		t.Fatalf("only %d of %d positions had an inferior fill", inferior, positions)
	}
}
