package search

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// MCTSParams are the parameters of the value-guided Monte Carlo tree search (MCTS).
type MCTSParams struct {
	// Time bounds the search (0: no limit; then MaxExpansions must be set).
	Time time.Duration
	// MaxExpansions bounds the number of nodes expanded (0: no limit). With it and
	// no time limit the search is deterministic.
	MaxExpansions int
	// CPuct weighs exploration: a child's selection score is its mean score plus
	// CPuct · prior · sqrt(N+1)/(1+n), N the parent's and n the child's visits.
	CPuct float64
	// Scale maps an evaluator value v (in its own units) to a score in (-1, 1):
	// tanh(v/Scale). An evaluator whose values are log-odds (WinProbability) is
	// scored tanh(v/2) whatever Scale is.
	Scale float64
	// RankTemp shapes the priors: the move ranked r by the evaluator's ordering
	// (Orderer) gets a prior proportional to exp(-r/RankTemp).
	RankTemp float64
	// FPU is how much less than its parent's mean score an unvisited child is worth
	// (first-play urgency).
	FPU float64
	// VCPlies: nodes less than this many plies from the root ask the tactics
	// evaluator when they are expanded (proofs and mustplay).
	VCPlies int
	// VCVisits: deeper nodes ask it once they have been visited this often (0: never).
	VCVisits int
	// TacticsPriors mixes, at the nodes where the tactics evaluator is asked and leaves
	// the game open, its move ordering (when it implements Orderer, as the exact
	// evaluator's circuit energies do) into the children's priors: prior = (1-w) ·
	// the evaluator's rank prior + w · the tactics' rank prior (0: the evaluator's
	// alone). On 11x11 the circuit's ordering, which the learned network ranks worse,
	// turned the learned player from 32–48 into 50–30 against the exact player
	// (docs/history.md, "The circuit's move ordering as MCTS priors").
	TacticsPriors float64
	// Reuse keeps, when a search's position follows the previous search's root by at
	// most two moves (the move played and the reply), that position's subtree: its
	// visits, scores and proofs. Off by default: it lost 12–20 against a fresh tree
	// per move on 8x8 (docs/history.md, "Monte Carlo tree search with the learned
	// value").
	Reuse bool
	// Playouts is the number of random playouts (Playouts) run from every expanded
	// node; their mean result is mixed into the node's score with PlayoutWeight
	// (0: none).
	Playouts int
	// PlayoutWeight is the weight 0..1 of the playouts' mean result in an expanded
	// node's score: (1-w) · the evaluator's score + w · the playouts' (AlphaGo's λ).
	PlayoutWeight float64
	// Seed seeds the playouts' random choices.
	Seed uint64
	// AMAFPriors mixes into the priors of an expanded node's children how its
	// playouts ranked their cells (AMAF: the side to move's wins among the
	// playouts in which it owned the cell at the end): prior = (1-w) · the
	// evaluator's rank prior + w · the AMAF rank prior, before TacticsPriors mixes
	// in the tactics' ordering. It needs Playouts (0: none).
	AMAFPriors float64
	// TacticsTable is the number of positions whose tactics answers (and move scores)
	// the search remembers, within a search and from one search to the next, so that
	// a position met again costs no second call (0: none). DefaultMCTSParams: 1024.
	TacticsTable int
	// AnchorPlies: the positions at most this many plies below the root that ask the
	// tactics are evaluated from the root's state when the tactics evaluator can
	// (ChildEvaluator: the exact evaluator updates the root's connections for the
	// stones instead of building them, about a third of an evaluation per stone on
	// 11x11, without the position's own fill-in) (0: never).
	AnchorPlies int
}

// DefaultMCTSParams are the learned player's MCTS parameters on 8x8 (measured in
// games, docs/history.md, "Monte Carlo tree search with the learned value").
func DefaultMCTSParams() MCTSParams {
	return MCTSParams{CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1, VCPlies: 2, VCVisits: 8, TacticsTable: DefaultTacticsTable, AnchorPlies: DefaultAnchorPlies}
}

