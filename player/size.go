package player

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/model"
)

// sizeState is a player's evaluators and searches for one board size.
type sizeState struct {
	w, h int
	// r are the settings resolved for this size (for a learned player without a
	// model for it, the search's limits are the exact player's).
	r Settings
	// value is the evaluator of the swap rule's values (the search's, without a
	// terminal test).
	value search.Evaluator
	// learned is set when the search uses the learned evaluator.
	learned bool
	// learnErr is the learned player's error for this size other than ErrNoBuiltin
	// (such as a model file for another size): Decide answers it.
	learnErr error
	searcher *search.Searcher
	// mcts is the learned player's Monte Carlo tree search, nil for alpha-beta.
	mcts *search.MCTS
	// solver is the root solver of Settings.SolveShare (made at its first use).
	solver *solver.Solver
	// openings are the values of every opening stone on the empty board, by cell, and
	// evenValue their median: the swap rule's even line where no win map is known
	// (made at their first use, openingValues).
	openings  []float64
	evenValue float64
}

// rootSolverTTBits is log2 of the root solver's table entries: 22 MiB up to 8x8 (64
// cells); larger boards have entries about four times larger and get a quarter of
// the entries (bigBoardTTBits, 23 MiB).
const (
	rootSolverTTBits = 18
	bigBoardTTBits   = 16
)

// sizeFor returns the player's state for b's board size, building it on the first
// move of a size (the state of the size played before is dropped).
func (p *Player) sizeFor(b *hex.Board) (*sizeState, error) {
	if st := p.size; st != nil && st.w == b.Width() && st.h == b.Height() {
		return st, nil
	}
	st, err := p.newSize(b.Geometry())
	if err != nil {
		return nil, fmt.Errorf("player: cannot set up the search for %dx%d: %w", b.Width(), b.Height(), err)
	}
	p.size = st
	return st, nil
}

func (p *Player) newSize(g *hex.Geometry) (*sizeState, error) {
	st := &sizeState{w: g.W, h: g.H}
	var le search.Evaluator
	var sr Settings // the search's settings
	st.r, sr, le, st.learnErr = p.resolveFor(g.W, g.H, true)
	_, fast := p.exactConfigs(st.r)
	var ev search.Evaluator
	switch {
	case p.opts.Evaluator != nil:
		ev = p.opts.Evaluator
	case le != nil:
		ev, st.learned = le, true
	default:
		x, err := circuit.NewExact(fast)
		if err != nil {
			return nil, err
		}
		ev = x
	}
	st.value = ev
	// A learned evaluator's cheap move ordering (model.Ordering) is kept in front of a
	// terminal test; the exact evaluator's is not.
	terminal := func(ev search.Evaluator, t search.Terminal) search.Evaluator {
		if o, ok := ev.(search.Orderer); ok && st.learned {
			return &search.OrderedTerminal{WithTerminal: search.WithTerminal{Inner: ev, Term: t}, Order: o}
		}
		return &search.WithTerminal{Inner: ev, Term: t}
	}
	if st.learned && sr.LeafVC.V {
		ev = terminal(ev, &vc.Quick{OpponentOnly: true})
	}
	if p.term != nil && p.opts.Evaluator == nil {
		ev = terminal(ev, p.term)
	}
	var err error
	if st.searcher, err = search.New(ev, sr.Params()); err != nil {
		return nil, err
	}
	if !st.learned {
		return st, nil
	}
	// The learned player keeps the exact player's proofs near the root.
	t, err := circuit.NewTacticsFill(fast.VC, fast.FillIn)
	if err != nil {
		return nil, err
	}
	st.searcher.SetTactics(t)
	if sr.Search.V != SearchMCTS {
		return st, nil
	}
	mp := sr.MCTSParams(g.N)
	var mt search.Evaluator = t
	if mp.TacticsPriors > 0 {
		// The exact evaluator decides as the tactics do and also ranks the moves by
		// the circuit's energies, the priors MCTSParams.TacticsPriors mixes in.
		if mt, err = circuit.NewExact(fast); err != nil {
			return nil, err
		}
	}
	if st.mcts, err = search.NewMCTS(ev, mt, mp); err != nil {
		return nil, err
	}
	return st, nil
}

