// Package player is hexlearn's one player: the Player that owns the whole decision of
// a move, as Benzene's player does. In order it takes the swap rule's move (swap.go),
// the opening book's proved move (engine/book), a move the goal-pattern database
// declares won, the DFPN solver's proved move (engine/solver; before the search, or
// beside it on a second core), and otherwise the search's: Monte Carlo tree search or
// alpha-beta (engine/search) over the learned evaluator of Kahl, Edelkamp &
// Hildebrand (2007, section 5; model) with H-search proofs and mustplay near the root,
// or over the exact evaluator (H-search or XH-search plus the resistance circuit,
// Anshelevich 2002; engine/circuit).
//
// Its configuration is Settings, declared once in the table of settings (spec.go):
// the flags of every command that takes a player, the GTP parameters and the table of
// docs/cli.md come from it, and every setting has an explicit default per kind of
// player and board size. The GTP engine (engine/gtp), the strength ladder (through
// 'hexlearn gtp'), self-play (selfplay) and the experiments all play with a Player.
// Trained models for every board from 5x5 to 11x11 and opening books are built into
// the binary (Builtin, BuiltinBook).
//
// It sits above engine/ and model/ and below selfplay/, so that self-play can play
// with it.
package player

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/model"
)

// Options are what a Player is given besides its settings: things no flag names.
type Options struct {
	// Notes receives one-line notes, such as the learned player's fall-back to the
	// exact player on a size without a model (nil: none).
	Notes io.Writer
	// Model, when set, is the learned player's model instead of the one
	// Settings.Model names.
	Model *model.Model
	// Terminal, when set, is the search's terminal test instead of the database
	// Settings.Patterns names.
	Terminal search.Terminal
	// Learned, when set, gives the learned player's evaluator of a w x h board
	// instead of the model's (an error wrapping ErrNoBuiltin: the exact player's
	// search plays that size): an evaluator of the caller's own, searched as the
	// model's is (MCTS or alpha-beta with H-search proofs near the root).
	Learned func(w, h int) (search.Evaluator, error)
	// Evaluator, when set, is the evaluator the player searches with on every board
	// size instead of the one its settings name, by alpha-beta without H-search
	// tactics: self-play's recording evaluator and the experiments' evaluators. The
	// book, the solver and the terminal test still follow the settings.
	Evaluator search.Evaluator
}

// Source says where a decision's move came from.
type Source string

// The sources of a move.
const (
	FromSwapRule Source = "swap rule"
	FromBook     Source = "book"
	FromPatterns Source = "patterns"
	FromSolver   Source = "solver"
	FromSearch   Source = "search"
)

// Decision is a Player's answer for one position.
type Decision struct {
	// Move is the move to play: a cell, or hex.Swap.
	Move hex.Cell
	// From says where it came from.
	From Source
	// Searched is set when a search ran (Outcome holds its result and counters);
	// after the solver ran first, the search had the part of the time it left.
	Searched bool
	// Outcome is the search's result. In a position the MCTS proves lost, where a
	// short alpha-beta search picks the move, it is the MCTS's.
	Outcome search.Outcome
}

// Player plays Hex: it chooses the move of the side to move in any position, on any
// board size (it builds its evaluators and searches for a size when it first plays
// it). It is not safe for concurrent use.
type Player struct {
	s     Settings
	opts  Options
	model *model.Model    // the learned player's model (nil: the built-in ones)
	term  search.Terminal // the terminal test (nil: none)
	book  func(w, h int) *book.Book
	bookW int // the board side of a book file (0: builtin or none)
	size  *sizeState
	last  Decision
}

// New returns the player s describes, reading the files it names. Settings it cannot
// be built with give an error wrapping ErrSettings; an unreadable file is reported as
// such, naming it.
func New(s Settings, o Options) (*Player, error) {
	p := &Player{s: s, opts: o, model: o.Model, term: o.Terminal}
	r := s.Resolve(64, false) // the kind and the files do not depend on the size
	if r.Model.V != BuiltinModel && o.Model == nil {
		if r.Kind.V == Exact {
			return nil, fmt.Errorf("%w: model %s: the exact player uses no model", ErrSettings, r.Model.V)
		}
		m, err := model.ReadFile(r.Model.V)
		if err != nil {
			return nil, err
		}
		p.model = m
	}
	if r.Patterns.V != "" && o.Terminal == nil {
		db, _, err := patterns.Load(r.Patterns.V)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.Patterns.V, err)
		}
		p.term = db
	}
	switch r.Book.V {
	case BookNone, "":
	case BookBuiltin:
		p.book = BuiltinBooks
	default:
		bk, err := ReadBook(r.Book.V, 0)
		if err != nil {
			return nil, err
		}
		p.book, p.bookW = FixedBook(bk), bookSide(bk)
	}
	if r.XH.V && r.FastVC.V {
		return nil, fmt.Errorf("%w: --xh and --fastvc: choose one connection search", ErrSettings)
	}
	if s.AMAFPriors.Set && s.AMAFPriors.V > 0 && s.Playouts.Set && s.Playouts.V == 0 {
		return nil, fmt.Errorf("%w: --amaf-priors: the AMAF ranking needs playouts (--playouts is 0)", ErrSettings)
	}
	if err := r.Params().Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrSettings, err)
	}
	return p, nil
}