// DefaultMCTSParamsFor are DefaultMCTSParams for a board of the given number of
// cells: H-search's cost grows about with the square of the cells, so VCVisits does
// too, 8·(cells/64)² rounded, at least 4 (8x8: 8; 11x11: 29, where 32 won 26–14
// against 8). Above 64 cells the tactics' move ordering gives the priors where the
// tactics are asked (TacticsPriors LargeBoardTacticsPriors; up to 8x8 it did not
// pay), and every expanded node runs LargeBoardPlayouts random playouts whose mean
// result weighs LargeBoardPlayoutWeight in its score.
func DefaultMCTSParamsFor(cells int) MCTSParams {
	p := DefaultMCTSParams()
	r := float64(cells) / 64
	p.VCVisits = max(4, int(math.Round(8*r*r)))
	if cells > 64 {
		p.TacticsPriors = LargeBoardTacticsPriors
		p.Playouts, p.PlayoutWeight = LargeBoardPlayouts, LargeBoardPlayoutWeight
	}
	return p
}

// DefaultTacticsTable is DefaultMCTSParams' TacticsTable: about 3 MB, the tactics
// answers of the last few dozen moves' searches.
const DefaultTacticsTable = 1024

// DefaultAnchorPlies is DefaultMCTSParams' AnchorPlies: the root's children.
const DefaultAnchorPlies = 1

// LargeBoardTacticsPriors is DefaultMCTSParamsFor's TacticsPriors above 64 cells
// (measured on 11x11, docs/history.md, "The circuit's move ordering as MCTS priors").
const LargeBoardTacticsPriors = 1.0

// LargeBoardPlayouts and LargeBoardPlayoutWeight are DefaultMCTSParamsFor's
// Playouts and PlayoutWeight above 64 cells (measured on 11x11, docs/history.md,
// "Random playouts in the learned MCTS").
const (
	LargeBoardPlayouts      = 32
	LargeBoardPlayoutWeight = 0.8
)

// Validate reports whether p is usable.
func (p MCTSParams) Validate() error {
	switch {
	case p.Time < 0:
		return fmt.Errorf("%w: negative MCTS time limit %v", ErrParams, p.Time)
	case p.MaxExpansions < 0:
		return fmt.Errorf("%w: negative MCTS expansion limit %d", ErrParams, p.MaxExpansions)
	case !(p.CPuct > 0) || !(p.Scale > 0) || !(p.RankTemp > 0):
		return fmt.Errorf("%w: MCTS cpuct %g, scale %g and rank temperature %g must be positive", ErrParams, p.CPuct, p.Scale, p.RankTemp)
	case !(p.FPU >= 0):
		return fmt.Errorf("%w: MCTS first-play urgency %g (want >= 0)", ErrParams, p.FPU)
	case !(p.TacticsPriors >= 0 && p.TacticsPriors <= 1):
		return fmt.Errorf("%w: MCTS tactics priors weight %g (want 0..1)", ErrParams, p.TacticsPriors)
	case p.Playouts < 0 || !(p.PlayoutWeight >= 0 && p.PlayoutWeight <= 1):
		return fmt.Errorf("%w: MCTS playouts %d (want >= 0) and playout weight %g (want 0..1)", ErrParams, p.Playouts, p.PlayoutWeight)
	case !(p.AMAFPriors >= 0 && p.AMAFPriors <= 1):
		return fmt.Errorf("%w: MCTS AMAF priors weight %g (want 0..1)", ErrParams, p.AMAFPriors)
	case p.AMAFPriors > 0 && p.Playouts == 0:
		return fmt.Errorf("%w: MCTS AMAF priors need playouts", ErrParams)
	case p.AnchorPlies < 0 || p.AnchorPlies > MaxDepth:
		return fmt.Errorf("%w: MCTS anchor plies %d (want 0..%d)", ErrParams, p.AnchorPlies, MaxDepth)
	case p.TacticsTable < 0 || p.TacticsTable > 1<<20:
		return fmt.Errorf("%w: MCTS tactics table of %d positions (want 0..%d)", ErrParams, p.TacticsTable, 1<<20)
	case p.VCPlies < 0 || p.VCVisits < 0:
		return fmt.Errorf("%w: MCTS vc plies %d and vc visits %d must not be negative", ErrParams, p.VCPlies, p.VCVisits)
	}
	return nil
}

// maxPool bounds the tree: a search stops when it holds this many nodes (about 130 MB;
// 0.2 s per move on 11x11 makes about 50,000).
const maxPool = 1 << 22

// mnode is a node of the tree: the position after move. Its scores are from the
// point of view of the player who played move (the parent's side to move).
type mnode struct {
	move   hex.Cell
	visits int32
	first  int32 // index of the first child in the pool (-1: not expanded)
	n      int32 // number of children
	proven int8  // +1: the player who played move wins; -1: that player loses; 0: open
	tact   bool  // the tactics evaluator has analysed this node
	prior  float32
	wsum   float64 // sum of the backed-up scores
}

