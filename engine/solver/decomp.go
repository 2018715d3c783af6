package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
)

// decompose fills, on the ICE-filled position b with x to move, the regions the
// opponent captures by combinatorial decompositions (Config.Decompositions), adding
// them to fr as captured cells of the opponent so that they are undone, replayed
// and added to proofs like the fill-in's. It repeats while it finds one (at most four
// times: each search after a fill builds the opponent's connections again).
//
// The opponent's connections are the ones a node builds anyway (Config.NoMoverVC);
// looking for the mover's decompositions as well cost more time than it saved on
// 7x7 (docs/history.md, "Combinatorial decompositions"). Filling the whole region rather than the carrier alone
// searched 3.5% fewer nodes there.
//
// It does nothing (and builds nothing) when the game is over or x wins in one
// move, positions the node decides without the opponent's connections. It reports
// whether it filled anything.
func (s *Solver) decompose(b *hex.Board, x hex.Color, fr *ice.Result) (filled bool) {
	if !s.cfg.Decompositions || b.Winner() != hex.Empty {
		return false
	}
	d, ok := s.cfg.Connector.(Decomposer)
	if !ok {
		return false
	}
	if empty := b.EmptyCells(); winInOne(b, x, &empty) != hex.NoCell {
		return false
	}
	o := x.Opp()
	for range 4 {
		_, reg, ok := d.Decomposition(b, o)
		if !ok {
			return filled
		}
		filled = true
		fr.Filled += ice.Fill(b, reg, o)
		fr.Captured[o] = fr.Captured[o].Or(reg)
		s.stats.Decompositions++
		if b.Winner() != hex.Empty {
			return filled
		}
	}
	return filled
}
