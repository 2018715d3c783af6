//go:build race

package solver

import "github.com/hexlearn/hexlearn/engine/hex"

// warm does nothing in race-detector builds: warm.go's unlocked reads of a shared
// table would be reported as races (they only warm the cache).
func (t *pnTable) warm(moves []hex.Cell, kids hex.Bitset, hf, hrf uint64, zx []uint64, zmove uint64, n1 hex.Cell) uint64 {
	return 0
}