// MCTS is a Monte Carlo tree search guided by an evaluator's values instead of
// playouts, for an evaluator much cheaper than H-search such as the learned one.
// Each simulation descends from the root by the PUCT rule (mean score plus a prior-
// weighted exploration term), expands one node with a single evaluation (its value
// is backed up) and the evaluator's move ordering (Orderer) as the priors of its
// children. The tactics evaluator (H-search: proofs and mustplay) is asked at the
// nodes near the root and at every node visited often enough; proved wins and
// losses propagate up the tree (MCTS-solver, Winands et al. 2008), moves outside a
// mustplay count as lost, and a root proved won plays a move the tactics prove keeps
// the win. A reusable workspace: the node pool is kept between searches, so a
// search allocates only while the tree grows beyond every earlier one. Not safe for
// concurrent use.
type MCTS struct {
	ev      Evaluator
	orderer Orderer
	tactics Evaluator
	torder  Orderer        // the tactics evaluator's move ordering (nil: it has none)
	tchild  ChildEvaluator // the tactics evaluator's positions below the root (nil: none)
	tt      *tacticsTable  // MCTSParams.TacticsTable (nil until first used)
	tlast   *tacticsEntry  // the entry of tacticsEval's last position (nil: none)
	tracker Tracker
	logOdds bool // the evaluator's values are log-odds (WinProbability)
	policy  bool // the evaluator's move scores are a policy's logits (PolicyOrderer)
	p       MCTSParams
	b       *hex.Board
	pool    []mnode
	spare   []mnode // the next pool when a subtree is kept
	queue   []int32
	// prev is the root position of the last search (stones and side to move) while
	// its tree is in pool.
	prev struct {
		ok           bool
		black, white hex.Bitset
		toMove       hex.Color
		w, h         int
	}
	// limit restricts the root's moves of the next search (LimitRoot).
	limit struct {
		ok  bool
		set hex.Bitset
	}
	path   []int32
	moves  []hex.Cell
	cells  []hex.Cell
	scores [hex.NumPoints]float64
	tprior [hex.NumPoints]float64 // the tactics' rank priors (mixTacticsPriors)
	stats  Stats
	po     *Playouts
	amaf   AMAF // the AMAF counts of the last expansion's playouts (AMAFPriors)
}

// NewMCTS returns an MCTS over ev, which must implement Orderer (its move ordering
// gives the priors), with the tactics evaluator tactics (nil: none) and parameters p.
func NewMCTS(ev, tactics Evaluator, p MCTSParams) (*MCTS, error) {
	if ev == nil {
		return nil, fmt.Errorf("%w: nil evaluator", ErrParams)
	}
	o, ok := ev.(Orderer)
	if !ok {
		return nil, fmt.Errorf("%w: MCTS needs an evaluator with a move ordering (search.Orderer)", ErrParams)
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	m := &MCTS{ev: ev, orderer: o, tactics: tactics, p: p}
	m.tracker, _ = ev.(Tracker)
	if wp, ok := ev.(WinProbability); ok {
		m.logOdds = wp.LogOdds()
	}
	if po, ok := ev.(PolicyOrderer); ok {
		m.policy = po.PolicyLogits()
	}
	m.torder, _ = tactics.(Orderer)
	m.tchild, _ = tactics.(ChildEvaluator)
	return m, nil
}

// Params returns the parameters.
func (m *MCTS) Params() MCTSParams { return m.p }

// SetParams changes the parameters.
func (m *MCTS) SetParams(p MCTSParams) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.Seed != m.p.Seed {
		m.po = nil // the next playouts follow the new seed
	}
	m.p = p
	return nil
}

// Clear forgets what earlier searches left behind: the kept tree (Reuse), the
// tactics table and the playouts' random state, so that the next search does not
// depend on the searches before it (a new game of self-play).
func (m *MCTS) Clear() {
	m.prev.ok, m.limit.ok = false, false
	m.tt, m.tlast, m.po = nil, nil, nil
}

// LimitRoot restricts the root of the next Search to the moves of set (among those
// the tactics' mustplay allows): for example the moves a solver stopped at its time
// limit had not refuted. A set that leaves no move is ignored. The next search
// starts a fresh tree (no Reuse); later searches are not restricted.
func (m *MCTS) LimitRoot(set hex.Bitset) {
	m.limit.ok, m.limit.set = true, set
}

