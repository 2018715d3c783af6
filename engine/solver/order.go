package solver

import (
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
)

const far = 1 << 20

// dist01 fills d with the 0-1 distances from point src for colour c: entering an
// empty cell costs 1, a c-stone or c-edge costs 0, opponent stones are walls. d is
// indexed by point; unreachable points get far.
func dist01(b *hex.Board, c hex.Color, src hex.Cell, d []int32, ring []hex.Cell) {
	g := b.Geometry()
	for i := range d {
		d[i] = far
	}
	const mask = 4095
	head, tail := 0, 0
	d[src] = 0
	ring[tail&mask] = src
	tail++
	o := c.Opp()
	for head != tail {
		p := ring[head&mask]
		head++
		dp := d[p]
		for _, q := range g.Neighbours(p) {
			col := b.At(q)
			if col == o {
				continue
			}
			w := int32(1)
			if col == c {
				w = 0
			}
			if dp+w < d[q] {
				d[q] = dp + w
				if w == 0 {
					head--
					ring[head&mask] = q
				} else {
					ring[tail&mask] = q
					tail++
				}
			}
		}
	}
}

// order returns the cells of cand sorted by the lookahead key (the opponent's mustplay
// size after the move, when look is set), then by the two-way distance score: for each
// colour, the length (in empty cells) of the shortest edge-to-edge path through the
// cell; the sum over both colours, smallest first.
func (s *Solver) order(b *hex.Board, x hex.Color, cand hex.Bitset, pb *plyBuf, look bool) []hex.Cell {
	moves := cand.AppendCells(pb.moves[:0])
	pb.moves = moves
	if len(moves) <= 1 {
		return moves
	}
	if cap(pb.queue) < 4096 {
		pb.queue = make([]hex.Cell, 4096)
	}
	ring := pb.queue[:4096]
	n1, s1 := hex.EdgesOf(hex.Black)
	w1, e1 := hex.EdgesOf(hex.White)
	dist01(b, hex.Black, n1, pb.dist[0], ring)
	dist01(b, hex.Black, s1, pb.dist[1], ring)
	dist01(b, hex.White, w1, pb.dist[2], ring)
	dist01(b, hex.White, e1, pb.dist[3], ring)
	g := b.Geometry()
	for _, m := range moves {
		sb := pb.dist[0][m] + pb.dist[1][m] - 1
		sw := pb.dist[2][m] + pb.dist[3][m] - 1
		if sb > 64 {
			sb = 64
		}
		if sw > 64 {
			sw = 64
		}
		// tie-break: closeness to the centre
		cx, cy := g.XY(m)
		dx, dy := 2*cx-(g.W-1), 2*cy-(g.H-1)
		cen := dx*dx + dy*dy + (dx+dy)*(dx+dy)
		pb.score[m] = (sb+sw)*4096 + int32(cen)
		if look {
			pb.score[m] += pb.primary[m] << 20
		}
		if !s.cfg.NoKillers {
			// history: up to 4 distance steps for moves that won often
			pb.score[m] -= min(s.hist[x][m]*64, 4*4096)
			switch m {
			case pb.killers[0]:
				pb.score[m] -= 2 << 28
			case pb.killers[1]:
				pb.score[m] -= 1 << 28
			}
		}
	}
	// insertion sort by score
	for i := 1; i < len(moves); i++ {
		m := moves[i]
		j := i
		for j > 0 && pb.score[moves[j-1]] > pb.score[m] {
			moves[j] = moves[j-1]
			j--
		}
		moves[j] = m
	}
	return moves
}

// orderMoves returns the cells of cand in the order a node searches them: by circuit
// energy when Config.Energy is set (orderEnergy), else by the two-way distance score
// (order); with look, the lookahead key in pb.primary comes first in both.
func (s *Solver) orderMoves(b *hex.Board, x hex.Color, cand hex.Bitset, pb *plyBuf, look bool) []hex.Cell {
	if s.cfg.Energy {
		return s.orderEnergy(b, x, cand, pb, look)
	}
	return s.order(b, x, cand, pb, look)
}

// orderEnergy returns the cells of cand sorted by the lookahead key (when look is
// set), then by circuit energy, largest first: the share of each colour's circuit
// power (Anshelevich's two-colour resistance circuits, engine/circuit, without virtual
// connections) dissipated at the cell, summed over both colours. Cells with equal keys
// keep the two-way distance order. It falls back to order when a circuit cannot be
// solved.
func (s *Solver) orderEnergy(b *hex.Board, x hex.Color, cand hex.Bitset, pb *plyBuf, look bool) []hex.Cell {
	moves := s.order(b, x, cand, pb, look)
	if len(moves) <= 1 {
		return moves
	}
	if s.circ == nil {
		c, err := circuit.New(circuit.Config{Mode: circuit.NoVCs, Solver: circuit.Skyline})
		if err != nil {
			return moves
		}
		s.circ = c
	}
	for i := range pb.energy {
		pb.energy[i] = 0
	}
	for _, col := range [2]hex.Color{hex.Black, hex.White} {
		if _, err := s.circ.Solve(b, col, nil); err != nil {
			return moves
		}
		for _, m := range moves {
			pb.energy[m] += s.circ.CellEnergy(m)
		}
	}
	// before reports whether cell a goes before cell c
	before := func(a, c hex.Cell) bool {
		if look && pb.primary[a] != pb.primary[c] {
			return pb.primary[a] < pb.primary[c]
		}
		return pb.energy[a] > pb.energy[c]
	}
	// stable insertion sort
	for i := 1; i < len(moves); i++ {
		m := moves[i]
		j := i
		for j > 0 && before(m, moves[j-1]) {
			moves[j] = moves[j-1]
			j--
		}
		moves[j] = m
	}
	return moves
}
