package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
)

// Algorithm selects the search algorithm of a Solver.
type Algorithm int

const (
	// DFPN is depth-first proof-number search (Nagai 2002) with the 1+ε threshold
	// trick (Pawlewicz & Lew 2007), as in Benzene's DFPN solver: proof and disproof
	// numbers per node, children restricted to the mustplay region, VCs and ICE at every
	// node, proof sets and proof-set pruning, the node's child set kept in the
	// transposition table so that re-entering a node skips H-search. The default.
	DFPN Algorithm = iota
	// DFS is the depth-first search of Henderson, Arneson & Hayward 2009 with a 1-ply
	// Connector lookahead for move ordering.
	DFS
)

// String names the algorithm ("dfpn" or "dfs").
func (a Algorithm) String() string {
	switch a {
	case DFPN:
		return "dfpn"
	case DFS:
		return "dfs"
	}
	return "unknown"
}

// pnInf is the proof or disproof number of a solved node; unsolved sums saturate
// one below it.
const pnInf = uint32(1) << 30

// pnEntry is a DFPN transposition table entry. The key is the Zobrist hash of the
// position as reached (before fill-in); the sets are cells of the filled position.
type pnEntry struct {
	key    uint64
	pn, dn uint32 // for the side to move; pn == 0: it wins; dn == 0: it loses
	// must is the node's mustplay region (before inferior pruning), kids its
	// remaining children (the proof set once solved), loss the loser's proof
	// accumulated from the mustplay and the refuted children.
	must, kids, loss hex.Bitset
	// wide is the set of children admitted to the progressive widening window so
	// far: they stay in it when the node is entered again (Config.WideningBase)
	wide hex.Bitset
	// dead and capt (index colour-1) are the node's ICE fill-in, replayed when the
	// node is entered again (empty for a key of a filled position)
	dead hex.Bitset
	capt [2]hex.Bitset
	best hex.Cell // winning move once proved
	// work is the number of node entries spent on the position so far (the
	// replacement key of the two-way table: the cheaper entry goes)
	work uint32
	used bool
	// dominated is the number of candidates local-domination pruning dropped when
	// the node was expanded: the widening window is sized as if they were still
	// children (they would come last in the move order), so that the pruning does
	// not narrow the window over the other children.
	dominated uint8
	// gen is the generation of the search that stored the entry (pnTable.nextGen)
	gen uint8
}

func satAdd(a, b uint32) uint32 {
	if s := uint64(a) + uint64(b); s < uint64(pnInf) {
		return uint32(s)
	}
	return pnInf - 1
}

// pnProbe copies the entry of the position with hashes (h, hr) into e (sets and move
// rotated back on a hit of the rotated key). An open entry is only taken from the
// orientation that stored it: its children are what inferior-cell pruning kept, and
// the pruning is not symmetric under the rotation (of two cells that dominate each
// other it keeps the first in cell order), so the rotated position's loss proof,
// completed with the dominators its own pruning records (pnLoss), would not match
// the children searched. A solved entry's proof holds in either orientation.
func (s *Solver) pnProbe(h, hr uint64, e *pnEntry) bool {
	t := s.pn
	if t == nil {
		return false
	}
	if t.probe(h, e) {
		return true
	}
	if t.probe(hr, e) {
		if e.pn != 0 && e.dn != 0 {
			return false // open: see above
		}
		e.must, e.kids, e.loss, e.wide = s.rotate(e.must), s.rotate(e.kids), s.rotate(e.loss), s.rotate(e.wide)
		e.dead, e.capt[0], e.capt[1] = s.rotate(e.dead), s.rotate(e.capt[0]), s.rotate(e.capt[1])
		if e.best >= 0 {
			e.best = hex.Cell(s.g.N-1) - e.best
		}
		return true
	}
	return false
}