// Search searches b for the side to move and returns the move with the most visits
// (a proved win first; moves proved lost last). b is restored before it returns.
// Outcome.Score is the move's mean score in (-1, 1) for the side to move, or
// ±(WinScore-1) when proved; Stats.Nodes counts expansions and Stats.Depth is the
// deepest ply the tree reached. Without a time limit or an expansion limit it stops
// after 2^20 simulations; it also stops when the tree holds 2^22 nodes.
func (m *MCTS) Search(ctx context.Context, b *hex.Board) (Outcome, error) {
	start := time.Now()
	ctx, empty, err := searchable(ctx, b)
	if err != nil {
		return Outcome{Move: hex.NoCell}, err
	}
	m.b, m.stats = b, Stats{}
	if m.tracker != nil {
		m.tracker.Reset(b)
	}
	var deadline time.Time
	if m.p.Time > 0 {
		deadline = start.Add(m.p.Time)
	}
	m.path = append(m.path[:0], 0)
	m.moves = m.moves[:0]
	defer func() { m.limit.ok = false }()
	if m.limit.ok || !m.reuse(b) {
		m.pool = append(m.pool[:0], mnode{move: hex.NoCell, first: -1})
		m.expand(0, 0)
	} else if m.tactics != nil {
		m.consultKept(0, 0) // the kept nodes were expanded deeper down, without H-search
	}
	m.prev.ok, m.prev.toMove, m.prev.w, m.prev.h = true, b.ToMove(), b.Width(), b.Height()
	m.prev.black, m.prev.white = b.Stones(hex.Black), b.Stones(hex.White)
	for it := 0; m.pool[0].proven == 0; it++ {
		if m.p.MaxExpansions > 0 && m.stats.Nodes >= int64(m.p.MaxExpansions) {
			break
		}
		if m.p.MaxExpansions == 0 && m.p.Time == 0 && it >= 1<<20 || len(m.pool) >= maxPool {
			break
		}
		if it&7 == 0 && (!deadline.IsZero() && time.Now().After(deadline) || ctx.Err() != nil) {
			m.stats.TimedOut = true
			break
		}
		m.simulate()
	}
	out := m.outcome(b.ToMove(), empty)
	m.stats.Time = time.Since(start)
	out.Stats = m.stats
	if err := ctx.Err(); err != nil && m.stats.Nodes <= 1 {
		return out, err
	}
	return out, nil
}

// reuse makes the subtree of b's position in the previous search's tree the new
// tree, when b follows that search's root by at most two moves (its side to move's
// stone, then the opponent's) and the subtree is expanded. It reports whether it did.
func (m *MCTS) reuse(b *hex.Board) bool {
	pv := &m.prev
	if !m.p.Reuse || !pv.ok || pv.w != b.Width() || pv.h != b.Height() || len(m.pool) == 0 {
		return false
	}
	bl, wh := b.Stones(hex.Black), b.Stones(hex.White)
	if !pv.black.SubsetOf(&bl) || !pv.white.SubsetOf(&wh) {
		return false
	}
	mine, theirs := bl.AndNot(pv.black), wh.AndNot(pv.white)
	if pv.toMove == hex.White {
		mine, theirs = theirs, mine
	}
	var path [2]hex.Cell
	n := 0
	switch nm, nt := mine.Count(), theirs.Count(); {
	case nm == 0 && nt == 0 && b.ToMove() == pv.toMove:
	case nm == 1 && nt == 0 && b.ToMove() == pv.toMove.Opp():
		path[0], n = mine.First(), 1
	case nm == 1 && nt == 1 && b.ToMove() == pv.toMove:
		path[0], path[1], n = mine.First(), theirs.First(), 2
	default:
		return false
	}
	idx := int32(0)
	for _, mv := range path[:n] {
		nd := &m.pool[idx]
		next := int32(-1)
		for i := nd.first; nd.first >= 0 && i < nd.first+nd.n; i++ {
			if m.pool[i].move == mv {
				next = i
				break
			}
		}
		if next < 0 {
			return false
		}
		idx = next
	}
	if kept := &m.pool[idx]; kept.first < 0 || kept.n == 0 {
		return false // not expanded, or ended without children (proved at expansion)
	} else if kept.proven < 0 && !m.provenChild(idx) {
		// Proved won for its side to move as an inner node, without a child that keeps
		// the win: as the root it must find one (consult and proveRoot).
		kept.proven, kept.tact = 0, false
	}
	// Copy the subtree breadth first, each node's children kept contiguous.
	sp := append(m.spare[:0], m.pool[idx])
	sp[0].move = hex.NoCell
	m.queue = append(m.queue[:0], idx)
	for head := 0; head < len(m.queue); head++ {
		old := &m.pool[m.queue[head]]
		if old.first < 0 {
			continue
		}
		first := int32(len(sp))
		for i := old.first; i < old.first+old.n; i++ {
			sp = append(sp, m.pool[i])
			m.queue = append(m.queue, i)
		}
		sp[head].first = first
	}
	m.pool, m.spare = sp, m.pool
	m.stats.Reused = int64(len(sp))
	return true
}

