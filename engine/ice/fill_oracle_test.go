package ice

import (
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// oracleSizes are the board shapes of the fill-in oracles: square, non-square and
// tiny boards.
var oracleSizes = [][2]int{{3, 3}, {4, 4}, {5, 5}, {4, 3}, {3, 4}, {5, 4}, {4, 5}, {6, 3}, {3, 6}, {2, 3}, {3, 2}}

// winnerOf returns the winner of b with its side to move (brute force).
func winnerOf(b *hex.Board, memo map[uint64]bool) hex.Color {
	if brute.MoverWins(b, memo) {
		return b.ToMove()
	}
	return b.ToMove().Opp()
}

// giveAll plays loser stones on every cell of s (keeping the side to move) and
// returns how many it played.
func giveAll(b *hex.Board, s hex.Bitset, c hex.Color) int {
	return Fill(b, s, c)
}

// minimalProof returns a proof set of w's win on b made minimal by brute force: the
// empty cells, each given to the loser in turn and left out when w still wins.
func minimalProof(b *hex.Board, w hex.Color, rng *rand.Rand, memo map[uint64]bool) hex.Bitset {
	proof := b.EmptyCells()
	cells := proof.AppendCells(nil)
	rng.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	to := b.ToMove()
	n := 0
	for _, c := range cells {
		b.PlayStone(w.Opp(), c)
		b.SetToMove(to)
		if winnerOf(b, memo) == w {
			proof.Clear(c)
			n++
			continue
		}
		b.Undo()
		b.SetToMove(to)
	}
	for i := 0; i < n; i++ {
		b.Undo()
	}
	b.SetToMove(to)
	return proof
}

// TestFillInOracle checks FillIn and FillInFor against brute force on positions built
// around the inferior patterns (brute.ShoulderPosition) and on random positions, on
// square, non-square and tiny boards, with both sides to move: the fill-in (dead,
// captured and inferior cells to a fixed point, dead cells of either colour) keeps the
// value; the support lies within SupportBound and the captured cells; and a minimal
// proof of the winner's win on the filled board, with the winner's captured and
// support cells added, is a proof on the board before the fill. The same for each
// inferior pattern match on its own (MatchInferior).
func TestFillInOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	a := NewAnalyzer()
	per := 1500
	if testing.Short() {
		per = 300
	}
	positions, inferior, infCells, proofs, infProofs, direct := 0, 0, 0, 0, 0, 0
	for _, sz := range oracleSizes {
		memo := map[uint64]bool{}
		for i := 0; i < per; i++ {
			empty := 4 + rng.Intn(7)
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
				orig := b.Clone()
				want := winnerOf(b, memo)
				dc := []hex.Color{hex.Black, hex.White}[rng.Intn(2)]
				var r Result
				a.FillIn(b, dc, &r)
				if got := winnerOf(b, memo); got != want {
					t.Fatalf("FillIn (dead to %s) changes the winner %s -> %s; filled (dead %s, black %s, white %s, support %s / %s):\n%s\nbefore:\n%s",
						dc, want, got, names(b, r.Dead), names(b, r.Captured[hex.Black]), names(b, r.Captured[hex.White]),
						names(b, r.Support[hex.Black]), names(b, r.Support[hex.White]), b.Diagram(), orig.Diagram())
				}
				for _, x := range []hex.Color{hex.Black, hex.White} {
					if !r.Support[x].IsEmpty() {
						inferior++
					}
					// a support cell may be captured later by its own colour
					if bound := SupportBound(orig, r.Captured[x]).Or(r.Captured[x]); !r.Support[x].SubsetOf(&bound) {
						t.Fatalf("support %s of %s not within SupportBound %s (captured %s, dead %s):\n%s", names(b, r.Support[x]), x, names(b, bound), names(b, r.Captured[x]), names(b, r.Dead), orig.Diagram())
					}
				}
				// the proof of the filled board, carried back
				if b.Winner() == hex.Empty {
					p := minimalProof(b, want, rng, memo)
					p = p.Or(r.Captured[want]).Or(r.Support[want])
					proofs++
					if !r.Support[want].IsEmpty() {
						infProofs++
						infCells += r.Captured[want].Count()
					}
					c := orig.Clone()
					giveAll(c, c.EmptyCells().AndNot(p), want.Opp())
					if got := winnerOf(c, memo); got != want {
						t.Fatalf("proof %s (filled board's proof plus captured %s and support %s) is not a proof of %s's win:\n%s",
							names(c, p), names(c, r.Captured[want]), names(c, r.Support[want]), want, orig.Diagram())
					}
				}
				r.Undo(b)
				b.SetToMove(to)
				// each inferior match on its own, with its proof carried back
				for _, x := range []hex.Color{hex.Black, hex.White} {
					targets, support := DefaultPatterns().MatchInferior(b, x)
					if targets.IsEmpty() {
						continue
					}
					direct++
					nf := Fill(b, targets, x)
					if got := winnerOf(b, memo); got != want {
						t.Fatalf("filling %s with %s (support %s) changes the winner %s -> %s:\n%s", names(b, targets), x, names(b, support), want, got, orig.Diagram())
					}
					if b.Winner() == hex.Empty {
						p := minimalProof(b, want, rng, memo)
						if want == x {
							p = p.Or(targets).Or(support)
						}
						c := orig.Clone()
						giveAll(c, c.EmptyCells().AndNot(p), want.Opp())
						if got := winnerOf(c, memo); got != want {
							t.Fatalf("proof %s of the fill of %s with %s, carried back, is not a proof of %s's win:\n%s", names(c, p), names(c, targets), x, want, orig.Diagram())
						}
					}
					for k := 0; k < nf; k++ {
						b.Undo()
					}
					b.SetToMove(to)
				}
				// FillInFor (proof-set reduction) for either colour
				for _, x := range []hex.Color{hex.Black, hex.White} {
					var rx Result
					a.FillInFor(b, x, &rx)
					if got := winnerOf(b, memo); got != want {
						t.Fatalf("FillInFor(%s) changes the winner %s -> %s:\n%s", x, want, got, orig.Diagram())
					}
					rx.Undo(b)
					b.SetToMove(to)
				}
			}
			if len(memo) > 1_000_000 {
				memo = map[uint64]bool{}
			}
		}
	}
	t.Logf("%d positions (with side to move), %d inferior fills at the fixed point, %d proofs carried back (%d over an inferior fill of the winner, %d cells), %d single inferior matches",
		positions, inferior, proofs, infProofs, infCells, direct)
	if inferior < positions/25 || direct < positions/2 {
		t.Fatalf("only %d (fixed point) and %d (single) inferior fills in %d positions: the oracle misses the patterns", inferior, direct, positions)
	}
}
