package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"

	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/fileutil"
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

// solveTable is the --table file of `hexlearn solve`: the shared DFPN table of every
// solver of the run, read from the file when it exists and written back (through a
// temporary file) when the run ends, decided or not.
type solveTable struct {
	path string
	tab  *solver.Table
}

// openSolveTable reads path into a table of 2^bits entries for solvers configured
// as cfg, or makes an empty one when path does not exist; it reports what it read
// on stderr.
func openSolveTable(path string, bits int, cfg solver.Config, w, h int, stderr io.Writer) (*solveTable, error) {
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("--table %s: no directory %s to write it in", path, filepath.Dir(path))
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		tab, err := solver.NewTable(bits)
		if err != nil {
			return nil, fmt.Errorf("--table %s: %w", path, err)
		}
		return &solveTable{path: path, tab: tab}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--table: %w", err)
	}
	defer f.Close()
	tab, err := solver.ReadTable(f, bits, cfg)
	if err != nil {
		return nil, fmt.Errorf("--table %s: %w", path, err)
	}
	if tw, th := tab.Board(); tw != w || th != h {
		return nil, fmt.Errorf("--table %s: the table is of a %dx%d board, not %dx%d (use another file)", path, tw, th, w, h)
	}
	fmt.Fprintf(stderr, "table %s: %d solved and %d open positions read\n", path, tab.Solved(), tab.Open())
	return &solveTable{path: path, tab: tab}, nil
}

// with returns mk with the table in every configuration.
func (t *solveTable) with(mk func() solver.Config) func() solver.Config {
	return func() solver.Config {
		cfg := mk()
		cfg.Table = t.tab
		return cfg
	}
}

// save writes the table to its file and reports it on stderr; a table no solve
// used (the position was decided before any search) is not written.
func (t *solveTable) save(stderr io.Writer) error {
	if t.tab.Solved()+t.tab.Open() == 0 {
		return nil
	}
	var n int64
	err := fileutil.WriteAtomic(t.path, func(w io.Writer) error {
		var err error
		n, err = t.tab.WriteTo(w)
		return err
	})
	if err != nil {
		return fmt.Errorf("--table %s: %w", t.path, err)
	}
	fmt.Fprintf(stderr, "table %s: %d solved and %d open positions written (%.1f MB)\n", t.path, t.tab.Solved(), t.tab.Open(), float64(n)/1e6)
	return nil
}

// tableBits returns log2 of the entries of the --table of workers solvers with
// perWorker bits each (the size SolveParallel's shared table would have).
func tableBits(perWorker, workers int) int {
	return min(perWorker+bits.Len(uint(workers-1)), 26)
}

// done saves the table (when there is one) after a run that ended with err, and
// returns err, or the saving's error when the run succeeded. An interrupted run
// saves too: what it searched is kept.
func (t *solveTable) done(err error, stderr io.Writer) error {
	if t == nil {
		return err
	}
	if serr := t.save(stderr); serr != nil && err == nil {
		return serr
	} else if serr != nil {
		fmt.Fprintln(stderr, serr)
	}
	return err
}
