package solver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// Solve solves b for the side to move with a fresh solver of configuration cfg.
func Solve(ctx context.Context, b *hex.Board, cfg Config) (Result, error) {
	return New(cfg).Solve(ctx, b)
}

// TrueWinner returns the colour that wins b with perfect play (side to move:
// b.ToMove()), searching at most maxNodes nodes (0: no limit). It is the labelling
// function for datasets (field true_winner): ErrLimit (wrapped) means "unknown".
func TrueWinner(ctx context.Context, b *hex.Board, maxNodes int64) (hex.Color, error) {
	cfg := DefaultConfig()
	cfg.MaxNodes, cfg.TTBits = maxNodes, 14 // 1.4 MB up to 8x8, 6 MB above: one table per call
	r, err := New(cfg).Solve(ctx, b)
	if err != nil {
		return hex.Empty, err
	}
	return r.Winner, nil
}

// Labeler labels many positions with their true winner, reusing one solver (and its
// transposition table) between calls; it is not safe for concurrent use.
type Labeler struct {
	s        *Solver
	MaxNodes int64 // node limit per position (0: none)
}

// NewLabeler returns a labeler with a per-position node limit (0: none).
func NewLabeler(maxNodes int64) *Labeler {
	cfg := DefaultConfig()
	cfg.TTBits = 16 // 5.8 MB up to 8x8, 24 MB above (self-play makes one labeler per game)
	return &Labeler{s: New(cfg), MaxNodes: maxNodes}
}

// NewLabelerConfig returns a labeler whose solver has configuration cfg (its own
// Connector); cfg.MaxNodes is the per-position node limit, cfg.Timeout the
// per-position time limit.
func NewLabelerConfig(cfg Config) *Labeler {
	return &Labeler{s: New(cfg), MaxNodes: cfg.MaxNodes}
}

// Reset makes the labeler forget the positions it solved before (Solver.Reset): the
// labels of the positions given after it do not depend on those before.
func (l *Labeler) Reset() { l.s.Reset() }

// Solve is Winner with the whole result (winner, proof, counters); ErrLimit
// (wrapped) when the limit is reached first.
func (l *Labeler) Solve(ctx context.Context, b *hex.Board) (Result, error) {
	l.s.cfg.MaxNodes = l.MaxNodes
	return l.s.Solve(ctx, b)
}

// Winner returns the true winner of b (side to move b.ToMove()), or ErrLimit
// (wrapped) when the node limit is reached first.
func (l *Labeler) Winner(ctx context.Context, b *hex.Board) (hex.Color, error) {
	l.s.cfg.MaxNodes = l.MaxNodes
	r, err := l.s.Solve(ctx, b)
	if err != nil {
		return hex.Empty, err
	}
	return r.Winner, nil
}

// MoveValue is the solved value of one move of the side to move.
type MoveValue struct {
	Move  hex.Cell
	Wins  bool // the move wins for the side to move
	Nodes int64
}

// WinningMoves solves every empty cell as a move for the side to move of b and returns
// the winning ones (in cell order), together with every move's value. The solver's
// transposition table is shared between the moves.
func (s *Solver) WinningMoves(ctx context.Context, b *hex.Board) (wins []hex.Cell, all []MoveValue, st Stats, err error) {
	start := time.Now()
	if b.Winner() != hex.Empty {
		return nil, nil, st, fmt.Errorf("%w: the game is already over", ErrBadPosition)
	}
	x := b.ToMove()
	if x != hex.Black && x != hex.White {
		return nil, nil, st, fmt.Errorf("%w: no side to move", ErrBadPosition)
	}
	c := b.Clone()
	empty := c.EmptyCells()
	for m := empty.First(); m != hex.NoCell; m = empty.Next(m + 1) {
		c.PlayStone(x, m)
		r, e := s.Solve(ctx, c)
		c.Undo()
		st.add(r.Stats, 1)
		if e != nil {
			st.Elapsed = time.Since(start)
			return wins, all, st, e
		}
		mv := MoveValue{Move: m, Wins: r.Winner == x, Nodes: r.Stats.Nodes}
		all = append(all, mv)
		if mv.Wins {
			wins = append(wins, m)
		}
	}
	st.Elapsed = time.Since(start)
	return wins, all, st, nil
}

