package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
)

// nodeEval is the outcome of evaluating a (filled-in) node before any child is
// searched. When solved is set, win, proof and best are its value; otherwise must is
// the mustplay region, cand the candidates left after inferior-cell pruning (the
// pruned cells' dominators are in the ply's dom and part) and loss the opponent's
// proof behind the mustplay.
type nodeEval struct {
	solved, win      bool
	proof            hex.Bitset
	best             hex.Cell
	must, cand, loss hex.Bitset
}

// evaluate is the node evaluation DFS and DFPN share (section 4 of the paper): a
// finished game, a win in one move, the Connector's winning connections (the
// opponent's VC, then, unless Config.NoMoverVC, the mover's SC and VC), the mustplay
// region (the opponent's win in one, else the Connector's mustplay) and inferior-cell
// pruning of the mustplay. Proofs are cells of the filled position.
func (s *Solver) evaluate(ply int, x, o hex.Color) nodeEval {
	b := s.b
	ev := nodeEval{best: hex.NoCell}
	switch b.Winner() {
	case x:
		ev.solved, ev.win = true, true
		return ev
	case o:
		ev.solved = true
		return ev
	}
	empty := b.EmptyCells()
	if c := winInOne(b, x, &empty); c != hex.NoCell {
		ev.solved, ev.win, ev.best = true, true, c
		ev.proof.Set(c)
		return ev
	}
	cn := s.cfg.Connector
	if cn != nil {
		if car, ok := cn.WinningVC(b, o); ok {
			ev.solved, ev.proof = true, car.And(empty)
			return ev
		}
		if s.cfg.NoMoverVC {
			// skip the mover's own build: its SCs are found one ply later
		} else if key, car, ok := cn.WinningSC(b, x); ok && empty.Has(key) {
			ev.solved, ev.win, ev.proof, ev.best = true, true, car.And(empty), key
			return ev
		} else if car, ok := cn.WinningVC(b, x); ok {
			car = car.And(empty)
			m := car.First()
			if m == hex.NoCell {
				m = empty.First()
			}
			car.Set(m)
			ev.solved, ev.win, ev.proof, ev.best = true, true, car, m
			return ev
		}
	}
	ev.must = empty
	if t := winInOne(b, o, &empty); t != hex.NoCell {
		ev.must = hex.Bitset{}
		ev.must.Set(t)
		ev.loss.Set(t)
	} else if cn != nil {
		if m, pr, ok := cn.Mustplay(b, x); ok {
			ev.must = m.And(empty)
			ev.loss = pr.And(empty)
		}
	}
	pb := &s.plies[ply]
	for i := range pb.dom {
		pb.dom[i] = hex.NoCell
	}
	ev.cand = ev.must
	pb.localPruned = 0
	if s.prunes() && ev.must.Count() > 1 {
		ev.cand = s.pruneInferior(b, x, ev.must, pb)
	}
	s.stats.Candidates += int64(ev.cand.Count())
	return ev
}

// prunes reports whether inferior-cell pruning is on (it needs ICE).
func (s *Solver) prunes() bool { return !s.cfg.NoInferior && !s.cfg.NoICE }

// winProof finishes a node won by the move m whose resulting position is proved with
// p: m joins the proof, which is then reduced.
func (s *Solver) winProof(ply int, p hex.Bitset, m hex.Cell) hex.Bitset {
	p.Set(m)
	p = p.And(s.b.EmptyCells())
	return s.reduce(ply, p, s.b.ToMove().Opp())
}

// lossProof finishes a node where the side to move x loses, given the opponent's
// proof accumulated from the mustplay and the refuted moves: it is closed over the
// pruned inferior cells recorded at this ply (pb.dom and pb.part), limited to the
// empty cells and reduced.
func (s *Solver) lossProof(ply int, x hex.Color, loss hex.Bitset) hex.Bitset {
	loss = s.plies[ply].withDominators(loss)
	loss = loss.And(s.b.EmptyCells())
	return s.reduce(ply, loss, x)
}