// pnValues returns the proof and disproof numbers of the position with hashes
// (h, hr) when the table has them (else 1 and 1), and its proof set when it is
// solved.
func (s *Solver) pnValues(h, hr uint64) (pn, dn uint32, proof hex.Bitset) {
	t := s.pn
	if t == nil {
		return 1, 1, proof
	}
	if pn, dn, proof, ok := t.values(h); ok {
		return pn, dn, proof
	}
	if pn, dn, proof, ok := t.values(hr); ok {
		if pn == 0 || dn == 0 {
			proof = s.rotate(proof)
		}
		return pn, dn, proof
	}
	return 1, 1, proof
}

func (s *Solver) pnStore(e *pnEntry) {
	if s.pn == nil {
		return
	}
	s.pn.store(e)
}

// solveDFPN runs MID from the root until it is solved or a limit stops it.
func (s *Solver) solveDFPN() (bool, hex.Bitset, hex.Cell) {
	for !s.aborted {
		pn, dn, proof, best := s.mid(0, pnInf, pnInf)
		if s.aborted {
			break
		}
		if pn == 0 {
			return true, proof, best
		}
		if dn == 0 {
			return false, proof, hex.NoCell
		}
	}
	return false, hex.Bitset{}, hex.NoCell
}

// mid is the DFPN multiple iterative deepening step at ply: it searches the current
// position until its proof number reaches thpn or its disproof number thdn, and
// returns them (with the proof set and winning move once solved).
func (s *Solver) mid(ply int, thpn, thdn uint32) (uint32, uint32, hex.Bitset, hex.Cell) {
	var none hex.Bitset
	b := s.b
	x := b.ToMove()
	o := x.Opp()
	h0, hr0 := s.hashes(b)
	pb := &s.plies[ply]
	e := &pb.entry
	have := s.pnProbe(h0, hr0, e)
	if have && (e.pn == 0 || e.dn == 0) {
		s.stats.TTHits++
		return e.pn, e.dn, e.kids, e.best
	}
	s.stats.Nodes++
	if ply > s.stats.MaxDepth {
		s.stats.MaxDepth = ply
	}
	s.checkLimits()
	if s.aborted {
		return 1, 1, none, hex.NoCell
	}
	fr := &pb.result
	*fr = ice.Result{}
	switch {
	case s.cfg.NoICE:
	case have: // entered again: replay the fill-in found the first time
		fr.Dead = e.dead
		fr.Captured[hex.Black], fr.Captured[hex.White] = e.capt[0], e.capt[1]
		// the table keeps no support cells of inferior fills: take their bound
		fr.Support[hex.Black] = ice.SupportBound(b, e.capt[0])
		fr.Support[hex.White] = ice.SupportBound(b, e.capt[1])
		for p := e.dead.First(); p != hex.NoCell; p = e.dead.Next(p + 1) {
			b.PlayStone(o, p)
			fr.Filled++
		}
		for c := hex.Black; c <= hex.White; c++ {
			cs := &e.capt[c-1]
			for p := cs.First(); p != hex.NoCell; p = cs.Next(p + 1) {
				b.PlayStone(c, p)
				fr.Filled++
			}
		}
		b.SetToMove(x)
	default:
		s.an.FillIn(b, o, fr)
	}
	// the filled position may be in the table under its own key (reached from
	// another position as reached)
	hf, hrf := h0, hr0
	if fr.Filled > 0 {
		hf, hrf = s.hashes(b)
	}
	var pn, dn uint32
	var proof hex.Bitset
	var best hex.Cell
	if !have && fr.Filled > 0 && s.pnProbe(hf, hrf, e) {
		have = true
	}
	if !have && !s.cfg.NoICE {
		// decompositions need the opponent's connections: only for a node that
		// will be expanded
		if n := fr.Filled; s.decompose(b, x, fr) && fr.Filled > n {
			hf, hrf = s.hashes(b)
			have = s.pnProbe(hf, hrf, e)
		}
	}
	pb.nodes0, pb.work0 = s.stats.Nodes, 0
	if have {
		pb.work0 = e.work
	}
	if have && (e.pn == 0 || e.dn == 0) {
		s.stats.TTHits++
		pn, dn, proof, best = e.pn, e.dn, e.kids, e.best
	} else if hpn, hdn, hproof, hbest, hit := s.proofHit(ply, b, x, o); hit {
		pn, dn, proof, best = hpn, hdn, hproof, hbest
	} else {
		pn, dn, proof, best = s.midNode(ply, x, o, h0, hf, hrf, have, thpn, thdn)
		if dn == 0 && !s.aborted && s.stats.Nodes > pb.nodes0 {
			// a loss found by search (a leaf's is found again by its H-search)
			s.addProof(b, o, proof)
		}
	}
	if !s.aborted && (pn == 0 || dn == 0) {
		work := s.work(pb)
		if fr.Filled > 0 {
			*e = pnEntry{key: hf, pn: pn, dn: dn, kids: proof, best: best, work: work}
			s.pnStore(e)
		}
		w := o
		if pn == 0 {
			w = x
		}
		proof = proof.Or(fr.Captured[w]).Or(fr.Support[w])
		*e = pnEntry{key: h0, pn: pn, dn: dn, kids: proof, best: best, work: work}
		s.pnStore(e)
	}
	fr.Undo(b)
	return pn, dn, proof, best
}

