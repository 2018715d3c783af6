package search

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Orderer is optionally implemented by evaluators that can rank the moves of the
// position they evaluated last (for the resistance evaluator: the energy dissipated at
// each cell, Anshelevich 2002 section 6). The search calls MoveScores(b, scores) right
// after Evaluate(b) on the same position; the evaluator writes a score for every empty
// cell p into scores[p] (higher is searched first). Without an Orderer the search
// orders moves by a 1-ply lookahead: the evaluator's value of each successor, from the
// mover's point of view.
type Orderer interface {
	MoveScores(b *hex.Board, scores []float64)
}

// PolicyOrderer is implemented by evaluators whose move scores are the logits of a
// policy (a network's move-prior head, trained on a search's visits): MCTS then takes
// the priors of a node's children as the softmax of those logits over the moves it
// considers, AlphaZero's priors, instead of from the rank of each move's score.
type PolicyOrderer interface {
	Orderer
	PolicyLogits() bool
}

// ChildEvaluator is implemented by tactics evaluators that evaluate the positions a
// few stones after a position faster from that position's state than from scratch,
// as the exact evaluator does by updating its connections (circuit.Exact). Anchor
// evaluates b as Evaluate does and keeps its state; EvaluateLine evaluates b, the
// anchored position after the stones of line (played in turn from its side to move),
// from that state: its answers are as sound as Evaluate's but may decide less. It
// reports false when b is not such a position; the caller then calls Evaluate. Either
// may be followed by MoveScores (Orderer) on the same position.
type ChildEvaluator interface {
	Evaluator
	Anchor(b *hex.Board) Result
	EvaluateLine(b *hex.Board, line []hex.Cell) (Result, bool)
}

// WinProbability is implemented by evaluators that say what their values are.
// LogOdds reports that a value is the log-odds that Black wins (a logistic model):
// MCTS scores such a value v as tanh(v/2) = 2p − 1, the expected result for Black,
// instead of with MCTSParams.Scale. PlayoutEstimate reports that p estimates the
// result of the random playouts (Playouts) from the position, as a model trained on
// them does: a player need not run playouts of its own.
type WinProbability interface {
	LogOdds() bool
	PlayoutEstimate() bool
}

// MaxDepth is the largest search depth accepted.
const MaxDepth = 32

// WinScore is the negamax score of a won position at the root; a win found at ply p
// scores WinScore - p, so shorter wins are preferred. Heuristic values must stay well
// below WinScore/2 in magnitude.
const WinScore = 1e9

// ProvedMargin is how much less a proved but unfinished win is worth than a finished
// one at the same ply: a line ended by the evaluator's proof (Result.Winner, an empty
// mustplay) at ply p scores ±(WinScore - p - ProvedMargin), a finished chain at ply p
// ±(WinScore - p). Among wins at the same ply the search so plays the move that wins at
// once; a proof still counts more than a finished win one ply later. Without it, an
// evaluator that proves many children won (fill-in: every move that keeps the captured
// sets) lets the move ordering pick any of them, although one finishes the game.
const ProvedMargin = 0.5

// Params are the search parameters.
type Params struct {
	// Depth is the maximum depth in plies of the iterative deepening (1..MaxDepth).
	Depth int
	// K is the k-best successor limit of Kahl et al.: at every node only the K best
	// moves by the cheap ordering are searched (0 searches every move).
	K int
	// RootK is the successor limit at the root (0: the same as K). Kahl et al. search
	// the first move without a limit (RootK = hex.MaxCells).
	RootK int
	// Time bounds the search (0: no limit). When it runs out, the result of the last
	// completed iteration is returned (or the best move so far of the first one).
	Time time.Duration
	// TTBits sets the transposition table to 2^TTBits entries (0: 16, at most 26).
	TTBits int
	// VCPlies is how many plies from the root the tactics evaluator (SetTactics) is
	// consulted: nodes at ply < VCPlies get its proved winner and mustplay region on
	// top of the evaluator's value (0: never). The rest of the tree is left to the
	// evaluator alone.
	VCPlies int
	// VCMinDepth also consults the tactics evaluator at every node with at least this
	// remaining depth (0: never), so that deeper iterations prove more of the tree and
	// only the last VCMinDepth-1 plies above the leaves are left to the evaluator.
	VCMinDepth int
	// LookaheadDepth keeps the 1-ply lookahead ordering (every child evaluated, see
	// Orderer) at the nodes with at least this many plies left to search, and orders
	// the nodes with fewer by the evaluator's Orderer (the lookahead where it has
	// none). 0: the Orderer at every node where the evaluator has one. It is meant for
	// an evaluator whose Orderer is much cheaper but less accurate than its lookahead,
	// such as the learned evaluator's (model.Ordering).
	LookaheadDepth int
}

