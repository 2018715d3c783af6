package pipeline

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/version"
)

// DefaultLabelNodes is LabelConfig.MaxNodes when none is given.
const DefaultLabelNodes = 10_000

// LabelConfig configures Label: the solver's true winners for the rows of a dataset.
type LabelConfig struct {
	In  string // dataset file or directory of files, of one board size
	Out string // dataset file to write (through a temporary file)
	// Limit keeps only the first Limit rows of In (0: all).
	Limit int
	// MaxNodes is the solver's node limit per position (0: DefaultLabelNodes): a
	// position not decided within it stays unknown. Node limits decide the labels, so
	// the output is the same whatever Workers is.
	MaxNodes int64
	// Timeout is a time limit per position as well (0: none). With one the labels
	// depend on the machine's speed and load.
	Timeout time.Duration
	Workers int // solvers in parallel (0: one per core)
	TTBits  int // log2 of each solver's table entries (0: 16)
	// Meter, if set, receives the positions solved (one part: the distinct
	// positions to label) and, as its count, the rows labelled so far.
	Meter Meter
}

// PlyLabels counts the rows of one ply in Label's output.
type PlyLabels struct {
	Ply      int
	Rows     int
	Known    int // true_winner already known in the input
	Labelled int // labelled by Label
}

// LabelResult is what Label did.
type LabelResult struct {
	Rows     int   // rows written
	Known    int   // rows whose true winner the input already had
	Solved   int   // distinct positions given to the solver
	Decided  int   // of those, positions it decided within the limits
	Labelled int   // rows labelled (duplicates of a decided position included)
	Nodes    int64 // solver nodes in all
	// Elapsed is the time spent solving (reading and writing excluded).
	Elapsed time.Duration
	Plies   []PlyLabels // by ply, increasing
}

// PositionsPerSecond returns the distinct positions solved per second of Elapsed.
func (r LabelResult) PositionsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Solved) / r.Elapsed.Seconds()
}

// labelUnit is a run of consecutive rows of one game: the positions a solver labels
// in a row, with a table emptied before the first (so that the labels do not depend
// on which worker took the run, nor on the runs before it).
type labelUnit []int

