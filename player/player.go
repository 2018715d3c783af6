// Package player builds the engines that play Hex: the exact player (alpha-beta over
// H-search or XH-search plus the resistance circuit, Anshelevich 2002) and the learned
// player of Kahl, Edelkamp & Hildebrand (2007, section 5): the same alpha-beta with a
// learned network scoring the leaves, H-search proofs and mustplay near the root
// (search.Params.VCPlies), and optionally a goal-pattern database as terminal test.
// Trained models for every board from 5x5 to 11x11 are built into the binary
// (Builtin); see BuildBuiltins for how they are made.
//
// It sits above engine/ and model/: engine/gtp knows only the gtp.Player it is handed.
package player

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// Kind names a player.
type Kind string

// The players.
const (
	// Learned searches with a learned evaluator (a model file or the built-in model of
	// the board size) plus H-search proofs near the root.
	Learned Kind = "learned"
	// Exact searches with the exact evaluator at every node.
	Exact Kind = "exact"
)

// ErrKind reports an unknown player name.
var ErrKind = errors.New("player: unknown player")

// ErrSolveShare reports a solver share of the time per move above 1 (or NaN).
var ErrSolveShare = errors.New("player: bad solve share")

// ErrCircuitPriors reports a circuit-priors weight above 1 (or NaN).
var ErrCircuitPriors = errors.New("player: bad circuit priors weight")

// ErrPlayoutWeight reports a playout weight outside 0..1 (or NaN).
var ErrPlayoutWeight = errors.New("player: bad playout weight")

// ErrAMAFPriors reports an AMAF priors weight above 1 (or NaN).
var ErrAMAFPriors = errors.New("player: bad AMAF priors weight")

// ParseKind parses a player name: learned or exact.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case Learned, Exact:
		return k, nil
	}
	return "", fmt.Errorf("%w %q (want learned or exact)", ErrKind, s)
}

// LearnedVCPlies is the learned player's default Params.VCPlies: H-search proofs and
// mustplay on the first plies from the root (measured in games, see docs/history.md).
const LearnedVCPlies = 4

// LearnedLeafVC is whether the learned player asks vc.Quick at every node by default
// (gtp.Player.LeafVC; measured in games, see docs/history.md).
const LearnedLeafVC = false

// LearnedSolveShare and ExactSolveShare are the players' default
// gtp.Player.SolveShare: the fraction of the time per move the DFPN solver gets first
// (measured in games, see docs/history.md, "The solver in every 8x8 position").
// When the solver does not finish, the MCTS learned player searches only the moves
// it had not refuted.
const (
	LearnedSolveShare = 0.75
	ExactSolveShare   = 0.0
)

// SolveMaxEmpty is the players' default gtp.Player.SolveMaxEmpty: the solver is asked
// first only in positions with at most this many empty cells (every position up to
// 8x8, where the games are decided by moves the solver proves within the time, and
// the later half of an 11x11 game).
const SolveMaxEmpty = 64

// SolveParallel is the players' default gtp.Player.SolveParallel: whether the solver
// runs beside the search on a second core instead of before it.
const SolveParallel = false

// LearnedLookaheadDepth is the learned player's default search.Params.LookaheadDepth
// (0: the 1-ply network lookahead orders every node; measured in games, see
// docs/history.md, "Cheap move ordering below the top of the tree").
const LearnedLookaheadDepth = 0

// LearnedOrder is the learned player's default cheap move ordering below its lookahead
// depth (model.Ordering; models without two-distance features order by potential).
const LearnedOrder = model.OrderMix

