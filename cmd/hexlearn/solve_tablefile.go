package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// solveTable is the --table file of `hexlearn solve`: the shared DFPN table of every
// solver of the run, read from the file when it exists and written back (through a
// temporary file) when the run ends, decided or not.
type solveTable struct {
	path string
	bits int           // log2 of the table's entries
	cfg  solver.Config // the solvers' configuration (its pruning settings)
	w, h int           // the board
	tab  *solver.Table // set by open
	// period is --table-every (0: none); the writes start with the first solver
	// made (once) and report on stderr; stop ends them and waits for one in
	// progress
	period time.Duration
	stderr io.Writer
	once   sync.Once
	stop   func()
}

// tableFlags checks --table and --table-every; the table (nil without --table) is
// opened by run, after the command's other checks.
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
	return &solveTable{path: path, bits: bits, cfg: cfg, w: w, h: h, period: every, stderr: stderr}, nil
}

// run opens the table (without one it only calls solve), runs solve, and saves the
// table however solve ended.
func (t *solveTable) run(solve func() error) error {
	if t == nil {
		return solve()
	}
	if err := t.open(t.stderr); err != nil {
		return err
	}
	return t.done(solve(), t.stderr)
}

// open makes sure the file can be written, then reads it into a table of 2^bits
// entries, or makes an empty table when it does not exist. It refuses a file of
// another board, and one whose positions the table would not all keep (open ones
// searched with other pruning settings, or more than it has room for), so that
// saving never writes less over a file than it held.
func (t *solveTable) open(stderr io.Writer) error {
	dir := filepath.Dir(t.path)
	probe, err := os.CreateTemp(dir, "."+filepath.Base(t.path)+".probe-*")
	if err != nil {
		return fmt.Errorf("--table %s: cannot write in %s: %w", t.path, dir, err)
	}
	probe.Close()
	os.Remove(probe.Name())
	f, err := os.Open(t.path)
	if errors.Is(err, fs.ErrNotExist) {
		if t.tab, err = solver.NewTable(t.bits); err != nil {
			return fmt.Errorf("--table %s: %w", t.path, err)
		}
		return nil
	}
	if err != nil {
		return fmt.Errorf("--table: %w", err)
	}
	defer f.Close()
	if tw, th, err := solver.PeekTable(f); err != nil {
		return fmt.Errorf("--table %s: %w", t.path, err)
	} else if tw != t.w || th != t.h {
		return fmt.Errorf("--table %s: the table is of a %dx%d board, not %dx%d (use another file)", t.path, tw, th, t.w, t.h)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return fmt.Errorf("--table: %w", err)
	}
	tab, info, err := solver.ReadTable(f, t.bits, t.cfg)
	if err != nil {
		return fmt.Errorf("--table %s: %w", t.path, err)
	}
	solved, open := tab.Counts()
	switch {
	case info.OpenDropped && info.Open > 0:
		return fmt.Errorf("--table %s: its %d open positions were searched with other pruning settings (--local-dominated, ICE and inferior-cell flags, or another build): use those, or another file", t.path, info.Open)
	case solved+open < info.Solved+info.Open:
		return fmt.Errorf("--table %s: a table of 2^%d entries keeps only %d of its %d positions: give a larger --tt-bits", t.path, t.bits, solved+open, info.Solved+info.Open)
	}
	fmt.Fprintf(stderr, "table %s: %d solved and %d open positions read\n", t.path, solved, open)
	t.tab = tab
	return nil
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