// Opening is the solved value of one first move on an empty board.
type Opening struct {
	Cell      hex.Cell
	BlackWins bool
	// Unknown is set when the opening's search reached the Config's node or time
	// limit (a per-opening limit) before deciding it; BlackWins is then meaningless.
	Unknown bool
	Nodes   int64
	Elapsed time.Duration
	// ProofHits and StoredProofs are the search's Stats.ProofHits and
	// Stats.StoredProofs (the proofs the worker or workers held when it ended: the
	// store fills over a run, up to Config.ProofPatterns per worker).
	ProofHits    int64
	StoredProofs int
	// Rotated is set by SolveOpeningsParallel for an opening that was not searched: it
	// is the 180° rotation of a searched one and has the same value.
	Rotated bool
	// Resumed is set by SolveOpeningsWith for an opening taken from
	// OpeningsOptions.Done (a checkpoint) instead of being searched.
	Resumed bool
}

// OpeningsOptions are the settings of SolveOpeningsWith.
type OpeningsOptions struct {
	// Workers is the number of openings searched in parallel (at least 1).
	Workers int
	// Done holds openings decided earlier (a checkpoint): an opening whose cell or
	// whose 180° rotation is in Done, with Unknown not set, is not searched; it is
	// reported (Resumed set) with the value and counters given. Unknown entries are
	// searched again.
	Done []Opening
	// Progress, when not nil, is called (never concurrently) as each opening is
	// decided or given up, in the order they finish.
	Progress func(Opening)
	// SeparateTables gives each DFPN worker its own transposition table of
	// 2^TTBits entries instead of one table shared by all workers (2^TTBits entries
	// times the workers, rounded up to a power of two), in which each worker finds
	// the positions the others solved.
	SeparateTables bool
	// Split searches the openings one at a time, each with all the workers splitting
	// its root (SolveParallel; the workers keep their shared table from one opening to
	// the next, each opening a new generation of it: a full bucket replaces the
	// entries of earlier openings first), instead of one opening per worker: each
	// opening gets every core for its time limit, and the run takes longer.
	Split bool
	// Shared, with Split, has the workers search each opening's whole tree together
	// (SolveShared) instead of splitting its root's moves (SolveParallel).
	Shared bool
	// EasyFirst hands the openings out easiest first (the reverse of the default
	// hardest-first order), as the 2009 paper solved 8x8: the table and the proof
	// patterns left by the easy openings' proofs are there when the hard ones are
	// searched. It suits Split, where openings are searched one at a time and the
	// hardest-first order's reason (long searches should not start last on an idle
	// worker) does not apply.
	EasyFirst bool
}

// SolveOpeningsParallel solves every one-stone opening of an empty w x h board with
// workers solvers in parallel: SolveOpeningsWith with Workers and Progress only.
func SolveOpeningsParallel(ctx context.Context, w, h, workers int, mk func() Config, progress func(Opening)) ([]Opening, error) {
	return SolveOpeningsWith(ctx, w, h, mk, OpeningsOptions{Workers: workers, Progress: progress})
}

