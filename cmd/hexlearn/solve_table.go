package main

import (
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/sysmem"
)

// autoTTBitsDefault is the table size (log2 entries per worker) when the machine's
// memory is unknown: solver.DefaultConfig's.
const autoTTBitsDefault = 20

// availableMemory reports the memory the table may be sized to (a variable for tests).
var availableMemory = sysmem.Available

// solveTTBits returns the transposition table size of `hexlearn solve`: --tt-bits
// when given (not 0), else solver.TTBitsFor with a quarter of the memory available
// (sysmem.Available; 2^20 entries where the system does not say) as the budget of
// the workers' tables.
func solveTTBits(flag int, alg solver.Algorithm, cells, workers int) int {
	if flag != 0 {
		return flag
	}
	avail, ok := availableMemory()
	if !ok {
		return autoTTBitsDefault
	}
	return solver.TTBitsFor(alg, cells, workers, avail/4)
}

// tableBits returns log2 of the entries of the --table of workers solvers with
// perWorker bits each (the size SolveParallel's shared table would have).
func tableBits(perWorker, workers int) int {
	return min(perWorker+bits.Len(uint(workers-1)), 26)
}
