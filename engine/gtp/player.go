package gtp

import (
	"errors"
	"fmt"
	"io"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// ErrNoLearned is wrapped by a Player's Learned function when it has no learned
// evaluator for a board size; genmove then searches with the exact evaluator.
var ErrNoLearned = errors.New("gtp: no learned evaluator for this board size")

// Player chooses what the searching genmove plays with. Set it with SetPlayer before
// the first search or evaluation command; the zero value is the exact evaluator with
// H-search and SearchDefaults. The engine package knows no model format: a learned
// player is given as a function that returns its evaluator per board size (package
// player builds it from a model file or the built-in models).
type Player struct {
	// Name names the player in logs and match reports ("" derives one).
	Name string
	// Learned, when set, returns the learned evaluator for a w x h board: genmove
	// searches with it, and with H-search proofs and mustplay at the nodes
	// Params.VCPlies and Params.VCMinDepth name. When it returns an error wrapping
	// ErrNoLearned the exact evaluator plays that size (with a note on Notes); any
	// other error is genmove's answer.
	Learned func(w, h int) (search.Evaluator, error)
	// Terminal, when set, decides positions before the evaluator is asked (the
	// goal-pattern database of engine/patterns). It must answer Empty for boards it
	// does not know.
	Terminal search.Terminal
	// Book, when set, returns the opening book of a w x h board (nil: none): a
	// position found in it is answered with the book's proved winning move before any
	// solver or search runs (engine/book).
	Book func(w, h int) *book.Book
	// XH makes the exact evaluator (and the learned player's proofs) use XH-search.
	XH bool
	// LeafVC makes the learned evaluator ask vc.Quick first at every node: a cheap,
	// sound test for a colour's connection between its edges (two-bridges and edge
	// bridges with disjoint carriers) that decides the node, or restricts the side to
	// move to the mustplay of the opponent's one-move threats. The exact player
	// ignores it.
	LeafVC bool
	// NoFillIn makes the exact evaluator of the search (and the learned player's
	// proofs) work on the position itself; by default they work on the position after
	// ICE fill-in (circuit.ExactConfig.FillIn), which won 62 of 96 games on 8x8 against
	// the same player without it (docs/history.md, "Fill-in in games").
	NoFillIn bool
	// NoTemplates leaves the edge templates (vc.Config.EdgeTemplates) out of the search's
	// H-search (the exact evaluator and the learned player's proofs); with them the
	// exact player won 50 of 80 games on 11x11 against the same player without them
	// (docs/history.md, "Edge templates with a support stone").
	NoTemplates bool
	// MCTS makes a learned player search with search.MCTS instead of alpha-beta: the
	// learned value at every expanded node, the evaluator's move ordering as priors,
	// H-search (proofs, mustplay) near the root and at nodes visited often, in the
	// time Params.Time gives (docs/history.md, "Monte Carlo tree search with the
	// learned value"). The learned evaluator must implement search.Orderer. The
	// exact player ignores it.
	MCTS bool
	// MCTSParams are the MCTS parameters (zero: search.DefaultMCTSParamsFor the
	// board's cells). Time is taken from Params; without a time limit there (a depth
	// limit only) MCTS takes SearchDefaults' time unless MaxExpansions is set.
	MCTSParams search.MCTSParams
	// CircuitPriors, when not zero, replaces MCTSParams.TacticsPriors: the weight
	// (up to 1) of the exact evaluator's move ordering (the circuit's energies) in
	// the priors of the nodes where MCTS asks H-search; negative: none.
	CircuitPriors float64
	// Playouts, when not zero, replaces MCTSParams.Playouts: the random playouts
	// (search.Playouts) run from every node the MCTS expands; negative: none. When
	// zero, a learned evaluator that estimates the playouts' result
	// (search.WinProbability) runs none.
	Playouts int
	// PlayoutWeight, when not zero, replaces MCTSParams.PlayoutWeight: the weight
	// (up to 1) of the playouts' mean result in an expanded node's score.
	PlayoutWeight float64
	// AMAFPriors, when not zero, replaces MCTSParams.AMAFPriors: the weight (up to
	// 1) of the playouts' AMAF ranking in the priors; negative: none. It needs
	// playouts.
	AMAFPriors float64
	// Reuse, when not zero, replaces MCTSParams.Reuse: positive keeps the subtree of
	// the position after the move played and the reply between moves, negative
	// starts a fresh tree every move.
	Reuse int
	// Params are the initial search parameters (zero: SearchDefaults()).
	Params search.Params
	// ExactParams are the search parameters of the exact evaluator on a size the
	// learned player has no evaluator for (zero: Params with SearchDefaults' k and
	// without the learned player's VC settings).
	ExactParams search.Params
	// SolveShare, when positive, gives that fraction of the time per move
	// (Params.Time; ignored without a time limit) first to the DFPN solver of
	// engine/solver, whose transposition table is kept between moves: when it proves
	// a win for the side to move, genmove plays its winning move; otherwise the
	// search gets the time that is left. At most 1.
	SolveShare float64
	// SolveMaxEmpty, when positive, asks the solver of SolveShare only in positions
	// with at most that many empty cells (where it can finish in the time).
	SolveMaxEmpty int
	// SolveParallel runs the solver of SolveShare on a second goroutine beside the
	// search instead of before it: both get the whole time per move (two cores at
	// once), a win the solver proves stops the search and is played, and otherwise
	// the search's move stands unless the solver refuted it (MCTS then plays its best
	// move among those the solver had not refuted). SolveShare must still be positive
	// to turn the solver on; its value is not used.
	SolveParallel bool
	// Notes, when set, receives one-line notes such as a fall-back to the exact
	// evaluator (the command line gives standard error).
	Notes io.Writer
}

// SetPlayer sets the player of the searching genmove and drops any search state built
// for the previous one.
func (e *Engine) SetPlayer(p Player) {
	if e.state == nil {
		e.state = map[string]any{}
	}
	e.state["player"] = p
	delete(e.state, "eval")
}

// playerOf returns the engine's player (the zero Player when none was set).
func playerOf(e *Engine) Player {
	p, _ := e.State("player", func() any { return Player{} }).(Player)
	return p
}

// Describe names the player for logs and match reports.
func (p Player) Describe() string {
	if p.Name != "" {
		return p.Name
	}
	s := "exact (H-search"
	if p.XH {
		s = "exact (XH-search"
	}
	s += " + circuit)"
	if p.NoFillIn {
		s += " without fill-in"
	}
	if p.NoTemplates {
		s += " without edge templates"
	}
	if p.Learned != nil {
		s = "learned"
	}
	if p.Terminal != nil {
		s += " + patterns"
	}
	if p.Book != nil {
		s += " + book"
	}
	return s
}

// note writes a one-line note to p.Notes, if set.
func (p Player) note(format string, a ...any) {
	if p.Notes != nil {
		fmt.Fprintf(p.Notes, format+"\n", a...)
	}
}

// learnedFor returns the learned evaluator for b's size (nil when the exact evaluator
// plays this size).
func (p Player) learnedFor(b *hex.Board) (search.Evaluator, error) {
	if p.Learned == nil {
		return nil, nil
	}
	ev, err := p.Learned(b.Width(), b.Height())
	if errors.Is(err, ErrNoLearned) {
		p.note("hexlearn gtp: no learned model for %dx%d; the exact player plays this size", b.Width(), b.Height())
		return nil, nil
	}
	return ev, err
}

// exactParams are the search parameters when the exact evaluator plays for a learned
// player (see ExactParams).
func (p Player) exactParams() search.Params {
	if p.ExactParams != (search.Params{}) {
		return p.ExactParams
	}
	q := p.Params
	if q == (search.Params{}) {
		q = SearchDefaults()
	}
	q.K, q.VCPlies, q.VCMinDepth = SearchDefaults().K, 0, 0
	return q
}