// DefaultParams are depth 3, k = 10, no time limit.
func DefaultParams() Params { return Params{Depth: 3, K: 10} }

var (
	// ErrParams reports invalid search parameters.
	ErrParams = errors.New("search: bad parameters")
	// ErrNoMove reports a position without a legal move (finished or full board).
	ErrNoMove = errors.New("search: no move to search")
)

// Validate reports whether p is usable.
func (p Params) Validate() error {
	switch {
	case p.Depth < 1 || p.Depth > MaxDepth:
		return fmt.Errorf("%w: depth %d (want 1..%d)", ErrParams, p.Depth, MaxDepth)
	case p.K < 0 || p.K > hex.MaxCells:
		return fmt.Errorf("%w: k %d (want 0..%d)", ErrParams, p.K, hex.MaxCells)
	case p.RootK < 0 || p.RootK > hex.MaxCells:
		return fmt.Errorf("%w: root k %d (want 0..%d)", ErrParams, p.RootK, hex.MaxCells)
	case p.Time < 0:
		return fmt.Errorf("%w: negative time limit %v", ErrParams, p.Time)
	case p.TTBits < 0 || p.TTBits > 26:
		return fmt.Errorf("%w: tt bits %d (want 0..26)", ErrParams, p.TTBits)
	case p.VCPlies < 0 || p.VCPlies > MaxDepth:
		return fmt.Errorf("%w: vc plies %d (want 0..%d)", ErrParams, p.VCPlies, MaxDepth)
	case p.VCMinDepth < 0 || p.VCMinDepth > MaxDepth:
		return fmt.Errorf("%w: vc min depth %d (want 0..%d)", ErrParams, p.VCMinDepth, MaxDepth)
	case p.LookaheadDepth < 0 || p.LookaheadDepth > MaxDepth:
		return fmt.Errorf("%w: lookahead depth %d (want 0..%d)", ErrParams, p.LookaheadDepth, MaxDepth)
	}
	return nil
}

// Stats are the counters of one search.
type Stats struct {
	// Nodes counts the positions visited (each call of the recursive search).
	Nodes int64
	// Evals counts calls of the evaluator (including those of the 1-ply ordering).
	Evals int64
	// TTHits counts transposition-table cutoffs.
	TTHits int64
	// CacheHits counts evaluations answered by the table's evaluation cache.
	CacheHits int64
	// Tactics counts calls of the tactics evaluator (see SetTactics).
	Tactics int64
	// TacticsCached counts the tactics answers an MCTS took from its table
	// (MCTSParams.TacticsTable) instead of calling the tactics evaluator.
	TacticsCached int64
	// TacticsAnchored counts the calls of Tactics that evaluated a position below
	// the root from the root's state (MCTSParams.AnchorPlies).
	TacticsAnchored int64
	// Playouts counts the random playouts of an MCTS (MCTSParams.Playouts).
	Playouts int64
	// Reused counts the nodes an MCTS search kept from the previous search's tree.
	Reused int64
	// Depth is the depth of the last completed iteration.
	Depth int
	// Time is the wall-clock time of the search.
	Time time.Duration
	// TimedOut is set when the time limit (or the context) stopped the search.
	TimedOut bool
	// PartialMove is set when the move returned comes from an interrupted iteration:
	// it beat, at that iteration's depth, the previous iteration's best move, which
	// the interrupted iteration searched first.
	PartialMove bool
}

// Outcome is the result of a search.
type Outcome struct {
	// Move is the best move found for the side to move.
	Move hex.Cell
	// Score is the negamax score of Move for the side to move (±(WinScore - ply) for a
	// line ended by a finished chain, ±(WinScore - ply - ProvedMargin) for one ended by
	// a proof). After an interrupted iteration it is that iteration's score of Move
	// when Move came from it, unless that is a loss (not proved: the moves the
	// iteration did not reach may win), then the last completed iteration's score.
	Score float64
	// Value is the score from Black's point of view (Black: Score; White: -Score).
	Value float64
	// Winner is set when the searched tree decides the position (a colour wins in
	// every line searched under the k-best limit); Empty otherwise.
	Winner hex.Color
	Stats
}

