//go:build !race

package solver

import "github.com/hexlearn/hexlearn/engine/hex"

// warm reads the first word of both slots of the buckets of a node's children
// (the keys as reached and rotated, hf and hrf being the node's filled keys) before
// the node looks them up one by one. The table is far larger than the caches, so
// each lookup would otherwise wait for its own memory load; issued together with no
// dependence between them, the loads overlap. It returns the loaded words' sum, for
// the caller to keep so that the loads are not dropped. The words are read without
// the bucket's lock: a read that races with a store only warms the cache, and the
// lookups that follow take the lock. Race-detector builds do nothing (warm_race.go).
func (t *pnTable) warm(moves []hex.Cell, kids hex.Bitset, hf, hrf uint64, zx []uint64, zmove uint64, n1 hex.Cell) uint64 {
	if t.small == nil {
		return 0
	}
	var acc uint64
	for _, m := range moves {
		if !kids.Has(m) {
			continue
		}
		i := (hf ^ zx[m] ^ zmove) & t.mask
		j := (hrf ^ zx[n1-m] ^ zmove) & t.mask
		acc += t.small[i].key + t.small[i^1].key + t.small[j].key + t.small[j^1].key
	}
	return acc
}
