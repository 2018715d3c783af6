package player

import (
	"errors"
	"fmt"
	"strings"
	"time"

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

// ParseKind parses a player name: learned or exact.
func ParseKind(s string) (Kind, error) {
	switch k := Kind(strings.ToLower(strings.TrimSpace(s))); k {
	case Learned, Exact:
		return k, nil
	}
	return "", fmt.Errorf("%w %q (want learned or exact)", ErrKind, s)
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

// ParseSearch parses a search name: mcts or alphabeta.
func ParseSearch(s string) (SearchKind, error) {
	switch k := SearchKind(strings.ToLower(strings.TrimSpace(s))); k {
	case SearchMCTS, SearchAlphaBeta:
		return k, nil
	}
	return "", fmt.Errorf("%w %q (want mcts or alphabeta)", ErrSearch, s)
}

// Errors of the settings; each wraps ErrSettings, which callers branch on (a command
// line reports it as a usage error).
var (
	// ErrSettings reports settings a player cannot be built with.
	ErrSettings = errors.New("player: bad settings")
	// ErrKind reports an unknown player name.
	ErrKind = fmt.Errorf("%w: unknown player", ErrSettings)
	// ErrSearch reports an unknown search name.
	ErrSearch = fmt.Errorf("%w: unknown search", ErrSettings)
	// ErrUnknownSetting reports a setting name the player does not have.
	ErrUnknownSetting = fmt.Errorf("%w: unknown setting", ErrSettings)
)

// The values of the Model and Book settings that are not file names.
const (
	// BuiltinModel names the models built into the binary (Builtin).
	BuiltinModel = "builtin"
	// BookBuiltin names the opening books built into the binary (BuiltinBook).
	BookBuiltin = "builtin"
	// BookNone plays without an opening book.
	BookNone = "none"
)

// Opt is one setting of Settings: its value and whether it was given. A setting that
// was not given takes its default for the kind of player and the board size (see
// Settings.Resolve), so that the same settings play every board size with that size's
// defaults.
type Opt[T any] struct {
	V   T
	Set bool
}

// Set returns a given setting of value v.
func Set[T any](v T) Opt[T] { return Opt[T]{V: v, Set: true} }

// Settings are the whole configuration of a player: the kind of player, the files it
// plays with, its search, its solver and its connections. It is declared once, in the
// table of settings (Specs): the command-line flags (Flags), the flags that make the
// same player again (Args), the GTP parameters (Params, SetParam) and the table of
// docs/cli.md (Markdown) all come from that table. A setting not given takes the
// default Resolve gives it for the board size; the zero Settings is the learned
// player with every default.
type Settings struct {
	// Kind is the player (default Learned). On a board size without a model the
	// learned player searches as the exact player does, with a note.
	Kind Opt[Kind]
	// Model is the learned player's model: a file, or BuiltinModel (the default).
	Model Opt[string]
	// Patterns is a goal-pattern database file used as the search's terminal test
	// ("": none, the default).
	Patterns Opt[string]
	// Book is the opening book: a file, BookBuiltin or BookNone (default: BookBuiltin
	// for the learned player, BookNone for the exact player). A position found in it is
	// answered with its proved winning move before the solver or the search runs.
	Book Opt[string]
	// Search is the learned player's search (default SearchMCTS); the exact player
	// always searches with alpha-beta.
	Search Opt[SearchKind]
	// XH makes the connections XH-search instead of H-search.
	XH Opt[bool]
	// FastVC builds the connections with the FastVC rules (vc.FastVCConfig: lists that
	// keep what shrinks a pair's carrier intersection, greedy ORs over any number of
	// SCs) instead of the default H-search limits.
	FastVC Opt[bool]
	// FillIn makes the search's connections and circuits work on the position after
	// ICE fill-in (default true).
	FillIn Opt[bool]
	// EdgeTemplates takes the edge templates as base connections of the search's
	// H-search (default true).
	EdgeTemplates Opt[bool]
	// Time is the time per move (default 3 s; 0: no limit).
	Time Opt[time.Duration]
	// Depth is the alpha-beta depth limit (default: none with a time limit, else 3).
	Depth Opt[int]
	// K is the k-best successor limit (default: learned 10, exact 6; 0: every move).
	K Opt[int]
	// RootK is the successor limit at the root (default 0: the same as K).
	RootK Opt[int]
	// TTBits sets alpha-beta's transposition table to 2^TTBits entries (default 0:
	// the search's default).
	TTBits Opt[int]
	// Expansions bounds the MCTS's expanded nodes per move (default 0: none); with it
	// and no time limit the MCTS is deterministic.
	Expansions Opt[int]
	// VCPlies is the number of plies from the root where the learned alpha-beta asks
	// H-search for proofs and mustplay (default 4; 0: none).
	VCPlies Opt[int]
	// LeafVC asks vc.Quick's cheap connection test at every node of the learned
	// search (default false).
	LeafVC Opt[bool]
	// SolveShare is the fraction of the time per move the DFPN solver gets first
	// (default: learned 0.75, exact 0).
	SolveShare Opt[float64]
	// SolveMaxEmpty asks the solver only in positions with at most this many empty
	// cells (default 64; 0: in every position).
	SolveMaxEmpty Opt[int]
	// SolveParallel runs the solver beside the search on a second core, each with the
	// whole time per move, instead of before it (default false).
	SolveParallel Opt[bool]
	// LookaheadDepth: the learned alpha-beta's nodes with fewer plies left than this
	// order their moves by the cheap Order instead of evaluating every child
	// (default 0: none; the MCTS always takes the cheap ordering as its priors).
	LookaheadDepth Opt[int]
	// Order is the learned player's cheap move ordering (default model.OrderMix;
	// models without two-distance features order by potential).
	Order Opt[model.OrderMode]
	// CircuitPriors is the weight 0..1 of the circuit's move ordering in the learned
	// MCTS's priors where H-search is asked (default: 1 above 8x8, else 0).
	CircuitPriors Opt[float64]
	// Playouts are the random playouts run from every node the learned MCTS expands
	// (default: 32 above 8x8, else 0; 0 over a model that estimates them).
	Playouts Opt[int]
	// PlayoutWeight is the weight 0..1 of the playouts' mean result in a node's
	// score (default 0.8).
	PlayoutWeight Opt[float64]
	// AMAFPriors is the weight 0..1 of the playouts' AMAF ranking in the priors
	// (default 0; it needs playouts).
	AMAFPriors Opt[float64]
	// Reuse keeps the MCTS's subtree of the position after the move played and the
	// reply from one move to the next (default false).
	Reuse Opt[bool]
}

// DefaultTime is the default time per move.
const DefaultTime = 3 * time.Second

// The defaults the table of settings gives (each measured in games; docs/history.md
// records the matches).
const (
	// LearnedK and ExactK are the players' k-best limits.
	LearnedK = 10
	ExactK   = 6
	// DefaultDepth is the depth limit of a search without a time limit.
	DefaultDepth = 3
	// LearnedVCPlies: H-search proofs and mustplay on the learned alpha-beta's first
	// plies.
	LearnedVCPlies = 4
	// LearnedSolveShare is the learned player's share of the time per move for the
	// solver first; the exact player's is 0.
	LearnedSolveShare = 0.75
	// SolveMaxEmpty: the solver is asked first only in positions with at most this
	// many empty cells (every position up to 8x8, the later half of an 11x11 game).
	SolveMaxEmpty = 64
	// LearnedSearch is the learned player's search.
	LearnedSearch = SearchMCTS
	// LearnedOrder is the learned player's cheap move ordering.
	LearnedOrder = model.OrderMix
	// DefaultPlayoutWeight is the weight of the playouts' mean result.
	DefaultPlayoutWeight = search.LargeBoardPlayoutWeight
)

// Resolve returns s with every setting given: the ones s gives as they are, the rest
// at their defaults for the kind of player (Kind's default first) and a board of
// cells cells. playoutNet reports that the learned player's model estimates the
// random playouts' result (search.WinProbability): its playouts then default to
// none.
func (s Settings) Resolve(cells int, playoutNet bool) Settings {
	kind := s.Kind.V
	if !s.Kind.Set {
		kind = Learned
	}
	for _, sp := range Specs() {
		sp.resolve(&s, kind, cells, playoutNet)
	}
	return s
}

// kind is the kind of player s describes.
func (s Settings) kind() Kind {
	if !s.Kind.Set {
		return Learned
	}
	return s.Kind.V
}

// Params returns the alpha-beta parameters of resolved settings r.
func (r Settings) Params() search.Params {
	p := search.Params{Depth: r.Depth.V, K: r.K.V, RootK: r.RootK.V, Time: r.Time.V, TTBits: r.TTBits.V}
	if r.Kind.V == Learned {
		p.VCPlies, p.LookaheadDepth = r.VCPlies.V, r.LookaheadDepth.V
		if r.Search.V == SearchMCTS && p.LookaheadDepth == 0 {
			// The evaluator has the cheap ordering for MCTS's priors; alpha-beta
			// (which plays lost positions) keeps its 1-ply lookahead at every node.
			p.LookaheadDepth = 1
		}
	}
	return p
}

// MCTSParams returns the MCTS parameters of resolved settings r on a board of cells
// cells.
func (r Settings) MCTSParams(cells int) search.MCTSParams {
	mp := search.DefaultMCTSParamsFor(cells)
	mp.Time, mp.MaxExpansions = r.Time.V, r.Expansions.V
	mp.TacticsPriors = r.CircuitPriors.V
	mp.Playouts, mp.PlayoutWeight = r.Playouts.V, r.PlayoutWeight.V
	mp.AMAFPriors = r.AMAFPriors.V
	mp.Reuse = r.Reuse.V
	return mp
}

// SearchSettings are the settings of a plain alpha-beta search with the limits of p
// (depth, k, root k, time, table size), no book and no solver: the player of
// self-play and of the experiments, which search over an evaluator of their own
// (Options.Evaluator). Tactics settings of p (VCPlies, VCMinDepth, LookaheadDepth)
// have no setting: such a search has no H-search tactics.
func SearchSettings(p search.Params) Settings {
	return Settings{
		Kind: Set(Exact), Search: Set(SearchAlphaBeta), Book: Set(BookNone), SolveShare: Set(0.0),
		Depth: Set(p.Depth), K: Set(p.K), RootK: Set(p.RootK), Time: Set(p.Time), TTBits: Set(p.TTBits),
	}
}
