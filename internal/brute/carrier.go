package brute

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrTooLarge is returned by NewCarrier for a game with more than MaxCarrier carrier
// cells or more than 64 nodes.
var ErrTooLarge = errors.New("brute: carrier game too large")

// MaxCarrier is the largest carrier a Carrier game takes (the carrier cells and the
// colour's groups share one 64-bit node mask; Wins on more than about 30 cells is slow,
// Prove reaches edge templates of 40 and more).
const MaxCarrier = 62

// Carrier is the connection game restricted to a carrier, the oracle for virtual
// connections (engine/vc) and connection patterns (engine/patterns): one colour tries
// to join x and y using its stones (edges included) and the carrier's empty cells,
// the two players taking carrier cells in turn; every empty cell outside the carrier is
// unavailable. The game is held as bitmasks over nodes: nodes 0..N()-1 are the carrier
// cells (bit i is the i-th cell of the carrier in cell order), the others the groups of
// the colour's stones. Results are memoised, so a Carrier is for one game (one x, y
// and carrier) and not safe for concurrent use.
type Carrier struct {
	n              int
	adj            [64]uint64 // adjacency masks over nodes
	fixed          uint64     // the group nodes
	source, target uint64     // the group nodes of x and of y
	all            uint64     // the carrier nodes
	memo           [2]map[[2]uint64]bool
	proofs         [2]map[[2]uint64]proved
}

// proved is a memoised result of Prove: the winner and its proof set.
type proved struct {
	win   bool
	proof uint64
}

// NewCarrier sets up the game in which the colour owning the points own (its stones
// and its two edges; x and y are added) joins x and y on the cells of carrier
// (empty cells, disjoint from own), on geometry g. It returns ErrTooLarge (wrapped)
// beyond MaxCarrier carrier cells or 64 nodes.
func NewCarrier(g *hex.Geometry, own hex.Bitset, x, y hex.Cell, carrier hex.Bitset) (*Carrier, error) {
	own.Set(x)
	own.Set(y)
	cells := carrier.AppendCells(nil)
	if len(cells) > MaxCarrier {
		return nil, fmt.Errorf("%w: %d carrier cells, limit %d", ErrTooLarge, len(cells), MaxCarrier)
	}
	// the groups of own points
	var comps []hex.Bitset
	var seen hex.Bitset
	for p := own.First(); p != hex.NoCell; p = own.Next(p + 1) {
		if seen.Has(p) {
			continue
		}
		var comp, frontier hex.Bitset
		comp.Set(p)
		frontier.Set(p)
		for !frontier.IsEmpty() {
			var next hex.Bitset
			for q := frontier.First(); q != hex.NoCell; q = frontier.Next(q + 1) {
				next = next.Or(*g.NeighbourSet(q))
			}
			next = next.And(own).AndNot(comp)
			comp = comp.Or(next)
			frontier = next
		}
		seen = seen.Or(comp)
		comps = append(comps, comp)
	}
	total := len(cells) + len(comps)
	if total > 64 {
		return nil, fmt.Errorf("%w: %d nodes, limit 64", ErrTooLarge, total)
	}
	c := &Carrier{n: len(cells), all: uint64(1)<<len(cells) - 1}
	c.memo[0], c.memo[1] = map[[2]uint64]bool{}, map[[2]uint64]bool{}
	c.proofs[0], c.proofs[1] = map[[2]uint64]proved{}, map[[2]uint64]proved{}
	for i, a := range cells {
		na := g.NeighbourSet(a)
		for j, b := range cells {
			if i != j && na.Has(b) {
				c.adj[i] |= 1 << j
			}
		}
		for k := range comps {
			if na.Intersects(&comps[k]) {
				c.adj[i] |= 1 << (len(cells) + k)
				c.adj[len(cells)+k] |= 1 << i
			}
		}
	}
	for k, comp := range comps {
		node := uint64(1) << (len(cells) + k)
		c.fixed |= node
		if comp.Has(x) {
			c.source = node
		}
		if comp.Has(y) {
			c.target = node
		}
	}
	return c, nil
}

// N returns the number of carrier cells (nodes 0..N()-1).
func (c *Carrier) N() int { return c.n }

// Connected reports whether x and y are joined through the colour's groups and the
// carrier cells in the mask own.
func (c *Carrier) Connected(own uint64) bool {
	allowed := c.fixed | own
	seen := c.source
	front := seen
	for front != 0 {
		if seen&c.target != 0 {
			return true
		}
		var next uint64
		for m := front; m != 0; m &= m - 1 {
			next |= c.adj[bits.TrailingZeros64(m)&63]
		}
		front = next & allowed &^ seen
		seen |= front
	}
	return seen&c.target != 0
}

// decided reports whether the game is over with the colour holding the carrier cells
// in own and the opponent those in opp (x and y joined, or no path left through the
// free cells), and if so whether the colour won.
func (c *Carrier) decided(own, opp uint64) (over, win bool) {
	if c.Connected(own) {
		return true, true
	}
	free := c.all &^ (own | opp)
	if free == 0 || !c.Connected(own|free) {
		return true, false
	}
	return false, false
}