// consultKept asks the tactics evaluator about the kept node idx (the current board,
// ply plies from the new root) and its expanded descendants that are now less than
// VCPlies plies from the root and were expanded without it, as a fresh search would
// have on expanding them: proofs, mustplay and the tactics' priors.
func (m *MCTS) consultKept(idx int32, ply int) {
	if ply >= m.p.VCPlies {
		return
	}
	if nd := &m.pool[idx]; !nd.tact && nd.proven == 0 {
		m.consult(idx, ply, nil)
	}
	nd := &m.pool[idx]
	if nd.proven != 0 || ply+1 >= m.p.VCPlies {
		return
	}
	me := m.b.ToMove()
	for i := nd.first; i < nd.first+nd.n; i++ {
		if c := &m.pool[i]; c.first < 0 || c.proven != 0 {
			continue
		}
		mv := m.pool[i].move
		m.play(me, mv)
		m.consultKept(i, ply+1)
		m.undo(mv)
	}
	m.resolve(idx)
}

// provenChild reports whether a child of idx is a proved win for idx's side to move.
func (m *MCTS) provenChild(idx int32) bool {
	nd := &m.pool[idx]
	for i := nd.first; i < nd.first+nd.n; i++ {
		if m.pool[i].proven > 0 {
			return true
		}
	}
	return false
}

// outcome reads the root's best move and score for me.
func (m *MCTS) outcome(me hex.Color, empty hex.Bitset) Outcome {
	root := &m.pool[0]
	best := int32(-1)
	for i := root.first; i >= 0 && i < root.first+root.n; i++ {
		if m.pool[i].proven > 0 {
			best = i
			break
		}
		if best < 0 || m.better(i, best) {
			best = i
		}
	}
	out := Outcome{Move: hex.NoCell}
	if best >= 0 {
		c := &m.pool[best]
		out.Move = c.move
		switch {
		case c.proven > 0:
			out.Score = WinScore - 1
		case c.proven < 0:
			out.Score = -(WinScore - 1)
		case c.visits > 0:
			out.Score = c.wsum / float64(c.visits)
		}
	}
	if out.Move == hex.NoCell {
		out.Move = empty.First()
	}
	switch {
	case root.proven < 0: // the player who moved into the root loses
		out.Winner = me
		out.Score = WinScore - 1
	case root.proven > 0:
		out.Winner = me.Opp()
		out.Score = -(WinScore - 1)
	}
	out.Value = stm(out.Score, me)
	return out
}

// RootVisits writes the last search's root statistics, the targets a network learns
// from the search (Expert Iteration, AlphaZero): visits[p] becomes the number of
// visits of the root's child p (0 for every other cell; visits must have a slot per
// cell of the board), and value is the root's backed-up score for its side to move, in
// [-1, 1] (±1 when proved). total is the sum of the children's visits; ok is false
// when there was no search.
func (m *MCTS) RootVisits(visits []float64) (value float64, total int, ok bool) {
	if len(m.pool) == 0 || m.b == nil {
		return 0, 0, false
	}
	clear(visits)
	root := &m.pool[0]
	for i := root.first; i >= 0 && i < root.first+root.n; i++ {
		c := &m.pool[i]
		visits[c.move] = float64(c.visits)
		total += int(c.visits)
	}
	switch {
	case root.proven < 0: // the player who moved into the root loses
		value = 1
	case root.proven > 0:
		value = -1
	case root.visits > 0:
		value = -root.wsum / float64(root.visits)
	}
	return value, total, true
}