// winInOne returns an empty cell where colour c connects its edges at once, or NoCell.
func winInOne(b *hex.Board, c hex.Color, empty *hex.Bitset) hex.Cell {
	e1, e2 := hex.EdgesOf(c)
	r1, r2 := b.Find(e1), b.Find(e2)
	g := b.Geometry()
	// only cells touching the group of e1 can win at once
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		t1, t2 := false, false
		for _, q := range g.Neighbours(p) {
			if b.At(q) != c {
				continue
			}
			r := b.Find(q)
			if r == r1 {
				t1 = true
			} else if r == r2 {
				t2 = true
			}
		}
		if t1 && t2 {
			return p
		}
	}
	return hex.NoCell
}

// pruneInferior removes from must the x-vulnerable, x-capture-dominated and locally
// dominated cells whose dominator is a candidate when the cell is removed (so
// following dominators from a pruned cell ends at a kept candidate, and no cycle of
// dominations prunes every move), and records each pruned cell's dominator in pb.dom.
func (s *Solver) pruneInferior(b *hex.Board, x hex.Color, must hex.Bitset, pb *plyBuf) hex.Bitset {
	for i := range pb.part {
		pb.part[i] = hex.NoCell
	}
	cand := must
	vul := s.an.VulnerableIn(b, x, must, pb.dom)
	for c := vul.First(); c != hex.NoCell; c = vul.Next(c + 1) {
		if !cand.Has(c) {
			pb.dom[c] = hex.NoCell
			continue
		}
		k := pb.dom[c]
		if cand.Has(k) {
			cand.Clear(c)
			s.stats.Pruned++
		} else {
			pb.dom[c] = hex.NoCell
		}
	}
	if !s.cfg.NoDominated {
		cd := s.an.CaptureDominatedIn(b, x, must, pb.dom2, pb.part)
		for c := cd.First(); c != hex.NoCell; c = cd.Next(c + 1) {
			d := pb.dom2[c]
			if !cand.Has(c) || pb.dom[c] != hex.NoCell || !cand.Has(d) {
				pb.part[c] = hex.NoCell
				continue
			}
			cand.Clear(c)
			pb.dom[c] = d
			s.stats.Pruned++
		}
	}
	if !s.cfg.NoLocalDominated && cand.Count() > 1 {
		// the domination holds whatever the cells other than the pair hold, so the
		// loser's proof needs only the dominator (no partner); only cells on the
		// board's border are looked at (inside, a few more moves are pruned for
		// more time than they save)
		ld := s.an.LocalDominatedAmong(b, x, cand.And(s.border), cand, pb.dom2)
		pb.localPruned = ld.Count()
		for c := ld.First(); c != hex.NoCell; c = ld.Next(c + 1) {
			cand.Clear(c)
			pb.dom[c] = pb.dom2[c]
			s.stats.Pruned++
		}
	}
	return cand
}

// reduce shrinks a proof set of the current position (proof-set reduction, section 5):
// every empty cell outside it is given to the loser, then cells that inferior cell
// analysis finds dead or loser-captured leave the proof.
func (s *Solver) reduce(ply int, proof hex.Bitset, loser hex.Color) hex.Bitset {
	if s.cfg.NoReduce || s.cfg.NoICE {
		return proof
	}
	b := s.b
	to := b.ToMove()
	out := b.EmptyCells().AndNot(proof)
	n := 0
	for p := out.First(); p != hex.NoCell; p = out.Next(p + 1) {
		b.PlayStone(loser, p)
		n++
	}
	b.SetToMove(to)
	var r ice.Result
	s.an.FillInFor(b, loser, &r)
	r.Undo(b)
	for i := 0; i < n; i++ {
		b.Undo()
	}
	b.SetToMove(to)
	return proof.AndNot(r.Dead).AndNot(r.Captured[loser])
}

// withDominators closes a loser's proof over the inferior-cell pruning of this ply: for
// every pruned cell in the proof, its dominator (killer) and, if any, the partner cell
// the domination needs empty are added, since the pruning relied on them. Repeated
// until nothing is added.
func (pb *plyBuf) withDominators(loss hex.Bitset) hex.Bitset {
	for changed := true; changed; {
		changed = false
		for c := loss.First(); c != hex.NoCell; c = loss.Next(c + 1) {
			if d := pb.dom[c]; d != hex.NoCell {
				before := loss
				loss.Set(d)
				if p := pb.part[c]; p != hex.NoCell {
					loss.Set(p)
				}
				if before != loss {
					changed = true
				}
			}
		}
	}
	return loss
}