// SolveOpeningsWith solves every one-stone opening of an empty w x h board (Black's
// first move, White to move, no swap) with opt.Workers solvers running in parallel,
// each made by New(mk()). mk is called once per worker and must return a Config with
// its own Connector (Connectors are not safe for concurrent use; DefaultConfig makes a
// new one each call). The Config's MaxNodes and Timeout apply to each opening: an
// opening that reaches them is reported with Unknown set and the run goes on. The 180°
// rotation maps each colour's edges onto themselves, so an opening and its rotation
// have the same value: only the opening with the smaller cell of each pair is
// searched, and the other is reported with Rotated set and no nodes. The DFPN workers
// share one transposition table (see OpeningsOptions.SeparateTables). Openings in
// opt.Done are not searched again. Openings are handed out hardest first by a fixed
// heuristic (hardOrder: stones on White's edges before those nearer the centre), so
// that the longest searches do not start last; the transposition table carries over
// between openings (a worker with a table of its own, one worker or SeparateTables,
// starts a new generation of it at each opening: its full buckets replace the
// entries of earlier openings first), so the win map never depends on workers but
// node counts can.
// Config.RootProgress is not used (the openings' root moves would mix).
// Results are in cell order. The first error (ctx cancelled included) stops the
// other workers and is returned with the openings decided so far (Cell NoCell for
// the others).
func SolveOpeningsWith(ctx context.Context, w, h int, mk func() Config, opt OpeningsOptions) ([]Opening, error) {
	g, err := hex.NewGeometry(w, h)
	if err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	workers := opt.Workers
	if workers < 1 {
		return nil, fmt.Errorf("%w: workers must be at least 1, got %d", ErrBadConfig, workers)
	}
	out := make([]Opening, g.N)
	for i := range out {
		out[i].Cell = hex.NoCell
	}
	var (
		mu       sync.Mutex
		next     int
		firstErr error
		wg       sync.WaitGroup
	)
	report := func(o Opening) {
		out[o.Cell] = o
		if opt.Progress != nil {
			opt.Progress(o)
		}
	}
	// finish reports a searched (or resumed) opening and its rotation.
	finish := func(o Opening) {
		report(o)
		if rm := g.Rotate180(o.Cell); rm != o.Cell {
			r := o
			r.Cell, r.Rotated, r.Nodes, r.Elapsed, r.ProofHits, r.StoredProofs = rm, true, 0, 0, 0, 0
			report(r)
		}
	}
	done := map[hex.Cell]Opening{}
	for _, o := range opt.Done {
		if o.Unknown || o.Cell < 0 || int(o.Cell) >= g.N {
			continue
		}
		if rm := g.Rotate180(o.Cell); rm < o.Cell {
			o.Cell = rm
		}
		o.Rotated = false
		done[o.Cell] = o
	}
	var todo []hex.Cell
	for m := hex.Cell(0); int(m) < g.N; m++ {
		if m > g.Rotate180(m) {
			continue
		}
		if o, ok := done[m]; ok {
			o.Resumed = true
			finish(o)
			continue
		}
		todo = append(todo, m)
	}
	hardOrder(g, todo)
	if opt.EasyFirst {
		slices.Reverse(todo)
	}
	// root moves of several openings would mix in one callback: none are reported
	mk0 := mk
	mk = func() Config { c := mk0(); c.RootProgress = nil; return c }
	if mk().Table != nil {
		opt.SeparateTables = false // the workers share the Config's table
	}
	if opt.Split && workers > 1 {
		return solveOpeningsSplit(ctx, g, todo, newWorkers(workers, mk, opt.SeparateTables && !opt.Shared, g), mk(), opt.Shared, finish, out)
	}
	workers = min(workers, len(todo))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	solvers := newWorkers(workers, mk, opt.SeparateTables, g)
	for _, s := range solvers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b := hex.NewBoardGeometry(g)
			for {
				mu.Lock()
				if firstErr == nil && next < len(todo) && ctx.Err() != nil {
					// cancelled between openings (one can end before the solver looks)
					firstErr = fmt.Errorf("%w: %w", ErrLimit, ctx.Err())
				}
				if next == len(todo) || firstErr != nil {
					mu.Unlock()
					return
				}
				m := todo[next]
				next++
				mu.Unlock()
				if workers == 1 || opt.SeparateTables {
					newGeneration([]*Solver{s}) // a table of this worker's alone
				}
				b.PlayStone(hex.Black, m)
				r, err := s.Solve(ctx, b)
				b.Undo()
				mu.Lock()
				o := Opening{Cell: m, BlackWins: r.Winner == hex.Black, Nodes: r.Stats.Nodes, Elapsed: r.Stats.Elapsed,
					ProofHits: r.Stats.ProofHits, StoredProofs: r.Stats.StoredProofs}
				if err != nil && errors.Is(err, ErrLimit) && ctx.Err() == nil {
					o.BlackWins, o.Unknown, err = false, true, nil // a per-opening limit
				}
				if err != nil {
					if firstErr == nil {
						firstErr = err
						cancel()
					}
					mu.Unlock()
					return
				}
				finish(o)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return out, firstErr
	}
	return out, nil
}

// hardOrder sorts openings (cells of g) by their expected search effort, largest
// first. A first stone on or next to White's edges (the first and last columns) is
// weak for Black and its value is decided deep in the tree, while one near the centre
// wins quickly (7x7: a4 takes 240,000 nodes, g2 148,000, a3 107,000, b4 62,000, the
// centre d4 500): so the key is the distance to the nearer White edge, then the
// distance from the middle row, then the cell. With workers > 1 the long searches
// start first and the short ones fill the gaps at the end.
func hardOrder(g *hex.Geometry, cells []hex.Cell) {
	key := func(c hex.Cell) (int, int) {
		x, y := g.XY(c)
		return min(x, g.W-1-x), abs(2*y - (g.H - 1))
	}
	slices.SortStableFunc(cells, func(a, b hex.Cell) int {
		ax, ay := key(a)
		bx, by := key(b)
		if ax != bx {
			return ax - bx
		}
		if ay != by {
			return ay - by
		}
		return int(a) - int(b)
	})
}

// SolveOpenings solves every one-stone opening (Black's first move, White to move, no
// swap) on an empty w x h board, each in a new generation of the solver's table (see
// SolveOpeningsWith). progress, when not nil, is called after each opening.
func (s *Solver) SolveOpenings(ctx context.Context, w, h int, progress func(Opening)) ([]Opening, error) {
	b, err := hex.NewBoard(w, h)
	if err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	var out []Opening
	for m := hex.Cell(0); int(m) < b.Geometry().N; m++ {
		newGeneration([]*Solver{s})
		b.PlayStone(hex.Black, m)
		r, e := s.Solve(ctx, b)
		b.Undo()
		if e != nil {
			return out, e
		}
		o := Opening{Cell: m, BlackWins: r.Winner == hex.Black, Nodes: r.Stats.Nodes, Elapsed: r.Stats.Elapsed,
			ProofHits: r.Stats.ProofHits, StoredProofs: r.Stats.StoredProofs}
		out = append(out, o)
		if progress != nil {
			progress(o)
		}
	}
	return out, nil
}