// Wins reports whether the colour joins x and y with perfect play, holding the
// carrier cells in own while the opponent holds those in opp, the colour to move
// when ownMove is set. Wins(0, 0, false) decides a second-player connection (a VC).
func (c *Carrier) Wins(own, opp uint64, ownMove bool) bool {
	if over, win := c.decided(own, opp); over {
		return win
	}
	free := c.all &^ (own | opp)
	memo := c.memo[0]
	if ownMove {
		memo = c.memo[1]
	}
	key := [2]uint64{own, opp}
	if v, ok := memo[key]; ok {
		return v
	}
	res := !ownMove
	for f := free; f != 0; f &= f - 1 {
		bit := f & -f
		if ownMove {
			if c.Wins(own|bit, opp, false) {
				res = true
				break
			}
		} else if !c.Wins(own, opp|bit, true) {
			res = false
			break
		}
	}
	memo[key] = res
	return res
}

// Prove answers as Wins does (and Wins is its oracle in the tests), searching far
// fewer positions: every result carries a proof set, the carrier cells it depends on.
// A win of the colour stands when every other free cell goes to the opponent, a loss
// when every other free cell goes to the colour. Since an extra stone never hurts its
// owner in a connection game, a move outside the proof set of a refuted sibling is
// refuted too (the proof-set pruning of Henderson, Arneson & Hayward's Hex solver), so
// each side tries only the moves inside every refutation's proof set found so far.
func (c *Carrier) Prove(own, opp uint64, ownMove bool) bool {
	win, _ := c.prove(own, opp, ownMove)
	return win
}

// prove returns the winner (true: the colour) and the proof set.
func (c *Carrier) prove(own, opp uint64, ownMove bool) (bool, uint64) {
	if over, win := c.decided(own, opp); over {
		return win, 0
	}
	free := c.all &^ (own | opp)
	side := 0
	if ownMove {
		side = 1
	}
	key := [2]uint64{own, opp}
	if v, ok := c.proofs[side][key]; ok {
		return v.win, v.proof
	}
	// The side to move wins by one move into a position it wins; otherwise every
	// move it must try is refuted, and the union of those proofs is the proof. Moves
	// on the shortest paths between the endpoints come first, for both sides.
	var order [64]int8
	moves := c.order(own, free, order[:0])
	cand, union := free, uint64(0)
	res := proved{win: !ownMove}
	for _, i := range moves {
		bit := uint64(1) << i
		if cand&bit == 0 {
			continue
		}
		var win bool
		var p uint64
		if ownMove {
			win, p = c.prove(own|bit, opp, false)
		} else {
			win, p = c.prove(own, opp|bit, true)
		}
		if win == ownMove { // the mover wins with this move
			res = proved{win: win, proof: p | bit}
			break
		}
		union |= p | bit
		cand &= p // moves outside p are refuted as this one is
	}
	if res.win != ownMove {
		res.proof = union
	}
	c.proofs[side][key] = res
	return res.win, res.proof
}

// order appends the free carrier cells to dst, those on the shortest paths between
// the endpoints (through the colour's cells and the free ones) first: by the sum of
// their distances from both endpoints, then by node index.
func (c *Carrier) order(own, free uint64, dst []int8) []int8 {
	allowed := c.fixed | own | free
	var ds, dt [64]int8
	c.distances(c.source, allowed, own, &ds)
	c.distances(c.target, allowed, own, &dt)
	for f := free; f != 0; f &= f - 1 {
		dst = append(dst, int8(bits.TrailingZeros64(f)))
	}
	key := func(i int8) int { return int(ds[i]) + int(dt[i]) }
	for i := 1; i < len(dst); i++ { // insertion sort: at most 62 cells
		for j := i; j > 0 && key(dst[j]) < key(dst[j-1]); j-- {
			dst[j], dst[j-1] = dst[j-1], dst[j]
		}
	}
	return dst
}

// distances sets d[i] to the number of free cells on the shortest path from the
// nodes in from to node i through allowed nodes (the colour's cells cost nothing),
// 64 where there is none.
func (c *Carrier) distances(from, allowed, own uint64, d *[64]int8) {
	for i := range d {
		d[i] = 64
	}
	zero := c.fixed | own // nodes that cost nothing to pass
	reached := c.spread(from, allowed&zero)
	for step := int8(0); reached != 0; step++ {
		for m := reached; m != 0; m &= m - 1 {
			if i := bits.TrailingZeros64(m); d[i] == 64 {
				d[i] = step
			}
		}
		var next uint64
		for m := reached; m != 0; m &= m - 1 {
			next |= c.adj[bits.TrailingZeros64(m)&63]
		}
		next &= allowed &^ reached
		reached |= c.spread(next, allowed&zero)
		if next == 0 {
			break
		}
	}
}

// spread returns set joined with every node of through connected to it.
func (c *Carrier) spread(set, through uint64) uint64 {
	front := set
	for front != 0 {
		var next uint64
		for m := front; m != 0; m &= m - 1 {
			next |= c.adj[bits.TrailingZeros64(m)&63]
		}
		front = next & through &^ set
		set |= front
	}
	return set
}