// bookSide is the side of a square book's board (0 for another shape).
func bookSide(bk *book.Book) int {
	if w, h := bk.Size(); w == h {
		return w
	}
	return -1
}

// CheckSize reports whether the player's files fit a w x h board: a model or an
// opening book file made for another size is an error wrapping ErrSettings (and
// model.ErrWrongSize or book.ErrSize). The built-in models and books fit every size
// (a size without one plays without it).
func (p *Player) CheckSize(w, h int) error {
	if p.model != nil {
		if err := p.model.CheckSize(w, h); err != nil {
			return fmt.Errorf("%w: size %dx%d: %w", ErrSettings, w, h, err)
		}
	}
	if p.bookW != 0 && (p.bookW != w || w != h) {
		return fmt.Errorf("%w: %w: the book is for another board than %dx%d", ErrSettings, book.ErrSize, w, h)
	}
	return nil
}

// Settings returns the settings the player was built with (as given; Resolve gives
// every default).
func (p *Player) Settings() Settings { return p.s }

// Name names the player in logs and match reports.
func (p *Player) Name() string {
	r := p.s.Resolve(64, false)
	var s string
	switch {
	case r.Kind.V == Learned && p.model != nil:
		s = fmt.Sprintf("learned (%dx%d model)", p.model.W, p.model.H)
	case r.Kind.V == Learned:
		s = "learned"
	default:
		s = "exact (H-search"
		if r.XH.V {
			s = "exact (XH-search"
		} else if r.FastVC.V {
			s = "exact (H-search with the FastVC rules"
		}
		s += " + circuit)"
		if !r.FillIn.V {
			s += " without fill-in"
		}
		if !r.EdgeTemplates.V {
			s += " without edge templates"
		}
	}
	if p.term != nil {
		s += " + patterns"
	}
	if p.book != nil && r.Kind.V == Exact {
		s += " + book"
	}
	return s
}

// Last returns the decision of the last GenMove or Decide.
func (p *Player) Last() Decision { return p.last }

// NewGame forgets what the searches learned in earlier games (the alpha-beta
// transposition table, the MCTS's kept tree and tactics table, the solver's table):
// the next game does not depend on the games before it, as self-play needs for games
// that do not depend on how they are shared among workers. GTP's clear_board does not
// call it.
func (p *Player) NewGame() {
	if st := p.size; st != nil {
		st.searcher.ClearTT()
		if st.mcts != nil {
			st.mcts.Clear()
		}
		st.solver = nil
	}
}

// AnalysisConfig is the exact evaluator of the player's connections with the full
// H-search limits (the GTP command eval-resist).
func (p *Player) AnalysisConfig() circuit.ExactConfig {
	full, _ := p.exactConfigs(p.s.Resolve(64, false))
	return full
}

// exactConfigs are the exact evaluators of resolved settings r: full, with the full
// H-search limits, and fast, with the search's.
func (p *Player) exactConfigs(r Settings) (full, fast circuit.ExactConfig) {
	full, fast = circuit.DefaultExactConfig(), circuit.SearchExactConfig()
	if r.XH.V {
		full.VC = vc.XHConfig()
		xh := vc.XHConfig()
		xh.MaxFull, xh.MaxSemi, xh.MaxOr = fast.VC.MaxFull, fast.VC.MaxSemi, fast.VC.MaxOr
		fast.VC = xh
	} else {
		if r.FastVC.V {
			full.VC, fast.VC = vc.FastVCConfig(), vc.FastVCConfig()
		}
		full.VC.EdgeTemplates = r.EdgeTemplates.V
	}
	fast.FillIn = r.FillIn.V
	fast.VC.EdgeTemplates = r.EdgeTemplates.V
	return full, fast
}

// GenMove is Decide's move: the move for the side to move of b, hex.Swap when the
// swap rule is on (swap) and the player swaps. b is left unchanged.
func (p *Player) GenMove(ctx context.Context, b *hex.Board, swap bool) (hex.Cell, error) {
	d, err := p.Decide(ctx, b, swap)
	return d.Move, err
}

