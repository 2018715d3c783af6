package model

import (
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// ChildValues evaluates every empty cell of b as the side to move's next move and
// writes, for each cell in index order, the child's value from the mover's point of
// view into dst (reused when large enough): Value for Black, −Value for White, and
// ±1e300 for a child decided for or against the mover. It returns the cells and the
// values. Evaluators implementing search.Tracker are driven incrementally. b is
// restored.
func ChildValues(b *hex.Board, e search.Evaluator, cells []hex.Cell, dst []float64) ([]hex.Cell, []float64) {
	mover := b.ToMove()
	tr, _ := e.(search.Tracker)
	if tr != nil {
		tr.Reset(b)
	}
	cells, dst = cells[:0], dst[:0]
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		b.PlayStone(mover, p)
		if tr != nil {
			tr.Play(mover, p)
		}
		r := e.Evaluate(b)
		b.Undo()
		if tr != nil {
			tr.Undo(mover, p)
		}
		v := r.Value
		if mover == hex.White {
			v = -v
		}
		switch r.Winner {
		case mover:
			v = 1e300
		case mover.Opp():
			v = -1e300
		}
		cells = append(cells, p)
		dst = append(dst, v)
	}
	return cells, dst
}

// BestMove returns the move a depth-1 search with evaluator e picks in b: the child
// with the best value for the side to move (see ChildValues; ties go to the lowest
// cell index), or hex.NoCell when b has no empty cell. b is restored.
func BestMove(b *hex.Board, e search.Evaluator) hex.Cell {
	cells, vals := ChildValues(b, e, nil, nil)
	i := argmax(vals)
	if i < 0 {
		return hex.NoCell
	}
	return cells[i]
}

func argmax(v []float64) int {
	best := -1
	for i, x := range v {
		if best < 0 || x > v[best] {
			best = i
		}
	}
	return best
}

// Agreement counts the positions (undecided, with an empty cell) in which the move
// candidate picks at depth 1 is one the reference evaluator rates best: its value under
// reference equals the reference's best child value (so ties in the reference, such as
// several winning moves, all count). It is the paper-style check of whether a learned
// evaluator plays like the exact one.
func Agreement(boards []*hex.Board, reference, candidate search.Evaluator) (same, total int) {
	var cr, cc []hex.Cell
	var vr, vc []float64
	for _, bd := range boards {
		if bd.Winner() != hex.Empty {
			continue
		}
		cr, vr = ChildValues(bd, reference, cr, vr)
		if len(cr) == 0 {
			continue
		}
		cc, vc = ChildValues(bd, candidate, cc, vc)
		total++
		best := vr[argmax(vr)]
		if pick := argmax(vc); vr[pick] >= best-1e-9*math.Max(1, math.Abs(best)) {
			same++
		}
	}
	return same, total
}
