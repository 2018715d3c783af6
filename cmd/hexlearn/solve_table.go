package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"sync"
	"time"

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
	// period is --table-every (0: none); the writes start with the first solver
	// made (once) and report on stderr; stop ends them and waits for one in
	// progress
	period time.Duration
	stderr io.Writer
	once   sync.Once
	stop   func()
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

// tableFlags checks --table and --table-every and opens the table (nil without
// --table), with its periodic writes started.
func tableFlags(path string, every time.Duration, alg solver.Algorithm, bits int, cfg solver.Config, w, h int, stderr io.Writer) (*solveTable, error) {
	switch {
	case path == "" && every != 0:
		return nil, usageErr("--table-every goes with --table")
	case path == "":
		return nil, nil
	case alg != solver.DFPN:
		return nil, usageErr("--table goes with --algorithm dfpn (DFS keeps no table of proof numbers)")
	case every < 0:
		return nil, usageErr("--table-every %v: want a positive duration, or 0 for no writes during the search", every)
	}
	st, err := openSolveTable(path, bits, cfg, w, h, stderr)
	if err != nil {
		return nil, err
	}
	st.period, st.stderr = every, stderr
	return st, nil
}

// with returns mk with the table in every configuration (mk itself without a
// table).
func (t *solveTable) with(mk func() solver.Config) func() solver.Config {
	if t == nil {
		return mk
	}
	return func() solver.Config {
		if t.period > 0 {
			// the first solver made: the search starts
			t.once.Do(func() { t.every(t.period, t.stderr) })
		}
		cfg := mk()
		cfg.Table = t.tab
		return cfg
	}
}

// save writes the table to its file and reports it on stderr (final: with the
// positions it holds); a table no solve used (the position was decided before any
// search) is not written.
func (t *solveTable) save(stderr io.Writer, final bool) error {
	solved, open := t.tab.Counts()
	if solved+open == 0 {
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
	if final {
		fmt.Fprintf(stderr, "table %s: %d solved and %d open positions written (%.1f MB)\n", t.path, solved, open, float64(n)/1e6)
	} else {
		fmt.Fprintf(stderr, "table %s: %.1f MB written during the search\n", t.path, float64(n)/1e6)
	}
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
	if t.stop != nil {
		t.stop()
	}
	if serr := t.save(stderr, true); serr != nil && err == nil {
		return serr
	} else if serr != nil {
		fmt.Fprintln(stderr, serr)
	}
	return err
}

// every writes the table to its file every d until done, while the solvers search
// on it (solver.Table.WriteTo reads it bucket by bucket under their locks), so a
// run killed outright loses at most d of work.
func (t *solveTable) every(d time.Duration, stderr io.Writer) {
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(d)
		defer tick.Stop()
		for {
			select {
			case <-quit:
				return
			case <-tick.C:
				if err := t.save(stderr, false); err != nil {
					fmt.Fprintln(stderr, err)
				}
			}
		}
	}()
	t.stop = func() {
		close(quit)
		<-finished
	}
}