// expand evaluates a fresh node (the evaluation DFS shares) and, unless it is decided
// without search, fills e with its mustplay region, children and loss proof.
func (s *Solver) expand(ply int, x, o hex.Color, e *pnEntry) nodeEval {
	s.stats.Expanded++
	ev := s.evaluate(ply, x, o)
	if !ev.solved {
		*e = pnEntry{must: ev.must, kids: ev.cand, loss: ev.loss, best: hex.NoCell,
			dominated: uint8(min(s.plies[ply].localPruned, 255))}
	}
	return ev
}

// midNode is mid on the filled-in position; h0 is the key of the position as
// reached, (hf, hrf) the keys of the filled position, have reports that pb.entry holds its (unsolved) table entry.
func (s *Solver) midNode(ply int, x, o hex.Color, h0, hf, hrf uint64, have bool, thpn, thdn uint32) (uint32, uint32, hex.Bitset, hex.Cell) {
	b := s.b
	pb := &s.plies[ply]
	e := &pb.entry
	if !have {
		if ev := s.expand(ply, x, o, e); ev.solved {
			if ev.win {
				return 0, pnInf, ev.proof, ev.best
			}
			return pnInf, 0, ev.proof, hex.NoCell
		}
	}
	if ply == 0 {
		s.rootOpen = true // the root's entry (pb.entry) holds its candidates
	}
	zx := s.zob[x]
	n1 := hex.Cell(s.g.N - 1)
	moves := s.orderMoves(b, x, e.kids, pb, false)
	// children's values from the table (their buckets loaded together first);
	// solved children are resolved at once
	if s.pn != nil {
		s.warmed += s.pn.warm(moves, e.kids, hf, hrf, zx, s.zmove, n1)
	}
	k := 0
	for _, m := range moves {
		if !e.kids.Has(m) {
			continue
		}
		ch, chr := hf^zx[m]^s.zmove, hrf^zx[n1-m]^s.zmove
		cp, cd, p := s.pnValues(ch, chr)
		switch {
		case cd == 0: // the child's mover loses: m wins
			if ply == 0 {
				s.reportRoot(m, true)
			}
			return s.pnWin(ply, p, m)
		case cp == 0: // m loses: prune to the refutation's proof
			if ply == 0 {
				s.reportRoot(m, false)
			}
			e.kids.Clear(m)
			e.kids = e.kids.And(p)
			e.loss = e.loss.Or(p)
			continue
		}
		moves[k] = m
		pb.cpn[m], pb.cdn[m] = cp, cd
		k++
	}
	moves = moves[:k]
	for {
		// drop children pruned by a refutation's proof
		k := 0
		for _, m := range moves {
			if e.kids.Has(m) {
				moves[k] = m
				k++
			}
		}
		moves = moves[:k]
		if len(moves) == 0 {
			return s.pnLoss(ply, x, e)
		}
		win := s.widen(moves, e, pb)
		pn, dn := pnInf, uint32(0)
		c1, d2 := hex.NoCell, pnInf-1
		var top uint32 // the largest child proof number
		for _, m := range win {
			dn = satAdd(dn, pb.cpn[m])
			top = max(top, pb.cpn[m])
			if d := pb.cdn[m]; d < pn {
				if c1 != hex.NoCell {
					d2 = pn
				}
				pn, c1 = d, m
			} else if d < d2 {
				d2 = d
			}
		}
		var excess uint64 // the sum beyond the weak proof number
		if s.keep < 256 {
			excess = uint64(dn) - min(uint64(dn), uint64(top)+uint64(len(win)-1))
			dn = s.weakDN(dn, top, len(win))
		}
		if s.busy != nil && len(win) > 1 && s.busy.has(hf^zx[c1]^s.zmove) {
			c1, d2 = s.divert(win, pb, hf, zx, c1, d2, thpn)
		}
		if len(win) == 1 {
			d2 = pnInf - 1
		}
		if ply == 0 {
			s.rootPN, s.rootDN = pn, dn
		}
		if pn >= thpn || dn >= thdn {
			fr := &pb.result
			e.pn, e.dn, e.key, e.work = pn, dn, h0, s.work(pb)
			e.dead, e.capt = fr.Dead, [2]hex.Bitset{fr.Captured[hex.Black], fr.Captured[hex.White]}
			s.pnStore(e)
			if hf != h0 {
				e.key = hf
				e.dead, e.capt = hex.Bitset{}, [2]hex.Bitset{}
				s.pnStore(e)
			}
			return pn, dn, hex.Bitset{}, hex.NoCell
		}
		// thresholds of the child: its pn against our dn, its dn against our pn
		cth := uint64(thdn) - uint64(dn) + uint64(pb.cpn[c1])
		if s.keep < 256 {
			cth = s.weakThreshold(uint64(thdn)-uint64(dn), uint64(pb.cpn[c1]), uint64(top), excess)
		}
		if cth > uint64(pnInf) {
			cth = uint64(pnInf)
		}
		dth := uint64(d2) + uint64(d2)/4 // 1+ε with ε = 1/4
		if dth < uint64(d2)+1 {
			dth = uint64(d2) + 1
		}
		if dth > uint64(thpn) {
			dth = uint64(thpn)
		}
		b.PlayStone(x, c1)
		var bk uint64
		if s.busy != nil {
			bk = hf ^ zx[c1] ^ s.zmove
			s.busy.enter(bk)
		}
		n0 := s.stats.Nodes
		cp, cd, proof, _ := s.mid(ply+1, uint32(cth), uint32(dth))
		if s.busy != nil {
			s.busy.leave(bk)
		}
		b.Undo()
		if ply == 0 && s.cfg.RootProgress != nil {
			s.rootSpent[c1] += s.stats.Nodes - n0
		}
		if s.aborted {
			return 1, 1, hex.Bitset{}, hex.NoCell
		}
		switch {
		case cd == 0:
			if ply == 0 {
				s.reportRoot(c1, true)
			}
			return s.pnWin(ply, proof, c1)
		case cp == 0:
			if ply == 0 {
				s.reportRoot(c1, false)
			}
			e.kids.Clear(c1)
			e.kids = e.kids.And(proof)
			e.loss = e.loss.Or(proof)
		default:
			pb.cpn[c1], pb.cdn[c1] = cp, cd
		}
	}
}

