package gtp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// The evaluation and search commands (this file):
//
//	eval-resist COLOR            " res R rew Rw reb Rb" as Benzene: rew = ln R_W,
//	                             reb = ln R_B, res = rew - reb (positive favours
//	                             Black), from the exact evaluator (H-search + circuit).
//	                             COLOR is required for Benzene compatibility; the
//	                             values are always from Black's point of view.
//	param_search                 shows the search parameters, one "[string] name value"
//	                             a line (Benzene's param format, which HexGui edits)
//	param_search NAME VALUE      sets one: depth (plies, 1..32), k (best successors
//	                             searched per node, 0 = all), root_k (k at the root,
//	                             0 = same as k), time (seconds, 0 = no limit),
//	                             vc_plies (learned player: plies from the root
//	                             where H-search proves wins and finds mustplay)
//	genmove COLOR                (the searching policy) alpha-beta with the exact
//	                             evaluator (or the player's learned evaluator),
//	                             iterative deepening, k-best pruning, stopping at
//	                             the time limit
//
// The search's default parameters are SearchDefaults.
func init() {
	Register("eval-resist", cmdEvalResist)
	Register("param_search", cmdParamSearch)
	RegisterGenMove(searchGenMove)
	RegisterAnalyze("string", "Eval Resist", "eval-resist %c")
	RegisterAnalyze("param", "Search Parameters", "param_search")
}

// SearchDefaults are the search parameters of a new engine: depth 3, k 6, the root
// searched full width, 3 seconds.
func SearchDefaults() search.Params {
	return search.Params{Depth: 3, K: 6, Time: 3 * time.Second}
}

// evalState is an engine's evaluator and searcher for one board size.
type evalState struct {
	w, h    int
	exact   *circuit.Exact // full H-search limits, for eval-resist
	fast    *circuit.Exact // lighter limits, for the search
	learned bool           // the searcher uses the player's learned evaluator
	// learnErr is the learned player's error for this size other than ErrNoLearned
	// (such as a model file for another size): genmove answers it, while eval-resist
	// and param_search, which need no learned evaluator, still work.
	learnErr error
	searcher *search.Searcher
	// mcts is the learned player's Monte Carlo tree search (Player.MCTS), nil for
	// alpha-beta.
	mcts *search.MCTS
	// solver is the root solver of Player.SolveShare (made at its first use).
	solver *solver.Solver
	// last holds the counters of the last genmove's search; searched is false when
	// that genmove ran none (LastSearch).
	last     search.Stats
	searched bool
}

// LastSearch returns the counters of the search behind the last genmove of the
// searching player (SetPlayer) on the current board size: nodes (for MCTS the
// expansions), H-search calls, depth and time (the search's own: after the solver ran
// first, the part of the time per move it left). ok is false when that genmove ran no
// search (its move came from the opening book, the pattern database or the solver)
// or there was none yet. In a position MCTS proves lost, where a short alpha-beta
// search picks the move, the counters are the MCTS's.
func (e *Engine) LastSearch() (st search.Stats, ok bool) {
	s, _ := e.State("eval", func() any { return (*evalState)(nil) }).(*evalState)
	if s == nil || s.w != e.Board().Width() || s.h != e.Board().Height() {
		return search.Stats{}, false
	}
	return s.last, s.searched
}

// rootSolverTTBits is log2 of the root solver's table entries: 22 MiB up to 8x8 (64
// cells); larger boards have entries about four times larger and get a quarter of
// the entries (bigBoardTTBits, 23 MiB).
const (
	rootSolverTTBits = 18
	bigBoardTTBits   = 16
)

// evalStateOf returns the engine's evaluators and searcher for the current board,
// building them when none exist or the board size changed (a learned player then takes
// the model of the new size, or the exact evaluator with Player.ExactParams where it has
// none; the parameters param_search set are kept while the same kind of player plays).
func evalStateOf(e *Engine) (*evalState, error) {
	b := e.Board()
	old, _ := e.State("eval", func() any { return (*evalState)(nil) }).(*evalState)
	if old != nil && old.w == b.Width() && old.h == b.Height() {
		return old, nil
	}
	pl := playerOf(e)
	paramsFor := func(learned bool) search.Params {
		switch {
		case old != nil && old.learned == learned:
			return old.searcher.Params() // keep what param_search set
		case pl.Learned != nil && !learned:
			return pl.exactParams() // a learned player without a model for this size
		case pl.Params == (search.Params{}):
			return SearchDefaults()
		}
		return pl.Params
	}
	s, err := newEvalState(pl, b, paramsFor)
	if err != nil {
		return nil, fmt.Errorf("eval: cannot set up the evaluator: %v", errText(err))
	}
	e.state["eval"] = s
	return s, nil
}