// Searcher is a reusable alpha-beta searcher. It is not safe for concurrent use.
type Searcher struct {
	ev      Evaluator
	tactics Evaluator
	// tacOrder is the tactics evaluator's Orderer, used at the nodes it analyses.
	tacOrder Orderer
	tracker  Tracker
	orderer  Orderer
	p        Params

	tt     []ttEntry
	ttMask uint64

	b        *hex.Board
	stats    Stats
	deadline time.Time
	ctx      context.Context
	stop     bool
	// rootWinner is set when the root evaluation itself decides the game; the root
	// is then still searched so that a move is always returned.
	rootWinner hex.Color
	// rootFirst is the first move the root searched in the current iteration.
	rootFirst hex.Cell

	moves  [MaxDepth + 1][hex.MaxCells]hex.Cell
	scores [MaxDepth + 1][hex.NumPoints]float64
}

// ttEntry is one slot of the transposition table: a search result (bound != 0) and/or
// a cached evaluation with the position's best moves in order (at most orderCache).
type ttEntry struct {
	key     uint64
	score   float64
	move    hex.Cell
	depth   int8
	bound   uint8
	hasEval bool
	tact    bool // res includes the tactics evaluator's verdict
	cheap   bool // order comes from the Orderer (Params.LookaheadDepth > 0 only)
	nOrder  uint8
	res     Result
	order   [orderCache]hex.Cell
}

// orderCache is the number of ordered moves a table entry keeps (searches with k up to
// this reuse the ordering of a position evaluated before).
const orderCache = 12

const (
	boundExact uint8 = iota + 1
	boundLower
	boundUpper
)

// New returns a searcher using ev with parameters p. If ev implements Tracker or
// Orderer, the search uses those hooks.
func New(ev Evaluator, p Params) (*Searcher, error) {
	if ev == nil {
		return nil, fmt.Errorf("%w: nil evaluator", ErrParams)
	}
	s := &Searcher{ev: ev}
	s.tracker, _ = ev.(Tracker)
	s.orderer, _ = ev.(Orderer)
	if err := s.SetParams(p); err != nil {
		return nil, err
	}
	return s, nil
}

// SetTactics sets the evaluator consulted at the nodes near the root (Params.VCPlies):
// its Winner and Mustplay are added to what the main evaluator says (its Value is
// ignored), and when it implements Orderer it orders the moves of those nodes. It is meant for a proving evaluator that is too slow for every node, such as
// H-search (circuit.Tactics) above a learned evaluator. When it proves the root won
// for the side to move, the root's children are consulted too (whatever VCPlies says),
// so that the move played keeps the proved win. nil removes it. The transposition
// table is cleared.
func (s *Searcher) SetTactics(t Evaluator) {
	s.tactics = t
	s.tacOrder, _ = t.(Orderer)
	s.ClearTT()
}

// Params returns the current parameters.
func (s *Searcher) Params() Params { return s.p }

// SetParams changes the parameters (the transposition table is resized if needed, and
// cleared when k changes).
func (s *Searcher) SetParams(p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	bits := p.TTBits
	if bits == 0 {
		bits = 16
	}
	if len(s.tt) != 1<<bits {
		s.tt = make([]ttEntry, 1<<bits)
		s.ttMask = uint64(1<<bits) - 1
	} else if p.K != s.p.K || p.RootK != s.p.RootK || p.VCPlies != s.p.VCPlies || p.VCMinDepth != s.p.VCMinDepth ||
		p.LookaheadDepth != s.p.LookaheadDepth {
		s.ClearTT() // stored scores depend on k and on where tactics were consulted
	}
	s.p = p
	return nil
}

// ClearTT empties the transposition table.
func (s *Searcher) ClearTT() {
	clear(s.tt)
}

// errStop unwinds an interrupted search.
var errStop = errors.New("search: stopped")

