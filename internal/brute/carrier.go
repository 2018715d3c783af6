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

// MaxCarrier is the largest carrier a Carrier game takes (two masks of the carrier
// cells make one 64-bit transposition key).
const MaxCarrier = 32

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
	memo           [2]map[uint64]bool
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
	c.memo[0], c.memo[1] = map[uint64]bool{}, map[uint64]bool{}
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

// Wins reports whether the colour joins x and y with perfect play, holding the
// carrier cells in own while the opponent holds those in opp, the colour to move
// when ownMove is set. Wins(0, 0, false) decides a second-player connection (a VC).
func (c *Carrier) Wins(own, opp uint64, ownMove bool) bool {
	if c.Connected(own) {
		return true
	}
	free := c.all &^ (own | opp)
	if free == 0 || !c.Connected(own|free) {
		return false
	}
	memo := c.memo[0]
	if ownMove {
		memo = c.memo[1]
	}
	key := own | opp<<32
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
