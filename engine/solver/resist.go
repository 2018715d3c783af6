package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
)

// Resistant returns, after a DFPN Solve proved b lost for its side to move, the
// most resistant losing move: among the root's moves whose refutation the search
// proved (and the transposition table still holds), the one whose refutation needs
// the largest proof set (the winner's cells that must stay as they are), ties going
// to the refutation that cost the search more node entries, then to the lower cell.
// Against an opponent who may err, a move that takes a larger and costlier proof to
// refute leaves it more ways to go wrong. ok is false when b is not proved lost or
// the table knows no refuted root move (the root was decided by its own
// connections, the entries were replaced, or the solver ran DFS).
func (s *Solver) Resistant(b *hex.Board) (move hex.Cell, ok bool) {
	move = hex.NoCell
	bestSize, bestWork := -1, uint32(0)
	s.refutedRootMoves(b, func(m hex.Cell, e *pnEntry) {
		size := e.kids.Count()
		if size > bestSize || size == bestSize && e.work > bestWork {
			move, bestSize, bestWork = m, size, e.work
		}
	})
	return move, move != hex.NoCell
}

// refutedRootMoves calls f, in cell order, with every move of b's side to move whose
// resulting position the table holds as won for the opponent, when the table holds
// b as lost. The root's children are keyed as DFPN reached them: from the root after
// its ICE fill-in.
func (s *Solver) refutedRootMoves(b *hex.Board, f func(m hex.Cell, e *pnEntry)) {
	if s.pn == nil || s.g != b.Geometry() || b.Winner() != hex.Empty {
		return
	}
	var e pnEntry
	if h0, hr0 := s.hashes(b); !s.pnProbe(h0, hr0, &e) || e.dn != 0 {
		return // not proved lost
	}
	w := b.Clone()
	x := w.ToMove()
	if !s.cfg.NoICE {
		var r ice.Result
		s.an.FillIn(w, x.Opp(), &r)
		w.SetToMove(x)
	}
	h, hr := s.hashes(w)
	n1 := hex.Cell(s.g.N - 1)
	zx := s.zob[x]
	empty := w.EmptyCells()
	for m := empty.First(); m != hex.NoCell; m = empty.Next(m + 1) {
		if s.pnProbe(h^zx[m]^s.zmove, hr^zx[n1-m]^s.zmove, &e) && e.pn == 0 {
			f(m, &e)
		}
	}
}
