package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
)

// BuiltinModel is the PlayerConfig.Model value (and the value of the --model flags)
// that names the models built into the binary.
const BuiltinModel = "builtin"

// BuiltinBook and NoBook are the PlayerConfig.Book values (and values of the --book
// flag) that name the opening books built into the binary, and no book.
const (
	BuiltinBook = "builtin"
	NoBook      = "none"
)

// ReadBook reads an opening book file; when n is positive the book must be for n x n
// boards (an error wrapping book.ErrSize otherwise).
func ReadBook(path string, n int) (*book.Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bk, err := book.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if w, h := bk.Size(); n > 0 && (w != n || h != n) {
		return nil, fmt.Errorf("%s: %w: the book is %dx%d, the board %dx%d", path, book.ErrSize, w, h, n, n)
	}
	return bk, nil
}

// PlayerConfig describes one of hexlearn's own players by the files it plays with,
// in the terms of the flags of 'hexlearn gtp' (Args gives those flags). Zero values
// take the engine's defaults.
type PlayerConfig struct {
	// Kind is player.Learned or player.Exact ("": learned; the learned player plays
	// the exact player's game on a size without a model, with a note).
	Kind player.Kind
	// Model is the learned player's model file; "" or BuiltinModel takes the model
	// built into the binary for each board size.
	Model string
	// Patterns is a goal-pattern database file used as the search's terminal test
	// ("": none).
	Patterns string
	// Book is the opening book: a book file, BuiltinBook (the books built into the
	// binary), NoBook, or "" for the player's default (built-in books for the learned
	// player, none for the exact player).
	Book string
	// XH makes the connections XH-search (the exact player and the learned player's
	// proofs).
	XH bool
	// NoFillIn makes the exact evaluator (and the learned player's proofs) work on the
	// position itself instead of the position after ICE fill-in (gtp.Player.NoFillIn).
	NoFillIn bool
	// NoTemplates leaves the edge templates out of the connections (exact player and the
	// learned player's proofs; gtp.Player.NoTemplates).
	NoTemplates bool
	// Size is the side of the board the player starts on (0: the model file's board,
	// else gtp.DefaultSize); a model file for another size is refused.
	Size int
	// Depth and K are the search's depth and k-best limits (0: the player's
	// defaults; Depth 0 with a time limit deepens until the clock stops).
	Depth, K int
	// Time is the time per move (0: the engine's default, gtp.SearchDefaults; a
	// negative value: no time limit).
	Time time.Duration
	// VCPlies is the learned player's number of plies with H-search proofs (0:
	// player.LearnedVCPlies; negative: none).
	VCPlies int
	// LeafVC is the learned player's cheap connection test at every node
	// (player.Config.LeafVC; 0: player.LearnedLeafVC, positive: on, negative: off).
	LeafVC int
	// SolveShare is the fraction of the time per move the solver gets first
	// (player.Config.SolveShare; 0: the player's default, negative: none).
	SolveShare float64
	// SolveMaxEmpty limits the solver to positions with at most that many empty
	// cells (player.Config.SolveMaxEmpty; 0: player.SolveMaxEmpty, negative: any).
	SolveMaxEmpty int
	// SolveParallel runs the solver beside the search on a second core
	// (player.Config.SolveParallel; 0: player.SolveParallel, positive: on, negative:
	// off).
	SolveParallel int
	// LookaheadDepth is the learned player's search.Params.LookaheadDepth
	// (player.Config.LookaheadDepth; 0: player.LearnedLookaheadDepth, negative: none).
	LookaheadDepth int
	// Order is the learned player's cheap move ordering ("": player.LearnedOrder).
	Order model.OrderMode
	// Search is the learned player's search ("": player.LearnedSearch).
	Search player.SearchKind
	// CircuitPriors is the weight of the circuit's move ordering in the learned MCTS's
	// priors (player.Config.CircuitPriors; 0: the board size's default, negative:
	// none).
	CircuitPriors float64
	// Playouts are the random playouts from every node the learned MCTS expands
	// (player.Config.Playouts; 0: the board size's default, negative: none).
	Playouts int
	// PlayoutWeight is the weight of their mean result in a node's score
	// (player.Config.PlayoutWeight; 0: the default).
	PlayoutWeight float64
	// AMAFPriors is the weight of the playouts' AMAF ranking in the priors
	// (player.Config.AMAFPriors; 0: the default, negative: none).
	AMAFPriors float64
	// Reuse keeps the learned MCTS's subtree between moves (player.Config.Reuse; 0:
	// the board size's default, positive: on, negative: off).
	Reuse int
	// Notes receives the player's one-line notes (nil: none).
	Notes io.Writer
}

