package search

import (
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Playouts plays random games to the end from a position, as MoHex's Monte Carlo
// search does (Arneson, Hayward & Henderson 2010, "Monte Carlo Tree Search in
// Hex"): the empty cells are filled in a uniformly random order, the players
// alternating, except that a player whose bridge the opponent has just intruded
// into answers in the bridge's other cell (a random one when several bridges are
// hit). A full Hex board has exactly one winner. Playouts is a reusable workspace
// that allocates nothing per playout; it is not safe for concurrent use.
type Playouts struct {
	g *hex.Geometry
	// bridge lists, per cell c, its neighbour cells q with the two common
	// neighbours of c and q (cells or edges; none: the slot none).
	bridge  [hex.MaxCells][6][3]int16
	nbridge [hex.MaxCells]uint8
	base    [hex.NumPoints + 1]hex.Color
	col     [hex.NumPoints + 1]hex.Color
	bempt   []int16
	empty   []int16
	bpos    [hex.MaxCells]int16
	pos     [hex.MaxCells]int16
	rng     uint64
	// The winner test on the full board works on sets of cells, nw 64-bit words:
	// Black's stones (bblack before the playout, black after it), the cells of the
	// first and last rows (North, South) and the cells not in the first or last
	// column (a shift of a set by one column must not wrap around a row).
	nw                int
	bblack, black     words
	north, south      words
	notFirst, notLast words
}

// words is a set of cells of a board of up to hex.MaxCells cells.
type words [(hex.MaxCells + 63) / 64]uint64

// none is the colour slot of a missing common neighbour: always empty.
const none = hex.NumPoints

// NewPlayouts returns a playout workspace whose random choices follow seed.
func NewPlayouts(seed uint64) *Playouts {
	p := &Playouts{}
	p.Reseed(seed)
	return p
}

// Reseed makes the next random choices follow seed, as NewPlayouts(seed)'s would.
func (p *Playouts) Reseed(seed uint64) { p.rng = seed*0x9E3779B97F4A7C15 + 0x2545F4914F6CDD1D }

// next returns a pseudo-random 64-bit number (SplitMix64).
func (p *Playouts) next() uint64 {
	s := hex.SplitMix64(p.rng)
	v := s.Next()
	p.rng = uint64(s)
	return v
}

// intn returns a pseudo-random number in [0, n), n > 0.
func (p *Playouts) intn(n int) int {
	hi, _ := bits.Mul64(p.next(), uint64(n))
	return int(hi)
}

// setGeometry prepares the neighbour tables of g.
func (p *Playouts) setGeometry(g *hex.Geometry) {
	if p.g == g {
		return
	}
	p.g = g
	for c := hex.Cell(0); int(c) < g.N; c++ {
		p.nbridge[c] = 0
		nc := g.Neighbours(c)
		for _, q := range nc {
			if !g.IsCell(q) {
				continue
			}
			br := [3]int16{int16(q), none, none}
			k := 1
			for _, x := range nc {
				if x == q || k == 3 {
					continue
				}
				for _, y := range g.Neighbours(q) {
					if y == x {
						br[k] = int16(x)
						k++
						break
					}
				}
			}
			p.bridge[c][p.nbridge[c]] = br
			p.nbridge[c]++
		}
	}
	p.nw = (g.N + 63) / 64
	p.north, p.south, p.notFirst, p.notLast = words{}, words{}, words{}, words{}
	for c := 0; c < g.N; c++ {
		x, y := g.XY(hex.Cell(c))
		bit := uint64(1) << (c & 63)
		if y == 0 {
			p.north[c>>6] |= bit
		}
		if y == g.H-1 {
			p.south[c>>6] |= bit
		}
		if x != 0 {
			p.notFirst[c>>6] |= bit
		}
		if x != g.W-1 {
			p.notLast[c>>6] |= bit
		}
	}
	p.base[hex.North], p.base[hex.South] = hex.Black, hex.Black
	p.base[hex.West], p.base[hex.East] = hex.White, hex.White
	p.base[none] = hex.Empty
}

// AMAF counts, over a batch of playouts, the cells each colour owned at the end
// and how often it then won: "all moves as first", where every stone of a finished
// playout counts as if its owner had played it first (Gelly & Silver 2007). In Hex
// a finished playout is a full board, so the counts rank the empty cells by how
// often owning them went with winning.
type AMAF struct {
	// Own[c][x] is the number of playouts in which colour c owned cell x (empty at
	// the start) at the end; Won[c][x] the number of those colour c won.
	Own, Won [3][hex.MaxCells]int32
	// N is the number of playouts counted; Wins[c] the number colour c won.
	N    int32
	Wins [3]int32
}

// Run plays n playouts from b (b is not changed) and returns the number the side
// to move wins. A board already won counts as n wins or 0.
func (p *Playouts) Run(b *hex.Board, n int) int {
	return p.RunAMAF(b, n, nil)
}

// RunAMAF is Run that also counts the playouts' AMAF statistics into a (nil: none),
// which it clears first. On a board already won nothing is counted.
func (p *Playouts) RunAMAF(b *hex.Board, n int, a *AMAF) int {
	if a != nil {
		a.clear(b.Geometry().N)
	}
	g := b.Geometry()
	me := b.ToMove()
	switch b.Winner() {
	case me:
		return n
	case me.Opp():
		return 0
	}
	p.setGeometry(g)
	p.bempt = p.bempt[:0]
	p.bblack = words{}
	for c := hex.Cell(0); int(c) < g.N; c++ {
		col := b.At(c)
		p.base[c] = col
		if col == hex.Black {
			p.bblack[c>>6] |= 1 << (c & 63)
		}
		if col == hex.Empty {
			p.bpos[c] = int16(len(p.bempt))
			p.bempt = append(p.bempt, int16(c))
		}
	}
	wins := 0
	for range n {
		w := p.one(me)
		if w == me {
			wins++
		}
		if a != nil {
			a.add(p, w)
		}
	}
	return wins
}

// clear zeroes the counts of the first n cells.
func (a *AMAF) clear(n int) {
	for c := range a.Own {
		clear(a.Own[c][:n])
		clear(a.Won[c][:n])
	}
	a.N, a.Wins = 0, [3]int32{}
}

// add counts the playout that has just ended on p's board, won by w.
func (a *AMAF) add(p *Playouts, w hex.Color) {
	a.N++
	a.Wins[w]++
	for _, x := range p.bempt {
		c := p.col[x]
		a.Own[c][x]++
		if c == w {
			a.Won[c][x]++
		}
	}
}

// one plays one playout from the position in base, turn to move, and returns its
// winner.
func (p *Playouts) one(turn hex.Color) hex.Color {
	n := p.g.N
	p.col = p.base
	p.black = p.bblack
	p.empty = append(p.empty[:0], p.bempt...)
	copy(p.pos[:n], p.bpos[:n])
	col := &p.col
	last := int16(-1)
	for len(p.empty) > 0 {
		mv := int16(-1)
		if last >= 0 {
			// Answer an intrusion into one of turn's bridges: an empty neighbour q
			// of the last move whose two common neighbours with it are turn's.
			var saves [6]int16
			k := 0
			for _, br := range p.bridge[last][:p.nbridge[last]] {
				if col[br[0]]|(col[br[1]]^turn)|(col[br[2]]^turn) == 0 { // Empty is 0
					saves[k] = br[0]
					k++
				}
			}
			if k == 1 {
				mv = saves[0]
			} else if k > 1 {
				mv = saves[p.intn(k)]
			}
		}
		if mv < 0 {
			mv = p.empty[p.intn(len(p.empty))]
		}
		i := p.pos[mv]
		end := p.empty[len(p.empty)-1]
		p.empty[i] = end
		p.pos[end] = i
		p.empty = p.empty[:len(p.empty)-1]
		col[mv] = turn
		if turn == hex.Black {
			p.black[mv>>6] |= 1 << (mv & 63)
		}
		last = mv
		turn = turn.Opp()
	}
	if p.blackConnects() {
		return hex.Black
	}
	return hex.White
}

// blackConnects reports whether Black's stones join North and South on the full
// playout board: the set reached from the first row grows by its neighbours among
// Black's stones, all at once by word shifts (a cell's six neighbours are one column
// or row away, or one row and one column the other way), until it stops growing or
// meets the last row.
func (p *Playouts) blackConnects() bool {
	nw, w := p.nw, p.g.W
	var r, n words
	start := uint64(0)
	for i := range nw {
		r[i] = p.north[i] & p.black[i]
		start |= r[i]
	}
	if start == 0 {
		return false
	}
	for {
		// n = r and its neighbours: x±1, y±1 (±W), (x+1, y-1) (-(W-1)), (x-1, y+1) (+(W-1)).
		grown, meets := uint64(0), uint64(0)
		for i := range nw {
			v := r[i]
			var up1, dn1, upW, dnW, upW1, dnW1 uint64 // shifted left (up) / right (down) by 1, W, W-1
			up1, upW, upW1 = v<<1, v<<uint(w), v<<uint(w-1)
			dn1, dnW, dnW1 = v>>1, v>>uint(w), v>>uint(w-1)
			if i > 0 {
				u := r[i-1]
				up1 |= u >> 63
				upW |= u >> uint(64-w)
				upW1 |= u >> uint(65-w)
			}
			if i+1 < nw {
				d := r[i+1]
				dn1 |= d << 63
				dnW |= d << uint(64-w)
				dnW1 |= d << uint(65-w)
			}
			x := v | upW | dnW | (up1|dnW1)&p.notFirst[i] | (dn1|upW1)&p.notLast[i]
			x &= p.black[i]
			n[i] = x
			grown |= x &^ v
			meets |= x & p.south[i]
		}
		if meets != 0 {
			return true
		}
		if grown == 0 {
			return false
		}
		r = n
	}
}
