package patterns

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrTooLarge is returned by Verify when the carrier is too large for exhaustive search.
var ErrTooLarge = errors.New("patterns: carrier too large for exhaustive verification")

// MaxVerifyCarrier is the largest carrier Verify searches exhaustively.
const MaxVerifyCarrier = 24

// Verify decides by exhaustive game-tree search whether p is a winning connection for
// Black: with the pattern stones Black, every cell outside the pattern White, and White
// moving first on the carrier, Black can always join North and South. It is the
// brute-force oracle for patterns and their symmetric variants (a transposition table
// over the carrier states and bitmask flood fills keep it fast for carriers up to
// about 16 cells). It returns ErrTooLarge when the carrier has more than maxCarrier
// cells (at most MaxVerifyCarrier) or the pattern more than 64 cells.
func Verify(g *hex.Geometry, p Pattern, maxCarrier int) (bool, error) {
	if err := p.Validate(g); err != nil {
		if errors.Is(err, ErrNotConnected) {
			return false, nil
		}
		return false, err
	}
	maxCarrier = min(maxCarrier, MaxVerifyCarrier)
	nc := p.Carrier.Count()
	if nc > maxCarrier {
		return false, fmt.Errorf("%w: %d carrier cells, limit %d", ErrTooLarge, nc, maxCarrier)
	}
	// Index the pattern's cells: carrier cells first (bits 0..nc-1), then stones.
	cells := p.Carrier.AppendCells(nil)
	cells = p.Stones.AppendCells(cells)
	if len(cells) > 64 {
		return false, fmt.Errorf("%w: %d pattern cells, limit 64", ErrTooLarge, len(cells))
	}
	v := verifier{nc: nc, memo: map[uint64]bool{}}
	for i, c := range cells {
		if i >= nc {
			v.stones |= 1 << i
		}
		ns := g.NeighbourSet(c)
		if ns.Has(hex.North) {
			v.north |= 1 << i
		}
		if ns.Has(hex.South) {
			v.south |= 1 << i
		}
		for j, d := range cells {
			if ns.Has(d) {
				v.adj[i] |= 1 << j
			}
		}
	}
	return v.blackWins(0, 0), nil
}

// verifier holds the pattern as bitmasks over its indexed cells.
type verifier struct {
	nc           int // carrier cells are bits 0..nc-1
	stones       uint64
	north, south uint64
	adj          [64]uint64
	memo         map[uint64]bool
}

// connects reports whether the cells in region join North and South.
func (v *verifier) connects(region uint64) bool {
	seen := v.north & region
	front := seen
	for front != 0 {
		if seen&v.south != 0 {
			return true
		}
		var next uint64
		for m := front; m != 0; m &= m - 1 {
			next |= v.adj[bits.TrailingZeros64(m)]
		}
		front = next & region &^ seen
		seen |= front
	}
	return seen&v.south != 0
}

// blackWins reports whether Black wins with Black on bm and White on wm (carrier
// bits), the side to move following from the counts (White moves first).
func (v *verifier) blackWins(bm, wm uint64) bool {
	if v.connects(v.stones | bm) {
		return true
	}
	all := uint64(1)<<v.nc - 1
	free := all &^ (bm | wm)
	if !v.connects(v.stones | bm | free) {
		return false
	}
	key := bm | wm<<32
	if r, ok := v.memo[key]; ok {
		return r
	}
	// White moving: Black wins if he wins after every White move. Black moving: Black
	// wins if some move wins.
	whiteToMove := bits.OnesCount64(wm) == bits.OnesCount64(bm)
	res := whiteToMove
	for m := free; m != 0; m &= m - 1 {
		bit := m & -m
		if whiteToMove && !v.blackWins(bm, wm|bit) {
			res = false
			break
		}
		if !whiteToMove && v.blackWins(bm|bit, wm) {
			res = true
			break
		}
	}
	v.memo[key] = res
	return res
}