// BestAmong returns the last search's best root move among the moves of set (the
// order of Search's choice: a proved win, then the most visits, then the higher
// prior; moves proved lost last), and false when the last search's root has no
// child in set (or there was no search). A caller that learns after the search
// which moves are refuted, such as a solver running beside it, chooses with it.
func (m *MCTS) BestAmong(set hex.Bitset) (hex.Cell, bool) {
	if len(m.pool) == 0 {
		return hex.NoCell, false
	}
	root := &m.pool[0]
	best := int32(-1)
	for i := root.first; i >= 0 && i < root.first+root.n; i++ {
		if !set.Has(m.pool[i].move) {
			continue
		}
		if m.pool[i].proven > 0 {
			return m.pool[i].move, true
		}
		if best < 0 || m.better(i, best) {
			best = i
		}
	}
	if best < 0 {
		return hex.NoCell, false
	}
	return m.pool[best].move, true
}

// better reports whether child a is a better final choice than child b: not proved
// lost, then more visits, then the higher prior.
func (m *MCTS) better(a, b int32) bool {
	x, y := &m.pool[a], &m.pool[b]
	if (x.proven < 0) != (y.proven < 0) {
		return y.proven < 0
	}
	if x.visits != y.visits {
		return x.visits > y.visits
	}
	return x.prior > y.prior
}

// simulate descends from the root to a node not yet expanded, expands it and backs
// its score up the path.
func (m *MCTS) simulate() {
	m.path = append(m.path[:0], 0)
	m.moves = m.moves[:0]
	b := m.b
	idx := int32(0)
	for m.pool[idx].first >= 0 && m.pool[idx].proven == 0 {
		if nd := &m.pool[idx]; !nd.tact && m.tactics != nil && m.p.VCVisits > 0 && int(nd.visits) >= m.p.VCVisits {
			m.consult(idx, len(m.moves), m.moves)
			if m.pool[idx].proven != 0 {
				break
			}
		}
		c := m.selectChild(idx)
		if c < 0 {
			break
		}
		mv := m.pool[c].move
		m.play(b.ToMove(), mv)
		m.moves = append(m.moves, mv)
		m.path = append(m.path, c)
		idx = c
	}
	m.stats.Depth = max(m.stats.Depth, len(m.moves))
	// v is the score for the player who moved into idx.
	var v float64
	switch nd := &m.pool[idx]; {
	case nd.proven != 0:
		v = float64(nd.proven)
	case nd.first < 0:
		v = m.expand(idx, len(m.path)-1)
	}
	for i := len(m.path) - 1; i >= 0; i-- {
		n := &m.pool[m.path[i]]
		n.visits++
		n.wsum += v
		v = -v
		if i < len(m.path)-1 {
			m.resolve(m.path[i])
		}
	}
	for i := len(m.moves) - 1; i >= 0; i-- {
		m.undo(m.moves[i])
	}
}

// resolve marks node idx proved when one of its children is a proved win for idx's
// side to move (idx is then lost for the player who moved into it) or every child
// is a proved loss.
func (m *MCTS) resolve(idx int32) {
	nd := &m.pool[idx]
	if nd.proven != 0 || nd.first < 0 {
		return
	}
	all := true
	for i := nd.first; i < nd.first+nd.n; i++ {
		switch m.pool[i].proven {
		case 1:
			nd.proven = -1
			return
		case 0:
			all = false
		}
	}
	if all {
		nd.proven = 1
	}
}

// selectChild picks the child of idx to descend into: a proved win at once, else the
// highest PUCT score among the children not proved lost (-1 if there is none).
func (m *MCTS) selectChild(idx int32) int32 {
	nd := &m.pool[idx]
	sq := math.Sqrt(float64(nd.visits) + 1)
	fpu := -m.p.FPU
	if nd.visits > 0 {
		fpu = -nd.wsum/float64(nd.visits) - m.p.FPU
	}
	best, bestU := int32(-1), math.Inf(-1)
	for i := nd.first; i < nd.first+nd.n; i++ {
		c := &m.pool[i]
		if c.proven > 0 {
			return i
		}
		if c.proven < 0 {
			continue
		}
		q := fpu
		if c.visits > 0 {
			q = c.wsum / float64(c.visits)
		}
		if u := q + m.p.CPuct*float64(c.prior)*sq/float64(1+c.visits); u > bestU {
			best, bestU = i, u
		}
	}
	return best
}

