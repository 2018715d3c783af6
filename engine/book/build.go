package book

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/twodist"
)

// ErrConfig reports a bad builder configuration.
var ErrConfig = errors.New("book: bad build configuration")

// BuildConfig says how far a Builder follows each root position.
type BuildConfig struct {
	// Depth is the number of the winning side's moves stored along each line from a
	// root (at least 1).
	Depth int
	// Replies is the number of the losing side's replies followed after each stored
	// move (at least 1): the replies inside the solver's proof set (every other reply
	// leaves the same proof standing), the most plausible first by the sum of both
	// colours' two-distance potentials (engine/twodist).
	Replies int
	// Timeout bounds each solve (0: none). A position the solver does not decide in
	// time is left out, with everything below it.
	Timeout time.Duration
	// RootTimeout, when positive, bounds the solve of each root instead of Timeout:
	// a root takes the longest, and the positions below it are then mostly answered
	// from the table it filled.
	RootTimeout time.Duration
	// RootMaxNodes, when positive, is the node limit of each root's solve instead
	// of Solver.MaxNodes (the limit of every other solve).
	RootMaxNodes int64
	// Solver is the solver's configuration (its Timeout is not used). Its
	// table is kept for the whole of a root's lines, so the positions below a solved
	// one are mostly answered from it. With node limits (MaxNodes, RootMaxNodes) and
	// no timeouts a build depends on nothing else: the same roots and configuration
	// give the same book.
	Solver solver.Config
}

// Event reports one solved or abandoned position of a build.
type Event struct {
	Position string        // the position's stones, as in the book file
	ToMove   hex.Color     // side to move
	Winner   hex.Color     // Empty when the solver did not decide it within the limits
	Move     hex.Cell      // the stored winning move (NoCell when none)
	Elapsed  time.Duration // the solve's time
	Nodes    int64         // the solve's nodes
}

// Stats counts a build's work.
type Stats struct {
	Solves  int           // solver calls
	Unknown int           // positions not decided within the limits
	Stored  int           // positions added to the book
	Nodes   int64         // total solver nodes
	Elapsed time.Duration // total solver time
}

// Builder grows a book from root positions. It is not safe for concurrent use.
type Builder struct {
	cfg      BuildConfig
	bk       *Book
	s        *solver.Solver
	pot      *twodist.Potentials
	stats    Stats
	progress func(Event)
}

// NewBuilder returns a builder adding to bk (its size fixes the boards) with cfg;
// progress, when set, is called after every solve.
func NewBuilder(bk *Book, cfg BuildConfig, progress func(Event)) (*Builder, error) {
	if cfg.Depth < 1 || cfg.Replies < 1 || cfg.Timeout < 0 || cfg.RootTimeout < 0 || cfg.RootMaxNodes < 0 {
		return nil, fmt.Errorf("%w: depth %d and replies %d must be at least 1, timeouts %v and %v and root node limit %d not negative",
			ErrConfig, cfg.Depth, cfg.Replies, cfg.Timeout, cfg.RootTimeout, cfg.RootMaxNodes)
	}
	cfg.Solver.Timeout = 0 // the limits are set per solve (solveWithin)
	if err := cfg.Solver.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return &Builder{cfg: cfg, bk: bk, s: solver.New(cfg.Solver), pot: twodist.New(bk.g), progress: progress}, nil
}

// Stats returns the work done so far.
func (bl *Builder) Stats() Stats { return bl.stats }

// AddRoot follows root (with a fresh solver table, so that with a node limit instead
// of a timeout the lines of a root do not depend on the roots before it): when its
// side to move wins, the winning move is stored and the lines below it are followed
// (BuildConfig); when it loses, the lines below the opponent's most plausible replies
// are. When the solver does not decide the root within its limits, its Replies most plausible
// moves are solved one ply down: the first after which the opponent is proved lost
// is stored and followed; when there is none, the root's most plausible replies are
// followed as if it were lost. The root is not modified. It returns the
// context's error when ctx ends the build (the book keeps what was stored).
func (bl *Builder) AddRoot(ctx context.Context, root *hex.Board) error {
	if err := bl.bk.check(root); err != nil {
		return err
	}
	bl.s.Reset()
	b := root.Clone()
	d, n := bl.cfg.Timeout, bl.cfg.Solver.MaxNodes
	if bl.cfg.RootTimeout > 0 {
		d = bl.cfg.RootTimeout
	}
	if bl.cfg.RootMaxNodes > 0 {
		n = bl.cfg.RootMaxNodes
	}
	r, ok, err := bl.solveWithin(ctx, b, d, n)
	if err != nil {
		return err
	}
	if ok && r.Winner == b.ToMove() {
		return bl.win(ctx, b, r.Move, bl.cfg.Depth)
	}
	if ok {
		return bl.lose(ctx, b, r.Proof, bl.cfg.Depth)
	}
	// Undecided: a child one ply down is smaller. The side to move's most plausible
	// moves are tried as winning moves; when none is proved, the root is followed as
	// if it were lost, through its most plausible replies.
	for _, m := range bl.replies(b, b.EmptyCells()) {
		b.PlayStone(b.ToMove(), m)
		r, ok, err := bl.solve(ctx, b)
		b.Undo()
		if err != nil {
			return err
		}
		if ok && r.Winner == b.ToMove() { // the opponent loses after m
			return bl.win(ctx, b, m, bl.cfg.Depth)
		}
	}
	return bl.lose(ctx, b, b.EmptyCells(), bl.cfg.Depth)
}