// Config describes a player.
type Config struct {
	Kind Kind
	// Model is the learned player's model; nil takes the built-in model of each board
	// size (sizes without one are played by the exact player, with a note).
	Model *model.Model
	// Terminal is an optional goal-pattern database (answering Empty on other sizes).
	Terminal search.Terminal
	// Book gives the opening book of each board size (gtp.Player.Book); nil takes
	// the built-in books (BuiltinBooks) for the learned player and none for the exact
	// player, unless NoBook is set.
	Book func(w, h int) *book.Book
	// NoBook plays without an opening book.
	NoBook bool
	// XH makes the connections XH-search (exact player and the learned player's proofs).
	XH bool
	// NoFillIn makes the exact evaluator (and the learned player's proofs) work on the
	// position itself instead of the position after ICE fill-in (gtp.Player.NoFillIn).
	NoFillIn bool
	// NoTemplates leaves the edge templates out of the connections (exact player and the
	// learned player's proofs; gtp.Player.NoTemplates).
	NoTemplates bool
	// Depth, K and Time are the search limits; Depth 0 means no depth limit when Time is
	// set (iterative deepening until the clock stops), else the engine default.
	Depth, K int
	Time     time.Duration
	// VCPlies is the learned player's Params.VCPlies: 0 takes LearnedVCPlies, a
	// negative value turns the H-search proofs off (the learned player before they
	// were added).
	VCPlies int
	// LeafVC is whether the learned search asks vc.Quick's cheap connection test at
	// every node (gtp.Player.LeafVC): 0 takes LearnedLeafVC, positive turns it on,
	// negative off.
	LeafVC int
	// SolveShare is gtp.Player.SolveShare, the fraction of the time per move the
	// solver gets first: 0 takes the player's default (LearnedSolveShare,
	// ExactSolveShare), a negative value none; at most 1.
	SolveShare float64
	// SolveMaxEmpty is gtp.Player.SolveMaxEmpty: 0 takes SolveMaxEmpty, a negative
	// value asks the solver in every position.
	SolveMaxEmpty int
	// SolveParallel is gtp.Player.SolveParallel (the solver beside the search, each
	// with the whole time per move, on two cores): 0 takes SolveParallel, positive
	// turns it on, negative off.
	SolveParallel int
	// LookaheadDepth is the learned player's Params.LookaheadDepth: nodes with fewer
	// plies left than it order their moves by the model's cheap ordering (Order)
	// instead of evaluating every child. 0 takes LearnedLookaheadDepth, a negative
	// value turns the cheap ordering off.
	LookaheadDepth int
	// Order is the cheap ordering ("": LearnedOrder); models without two-distance
	// features always order by potential.
	Order model.OrderMode
	// Search is the learned player's search ("": LearnedSearch); the exact player
	// always searches with alpha-beta.
	Search SearchKind
	// CircuitPriors is gtp.Player.CircuitPriors, the weight of the circuit's move
	// ordering in the learned MCTS's priors where H-search is asked: 0 takes the
	// board size's default (search.DefaultMCTSParamsFor), negative none, at most 1.
	CircuitPriors float64
	// Playouts is gtp.Player.Playouts, the random playouts from every node the
	// learned MCTS expands: 0 takes the board size's default
	// (search.DefaultMCTSParamsFor), negative none.
	Playouts int
	// PlayoutWeight is gtp.Player.PlayoutWeight, the weight of the playouts' mean
	// result in a node's score: 0 takes the default, at most 1.
	PlayoutWeight float64
	// AMAFPriors is gtp.Player.AMAFPriors, the weight of the playouts' AMAF
	// ranking in the learned MCTS's priors: 0 takes the board size's default,
	// negative none, at most 1.
	AMAFPriors float64
	// Reuse is gtp.Player.Reuse: positive keeps the learned MCTS's subtree between
	// moves, negative never, 0 the board size's default.
	Reuse int
	// Notes receives one-line notes (stderr on the command line).
	Notes io.Writer
}

// Params returns the search parameters of c.
func (c Config) Params() search.Params {
	p := gtp.SearchDefaults()
	p.Time = c.Time
	switch {
	case c.Depth > 0:
		p.Depth = c.Depth
	case c.Time > 0:
		p.Depth = search.MaxDepth // equal-time play: no hidden depth cap
	}
	if c.Kind == Learned {
		p.K, p.VCPlies = LearnedK, LearnedVCPlies
		switch {
		case c.VCPlies > 0:
			p.VCPlies = c.VCPlies
		case c.VCPlies < 0:
			p.VCPlies = 0
		}
		p.LookaheadDepth = c.lookahead()
		if c.search() == SearchMCTS && p.LookaheadDepth == 0 {
			// The evaluator has the cheap ordering for MCTS's priors; alpha-beta
			// (which plays lost positions) keeps its 1-ply lookahead at every node.
			p.LookaheadDepth = 1
		}
	}
	if c.K > 0 {
		p.K = c.K
	}
	return p
}

// SearchKind names the learned player's search.
type SearchKind string

// The learned player's searches.
const (
	// SearchMCTS is search.MCTS: the learned value at every expanded node, the
	// model's cheap move ordering as priors, H-search near the root.
	SearchMCTS SearchKind = "mcts"
	// SearchAlphaBeta is search.Searcher: alpha-beta with k-best pruning and
	// iterative deepening (Kahl et al., section 5).
	SearchAlphaBeta SearchKind = "alphabeta"
)

// LearnedSearch is the learned player's default search (measured in games, see
// docs/history.md, "Monte Carlo tree search with the learned value").
const LearnedSearch = SearchMCTS

// ErrSearch reports an unknown search name.
var ErrSearch = errors.New("player: unknown search")

// ParseSearch parses a search name: mcts or alphabeta.
func ParseSearch(s string) (SearchKind, error) {
	switch k := SearchKind(strings.ToLower(strings.TrimSpace(s))); k {
	case SearchMCTS, SearchAlphaBeta:
		return k, nil
	}
	return "", fmt.Errorf("%w %q (want mcts or alphabeta)", ErrSearch, s)
}