// resolveFor resolves the player's settings for a w x h board: r for the player, sr
// for its search (a learned player without a model for the size searches as the exact
// player, with a note when note is set), and the learned evaluator le (nil for the
// exact player's search) or the error that keeps the learned player from this size.
func (p *Player) resolveFor(w, h int, note bool) (r, sr Settings, le search.Evaluator, learnErr error) {
	if p.s.kind() == Learned && p.opts.Evaluator == nil {
		var err error
		le, err = p.evaluatorFor(w, h)
		switch {
		case errors.Is(err, ErrNoBuiltin):
			if note {
				p.note("hexlearn: no learned model for %dx%d; the exact player plays this size", w, h)
			}
			le = nil
		case err != nil:
			le, learnErr = nil, err
		}
	}
	r = p.s.Resolve(w*h, estimatesPlayouts(le))
	sr = r
	if p.s.kind() == Learned && le == nil {
		e := p.s
		e.Kind = Set(Exact)
		sr = e.Resolve(w*h, false)
		sr.VCPlies, sr.LookaheadDepth = Set(0), Set(0) // the exact player's search has neither
	}
	return r, sr, le, learnErr
}

// evaluatorFor is the learned evaluator of a w x h board: Options.Learned's, or
// that of the player's model or the built-in one (an error wrapping ErrNoBuiltin on a
// size without one, model.ErrWrongSize when the player's model is for another size),
// with the cheap move ordering the search asks for.
func (p *Player) evaluatorFor(w, h int) (search.Evaluator, error) {
	if p.opts.Learned != nil {
		return p.opts.Learned(w, h)
	}
	m := p.model
	if m == nil {
		var err error
		if m, err = Builtin(w, h); err != nil {
			return nil, err
		}
	}
	e, err := model.NewEvaluator(m, w, h)
	r := p.s.Resolve(w*h, false)
	if err != nil || r.LookaheadDepth.V == 0 && r.Search.V != SearchMCTS {
		return e, err
	}
	return model.NewOrdering(e, orderOf(m, r.Order.V, p.s.Order.Set))
}

// orderOf is the cheap move ordering a model plays with: the given one, or by default
// the model's own (model.Model.NaturalOrder: its policy head's where it has one); a
// model without two-distance inputs can only order by potential, or by its policy.
func orderOf(m *model.Model, mode model.OrderMode, given bool) model.OrderMode {
	if !given {
		mode = m.NaturalOrder()
	}
	if m.Features != model.FeaturesTwoDist && mode != model.OrderPolicy {
		mode = model.OrderPotential
	}
	return mode
}

// estimatesPlayouts reports whether a learned evaluator estimates the random
// playouts' result (search.WinProbability): the player's playouts then default to
// none.
func estimatesPlayouts(le search.Evaluator) bool {
	wp, ok := le.(search.WinProbability)
	return ok && wp.PlayoutEstimate()
}

// note writes a one-line note to the player's Notes, if set.
func (p *Player) note(format string, a ...any) {
	if p.opts.Notes != nil {
		fmt.Fprintf(p.opts.Notes, format+"\n", a...)
	}
}

// search is the player's move by its search alone (MCTS or alpha-beta) in time t.
func (st *sizeState) search(ctx context.Context, b *hex.Board, t time.Duration) (Decision, error) {
	if st.mcts != nil {
		return st.mctsMove(ctx, b, t)
	}
	out, err := st.alphaBeta(ctx, b, t)
	if err != nil {
		return Decision{}, err
	}
	return Decision{Move: out.Move, From: FromSearch, Searched: true, Outcome: out}, nil
}

// alphaBeta searches b by alpha-beta in time t (the settings' limits otherwise).
func (st *sizeState) alphaBeta(ctx context.Context, b *hex.Board, t time.Duration) (search.Outcome, error) {
	p := st.searcher.Params()
	if p.Time != t {
		q := p
		q.Time = t
		if err := st.searcher.SetParams(q); err != nil {
			return search.Outcome{}, err
		}
		defer st.searcher.SetParams(p)
	}
	return st.searcher.Search(ctx, b)
}

