package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// SolverFinderTime is the time per question of the solver finder ("solver").
const SolverFinderTime = 10 * time.Second

// NewFinder returns the winning-connection finder of a name: vc (H-search), proof
// (H-search with the proof search's larger limits: 20 VCs, 30 SCs per pair), xh
// (XH-search), bridges (bridge chains only) or solver (the DFPN solver's proof sets,
// SolverFinderTime per question, "solver:DURATION" another time; it also stores the
// position after each winning move it finds).
func NewFinder(name string) (patterns.Finder, error) {
	if rest, ok := strings.CutPrefix(name, "solver"); ok {
		d := SolverFinderTime
		if rest != "" {
			t, err := time.ParseDuration(strings.TrimPrefix(rest, ":"))
			if err != nil || !strings.HasPrefix(rest, ":") || t <= 0 {
				return nil, fmt.Errorf("%w: finder %q: want solver or solver:DURATION (e.g. solver:5s)", ErrConfig, name)
			}
			d = t
		}
		return solver.NewFinder(d), nil
	}
	switch name {
	case "vc", "xh", "proof":
		cfg := vc.DefaultConfig()
		switch name {
		case "xh":
			cfg = vc.XHConfig()
		case "proof":
			cfg = circuit.ProofExactConfig().VC
		}
		cfg.StopAtWin = true           // only the winning VC is wanted
		return vc.NewBuilder(cfg), nil // a Builder is a patterns.Finder
	case "bridges":
		return patterns.BridgeFinder{}, nil
	}
	return nil, fmt.Errorf("%w: unknown finder %q (want vc, proof, xh, bridges or solver)", ErrConfig, name)
}

// IsDataset reports whether path names an Arrow dataset (a directory or an Arrow file)
// rather than a games text file.
func IsDataset(path string) (bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	if st.IsDir() || strings.HasSuffix(path, dataset.FileExt) {
		return true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 6)
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], []byte("ARROW1")), nil
}

// PatternsConfig configures BuildPatterns.
type PatternsConfig struct {
	// From is a self-play dataset (directory or Arrow file) or a games file (one move
	// list per line).
	From string
	// Size is the board side; 0 means the most common size of the dataset (a games
	// file needs it).
	Size   int
	Finder string // a NewFinder name: vc, proof, xh or bridges
	Verify int    // prove patterns with at most this many carrier cells (0: off)
	// MinStones skips positions with fewer stones (the solver finder's early
	// positions, which it cannot decide in its time).
	MinStones int
	// Out is the database file written (atomically); "" writes none.
	Out string
	// Raw keeps the database as built: no Compact and no source line.
	Raw bool
	// Meter, if set, receives the positions examined and, as its count, the
	// database's entries so far.
	Meter Meter
}

// PatternsResult is what BuildPatterns did.
type PatternsResult struct {
	DB            *patterns.DB
	Width, Height int
	Stats         patterns.BuildStats
	Dropped       int // entries Compact dropped as containing another
	Elapsed       time.Duration
}

// BuildPatterns examines every position of a dataset or games file, finds each
// colour's winning connection and stores its pattern with its symmetric variants in a
// goal-pattern database (an LB-tree), which it compacts and saves. The same input and
// config give the same database bytes.
func BuildPatterns(ctx context.Context, c PatternsConfig) (PatternsResult, error) {
	f, err := NewFinder(c.Finder)
	if err != nil {
		return PatternsResult{}, err
	}
	ds, err := IsDataset(c.From)
	if err != nil {
		return PatternsResult{}, fmt.Errorf("patterns: %w", err)
	}
	var src positionSource
	if ds {
		src, err = datasetPositions(c.From, c.Size)
	} else {
		src, err = gamePositions(c.From, c.Size)
	}
	if err != nil {
		return PatternsResult{}, err
	}
	db, err := patterns.New(src.w, src.h)
	if err != nil {
		return PatternsResult{}, err
	}
	if err := ctx.Err(); err != nil {
		return PatternsResult{}, err
	}
	bl := patterns.NewBuilder(db, f, c.Verify)
	start := time.Now()
	meter := meterOr(c.Meter)
	meter.Start("", int64(src.total), "position")
	done := int64(0)
	err = src.each(func(b *hex.Board) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		done++
		meter.Set(done)
		meter.Count(int64(db.Len()), "entry")
		if b.NumStones() < c.MinStones {
			return nil
		}
		return bl.AddPosition(b)
	})
	meter.Done(err)
	if err != nil {
		return PatternsResult{}, err
	}
	r := PatternsResult{DB: db, Width: src.w, Height: src.h, Stats: bl.Stats}
	if !c.Raw {
		r.Dropped = db.Compact()
		db.Source = fmt.Sprintf("from=%s finder=%s verify=%d positions=%d", c.From, c.Finder, c.Verify, bl.Stats.Positions)
	}
	if c.Out != "" {
		if err := db.Save(c.Out); err != nil {
			return PatternsResult{}, err
		}
	}
	r.Elapsed = time.Since(start)
	return r, nil
}

// positionSource yields the positions to examine as boards, one game or dataset row
// at a time.
type positionSource struct {
	w, h, total int
	each        func(yield func(*hex.Board) error) error
}

// datasetPositions reads the size x size rows of a dataset (size 0: its most common
// size).
func datasetPositions(path string, size int) (positionSource, error) {
	t, err := dataset.ReadPath(path, nil)
	if err != nil {
		return positionSource{}, err
	}
	var s positionSource
	counts := map[[2]int]int{}
	for i := range t.Rows {
		counts[[2]int{t.Rows[i].Width, t.Rows[i].Height}]++
	}
	if size > 0 {
		s.w, s.h = size, size
	} else {
		best := -1
		for k, n := range counts {
			if n > best || n == best && k[0] < s.w {
				s.w, s.h, best = k[0], k[1], n
			}
		}
	}
	w, h := s.w, s.h
	s.total = counts[[2]int{w, h}]
	if s.total == 0 {
		return s, fmt.Errorf("patterns: the dataset has no %dx%d positions", w, h)
	}
	s.each = func(yield func(*hex.Board) error) error {
		for i := range t.Rows {
			e := &t.Rows[i]
			if e.Width != w || e.Height != h {
				continue
			}
			b, err := e.Board()
			if err != nil {
				return fmt.Errorf("patterns: dataset row %d: %w", i, err)
			}
			if err := yield(b); err != nil {
				return err
			}
		}
		return nil
	}
	return s, nil
}

// gamePositions reads a games file of size x size games: every position after each
// move.
func gamePositions(path string, size int) (positionSource, error) {
	if size <= 0 {
		return positionSource{}, fmt.Errorf("%w: a games file needs a board size", ErrConfig)
	}
	g, err := hex.NewGeometry(size, size)
	if err != nil {
		return positionSource{}, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	fh, err := os.Open(path)
	if err != nil {
		return positionSource{}, fmt.Errorf("patterns: %w", err)
	}
	games, err := patterns.ReadGames(fh, g)
	fh.Close()
	if err != nil {
		return positionSource{}, err
	}
	s := positionSource{w: size, h: size}
	for _, ms := range games {
		s.total += len(ms)
	}
	s.each = func(yield func(*hex.Board) error) error {
		for gi, ms := range games {
			b := hex.NewBoardGeometry(g)
			for i, m := range ms {
				if err := b.Play(m); err != nil {
					return fmt.Errorf("patterns: game %d move %d (%s): %w", gi+1, i+1, g.CellName(m.Cell), err)
				}
				if err := yield(b); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return s, nil
}