// win stores move m as the winning move of b and follows the replies to it.
func (bl *Builder) win(ctx context.Context, b *hex.Board, m hex.Cell, depth int) error {
	if m == hex.NoCell || b.At(m) != hex.Empty {
		return nil
	}
	if _, had := bl.bk.m[keyOf(b)]; !had {
		bl.stats.Stored++
	}
	bl.bk.m[keyOf(b)] = m
	if depth <= 1 {
		return nil
	}
	b.PlayStone(b.ToMove(), m)
	defer b.Undo()
	if b.Winner() != hex.Empty {
		return nil
	}
	r, ok, err := bl.solve(ctx, b)
	if err != nil || !ok || r.Winner == b.ToMove() {
		return err // a lost position after a proved winning move cannot happen
	}
	return bl.lose(ctx, b, r.Proof, depth-1)
}

// lose follows the most plausible replies of b's side to move, which loses with the
// opponent's proof set proof.
func (bl *Builder) lose(ctx context.Context, b *hex.Board, proof hex.Bitset, depth int) error {
	for _, reply := range bl.replies(b, proof) {
		b.PlayStone(b.ToMove(), reply)
		var err error
		if b.Winner() == hex.Empty {
			if m, known := bl.bk.m[keyOf(b)]; known {
				err = bl.win(ctx, b, m, depth)
			} else if r, ok, e := bl.solve(ctx, b); e != nil {
				err = e
			} else if ok && r.Winner == b.ToMove() {
				err = bl.win(ctx, b, r.Move, depth)
			}
		}
		b.Undo()
		if err != nil {
			return err
		}
	}
	return nil
}

// replies returns up to Replies empty cells of the proof set, smallest potential sum
// first (ties by cell index).
func (bl *Builder) replies(b *hex.Board, proof hex.Bitset) []hex.Cell {
	cand := proof.And(b.EmptyCells())
	if cand.IsEmpty() {
		cand = b.EmptyCells()
	}
	bl.pot.Compute(b)
	cells := cand.AppendCells(nil)
	score := func(p hex.Cell) int {
		return bl.pot.Potential(hex.Black, p) + bl.pot.Potential(hex.White, p)
	}
	sort.SliceStable(cells, func(i, j int) bool { return score(cells[i]) < score(cells[j]) })
	if len(cells) > bl.cfg.Replies {
		cells = cells[:bl.cfg.Replies]
	}
	return cells
}

// solve runs the solver on b: ok is false when it did not decide b within the limits. Only the
// context's end is an error.
func (bl *Builder) solve(ctx context.Context, b *hex.Board) (solver.Result, bool, error) {
	return bl.solveWithin(ctx, b, bl.cfg.Timeout, bl.cfg.Solver.MaxNodes)
}

// solveWithin is solve with the time limit d and the node limit n (0: none).
func (bl *Builder) solveWithin(ctx context.Context, b *hex.Board, d time.Duration, n int64) (solver.Result, bool, error) {
	if err := ctx.Err(); err != nil {
		return solver.Result{}, false, err
	}
	bl.s.SetMaxNodes(n)
	sctx := ctx
	if d > 0 {
		var cancel context.CancelFunc
		sctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	r, err := bl.s.Solve(sctx, b)
	bl.stats.Solves++
	bl.stats.Elapsed += r.Stats.Elapsed
	bl.stats.Nodes += r.Stats.Nodes
	ev := Event{Position: bl.bk.cells(b.Stones(hex.Black)) + " " + bl.bk.cells(b.Stones(hex.White)),
		ToMove: b.ToMove(), Move: hex.NoCell, Elapsed: r.Stats.Elapsed, Nodes: r.Stats.Nodes}
	ok := err == nil
	if ok {
		ev.Winner = r.Winner
		if r.Winner == b.ToMove() {
			ev.Move = r.Move
		}
	} else {
		bl.stats.Unknown++
	}
	if bl.progress != nil {
		bl.progress(ev)
	}
	if err != nil {
		if cerr := ctx.Err(); cerr != nil {
			return r, false, cerr
		}
		if !errors.Is(err, solver.ErrLimit) {
			return r, false, fmt.Errorf("book: %w", err)
		}
	}
	return r, ok, nil
}