// Search searches b for the side to move and returns the best move. b is used for
// play/undo and is restored before Search returns. The transposition table is kept
// between searches with the same evaluator.
func (s *Searcher) Search(ctx context.Context, b *hex.Board) (Outcome, error) {
	start := time.Now()
	ctx, empty, err := searchable(ctx, b)
	if err != nil {
		return Outcome{Move: hex.NoCell}, err
	}
	s.b, s.ctx, s.stop, s.rootWinner = b, ctx, false, hex.Empty
	s.stats = Stats{}
	s.deadline = time.Time{}
	if s.p.Time > 0 {
		s.deadline = start.Add(s.p.Time)
	}
	if s.tracker != nil {
		s.tracker.Reset(b)
	}
	out := Outcome{Move: hex.NoCell}
	for d := 1; d <= s.p.Depth; d++ {
		mv, sc, done := s.root(d)
		if done {
			out.Score = sc
			if mv != hex.NoCell {
				out.Move = mv
			}
		} else if mv != hex.NoCell && (out.Move == hex.NoCell || s.rootFirst == out.Move) {
			// An interrupted iteration searched the previous best move first, so the
			// best of the moves it finished is at least as good at this depth.
			// Its score is the best over the moves it finished only: a win is
			// proved, a loss is not (a move it did not reach may win), so a losing
			// score leaves the last completed iteration's score.
			if mv != out.Move {
				s.stats.PartialMove = true
			}
			out.Move = mv
			if sc > -WinScore/2 {
				out.Score = sc
			}
		}
		if !done {
			s.stats.TimedOut = true
			break
		}
		s.stats.Depth = d
		if math.Abs(sc) >= WinScore/2 {
			break // decided: deeper iterations cannot change the result
		}
	}
	if out.Move == hex.NoCell { // stopped before any move was scored
		out.Move = empty.First()
	}
	s.stats.Time = time.Since(start)
	out.Stats = s.stats
	out.Value = out.Score
	if b.ToMove() == hex.White {
		out.Value = -out.Score
	}
	if s.rootWinner != hex.Empty {
		out.Winner = s.rootWinner
		// The searched score stands when it agrees (a finished win at ply 1 is more
		// precise than the root's proof), else the proof's score.
		if sc := stm(out.Score, b.ToMove()); !(s.rootWinner == hex.Black && sc >= WinScore/2 ||
			s.rootWinner == hex.White && sc <= -WinScore/2) {
			out.Score = provedFor(s.rootWinner, b.ToMove(), 0)
			out.Value = stm(out.Score, b.ToMove())
		}
	} else if out.Score >= WinScore/2 {
		out.Winner = b.ToMove()
	} else if out.Score <= -WinScore/2 {
		out.Winner = b.ToMove().Opp()
	}
	if err := ctx.Err(); err != nil && out.Stats.Depth == 0 {
		return out, err
	}
	return out, nil
}

// searchable checks that b has a move to search and returns its empty cells and ctx
// (context.Background for nil); the error wraps ErrNoMove.
func searchable(ctx context.Context, b *hex.Board) (context.Context, hex.Bitset, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	if b.Winner() != hex.Empty {
		return ctx, hex.Bitset{}, fmt.Errorf("%w: the game is over", ErrNoMove)
	}
	empty := b.EmptyCells()
	if empty.IsEmpty() {
		return ctx, empty, fmt.Errorf("%w: the board is full", ErrNoMove)
	}
	return ctx, empty, nil
}

// root searches the root at depth d; done is false when the search was interrupted.
func (s *Searcher) root(d int) (best hex.Cell, bestScore float64, done bool) {
	sc, mv, err := s.negamax(d, 0, -math.MaxFloat64, math.MaxFloat64)
	if err != nil {
		return mv, sc, false
	}
	return mv, sc, true
}

func (s *Searcher) timeUp() bool {
	if s.stop {
		return true
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stop = true
	}
	if s.ctx != nil {
		select {
		case <-s.ctx.Done():
			s.stop = true
		default:
		}
	}
	return s.stop
}

// stm converts a Black-point-of-view value into the side to move's.
func stm(v float64, c hex.Color) float64 {
	if c == hex.White {
		return -v
	}
	return v
}

func (s *Searcher) evaluate() Result {
	s.stats.Evals++
	return s.ev.Evaluate(s.b)
}

func (s *Searcher) play(c hex.Color, p hex.Cell) {
	s.b.PlayStone(c, p)
	if s.tracker != nil {
		s.tracker.Play(c, p)
	}
}

func (s *Searcher) undo(c hex.Color, p hex.Cell) {
	s.b.Undo()
	if s.tracker != nil {
		s.tracker.Undo(c, p)
	}
}