// weakDN is a DFPN node's disproof number under Config.WeakPN, from the sum of its n
// children's proof numbers and the largest of them: the weak proof number top + n − 1
// plus the share s.keep/256 of the sum beyond it.
func (s *Solver) weakDN(sum, top uint32, n int) uint32 {
	d := uint64(top) + uint64(n-1)
	if uint64(sum) > d {
		d += (uint64(sum) - d) * s.keep / 256
	}
	return uint32(min(d, uint64(pnInf-1)))
}

// weakThreshold is the proof number threshold of a child whose proof number is cp,
// under Config.WeakPN: the smallest value at which the node's disproof number
// (weakDN) has gained rest, the room left below the node's threshold. top is the
// largest child proof number, excess the children's sum beyond the weak proof
// number. Up to top, the child's growth adds to the excess, of which the node counts
// keep/256; above top it raises the weak proof number by one per unit. The result
// exceeds cp.
func (s *Solver) weakThreshold(rest, cp, top, excess uint64) uint64 {
	gap := top - cp
	had := excess * s.keep / 256
	if s.keep > 0 {
		// the smallest k with floor((excess+k)·keep/256) ≥ had + rest
		need := (had + rest) * 256
		if k := (need+s.keep-1)/s.keep - excess; k <= gap {
			return cp + max(k, 1)
		}
	}
	return top + rest - ((excess+gap)*s.keep/256 - had)
}