func (m *MCTS) play(c hex.Color, p hex.Cell) {
	m.b.PlayStone(c, p)
	if m.tracker != nil {
		m.tracker.Play(c, p)
	}
}

func (m *MCTS) undo(p hex.Cell) {
	c := m.b.At(p)
	m.b.Undo()
	if m.tracker != nil {
		m.tracker.Undo(c, p)
	}
}

// consult asks the tactics evaluator about the current board, the position of the
// expanded node idx, ply plies below the root by the stones of line (nil: not known;
// see tacticsAt): a proved winner ends the node (at the root, a proved win for
// the side to move is kept open until a child proves it, see proveRoot); a mustplay
// marks the children outside it lost.
func (m *MCTS) consult(idx int32, ply int, line []hex.Cell) {
	nd := &m.pool[idx]
	nd.tact = true
	r := m.tacticsAt(m.b, ply, line)
	me := m.b.ToMove()
	switch {
	case r.Winner == me && idx == 0:
		m.proveRoot()
		return
	case r.Winner == me:
		nd.proven = -1
		return
	case r.Winner == me.Opp():
		nd.proven = 1
		return
	}
	m.mixTacticsPriors(idx)
	if !r.HasMustplay {
		return
	}
	for i := nd.first; i < nd.first+nd.n; i++ {
		if !r.Mustplay.Has(m.pool[i].move) {
			m.pool[i].proven = -1
		}
	}
	m.resolve(idx)
}

// proveRoot asks the tactics evaluator about every child of the root, which the
// tactics prove won for the side to move, until one is proved lost for the
// opponent: that child is then a proved win, and so is the root.
func (m *MCTS) proveRoot() {
	b := m.b
	me := b.ToMove()
	root := &m.pool[0]
	for i := root.first; i < root.first+root.n; i++ {
		p := m.pool[i].move
		m.play(me, p)
		if b.Winner() == me || m.tacticsEval(b).Winner == me {
			m.pool[i].proven = 1
		}
		m.undo(p)
		if m.pool[i].proven > 0 {
			m.pool[0].proven = -1
			return
		}
	}
}

// verdict applies what an evaluation r of node idx (the current board) decides: a
// proved winner ends the node (its proven value is returned), except a root won for
// the side to move, which sets rootWon (a move that keeps the win must be found);
// a mustplay narrows cand. 0: the node stays open.
func (m *MCTS) verdict(idx int32, r Result, cand *hex.Bitset, rootWon *bool) int8 {
	me := m.b.ToMove()
	nd := &m.pool[idx]
	switch {
	case r.Winner == me && idx == 0:
		*rootWon = true
	case r.Winner == me:
		nd.proven = -1
	case r.Winner == me.Opp():
		nd.proven = 1
	case r.HasMustplay:
		*cand = cand.And(r.Mustplay)
	}
	return nd.proven
}

// expand creates the children of node idx (the current board, ply plies from the
// root) and returns idx's score for the player who moved into it.
func (m *MCTS) expand(idx int32, ply int) float64 {
	m.stats.Nodes++
	b := m.b
	me := b.ToMove()
	nd := &m.pool[idx]
	nd.first = int32(len(m.pool))
	if w := b.Winner(); w != hex.Empty {
		nd.proven = 1
		if w == me {
			nd.proven = -1
		}
		return float64(nd.proven)
	}
	cand := b.EmptyCells()
	rootWon, tacOpen := false, false
	if m.tactics != nil && ply < m.p.VCPlies {
		nd.tact = true
		tr := m.tacticsAt(b, ply, m.moves)
		if p := m.verdict(idx, tr, &cand, &rootWon); p != 0 {
			return float64(p)
		}
		tacOpen = tr.Winner == hex.Empty
	}
	m.stats.Evals++
	r := m.ev.Evaluate(b)
	if p := m.verdict(idx, r, &cand, &rootWon); p != 0 {
		return float64(p)
	}
	if idx == 0 && m.limit.ok {
		if c := cand.And(m.limit.set); !c.IsEmpty() {
			cand = c
		}
	}
	scale := m.p.Scale
	if m.logOdds {
		scale = 2 // tanh(z/2) = 2p − 1
	}
	v := math.Tanh(stm(r.Value, me) / scale) // for the side to move
	if m.p.Playouts > 0 {
		if m.po == nil {
			m.po = NewPlayouts(m.p.Seed)
		}
		var a *AMAF
		if m.p.AMAFPriors > 0 {
			a = &m.amaf
		}
		w := m.po.RunAMAF(b, m.p.Playouts, a)
		m.stats.Playouts += int64(m.p.Playouts)
		pv := 2*float64(w)/float64(m.p.Playouts) - 1
		v = (1-m.p.PlayoutWeight)*v + m.p.PlayoutWeight*pv
	}
	m.orderer.MoveScores(b, m.scores[:])
	m.cells = cand.AppendCells(m.cells[:0])
	if m.policy {
		m.softmaxPriors(&m.scores)
	} else {
		m.rankPriors(&m.scores)
	}
	if w := m.p.AMAFPriors; w > 0 && m.amaf.N > 0 {
		m.mixAMAFPriors(me, w)
	}
	for _, p := range m.cells {
		m.pool = append(m.pool, mnode{move: p, first: -1, prior: float32(m.scores[p])})
	}
	nd = &m.pool[idx]
	nd.n = int32(len(m.cells))
	switch {
	case nd.n == 0: // an empty mustplay: the side to move loses
		nd.proven = 1
		return 1
	case rootWon && m.tactics != nil:
		m.proveRoot()
		if m.pool[0].proven != 0 {
			return float64(m.pool[0].proven)
		}
	}
	if tacOpen && !rootWon { // (proveRoot has moved the tactics' last position)
		m.mixTacticsPriors(idx)
	}
	return -v
}

