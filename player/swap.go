package player

import (
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// The swap rule (the pie rule of tournaments and HexGui games; Benzene's "param_game
// allow_swap"): after the first stone the second player may take it over
// (hex.Swap, "swap-pieces": the stone is reflected into the second player's stone and
// the first player moves again). The first player should therefore open with a
// move that is as close to a draw as the game allows, and the second player should
// swap exactly the openings that win for their mover.
//
// Where the values of every opening are known (n x n boards from 3x3 to 8x8, the
// solver's published win map, solver.KnownOpenings) the player swaps every winning
// opening and no losing one, and opens with the losing opening its evaluator rates
// best for the mover: a loss, as every opening the opponent will not swap must be, but
// the hardest to refute. Elsewhere the evaluator's value decides, measured against the
// median value of all the board's openings rather than against 0: it swaps an
// opening whose value is above that median, and opens where the value is nearest to
// it. A network's value is not an unbiased estimate of who wins (one trained on
// random playouts rates every one-stone position a little in the opener's favour,
// the acute corner too), and on the largest boards whose maps are known about half
// the openings win (8x8: 32 of 64), so the median is the line between winning and
// losing openings that the evaluator's own scale draws.

// swapRule returns the swap rule's move in b, if the rule decides it: the opening
// move on an empty board, or hex.Swap when the opponent's opening wins for them.
func (p *Player) swapRule(st *sizeState, b *hex.Board) (hex.Cell, bool) {
	switch {
	case b.Ply() == 0 && b.NumStones() == 0 && b.ToMove() == hex.Black && b.Geometry().Square():
		// Only Black's first stone may be swapped (hex.Board.Legal).
		return p.balancedOpening(st, b), true
	case b.Ply() == 1 && b.Legal(hex.Move{Color: b.ToMove(), Cell: hex.Swap}) == nil:
		if p.openingWins(st, b) {
			return hex.Swap, true
		}
	}
	return hex.NoCell, false
}

// openingWins reports whether Black's opening stone of b (White to move) wins for
// Black.
func (p *Player) openingWins(st *sizeState, b *hex.Board) bool {
	if win, ok := knownOpening(b.Geometry(), b.Moves()[0].Cell); ok {
		return win
	}
	r := evaluate(st.value, b)
	if r.Winner != hex.Empty {
		return r.Winner == hex.Black
	}
	_, even := openingValues(st, b.Geometry())
	return r.Value > even
}

// openingValues returns the values of every opening stone of g's empty board (by
// cell; a decided opening counts ±∞) and their lower median, computed at the first call
// for the size.
func openingValues(st *sizeState, g *hex.Geometry) ([]float64, float64) {
	if st.openings != nil {
		return st.openings, st.evenValue
	}
	b := hex.NewBoardGeometry(g)
	vals := make([]float64, g.N)
	for c := hex.Cell(0); int(c) < g.N; c++ {
		b.PlayStone(hex.Black, c)
		r := evaluate(st.value, b)
		b.Undo()
		switch r.Winner {
		case hex.Black:
			vals[c] = math.Inf(1)
		case hex.White:
			vals[c] = math.Inf(-1)
		default:
			vals[c] = r.Value
		}
	}
	even := stats.QuantileOf(vals, 0.5) // the lower median: at most half are above it
	st.openings, st.evenValue = vals, even
	return vals, even
}

// knownOpening looks Black's opening stone at p up in the published win map: win
// reports whether it wins for Black, ok whether the map knows the board.
func knownOpening(g *hex.Geometry, p hex.Cell) (win, ok bool) {
	if !g.Square() {
		return false, false
	}
	wins, ok := solver.KnownOpenings(g.W)
	return ok && wins.Has(p), ok
}

// balancedOpening is Black's first move on the empty board b when White may swap: on
// a board whose openings are known, the losing opening the evaluator rates best for
// Black; elsewhere the opening that is not swapped (its value at most the openings'
// median, openingValues) whose value is nearest that median. Ties go to the lower
// cell.
func (p *Player) balancedOpening(st *sizeState, b *hex.Board) hex.Cell {
	g := b.Geometry()
	vals, even := openingValues(st, g)
	best, bestScore := hex.NoCell, math.Inf(-1)
	_, known := knownOpening(g, 0)
	for c := hex.Cell(0); int(c) < g.N; c++ {
		v := vals[c]
		score := v // known: the best losing opening for Black
		switch {
		case known:
			if win, _ := knownOpening(g, c); win || math.IsInf(v, 1) {
				continue
			}
		case math.IsInf(v, 0) || v > even:
			continue // decided, or swapped
		default:
			score = v - even // the nearest to the median from below
		}
		if best == hex.NoCell || score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// evaluate evaluates b outside a search (an incremental evaluator is set to b first).
func evaluate(ev search.Evaluator, b *hex.Board) search.Result {
	if t, ok := ev.(search.Tracker); ok {
		t.Reset(b)
	}
	return ev.Evaluate(b)
}