// work returns the node entries spent on the position at ply: those of its table
// entry when it was entered plus those since.
func (s *Solver) work(pb *plyBuf) uint32 {
	return uint32(min(uint64(pb.work0)+uint64(s.stats.Nodes-pb.nodes0), 1<<32-1))
}

// pnWin finishes a node won by the move m, whose resulting position is proved by p.
func (s *Solver) pnWin(ply int, p hex.Bitset, m hex.Cell) (uint32, uint32, hex.Bitset, hex.Cell) {
	s.plies[ply].addKiller(m)
	s.addHistory(m)
	return 0, pnInf, s.winProof(ply, p, m), m
}

// pnLoss finishes a node where every child is refuted: the proof is the accumulated
// refutations plus the dominators of the pruned inferior cells it meets (the pruning
// is redone, since the node may have been entered again from the table).
func (s *Solver) pnLoss(ply int, x hex.Color, e *pnEntry) (uint32, uint32, hex.Bitset, hex.Cell) {
	pb := &s.plies[ply]
	for i := range pb.dom {
		pb.dom[i] = hex.NoCell
	}
	if s.prunes() && e.must.Count() > 1 {
		pruned := s.stats.Pruned
		s.pruneInferior(s.b, x, e.must, pb)
		s.stats.Pruned = pruned
	}
	return pnInf, 0, s.lossProof(ply, x, e.loss), hex.NoCell
}

// widen returns the children of the node's window (progressive widening): the
// unrefuted children admitted before (e.wide), then the next ones in move order up
// to Config.window of them, which are admitted in turn. Without widening it returns
// moves.
func (s *Solver) widen(moves []hex.Cell, e *pnEntry, pb *plyBuf) []hex.Cell {
	k := min(len(moves), s.cfg.window(len(moves)+int(e.dominated)))
	if k == len(moves) {
		return moves
	}
	win := pb.win[:0]
	for _, m := range moves {
		if e.wide.Has(m) {
			win = append(win, m)
		}
	}
	for _, m := range moves {
		if len(win) >= k {
			break
		}
		if !e.wide.Has(m) {
			win = append(win, m)
			e.wide.Set(m)
		}
	}
	pb.win = win
	return win
}

// divert is the child choice of a DFPN node when another worker is below its best
// child c1 (second best value d2; solveShared): that child's disproof number counts
// as a virtual 2d+1, so the worker takes the next best child instead, unless that
// child's disproof number has already reached the node's threshold thpn (searching it
// could not lower the node's proof number: the worker joins the other below c1). It
// returns the child to search and the second best (virtual) value, for its threshold.
func (s *Solver) divert(win []hex.Cell, pb *plyBuf, hf uint64, zx []uint64, c1 hex.Cell, d2, thpn uint32) (hex.Cell, uint32) {
	best, sel, sel2 := hex.NoCell, pnInf, pnInf-1
	for _, m := range win {
		d := pb.cdn[m]
		if s.busy.has(hf ^ zx[m] ^ s.zmove) {
			d = satAdd(d, d+1)
		}
		if d < sel {
			if best != hex.NoCell {
				sel2 = sel
			}
			sel, best = d, m
		} else if d < sel2 {
			sel2 = d
		}
	}
	if best == c1 || pb.cdn[best] >= thpn {
		return c1, d2
	}
	return best, sel2
}
