package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
)

// Proof-set transpositions (Henderson, Arneson & Hayward 2009, section 6) through a
// goal-pattern database (Config.ProofPatterns). A DFPN node lost for its side to move
// x has a proof set P: the opponent o wins the filled position even when every empty
// cell outside P is x's. Then o wins, whoever moves, every position whose o-stones
// include o's stones on a chain between o's edges through o's stones and P, and in
// which no cell of P is x's: the cells off every such chain are dead for o. That is a
// goal pattern (engine/patterns.FromBoard), and looking a node up in the patterns is
// a subset query (the LB-tree), where the paper enumerates the positions a proof
// covers.

// newProofs returns an empty proof database for g's board, or nil when
// Config.ProofPatterns is off (or the board is not square, or the algorithm is DFS).
func (s *Solver) newProofs(g *hex.Geometry) *patterns.DB {
	if s.cfg.ProofPatterns <= 0 || s.cfg.Algorithm != DFPN || g == nil || g.W != g.H {
		return nil
	}
	d, err := patterns.New(g.W, g.H)
	if err != nil {
		return nil
	}
	return d
}

// proofHit looks the (filled) position b (the solver's board at ply) with x to move
// up in the stored proofs: hit is set when a proof decides it, with DFPN's proof and
// disproof numbers, the proof set (empty cells of b, reduced as a searched node's
// is) and, when x wins, a winning move.
func (s *Solver) proofHit(ply int, b *hex.Board, x, o hex.Color) (pn, dn uint32, proof hex.Bitset, best hex.Cell, hit bool) {
	if s.proofs == nil || s.proofs.Len() == 0 || b.Winner() != hex.Empty {
		return 0, 0, proof, hex.NoCell, false
	}
	empty := b.EmptyCells()
	if car, ok := s.proofs.Win(b, o); ok {
		s.stats.ProofHits++
		return pnInf, 0, s.reduce(ply, car.And(empty), x), hex.NoCell, true
	}
	if car, ok := s.proofs.Win(b, x); ok {
		// x wins whoever moves: any move keeps the win (a stone never hurts its
		// owner); one inside the carrier keeps the proof small
		p := car.And(empty)
		m := p.First()
		if m == hex.NoCell {
			m = empty.First()
		}
		if m == hex.NoCell {
			return 0, 0, proof, hex.NoCell, false
		}
		p.Set(m)
		s.stats.ProofHits++
		return 0, pnInf, s.reduce(ply, p, o), m, true
	}
	return 0, 0, proof, hex.NoCell, false
}

// addProof stores the proof (empty cells of the filled position b) that o wins b
// with the opponent to move, unless the database is full or holds a proof that
// covers it.
func (s *Solver) addProof(b *hex.Board, o hex.Color, proof hex.Bitset) {
	if s.proofs == nil || s.proofs.Len() >= s.cfg.ProofPatterns {
		return
	}
	p, err := patterns.FromBoard(b, o, proof.And(b.EmptyCells()))
	if err != nil {
		return // no chain through the proof: cannot happen for a sound proof
	}
	s.proofs.AddOne(p)
}