// Player is a player built by NewPlayer: the GTP engine's player and the board it
// starts on.
type Player struct {
	GTP           gtp.Player
	Width, Height int
}

// Engine returns a GTP engine on an empty board of the player's size that plays with
// the player.
func (p Player) Engine() (*gtp.Engine, error) {
	b, err := hex.NewBoard(p.Width, p.Height)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	e := gtp.New()
	e.SetBoard(b)
	e.SetPlayer(p.GTP)
	return e, nil
}

// NewPlayer builds the player c describes: it loads the model and pattern files and
// checks them against the board size. A configuration it cannot honour wraps
// ErrConfig (a model file for another size also wraps model.ErrWrongSize); an
// unreadable file is reported as such.
func NewPlayer(ctx context.Context, c PlayerConfig) (Player, error) {
	if err := ctx.Err(); err != nil {
		return Player{}, err
	}
	kind := c.Kind
	if kind == "" {
		kind = player.Learned
	}
	kind, err := player.ParseKind(string(kind))
	if err != nil {
		return Player{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	if c.Size < 0 || c.Size > hex.MaxSize {
		return Player{}, fmt.Errorf("%w: board size %d (want 1..%d)", ErrConfig, c.Size, hex.MaxSize)
	}
	cfg := player.Config{Kind: kind, XH: c.XH, NoFillIn: c.NoFillIn, NoTemplates: c.NoTemplates, Depth: c.Depth, K: c.K, Time: c.Time, VCPlies: c.VCPlies, LeafVC: c.LeafVC,
		SolveShare: c.SolveShare, SolveMaxEmpty: c.SolveMaxEmpty, SolveParallel: c.SolveParallel, LookaheadDepth: c.LookaheadDepth, Order: c.Order, Search: c.Search,
		CircuitPriors: c.CircuitPriors, Playouts: c.Playouts, PlayoutWeight: c.PlayoutWeight, AMAFPriors: c.AMAFPriors, Reuse: c.Reuse, Notes: c.Notes}
	switch {
	case c.Time == 0:
		cfg.Time = gtp.SearchDefaults().Time
	case c.Time < 0:
		cfg.Time = 0 // no limit
	}
	p := Player{Width: c.Size, Height: c.Size}
	if c.Model != "" && c.Model != BuiltinModel {
		if kind == player.Exact {
			return Player{}, fmt.Errorf("%w: model %s: the exact player uses no model", ErrConfig, c.Model)
		}
		if cfg.Model, err = model.ReadFile(c.Model); err != nil {
			return Player{}, err
		}
		if c.Size == 0 {
			p.Width, p.Height = cfg.Model.W, cfg.Model.H
		} else if err := cfg.Model.CheckSize(c.Size, c.Size); err != nil {
			return Player{}, fmt.Errorf("%w: size %d: %s: %w", ErrConfig, c.Size, c.Model, err)
		}
	}
	if p.Width == 0 {
		p.Width, p.Height = gtp.DefaultSize, gtp.DefaultSize
	}
	switch c.Book {
	case "":
	case NoBook:
		cfg.NoBook = true
	case BuiltinBook:
		cfg.Book = player.BuiltinBooks
	default:
		bk, err := ReadBook(c.Book, c.Size)
		if err != nil {
			return Player{}, err
		}
		cfg.Book = player.FixedBook(bk)
	}
	if c.Patterns != "" {
		db, _, err := patterns.Load(c.Patterns)
		if err != nil {
			return Player{}, fmt.Errorf("%s: %w", c.Patterns, err)
		}
		cfg.Terminal = db
	}
	if p.GTP, err = cfg.GTP(); err != nil {
		return Player{}, fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return p, nil
}

// Args returns the flags of 'hexlearn gtp' that make the player c describes (Notes
// aside), for matches that run it as an engine of its own; the gtp command builds it
// with NewPlayer. Fields at their zero value give no flag.
func (c PlayerConfig) Args() []string {
	var a []string
	add := func(flag string, v any) { a = append(a, flag, fmt.Sprint(v)) }
	if c.Kind != "" {
		add("--player", c.Kind)
	}
	if c.XH {
		a = append(a, "--xh")
	}
	if c.NoFillIn {
		a = append(a, "--fill-in=false")
	}
	if c.NoTemplates {
		a = append(a, "--edge-templates=false")
	}
	if c.Size != 0 {
		add("--size", c.Size)
	}
	if c.Model != "" {
		add("--model", c.Model)
	}
	if c.Patterns != "" {
		add("--patterns", c.Patterns)
	}
	if c.Book != "" {
		add("--book", c.Book)
	}
	if c.Depth != 0 {
		add("--depth", c.Depth)
	}
	if c.K != 0 {
		add("--k", c.K)
	}
	switch {
	case c.Time > 0:
		add("--time", c.Time.Seconds())
	case c.Time < 0:
		add("--time", 0)
	}
	switch {
	case c.VCPlies > 0:
		add("--vc-plies", c.VCPlies)
	case c.VCPlies < 0:
		add("--vc-plies", 0)
	}
	switch {
	case c.LeafVC > 0:
		a = append(a, "--leaf-vc=true")
	case c.LeafVC < 0:
		a = append(a, "--leaf-vc=false")
	}
	switch {
	case c.SolveShare > 0:
		add("--solve-share", c.SolveShare)
	case c.SolveShare < 0:
		add("--solve-share", 0)
	}
	switch {
	case c.SolveMaxEmpty > 0:
		add("--solve-max-empty", c.SolveMaxEmpty)
	case c.SolveMaxEmpty < 0:
		add("--solve-max-empty", 0)
	}
	switch {
	case c.SolveParallel > 0:
		a = append(a, "--solve-parallel=true")
	case c.SolveParallel < 0:
		a = append(a, "--solve-parallel=false")
	}
	switch {
	case c.LookaheadDepth > 0:
		add("--lookahead-depth", c.LookaheadDepth)
	case c.LookaheadDepth < 0:
		add("--lookahead-depth", 0)
	}
	if c.Order != "" {
		add("--order", c.Order)
	}
	if c.Search != "" {
		add("--search", c.Search)
	}
	switch {
	case c.CircuitPriors > 0:
		add("--circuit-priors", c.CircuitPriors)
	case c.CircuitPriors < 0:
		add("--circuit-priors", 0)
	}
	switch {
	case c.Playouts > 0:
		add("--playouts", c.Playouts)
	case c.Playouts < 0:
		add("--playouts", 0)
	}
	if c.PlayoutWeight != 0 {
		add("--playout-weight", c.PlayoutWeight)
	}
	switch {
	case c.AMAFPriors > 0:
		add("--amaf-priors", c.AMAFPriors)
	case c.AMAFPriors < 0:
		add("--amaf-priors", 0)
	}
	switch {
	case c.Reuse > 0:
		add("--reuse", "on")
	case c.Reuse < 0:
		add("--reuse", "off")
	}
	return a
}

// CommandLine returns the command line (for sh -c) that starts the GTP engine of the
// hexlearn binary bin with the player c describes: bin gtp followed by Args, each
// word quoted for the shell where it needs it.
func (c PlayerConfig) CommandLine(bin string) string {
	words := append([]string{bin, "gtp"}, c.Args()...)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes s for sh when it holds anything but letters, digits and
// -_./=:,+@% (the empty string becomes two single quotes).
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
