package player

import (
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestSwapKnownOpenings: with the swap rule on, the player swaps every opening the
// published win map calls a win for Black and no other, on every board the map holds;
// with the rule off it never swaps.
func TestSwapKnownOpenings(t *testing.T) {
	p := newPlayer(t, Settings{}, Options{})
	for n := 3; n <= 8; n++ {
		wins, ok := solver.KnownOpenings(n)
		if !ok {
			t.Fatalf("no map for %dx%d", n, n)
		}
		g := hex.MustGeometry(n, n)
		swapped := 0
		for c := hex.Cell(0); int(c) < g.N; c++ {
			b := hex.NewBoardGeometry(g)
			b.PlayStone(hex.Black, c)
			win := wins.Has(c)
			st, err := p.sizeFor(b)
			if err != nil {
				t.Fatal(err)
			}
			if m, ok := p.swapRule(st, b); ok != win || ok && m != hex.Swap {
				t.Errorf("%dx%d Black opens %s (a win: %v): the swap rule answers %s, %v", n, n, g.CellName(c), win, g.CellName(m), ok)
			}
			if !win {
				continue // the player then searches, and a search plays a cell
			}
			d, err := p.Decide(t.Context(), b, true)
			if err != nil {
				t.Fatal(err)
			}
			if d.Move != hex.Swap || d.From != FromSwapRule {
				t.Errorf("%dx%d Black opens %s, a win: the player answers %s (%s)", n, n, g.CellName(c), g.CellName(d.Move), d.From)
			}
			swapped++
		}
		if want := wins.Count(); swapped != want {
			t.Errorf("%dx%d: %d swaps, want %d", n, n, swapped, want)
		}
	}
	b, _ := hex.ParsePosition(8, 8, "d4")
	if d, err := p.Decide(t.Context(), b, false); err != nil || d.Move == hex.Swap || d.From == FromSwapRule {
		t.Errorf("swap rule off: %+v, %v", d, err)
	}
}

// TestSwapOpening: with the swap rule on, Black's first move is one the published map
// calls a loss for Black (so that swapping it does not pay); above 8x8 the opening is
// the value's nearest to even, which is not the centre.
func TestSwapOpening(t *testing.T) {
	for _, s := range []Settings{{}, settings(t, "player=exact")} {
		p := newPlayer(t, s, Options{})
		for n := 3; n <= 8; n++ {
			wins, _ := solver.KnownOpenings(n)
			g := hex.MustGeometry(n, n)
			d, err := p.Decide(t.Context(), hex.NewBoardGeometry(g), true)
			if err != nil {
				t.Fatal(err)
			}
			if !g.IsCell(d.Move) || wins.Has(d.Move) || d.From != FromSwapRule {
				t.Errorf("%v %dx%d: opens %s (%s), a win the opponent would swap", s.Args(), n, n, g.CellName(d.Move), d.From)
			}
		}
		b := hex.MustBoard(11, 11)
		d, err := p.Decide(t.Context(), b, true)
		if err != nil || !b.Geometry().IsCell(d.Move) || d.Move == b.Geometry().At(5, 5) {
			t.Errorf("%v 11x11: opens %s (%v)", s.Args(), b.Geometry().CellName(d.Move), err)
		}
	}
}

// TestSwapByValue: above the published map the value, against the median of the
// openings' values, decides: the 11x11 centre opening (the f6) is swapped, a
// corner opening that loses is not, nor the player's own opening.
func TestSwapByValue(t *testing.T) {
	p := newPlayer(t, Settings{}, Options{})
	e := engine(p)
	mustExec(t, e, "boardsize 11", "param_game allow_swap 1", "play b f6")
	if m := genmove(t, e, "w"); m != "swap-pieces" {
		t.Errorf("11x11 after f6: genmove w = %s, want swap-pieces", m)
	}
	mustExec(t, e, "boardsize 11", "play b a1")
	if m := genmove(t, e, "w"); m == "swap-pieces" {
		t.Errorf("11x11 after a1: the player swapped a losing corner")
	}
	// Its own opening is one it would not swap: the line is the same on both sides.
	mustExec(t, e, "boardsize 11")
	if m := genmove(t, e, "b"); m == "swap-pieces" || genmove(t, e, "w") == "swap-pieces" {
		t.Errorf("11x11: the player swapped its own opening %s", m)
	}
	mustExec(t, e, "boardsize 11", "param_game allow_swap 0", "play b f6")
	if m := genmove(t, e, "w"); m == "swap-pieces" {
		t.Errorf("swap rule off: the player swapped")
	}
}
