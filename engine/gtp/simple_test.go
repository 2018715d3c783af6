package gtp

import (
	"context"
	"fmt"
	"sort"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// simplePlayer is the protocol tests' player: deterministic and cheap (one play and
// undo per empty cell and colour), it never plays an illegal move:
//
//  1. a cell that wins at once for the side to move (its stone joins its two edges);
//  2. otherwise a cell where the opponent would win at once (blocking it);
//  3. otherwise the empty cell nearest the centre of the board.
//
// Within each rule cells are taken nearest the centre first (Euclidean distance on the
// hexagonal grid), ties broken by the lower cell index. It never swaps or resigns.
var simplePlayer = PlayerFunc(func(_ context.Context, b *hex.Board, _ bool) (hex.Cell, error) {
	c := b.ToMove()
	order := centreOrder(b)
	if len(order) == 0 {
		return hex.NoCell, fmt.Errorf("no empty cell")
	}
	for _, col := range []hex.Color{c, c.Opp()} {
		for _, p := range order {
			b.PlayStone(col, p)
			won := b.Winner() == col
			b.Undo()
			if won {
				return p, nil
			}
		}
	}
	return order[0], nil
})

// centreOrder lists the empty cells of b nearest the centre first. With x, y 0-based,
// a cell's centre on the plane is (x + y/2, y*sqrt(3)/2); scaled by 4 the squared
// distance to the board's centre is u*u + 3*v*v with the integers below.
func centreOrder(b *hex.Board) []hex.Cell {
	g := b.Geometry()
	empty := b.EmptyCells()
	cells := empty.AppendCells(make([]hex.Cell, 0, g.N))
	dist := func(p hex.Cell) int {
		x, y := g.XY(p)
		u := 4*x + 2*y - (2*(g.W-1) + (g.H - 1))
		v := 2*y - (g.H - 1)
		return u*u + 3*v*v
	}
	sort.SliceStable(cells, func(i, j int) bool { return dist(cells[i]) < dist(cells[j]) })
	return cells
}