// rankPriors turns the move scores sc of the cells in m.cells into rank priors: the
// cell ranked r (highest score first, ties in cell order) gets exp(-r/RankTemp),
// normalised over m.cells, written to sc[cell]. m.cells ends sorted by rank.
func (m *MCTS) rankPriors(sc *[hex.NumPoints]float64) {
	slices.SortStableFunc(m.cells, func(x, y hex.Cell) int { return cmp.Compare(sc[y], sc[x]) })
	var sum float64
	for r := range m.cells {
		sum += math.Exp(-float64(r) / m.p.RankTemp)
	}
	for r, p := range m.cells {
		sc[p] = math.Exp(-float64(r)/m.p.RankTemp) / sum
	}
}

// softmaxPriors turns the logits sc of the cells in m.cells into the policy's priors:
// their softmax over m.cells, written to sc[cell]. m.cells ends sorted by prior.
func (m *MCTS) softmaxPriors(sc *[hex.NumPoints]float64) {
	slices.SortStableFunc(m.cells, func(x, y hex.Cell) int { return cmp.Compare(sc[y], sc[x]) })
	if len(m.cells) == 0 {
		return
	}
	top := sc[m.cells[0]]
	var sum float64
	for _, p := range m.cells {
		sc[p] = math.Exp(sc[p] - top)
		sum += sc[p]
	}
	for _, p := range m.cells {
		sc[p] /= sum
	}
}

// mixAMAFPriors mixes with weight w the rank priors of the AMAF win rates of the
// last playouts (of the board being expanded, me to move) into the priors in
// m.scores of the cells in m.cells. The win rate (won+1)/(owned+2) keeps a cell the
// playouts never gave me from dividing by zero.
func (m *MCTS) mixAMAFPriors(me hex.Color, w float64) {
	a := &m.amaf
	for _, p := range m.cells {
		m.tprior[p] = float64(a.Won[me][p]+1) / float64(a.Own[me][p]+2)
	}
	m.rankPriors(&m.tprior) // m.cells keeps its cells, in the AMAF ranking's order
	for _, p := range m.cells {
		m.scores[p] = (1-w)*m.scores[p] + w*m.tprior[p]
	}
}

// mixTacticsPriors mixes the tactics evaluator's move ordering of the current board,
// the position of the expanded node idx, into its children's priors (TacticsPriors).
// It is called right after the tactics evaluated that board and left it open.
func (m *MCTS) mixTacticsPriors(idx int32) {
	w := m.p.TacticsPriors
	nd := &m.pool[idx]
	if w <= 0 || m.torder == nil || nd.n == 0 {
		return
	}
	m.tacticsScores(m.b, m.tprior[:])
	m.cells = m.cells[:0]
	for i := nd.first; i < nd.first+nd.n; i++ {
		m.cells = append(m.cells, m.pool[i].move)
	}
	m.rankPriors(&m.tprior)
	for i := nd.first; i < nd.first+nd.n; i++ {
		c := &m.pool[i]
		c.prior = float32((1-w)*float64(c.prior) + w*m.tprior[c.move])
	}
}