// Label reads the dataset c.In, solves every distinct position whose true winner is
// unknown with engine/solver (c.MaxNodes nodes per position; the rows of one game
// share a transposition table, emptied between games), and writes the rows, with
// true_winner filled where the solver decided it, to c.Out. A position that occurs
// more than once is solved at its first row and its label copied to the others;
// known true winners are kept. The same input and limits give a byte-identical file
// whatever c.Workers is (unless c.Timeout is set). A cancelled ctx stops every
// solver within milliseconds and writes nothing.
func Label(ctx context.Context, c LabelConfig) (LabelResult, error) {
	var res LabelResult
	switch {
	case c.Limit < 0, c.MaxNodes < 0, c.Timeout < 0, c.Workers < 0:
		return res, fmt.Errorf("%w: negative limit, timeout or workers", ErrConfig)
	case c.TTBits != 0 && (c.TTBits < 10 || c.TTBits > 26):
		return res, fmt.Errorf("%w: table bits %d (want 10..26)", ErrConfig, c.TTBits)
	case c.In == "" || c.Out == "":
		return res, fmt.Errorf("%w: label needs an input and an output", ErrConfig)
	}
	if c.MaxNodes == 0 {
		c.MaxNodes = DefaultLabelNodes
	}
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	if c.TTBits == 0 {
		c.TTBits = 16
	}
	t, err := dataset.ReadPath(c.In, nil)
	if err != nil {
		return res, err
	}
	if t.Meta.Width == 0 {
		return res, fmt.Errorf("%w: %s holds more than one board size", dataset.ErrSize, c.In)
	}
	rows := t.Rows
	if c.Limit > 0 && c.Limit < len(rows) {
		rows = rows[:c.Limit]
	}
	units, first := labelUnits(rows)
	total := 0
	for _, u := range units {
		total += len(u)
	}
	res.Rows, res.Solved = len(rows), total
	winners := make([]hex.Color, len(rows))
	meter := meterOr(c.Meter)
	meter.Start("", int64(total), "position")
	solveStart := time.Now()
	nodes, err := solveUnits(ctx, c, rows, units, winners, meter)
	res.Elapsed = time.Since(solveStart)
	meter.Done(err)
	if err != nil {
		return res, err
	}
	res.Nodes = nodes
	plies := map[int]*PlyLabels{}
	for i := range rows {
		e := &rows[i]
		p := plies[e.Ply]
		if p == nil {
			p = &PlyLabels{Ply: e.Ply}
			plies[e.Ply] = p
		}
		p.Rows++
		switch {
		case e.TrueWinner != hex.Empty:
			p.Known++
			res.Known++
		case first[i] >= 0 && winners[first[i]] != hex.Empty:
			if first[i] == i {
				res.Decided++
			}
			e.TrueWinner = winners[first[i]]
			p.Labelled++
			res.Labelled++
		}
	}
	for _, ply := range sortedKeys(plies) {
		res.Plies = append(res.Plies, *plies[ply])
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	meta := t.Meta
	meta.Generator, meta.CodeVersion = "label", version.String()
	meta.Config = maps.Clone(t.Meta.Config)
	if meta.Config == nil {
		meta.Config = map[string]string{}
	}
	meta.Config["label.source_generator"] = t.Meta.Generator
	meta.Config["label.max_nodes"] = strconv.FormatInt(c.MaxNodes, 10)
	meta.Config["label.timeout"] = c.Timeout.String()
	meta.Config["label.limit"] = strconv.Itoa(c.Limit)
	if err := dataset.WriteFile(c.Out, meta, rows, nil); err != nil {
		return res, err
	}
	return res, nil
}

// labelUnits splits the rows to label into runs of consecutive rows of one game,
// keeping only the first row of each distinct position (board and side to move);
// first[i] is the index of the first row of row i's position when row i's true
// winner is unknown, else -1.
func labelUnits(rows []dataset.Example) (units []labelUnit, first []int) {
	first = make([]int, len(rows))
	seen := map[string]int{}
	key := make([]byte, 0, 400)
	var cur labelUnit
	game := uint64(0)
	for i := range rows {
		e := &rows[i]
		first[i] = -1
		if e.TrueWinner != hex.Empty {
			continue
		}
		key = append(key[:0], byte(e.ToMove))
		for _, v := range e.Cells {
			key = append(key, byte(v))
		}
		if j, ok := seen[string(key)]; ok {
			first[i] = j
			continue
		}
		seen[string(key)] = i
		first[i] = i
		if len(cur) > 0 && e.GameID != game {
			units = append(units, cur)
			cur = nil
		}
		game = e.GameID
		cur = append(cur, i)
	}
	if len(cur) > 0 {
		units = append(units, cur)
	}
	return units, first
}

// solveUnits solves the units with c.Workers labelers, writing each position's
// winner (Empty: undecided) at its row index, and returns the nodes searched.
func solveUnits(ctx context.Context, c LabelConfig, rows []dataset.Example, units []labelUnit, winners []hex.Color, meter Meter) (int64, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		next     int
		done     int64
		labelled int64
		nodes    int64
		firstErr error
		wg       sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for w := 0; w < min(c.Workers, len(units)); w++ {
		cfg := solver.DefaultConfig()
		cfg.MaxNodes, cfg.Timeout, cfg.TTBits = c.MaxNodes, c.Timeout, c.TTBits
		lab := solver.NewLabelerConfig(cfg)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				if next == len(units) || firstErr != nil {
					mu.Unlock()
					return
				}
				u := units[next]
				next++
				mu.Unlock()
				lab.Reset()
				for _, i := range u {
					b, err := rows[i].Board()
					if err != nil {
						fail(fmt.Errorf("label: row %d: %w", i, err))
						return
					}
					r, err := lab.Solve(ctx, b)
					switch {
					case ctx.Err() != nil:
						fail(ctx.Err())
						return
					case errors.Is(err, solver.ErrLimit):
						// undecided within the limits: stays unknown
					case err != nil:
						fail(fmt.Errorf("label: row %d: %w", i, err))
						return
					default:
						winners[i] = r.Winner
					}
					mu.Lock()
					done++
					nodes += r.Stats.Nodes
					if winners[i] != hex.Empty {
						labelled++
					}
					meter.Set(done)
					meter.Count(labelled, "label")
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return nodes, firstErr
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
