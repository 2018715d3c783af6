package solver

import (
	"math/bits"
	"unsafe"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Sizing the transposition table to the machine's memory (issue 16: "a transposition
// table sized to memory"). A long 8x8 search fills a small table and then pays for
// every entry it loses with a second H-search when it enters the node again (the
// opening b3 on two workers: 1.08 M nodes and 294 s with 2^21 entries per worker,
// 0.97 M nodes and 248 s with 2^23, docs/history.md, "Table size and connection
// lists on 8x8").

// TableBytes returns the memory of one transposition table of 2^bits entries for a
// board of cells cells searched by alg (DFPN keeps boards of up to 64 cells in its
// compact entry form). It counts the table only: each solver's Connector adds its own
// buffers (vc.Compact's two Builders: about 22 MiB on 8x8, 64 MiB on 11x11).
func TableBytes(alg Algorithm, cells, logEntries int) uint64 {
	var entry uintptr
	switch {
	case alg != DFPN:
		entry = unsafe.Sizeof(ttEntry{})
	case cells <= 64:
		entry = unsafe.Sizeof(pnSmall{})
	default:
		entry = unsafe.Sizeof(pnEntry{})
	}
	return uint64(entry) << uint(logEntries)
}

// minAutoTTBits is the smallest table TTBitsFor chooses.
const minAutoTTBits = 14

// autoTTCap returns the largest table TTBitsFor chooses for a board of cells cells:
// about what its longest searches fill (6x6 openings take about 10,000 nodes, 7x7
// up to 250,000, hard 8x8 openings millions; larger boards are not solved whole and
// their entries are 4.2 times as large).
func autoTTCap(cells int) int {
	switch {
	case cells <= 36:
		return 20
	case cells <= 49:
		return 22
	case cells <= 64:
		return 23
	}
	return 21
}

// TTBitsFor returns Config.TTBits for workers solvers of alg on a board of cells
// cells given budget bytes for all their tables (DFPN workers share one table of
// 2^TTBits entries per worker, rounded up to a power of two; DFS workers have a
// table each, which never takes more): the largest
// size whose tables fit the budget, at most what such a board's searches use (2^20 entries up to 6x6,
// 2^22 up to 7x7, 2^23 up to 8x8, 2^21 above) and at least 2^14. It is what
// `hexlearn solve` uses unless --tt-bits is given, with a quarter of the available
// memory as the budget.
func TTBitsFor(alg Algorithm, cells, workers int, budget uint64) int {
	cells = max(1, min(cells, hex.MaxSize*hex.MaxSize))
	shares := uint64(1) << bits.Len(uint(max(1, workers)-1))
	for b := autoTTCap(cells); b > minAutoTTBits; b-- {
		if TableBytes(alg, cells, b)*shares <= budget {
			return b
		}
	}
	return minAutoTTBits
}
