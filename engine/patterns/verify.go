package patterns

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// ErrTooLarge is returned by Verify when the carrier is too large for exhaustive search.
var ErrTooLarge = errors.New("patterns: carrier too large for exhaustive verification")

// MaxVerifyCarrier is the largest carrier Verify searches exhaustively.
const MaxVerifyCarrier = 24

// Verify decides by exhaustive game-tree search whether p is a winning connection for
// Black: with the pattern stones Black, every cell outside the pattern White, and White
// moving first on the carrier, Black can always join North and South. It is the
// brute-force oracle for patterns and their symmetric variants: internal/brute's
// Carrier game (a transposition table over the carrier states and bitmask flood fills
// keep it fast for carriers up to about 16 cells). It returns ErrTooLarge when the
// carrier has more than maxCarrier cells (at most MaxVerifyCarrier) or the pattern
// more than 64 cells.
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
	if n := nc + p.Stones.Count(); n > 64 {
		return false, fmt.Errorf("%w: %d pattern cells, limit 64", ErrTooLarge, n)
	}
	own := p.Stones
	own.Set(hex.North)
	own.Set(hex.South)
	game, err := brute.NewCarrier(g, own, hex.North, hex.South, p.Carrier)
	if err != nil {
		return false, fmt.Errorf("%w: %v", ErrTooLarge, err)
	}
	return game.Wins(0, 0, false), nil
}