// search is the learned player's search ("": LearnedSearch).
func (c Config) search() SearchKind {
	if c.Search == "" {
		return LearnedSearch
	}
	return c.Search
}

// LearnedK is the learned player's default k-best limit.
const LearnedK = 10

// GTP returns the gtp.Player for c.
func (c Config) GTP() (gtp.Player, error) {
	if c.Kind == "" {
		c.Kind = Exact
	}
	if _, err := ParseKind(string(c.Kind)); err != nil {
		return gtp.Player{}, err
	}
	if _, err := ParseSearch(string(c.search())); err != nil {
		return gtp.Player{}, err
	}
	if !(c.SolveShare <= 1) { // NaN too
		return gtp.Player{}, fmt.Errorf("%w: solve share %g (want at most 1)", ErrSolveShare, c.SolveShare)
	}
	if !(c.CircuitPriors <= 1) { // NaN too
		return gtp.Player{}, fmt.Errorf("%w: circuit priors weight %g (want at most 1)", ErrCircuitPriors, c.CircuitPriors)
	}
	if !(c.PlayoutWeight >= 0 && c.PlayoutWeight <= 1) { // NaN too
		return gtp.Player{}, fmt.Errorf("%w: playout weight %g (want 0..1)", ErrPlayoutWeight, c.PlayoutWeight)
	}
	if !(c.AMAFPriors <= 1) { // NaN too
		return gtp.Player{}, fmt.Errorf("%w: AMAF priors weight %g (want at most 1)", ErrAMAFPriors, c.AMAFPriors)
	}
	p := gtp.Player{Terminal: c.Terminal, XH: c.XH, NoFillIn: c.NoFillIn, NoTemplates: c.NoTemplates, Params: c.Params(), Notes: c.Notes}
	switch {
	case c.NoBook:
	case c.Book != nil:
		p.Book = c.Book
	case c.Kind == Learned:
		p.Book = BuiltinBooks
	}
	switch {
	case c.SolveShare > 0:
		p.SolveShare = c.SolveShare
	case c.SolveShare == 0 && c.Kind == Learned:
		p.SolveShare = LearnedSolveShare
	case c.SolveShare == 0:
		p.SolveShare = ExactSolveShare
	}
	if p.SolveShare > 0 {
		switch {
		case c.SolveMaxEmpty > 0:
			p.SolveMaxEmpty = c.SolveMaxEmpty
		case c.SolveMaxEmpty == 0:
			p.SolveMaxEmpty = SolveMaxEmpty
		}
		p.SolveParallel = c.SolveParallel > 0 || c.SolveParallel == 0 && SolveParallel
	}
	if c.Kind == Learned {
		p.LeafVC = c.LeafVC > 0 || c.LeafVC == 0 && LearnedLeafVC
		p.MCTS = c.search() == SearchMCTS
		p.CircuitPriors = c.CircuitPriors
		p.Playouts, p.PlayoutWeight = c.Playouts, c.PlayoutWeight
		p.AMAFPriors = c.AMAFPriors
		p.Reuse = c.Reuse
	}
	if err := p.Params.Validate(); err != nil {
		return gtp.Player{}, err
	}
	if c.Kind == Learned {
		exact := c
		exact.Kind = Exact
		p.ExactParams = exact.Params() // for sizes without a model
		p.Learned = c.evaluatorFor
		p.Name = "learned"
		if c.Model != nil {
			p.Name = fmt.Sprintf("learned (%dx%d model)", c.Model.W, c.Model.H)
		}
		if c.Terminal != nil {
			p.Name += " + patterns"
		}
	}
	return p, nil
}

// evaluatorFor is the learned evaluator of a w x h board: the configured model (an
// error wrapping model.ErrWrongSize on another size) or the built-in one.
func (c Config) evaluatorFor(w, h int) (search.Evaluator, error) {
	m := c.Model
	if m == nil {
		var err error
		if m, err = Builtin(w, h); err != nil {
			return nil, err
		}
	}
	e, err := model.NewEvaluator(m, w, h)
	if err != nil || c.lookahead() == 0 && c.search() != SearchMCTS {
		return e, err
	}
	mode := c.Order
	if mode == "" {
		mode = LearnedOrder
	}
	if m.Features != model.FeaturesTwoDist {
		mode = model.OrderPotential
	}
	return model.NewOrdering(e, mode)
}

// lookahead is the learned player's Params.LookaheadDepth.
func (c Config) lookahead() int {
	switch {
	case c.LookaheadDepth > 0:
		return c.LookaheadDepth
	case c.LookaheadDepth < 0:
		return 0
	}
	return LearnedLookaheadDepth
}