// mctsMove is the learned player's move by MCTS in time t. In a position it proves
// lost, where every move is alike to it, the alpha-beta search picks the move in a
// quarter of that time (the move that holds out best by the evaluator, for an
// opponent who may still err).
func (st *sizeState) mctsMove(ctx context.Context, b *hex.Board, t time.Duration) (Decision, error) {
	mp := st.mcts.Params()
	mp.Time = t
	if mp.Time == 0 && mp.MaxExpansions == 0 {
		mp.Time = DefaultTime
	}
	if err := st.mcts.SetParams(mp); err != nil {
		return Decision{}, err
	}
	out, err := st.mcts.Search(ctx, b)
	if err != nil {
		return Decision{}, err
	}
	d := Decision{Move: out.Move, From: FromSearch, Searched: true, Outcome: out}
	if out.Winner != b.ToMove().Opp() {
		return d, nil
	}
	if o, err := st.alphaBeta(ctx, b, t/4); err == nil {
		d.Move = o.Move
	}
	return d, nil
}

// solverFor makes the root solver at its first use (with a table sized for b's
// board).
func (st *sizeState) solverFor(b *hex.Board) {
	if st.solver == nil {
		cfg := solver.DefaultConfig()
		cfg.TTBits = rootSolverTTBits
		if b.Geometry().N > 64 {
			cfg.TTBits = bigBoardTTBits
		}
		st.solver = solver.New(cfg)
	}
}

// solveRoot runs the root solver on b for at most d: ok when it decides b and names
// the move to play: a legal winning move when the side to move wins, the most
// resistant losing move (solver.Solver.Resistant) when it loses.
func (st *sizeState) solveRoot(ctx context.Context, b *hex.Board, d time.Duration) (hex.Cell, bool) {
	st.solverFor(b)
	sctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	r, err := st.solver.Solve(sctx, b)
	switch {
	case err != nil:
		return hex.NoCell, false
	case r.Winner == b.ToMove() && r.Move != hex.NoCell && b.At(r.Move) == hex.Empty:
		return r.Move, true
	case r.Winner == b.ToMove().Opp():
		return st.solver.Resistant(b)
	}
	return hex.NoCell, false
}

// solveBeside is Settings.SolveParallel: the root solver runs on its own goroutine
// (on its own copy of b) for the whole time per move t while the search runs on this
// one. A win the solver proves cancels the search and is played (so is, in a position
// it proves lost, the most resistant losing move). Otherwise, when the solver refuted
// the search's move before its time ran out, an MCTS player plays its best move among
// the moves the solver had not refuted.
func (st *sizeState) solveBeside(ctx context.Context, b *hex.Board, t time.Duration) (Decision, error) {
	type solved struct {
		move    hex.Cell
		decided bool // move is a winning move, or the most resistant losing one
		cands   hex.Bitset
		open    bool // cands holds the moves not refuted when the solver stopped
	}
	sctx, stopSolver := context.WithCancel(ctx)
	defer stopSolver()
	qctx, stopSearch := context.WithCancel(ctx)
	defer stopSearch()
	st.solverFor(b)
	done := make(chan solved, 1)
	sb := b.Clone()
	go func() {
		var r solved
		r.move, r.decided = st.solveRoot(sctx, sb, t)
		if r.decided {
			stopSearch()
		} else {
			r.cands, r.open = st.solver.RootCandidates()
		}
		done <- r
	}()
	d, err := st.search(qctx, b, t)
	stopSolver()
	r := <-done
	switch {
	case r.decided:
		return Decision{Move: r.move, From: FromSolver}, nil // not the (cancelled) search's
	case ctx.Err() != nil:
		return Decision{}, ctx.Err()
	case err != nil:
		return Decision{}, err
	}
	if r.open && !r.cands.Has(d.Move) && st.mcts != nil {
		if m, ok := st.mcts.BestAmong(r.cands); ok {
			d.Move = m
		}
	}
	return d, nil
}