// Decide chooses the move for the side to move of b (b is left unchanged; it must
// not be decided yet). swap says whether the swap rule is on: the player then opens
// with a balanced move and swaps an opening that wins for its mover (swap.go).
func (p *Player) Decide(ctx context.Context, b *hex.Board, swap bool) (Decision, error) {
	p.last = Decision{Move: hex.NoCell}
	if err := ctx.Err(); err != nil {
		return p.last, err
	}
	if b.Winner() != hex.Empty || b.EmptyCells().IsEmpty() {
		return p.last, fmt.Errorf("player: the game is over")
	}
	st, err := p.sizeFor(b)
	if err != nil {
		return p.last, err
	}
	if st.learnErr != nil {
		return p.last, fmt.Errorf("player: cannot set up the evaluator: %w", st.learnErr)
	}
	work := b.Clone()
	d, err := p.decide(ctx, st, work, swap)
	if err != nil {
		return Decision{Move: hex.NoCell}, err
	}
	p.last = d
	return d, nil
}

func (p *Player) decide(ctx context.Context, st *sizeState, b *hex.Board, swap bool) (Decision, error) {
	if swap {
		if m, ok := p.swapRule(st, b); ok {
			return Decision{Move: m, From: FromSwapRule}, nil
		}
	}
	if p.book != nil {
		g := b.Geometry()
		if m, ok := p.book(g.W, g.H).Lookup(b); ok {
			return Decision{Move: m, From: FromBook}, nil
		}
	}
	if m, ok := terminalWin(p.term, b); ok {
		return Decision{Move: m, From: FromPatterns}, nil
	}
	r := st.r
	t := r.Time.V
	if r.SolveShare.V > 0 && t > 0 && (r.SolveMaxEmpty.V <= 0 || b.EmptyCells().Count() <= r.SolveMaxEmpty.V) {
		if r.SolveParallel.V {
			return st.solveBeside(ctx, b, t)
		}
		start := time.Now()
		if m, ok := st.solveRoot(ctx, b, time.Duration(r.SolveShare.V*float64(t))); ok {
			return Decision{Move: m, From: FromSolver}, nil
		}
		if err := ctx.Err(); err != nil {
			return Decision{}, err
		}
		if cands, ok := st.solver.RootCandidates(); ok && st.mcts != nil {
			// The moves the solver refuted (or found inferior) before its time ran
			// out are left out: a winning move, if there is one, is among the rest.
			st.mcts.LimitRoot(cands)
		}
		// The search gets what is left (at least a tenth of the time, so that it
		// completes its first iteration).
		t = max(t-time.Since(start), t/10)
	}
	return st.search(ctx, b, t)
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

// Params implements gtp.Parametrized: every setting as it stands on a w x h board
// (given, or its default there; the search's limits are the exact player's where the
// learned player has no model), named as param_player names it: the flag's name with
// '_' for '-'.
func (p *Player) Params(w, h int) []gtp.Param {
	r, sr, _, _ := p.resolveFor(w, h, false)
	var out []gtp.Param
	for _, sp := range Specs() {
		o := sp.field(&r)
		if sp.searchLimit {
			o = sp.field(&sr) // the exact player's search on a size without a model
		}
		typ, v := "string", o.format()
		if o.isBool() {
			typ, v = "bool", map[bool]string{false: "0", true: "1"}[v == "true"]
		}
		out = append(out, gtp.Param{Type: typ, Name: strings.ReplaceAll(sp.Name, "-", "_"), Value: v})
	}
	return out
}

// SetParam implements gtp.Parametrized: it gives one setting (named as Params names
// it) on every board size, as its flag does, and rebuilds the player (reading the
// files a changed model, patterns or book setting names).
func (p *Player) SetParam(name, value string) error {
	s := p.s
	if err := s.Set(name, value); err != nil {
		return err
	}
	np, err := New(s, p.opts)
	if err != nil {
		return err
	}
	*p = *np
	return nil
}

// Model returns the learned player's model file (nil when it plays the built-in
// models, or is the exact player).
func (p *Player) Model() *model.Model { return p.model }

// Searches returns the search of the player's last decision's board size: SearchMCTS
// for the learned player's MCTS, else SearchAlphaBeta.
func (p *Player) Searches() SearchKind {
	if p.size != nil && p.size.mcts != nil {
		return SearchMCTS
	}
	return SearchAlphaBeta
}

// RootVisits returns the root statistics of the last decision's MCTS search, the
// targets self-play records for the network (search.MCTS.RootVisits: the visits of
// every root move into visits, one slot per cell, and the root's backed-up value for
// its side to move). ok is false when the last decision ran no MCTS search (its move
// came from the swap rule, the book, the pattern database or the solver, or the
// player searches by alpha-beta).
func (p *Player) RootVisits(visits []float64) (value float64, total int, ok bool) {
	if !p.last.Searched || p.size == nil || p.size.mcts == nil {
		return 0, 0, false
	}
	return p.size.mcts.RootVisits(visits)
}