func newEvalState(pl Player, b *hex.Board, paramsFor func(learned bool) search.Params) (*evalState, error) {
	s := &evalState{w: b.Width(), h: b.Height()}
	full, fast := circuit.DefaultExactConfig(), circuit.SearchExactConfig()
	if pl.XH {
		full.VC = vc.XHConfig()
		xh := vc.XHConfig()
		xh.MaxFull, xh.MaxSemi, xh.MaxOr = fast.VC.MaxFull, fast.VC.MaxSemi, fast.VC.MaxOr
		fast.VC = xh
	}
	fast.FillIn = !pl.NoFillIn
	fast.VC.EdgeTemplates = !pl.NoTemplates
	if !pl.XH {
		full.VC.EdgeTemplates = !pl.NoTemplates
	}
	var err error
	if s.exact, err = circuit.NewExact(full); err != nil {
		return nil, err
	}
	if s.fast, err = circuit.NewExact(fast); err != nil {
		return nil, err
	}
	var ev search.Evaluator = s.fast
	// A learned evaluator's cheap move ordering (model.Ordering) is kept in front of a
	// terminal test; the exact evaluator's is not (as before).
	terminal := func(ev search.Evaluator, t search.Terminal) search.Evaluator {
		if o, ok := ev.(search.Orderer); ok && s.learned {
			return &search.OrderedTerminal{WithTerminal: search.WithTerminal{Inner: ev, Term: t}, Order: o}
		}
		return &search.WithTerminal{Inner: ev, Term: t}
	}
	le, err := pl.learnedFor(b)
	if err != nil {
		s.learnErr = err
	} else if le != nil {
		ev, s.learned = le, true
		if pl.LeafVC {
			ev = terminal(ev, &vc.Quick{OpponentOnly: true})
		}
	}
	if pl.Terminal != nil {
		ev = terminal(ev, pl.Terminal)
	}
	if s.searcher, err = search.New(ev, paramsFor(s.learned)); err != nil {
		return nil, err
	}
	if s.learned {
		// The learned player keeps the exact player's proofs near the root.
		t, err := circuit.NewTacticsFill(fast.VC, fast.FillIn)
		if err != nil {
			return nil, err
		}
		s.searcher.SetTactics(t)
		if pl.MCTS {
			mp := pl.MCTSParams
			if mp == (search.MCTSParams{}) {
				mp = search.DefaultMCTSParamsFor(b.Geometry().N)
			}
			switch {
			case pl.CircuitPriors > 0:
				mp.TacticsPriors = pl.CircuitPriors
			case pl.CircuitPriors < 0:
				mp.TacticsPriors = 0
			}
			switch wp, _ := ev.(search.WinProbability); {
			case pl.Playouts > 0:
				mp.Playouts = pl.Playouts
			case pl.Playouts < 0:
				mp.Playouts = 0
			case wp != nil && wp.PlayoutEstimate():
				mp.Playouts = 0 // the network stands in for them
			}
			if pl.PlayoutWeight != 0 {
				mp.PlayoutWeight = pl.PlayoutWeight
			}
			switch {
			case pl.AMAFPriors > 0:
				mp.AMAFPriors = pl.AMAFPriors
			case pl.AMAFPriors < 0:
				mp.AMAFPriors = 0
			}
			if pl.Reuse != 0 {
				mp.Reuse = pl.Reuse > 0
			}
			var mt search.Evaluator = t
			if mp.TacticsPriors > 0 {
				// The exact evaluator decides as the tactics do and also ranks the
				// moves by the circuit's energies, the priors MCTSParams.TacticsPriors
				// mixes in.
				if mt, err = circuit.NewExact(fast); err != nil {
					return nil, err
				}
			}
			if s.mcts, err = search.NewMCTS(ev, mt, mp); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

func cmdEvalResist(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 1); err != nil {
		return "", err
	}
	if _, err := ArgColor(args, 0); err != nil {
		return "", err
	}
	st, err := evalStateOf(e)
	if err != nil {
		return "", err
	}
	a, err := st.exact.Analyse(e.Board())
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(" res %.4f rew %.4f reb %.4f", a.LogRW-a.LogRB, a.LogRW, a.LogRB), nil
}

func cmdParamSearch(e *Engine, args []string) (string, error) {
	st, err := evalStateOf(e)
	if err != nil {
		return "", err
	}
	p := st.searcher.Params()
	switch len(args) {
	case 0:
		return fmt.Sprintf("[string] depth %d\n[string] k %d\n[string] root_k %d\n[string] time %g\n[string] vc_plies %d",
			p.Depth, p.K, p.RootK, p.Time.Seconds(), p.VCPlies), nil
	case 2:
	default:
		return "", fmt.Errorf("param_search: want no arguments or NAME VALUE, got %d arguments", len(args))
	}
	name, val := strings.ToLower(args[0]), args[1]
	switch name {
	case "depth", "k", "root_k", "vc_plies":
		n, err := strconv.Atoi(val)
		if err != nil {
			return "", fmt.Errorf("param_search: %s wants an integer, got %q", name, val)
		}
		switch name {
		case "depth":
			p.Depth = n
		case "k":
			p.K = n
		case "vc_plies":
			p.VCPlies = n
		default:
			p.RootK = n
		}
	case "time":
		s, err := strconv.ParseFloat(val, 64)
		if err != nil || s < 0 || s > 1e6 {
			return "", fmt.Errorf("param_search: time wants seconds >= 0, got %q", val)
		}
		p.Time = time.Duration(s * float64(time.Second))
	default:
		return "", fmt.Errorf("param_search: unknown parameter %q (want depth, k, root_k, time or vc_plies)", args[0])
	}
	if err := st.searcher.SetParams(p); err != nil {
		return "", err
	}
	return "", nil
}

// searchGenMove is the searching genmove policy: a search for c on a copy of b.
func searchGenMove(e *Engine, b *hex.Board, c hex.Color) (hex.Cell, error) {
	st, err := evalStateOf(e)
	if err != nil {
		return hex.NoCell, err
	}
	st.last, st.searched = search.Stats{}, false
	if st.learnErr != nil {
		return hex.NoCell, fmt.Errorf("eval: cannot set up the evaluator: %v", errText(st.learnErr))
	}
	work := b.Clone()
	work.SetToMove(c)
	p := st.searcher.Params()
	pl := playerOf(e)
	if pl.Book != nil {
		g := work.Geometry()
		if m, ok := pl.Book(g.W, g.H).Lookup(work); ok {
			return m, nil
		}
	}
	if m, ok := terminalWin(pl.Terminal, work); ok {
		return m, nil
	}
	solve := pl.SolveShare > 0 && p.Time > 0 && (pl.SolveMaxEmpty <= 0 || work.EmptyCells().Count() <= pl.SolveMaxEmpty)
	if solve && pl.SolveParallel {
		return st.solveBeside(e.Context(), work)
	}
	if share := pl.SolveShare; solve {
		start := time.Now()
		if m, ok := st.solveRoot(e.Context(), work, time.Duration(share*float64(p.Time))); ok {
			return m, nil
		}
		if err := e.Context().Err(); err != nil {
			return hex.NoCell, err
		}
		if cands, ok := st.solver.RootCandidates(); ok && st.mcts != nil {
			// The moves the solver refuted (or found inferior) before its time ran
			// out are left out: a winning move, if there is one, is among the rest.
			st.mcts.LimitRoot(cands)
		}
		// The search gets what is left (at least a tenth of the time, so that it
		// completes its first iteration).
		q := p
		q.Time = max(p.Time-time.Since(start), p.Time/10)
		if err := st.searcher.SetParams(q); err != nil {
			return hex.NoCell, err
		}
		defer st.searcher.SetParams(p)
	}
	return st.search(e.Context(), work)
}

// terminalWin returns a move of b's side to move after which the terminal test
// (a goal-pattern database) declares the mover the winner, if there is one: the
// database's stored wins, such as the solver's opening book (patterns build
// --finder solver), are played without a search. The lowest such cell is returned.
func terminalWin(t search.Terminal, b *hex.Board) (hex.Cell, bool) {
	if t == nil || b.Winner() != hex.Empty {
		return hex.NoCell, false
	}
	me := b.ToMove()
	empty := b.EmptyCells()
	for m := empty.First(); m != hex.NoCell; m = empty.Next(m + 1) {
		b.PlayStone(me, m)
		won := b.Winner() == me || b.Winner() == hex.Empty && t.Decided(b) == me
		b.Undo()
		if won {
			return m, true
		}
	}
	return hex.NoCell, false
}

// search is the player's move by its search alone (MCTS or alpha-beta) with the
// searcher's parameters.
func (st *evalState) search(ctx context.Context, b *hex.Board) (hex.Cell, error) {
	if st.mcts != nil {
		return st.mctsMove(ctx, b)
	}
	out, err := st.searcher.Search(ctx, b)
	if err != nil {
		return hex.NoCell, err
	}
	st.last, st.searched = out.Stats, true
	return out.Move, nil
}

// solveBeside is Player.SolveParallel: the root solver runs on its own goroutine (on
// its own copy of b) for the whole time per move while the search runs on this one.
// A win the solver proves cancels the search and is played (so is, in a position it
// proves lost, the most resistant losing move). Otherwise, when the
// solver refuted the search's move before its time ran out, an MCTS player plays its
// best move among the moves the solver had not refuted.
func (st *evalState) solveBeside(ctx context.Context, b *hex.Board) (hex.Cell, error) {
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
	d := st.searcher.Params().Time
	go func() {
		var r solved
		r.move, r.decided = st.solveRoot(sctx, sb, d)
		if r.decided {
			stopSearch()
		} else {
			r.cands, r.open = st.solver.RootCandidates()
		}
		done <- r
	}()
	move, err := st.search(qctx, b)
	stopSolver()
	r := <-done
	switch {
	case r.decided:
		st.searched = false // the solver's move, not the (cancelled) search's
		return r.move, nil
	case ctx.Err() != nil:
		return hex.NoCell, ctx.Err()
	case err != nil:
		return hex.NoCell, err
	}
	if r.open && !r.cands.Has(move) && st.mcts != nil {
		if m, ok := st.mcts.BestAmong(r.cands); ok {
			return m, nil
		}
	}
	return move, nil
}

// mctsMove is the learned player's move by MCTS in the time the alpha-beta search
// would have had. In a position it proves lost, where every move is alike to it,
// the alpha-beta search picks the move in a quarter of that time (the move that
// holds out best by the evaluator, for an opponent who may still err).
func (st *evalState) mctsMove(ctx context.Context, b *hex.Board) (hex.Cell, error) {
	p := st.searcher.Params()
	mp := st.mcts.Params()
	mp.Time = p.Time
	if mp.Time == 0 && mp.MaxExpansions == 0 {
		mp.Time = SearchDefaults().Time
	}
	if err := st.mcts.SetParams(mp); err != nil {
		return hex.NoCell, err
	}
	out, err := st.mcts.Search(ctx, b)
	if err != nil {
		return hex.NoCell, err
	}
	st.last, st.searched = out.Stats, true
	if out.Winner != b.ToMove().Opp() {
		return out.Move, nil
	}
	q := p
	q.Time = p.Time / 4
	if err := st.searcher.SetParams(q); err != nil {
		return hex.NoCell, err
	}
	defer st.searcher.SetParams(p)
	if o, err := st.searcher.Search(ctx, b); err == nil {
		return o.Move, nil
	}
	return out.Move, nil
}

// solverFor makes the root solver at its first use (with a table sized for b's
// board).
func (st *evalState) solverFor(b *hex.Board) {
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
func (st *evalState) solveRoot(ctx context.Context, b *hex.Board, d time.Duration) (hex.Cell, bool) {
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
