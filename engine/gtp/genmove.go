package gtp

import (
	"fmt"
	"sort"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// cmdGenmove answers genmove COLOR: it resigns when the opponent has already joined
// its edges or no move is left, otherwise asks the genmove policy (on a copy of the
// board with COLOR to move), checks the move is legal, plays it and answers its name.
func cmdGenmove(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 1); err != nil {
		return "", err
	}
	c, err := ArgColor(args, 0)
	if err != nil {
		return "", err
	}
	b := e.board
	p := hex.NoCell
	if w := b.Winner(); w == c.Opp() || (b.NumStones() == b.Geometry().N && w == hex.Empty) {
		p = hex.Resign
	} else if b.EmptyCells().IsEmpty() {
		p = hex.Resign
	} else {
		work := b.Clone()
		work.SetToMove(c)
		p, err = e.genMove(e, work, c)
		if err != nil {
			return "", fmt.Errorf("genmove: %v", errText(err))
		}
	}
	m := hex.Move{Color: c, Cell: p}
	if err := b.Legal(m); err != nil {
		return "", fmt.Errorf("genmove: the policy chose an illegal move %s: %v", b.Geometry().CellName(p), errText(err))
	}
	if err := b.Play(m); err != nil {
		return "", err
	}
	return b.Geometry().CellName(p), nil
}

// SimpleGenMove is genmove's built-in policy until a searching one is registered with
// RegisterGenMove. It is deterministic and cheap (one play and undo per empty cell and
// colour) and never plays an illegal move:
//
//  1. a cell that wins at once for c (its stone joins c's two edges);
//  2. otherwise a cell where the opponent would win at once (blocking it);
//  3. otherwise the empty cell nearest the centre of the board.
//
// Within each rule cells are taken nearest the centre first (Euclidean distance on the
// hexagonal grid), ties broken by the lower cell index. It never swaps or resigns; it
// fails only when the board has no empty cell.
func SimpleGenMove(e *Engine, b *hex.Board, c hex.Color) (hex.Cell, error) {
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
}

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