// DefaultConfig returns the configuration the command line and GTP use: DFPN with
// engine/vc's compact H-search (vc.Compact) as the Connector (only the opponent's
// connections are built at a node: NoMoverVC), ICE fill-in and vulnerable-cell pruning
// on, capture-dominated pruning off (NoDominated: it costs more time than it saves),
// local-domination pruning off (NoLocalDominated: it gains nothing on 8x8),
// progressive widening with a window of 1 + ceil(n/2) of a node's n unrefuted children
// (WideningBase 1, WideningFactor 0.5: 19% fewer nodes and 22% less CPU time on the
// 49 7x7 openings, docs/history.md, "Progressive widening"), up to 2^18 proofs of
// lost positions kept as goal patterns (ProofPatterns: 14% fewer nodes and less time
// on the 49 7x7 openings), combinatorial decompositions filled at every node
// (Decompositions: 32% fewer nodes and 29% less time on the 49 7x7 openings), the root
// split steered to the first moves of the move order (RootRank 4: 46–48 of the 64 8x8
// openings within 150 s each instead of 40–42, docs/history.md, "The root split
// steered by move order"), a node's disproof number three quarters of the way from the
// sum of its children's proof numbers to the weak proof number (WeakPN 0.75: 35% less
// time over eleven 8x8 positions, 52 of the 64 8x8 openings within 150 s in a
// whole-board run, docs/history.md, "Weak proof numbers"), a 2^20-entry transposition
// table (DFPN: 88 MiB on boards of up to 64 cells, 368 MiB on
// larger ones), no node or time limit.
func DefaultConfig() Config {
	return Config{TTBits: 20, Connector: vc.NewCompact(), NoMoverVC: true, NoDominated: true,
		NoLocalDominated: true, WideningBase: 1, WideningFactor: 0.5, ProofPatterns: 1 << 18,
		Decompositions: true, RootRank: 4, WeakPN: 0.75}
}

// EngineVCConfig returns a DFPN configuration with engine/vc's Builder (through
// VCConnector, small limits) as the Connector instead of the compact H-search.
func EngineVCConfig() Config {
	vcfg := vc.DefaultConfig()
	vcfg.MaxFull, vcfg.MaxSemi, vcfg.MaxOr = 4, 8, 3
	return Config{TTBits: 20, Connector: NewVCConnector(vcfg)}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// solveOpeningsSplit is SolveOpeningsWith with OpeningsOptions.Split: the openings in
// todo one after another, each by solveSplit with the solvers given. cfg is their
// configuration; its Timeout and MaxNodes apply to each opening.
func solveOpeningsSplit(ctx context.Context, g *hex.Geometry, todo []hex.Cell, solvers []*Solver, cfg Config, shared bool, finish func(Opening), out []Opening) ([]Opening, error) {
	if err := cfg.Validate(); err != nil {
		return out, err
	}
	b := hex.NewBoardGeometry(g)
	for _, m := range todo {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("%w: %w", ErrLimit, err)
		}
		newGeneration(solvers)
		b.PlayStone(hex.Black, m)
		var r Result
		var err error
		if shared {
			r, err = solveShared(ctx, b, solvers, cfg)
		} else {
			r, err = solveSplit(ctx, b, solvers, cfg)
		}
		b.Undo()
		o := Opening{Cell: m, BlackWins: r.Winner == hex.Black, Nodes: r.Stats.Nodes, Elapsed: r.Stats.Elapsed,
			ProofHits: r.Stats.ProofHits, StoredProofs: r.Stats.StoredProofs}
		if err != nil && errors.Is(err, ErrLimit) && ctx.Err() == nil {
			o.BlackWins, o.Unknown, err = false, true, nil // a per-opening limit
		}
		if err != nil {
			return out, err
		}
		finish(o)
	}
	return out, nil
}

// newGeneration starts a new generation (pnTable.nextGen) in the DFPN tables of
// solvers, none of which is searching: the entries of the searches so far are
// kept, and a full bucket replaces them before the entries of the next search.
func newGeneration(solvers []*Solver) {
	for i, s := range solvers {
		if s.pn == nil || slices.ContainsFunc(solvers[:i], func(r *Solver) bool { return r.pn == s.pn }) {
			continue
		}
		s.pn.nextGen()
	}
}