// negamax returns the score for the side to move and the best move (at every node).
func (s *Searcher) negamax(depth, ply int, alpha, beta float64) (float64, hex.Cell, error) {
	s.stats.Nodes++
	if s.timeUp() {
		return 0, hex.NoCell, errStop
	}
	b := s.b
	me := b.ToMove()
	if w := b.Winner(); w != hex.Empty {
		return winFor(w, me, ply), hex.NoCell, nil
	}
	if ply > 0 {
		// Mate-distance pruning: at this ply the mover can do no better than winning
		// here and no worse than losing here.
		if lo := -(WinScore - float64(ply)); alpha < lo {
			alpha = lo
		}
		if hi := WinScore - float64(ply); beta > hi {
			beta = hi
		}
		if alpha >= beta {
			return alpha, hex.NoCell, nil
		}
	}
	key := b.Hash()
	e := &s.tt[key&s.ttMask]
	ttMove := hex.NoCell
	if e.key == key && e.bound != 0 {
		ttMove = e.move
		if int(e.depth) >= depth && ply > 0 {
			sc := fromTT(e.score, ply)
			switch {
			case e.bound == boundExact,
				e.bound == boundLower && sc >= beta,
				e.bound == boundUpper && sc <= alpha:
				s.stats.TTHits++
				return sc, e.move, nil
			}
		}
	}
	// The evaluation, from the table's evaluation cache when this position was
	// evaluated before (iterative deepening, transpositions, 1-ply ordering).
	var res Result
	cached := e.key == key && e.hasEval
	if cached {
		res = e.res
		s.stats.CacheHits++
	} else {
		res = s.evaluate()
		s.cacheEval(e, key, res)
	}
	// The tactics evaluator is also consulted at the root's children when the root is a
	// proved win for its mover: the leaf evaluator alone may not see which child keeps
	// the win, and the search would report a win while playing any move.
	tactNode := s.tactics != nil && (ply < s.p.VCPlies || s.p.VCMinDepth > 0 && depth >= s.p.VCMinDepth ||
		ply == 1 && s.rootWinner == me.Opp())
	tacEval := false // the tactics evaluator has analysed b at this visit (for tacOrder)
	if tactNode && !(cached && e.tact) && res.Winner == hex.Empty {
		s.stats.Tactics++
		t := s.tactics.Evaluate(b)
		tacEval = true
		if t.Winner != hex.Empty {
			res.Winner, res.Value = t.Winner, t.Value
		}
		if t.HasMustplay {
			if res.HasMustplay {
				res.Mustplay = res.Mustplay.And(t.Mustplay)
			} else {
				res.HasMustplay, res.Mustplay = true, t.Mustplay
			}
		}
		if e.key == key {
			e.res, e.tact, e.nOrder = res, true, 0 // the mustplay may change the ordering
		}
	}
	if res.Winner != hex.Empty {
		if ply > 0 {
			return provedFor(res.Winner, me, ply), hex.NoCell, nil
		}
		s.rootWinner = res.Winner
	}
	if depth == 0 {
		return stm(res.Value, me), hex.NoCell, nil
	}
	// (At the root, depth >= 1: a decided root is still searched for a move.)
	// Candidate moves: the empty cells, or the mustplay cells.
	cand := b.EmptyCells()
	if res.HasMustplay {
		mp := cand.And(res.Mustplay)
		if mp.IsEmpty() { // every move loses to the opponent's semi-connections
			if ply > 0 {
				return provedFor(me.Opp(), me, ply), hex.NoCell, nil
			}
			s.rootWinner = me.Opp()
		} else {
			cand = mp
		}
	}
	moves := s.moves[ply][:0]
	moves = cand.AppendCells(moves)
	n, k := len(moves), s.p.K
	if ply == 0 && s.p.RootK > 0 {
		k = s.p.RootK
	}
	if ply == 0 && s.rootWinner == me {
		k = 0 // a proved win: search every move so that a winning one is found
	}
	if k > 0 && n > k {
		n = k
	}
	// With a lookahead depth, the nodes from it up order by the lookahead; one
	// ordered by the Orderer in a shallower iteration is ordered again.
	useOrderer := s.orderer != nil && (s.p.LookaheadDepth == 0 || depth < s.p.LookaheadDepth)
	if e.key == key && e.hasEval && int(e.nOrder) >= n && (useOrderer || !e.cheap) {
		// The ordering of this position is cached: the n best moves in order.
		moves = append(moves[:0], e.order[:n]...)
		for i, m := range moves {
			if m == ttMove {
				copy(moves[1:i+1], moves[:i])
				moves[0] = m
				break
			}
		}
	} else {
		scores := &s.scores[ply]
		cheap := false // ordered by the Orderer below the lookahead depth
		if tactNode && s.tacOrder != nil {
			if !tacEval { // the Orderer ranks the position it evaluated last
				s.stats.Tactics++
				s.tactics.Evaluate(b)
			}
			s.tacOrder.MoveScores(b, scores[:])
		} else if useOrderer {
			cheap = s.p.LookaheadDepth > 0
			if cached { // the evaluator must have analysed this very position
				s.evaluate()
			}
			s.orderer.MoveScores(b, scores[:])
		} else {
			for _, m := range moves {
				s.play(me, m)
				var v float64
				if w := b.Winner(); w != hex.Empty {
					v = winFor(w, me, ply+1)
				} else {
					ck := b.Hash()
					ce := &s.tt[ck&s.ttMask]
					var r Result
					if ce.key == ck && ce.hasEval {
						r = ce.res
						s.stats.CacheHits++
					} else {
						r = s.evaluate()
						if ce.key == ck || ce.bound == 0 { // never evict a search result
							s.cacheEval(ce, ck, r)
						}
					}
					if r.Winner != hex.Empty {
						v = provedFor(r.Winner, me, ply+1)
					} else {
						v = stm(r.Value, me)
					}
				}
				s.undo(me, m)
				scores[m] = v
			}
		}
		// Selection of the n best by score (ties to the lower cell).
		for i := 0; i < n; i++ {
			bi := i
			for j := i + 1; j < len(moves); j++ {
				if scores[moves[j]] > scores[moves[bi]] ||
					scores[moves[j]] == scores[moves[bi]] && moves[j] < moves[bi] {
					bi = j
				}
			}
			moves[i], moves[bi] = moves[bi], moves[i]
		}
		moves = moves[:n]
		if e.key == key && e.hasEval && n <= orderCache {
			e.nOrder = uint8(copy(e.order[:], moves))
			e.cheap = cheap
		}
		// The transposition-table move first.
		for i, m := range moves {
			if m == ttMove {
				copy(moves[1:i+1], moves[:i])
				moves[0] = m
				break
			}
		}
	}
	alpha0 := alpha
	best, bestMove := -math.MaxFloat64, hex.NoCell
	if ply == 0 {
		s.rootFirst = moves[0]
	}
	for _, m := range moves {
		s.play(me, m)
		v, _, err := s.negamax(depth-1, ply+1, -beta, -alpha)
		s.undo(me, m)
		if err != nil {
			return best, bestMove, err
		}
		v = -v
		if v > best {
			best, bestMove = v, m
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	bound := boundExact
	switch {
	case best <= alpha0:
		bound = boundUpper
	case best >= beta:
		bound = boundLower
	}
	if e.key != key {
		*e = ttEntry{key: key}
	}
	if e.bound == 0 || int(e.depth) <= depth {
		e.score, e.move, e.depth, e.bound = toTT(best, ply), bestMove, int8(depth), bound
	}
	return best, bestMove, nil
}

// cacheEval records the evaluation of the position with hash key in entry e (replacing
// another position's entry).
func (s *Searcher) cacheEval(e *ttEntry, key uint64, r Result) {
	if e.key != key {
		*e = ttEntry{key: key}
	}
	e.hasEval, e.res, e.nOrder, e.cheap = true, r, 0, false
}

// winFor is the score for the side to move me when colour w has won, found at ply.
func winFor(w, me hex.Color, ply int) float64 {
	if w == me {
		return WinScore - float64(ply)
	}
	return -(WinScore - float64(ply))
}

// provedFor is the score for the side to move me when the evaluator proves colour w
// the winner of an unfinished position at ply (see ProvedMargin).
func provedFor(w, me hex.Color, ply int) float64 {
	if w == me {
		return WinScore - float64(ply) - ProvedMargin
	}
	return -(WinScore - float64(ply) - ProvedMargin)
}

// toTT and fromTT store win scores relative to the node, so they stay valid at another
// ply.
func toTT(v float64, ply int) float64 {
	switch {
	case v >= WinScore/2:
		return v + float64(ply)
	case v <= -WinScore/2:
		return v - float64(ply)
	}
	return v
}

func fromTT(v float64, ply int) float64 {
	switch {
	case v >= WinScore/2:
		return v - float64(ply)
	case v <= -WinScore/2:
		return v + float64(ply)
	}
	return v
}
