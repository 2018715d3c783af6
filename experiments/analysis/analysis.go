// Package analysis finds where recorded games were decided, by the virtual connections
// the players themselves search with: the first position in which H-search (after ICE
// fill-in, with the edge templates; circuit.SearchExactConfig) proves the winner
// (Anshelevich 2002, section 4: a winning VC, a winning SC of the side to move, or an
// empty mustplay), and the move that made it so. A move that proves its mover's own win
// is a find; a move into a position proved lost for its mover is a blunder, and the
// analysis counts the mover's moves that would not have been proved lost one move deep.
// With Options.Deep it also counts, before a find, the loser's moves that would have
// left the winner no reply proved to win (two moves deep).
//
// Proofs are sound, so a proved winner who loses the game gave the win away later: each
// change of the proved winner is recorded. The connections are incomplete, so "not
// proved lost" is not "safe": the counts bound the moves that avoid the proved loss
// from above. The strength ladder's SGF files (experiments/strength) are the usual input.
package analysis

import (
	"context"
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// Kind says how a game was decided.
type Kind int

const (
	// Open: the connections proved no winner before the game ended (a resignation or
	// an engine that stopped; a finished chain is a proof of its own).
	Open Kind = iota
	// Start: the first position analysed is already proved.
	Start
	// Found: a move proved its mover's own win.
	Found
	// Blunder: a move led into a position proved lost for its mover.
	Blunder
)

// String returns the kind's name as the reports print it.
func (k Kind) String() string {
	switch k {
	case Start:
		return "start"
	case Found:
		return "found"
	case Blunder:
		return "blunder"
	}
	return "open"
}

// Throw is a change of the proved winner: the side that had a proved win played into a
// position proved lost for it.
type Throw struct {
	// Ply is the number of history entries of the position proved lost; the move that
	// gave the win away came at or before it, after the last position proved won.
	Ply int
	// From is the side that had the proved win.
	From hex.Color
}

// Decision is where one game was decided.
type Decision struct {
	Kind Kind
	// Ply is the number of history entries (setup stones included) of the first
	// position with a proved winner; -1 when Kind is Open.
	Ply int
	// Winner is the proved winner at Ply.
	Winner hex.Color
	// Move is the move that led to Ply (Found and Blunder; NoCell otherwise), Mover its
	// colour.
	Move  hex.Cell
	Mover hex.Color
	// Alternatives and Legal (Blunder): the mover's moves in the position before Ply
	// that the connections do not prove lost (moves outside its mustplay count as
	// proved lost), of the empty cells it had. With
	// Options.Deep and Kind Found: the loser's moves in the position before its last
	// move that leave the winner no move proved to win and are not proved lost
	// themselves, of its empty cells. Checked reports that they were counted.
	Alternatives, Legal int
	Checked             bool
	// Throws lists every later change of the proved winner.
	Throws []Throw
}

// Options are the analysis settings.
type Options struct {
	// Deep counts the loser's safe moves two moves deep before a find (a decision of
	// every reply to every move: seconds per game on 11x11).
	Deep bool
	// VC configures H-search (zero: circuit.SearchExactConfig's, with the edge
	// templates, as the players search).
	VC vc.Config
	// NoFillIn decides positions without ICE fill-in.
	NoFillIn bool
}

// ErrGame is wrapped by every error about a game record the analysis cannot use.
var ErrGame = errors.New("analysis: bad game")

// Analyzer decides positions with the players' connections. It is a reusable
// workspace, not safe for concurrent use.
type Analyzer struct {
	opt          Options
	fd           *vc.FillDecider
	mine, theirs *vc.Builder
}

// New returns an Analyzer with the options opt.
func New(opt Options) (*Analyzer, error) {
	if opt.VC == (vc.Config{}) {
		opt.VC = circuit.SearchExactConfig().VC
		opt.VC.EdgeTemplates = true
	}
	opt.VC.StopAtWin = false // the mustplay needs every winning SC
	if err := opt.VC.Validate(); err != nil {
		return nil, fmt.Errorf("analysis: %w", err)
	}
	a := &Analyzer{opt: opt, mine: vc.NewBuilder(opt.VC), theirs: vc.NewBuilder(opt.VC)}
	if !opt.NoFillIn {
		a.fd = vc.NewFillDecider()
	}
	return a, nil
}

// proved returns the winner the connections prove on b (Empty when open); a finished
// board's winner is its own.
func (a *Analyzer) proved(b *hex.Board) (hex.Color, error) {
	d, err := a.decide(b)
	return d.Winner, err
}

// decide returns what the connections decide on b: the proved winner (a finished
// board's winner is its own) or, when the game is open, the side to move's mustplay.
func (a *Analyzer) decide(b *hex.Board) (vc.Decision, error) {
	if w := b.Winner(); w != hex.Empty {
		return vc.Decision{Winner: w}, nil
	}
	var d vc.Decision
	var err error
	if a.fd != nil {
		d, err = a.fd.Decide(b, a.mine, a.theirs)
	} else {
		d, err = vc.Decide(b, a.mine, a.theirs)
	}
	if err != nil {
		return vc.Decision{}, fmt.Errorf("analysis: %w", err)
	}
	return d, nil
}

// Analyze finds where the game whose final position (with its history) is final was
// decided. The position after the last setup stone (with the moves before it) is the
// first one analysed; a resignation ends the game. final is only read.
func (a *Analyzer) Analyze(ctx context.Context, final *hex.Board) (Decision, error) {
	if final == nil {
		return Decision{}, fmt.Errorf("%w: no board", ErrGame)
	}
	hist := final.Moves()
	start := 0
	for i := range hist {
		if final.IsSetup(i) {
			start = i + 1
		}
	}
	b, err := hex.NewBoard(final.Width(), final.Height())
	if err != nil {
		return Decision{}, fmt.Errorf("%w: %v", ErrGame, err)
	}
	for i := 0; i < start; i++ {
		// the history up to the last setup stone is the start position
		var err error
		if final.IsSetup(i) {
			err = b.PlaySetup(hist[i].Color, hist[i].Cell)
		} else {
			err = b.Play(hist[i])
		}
		if err != nil {
			return Decision{}, fmt.Errorf("%w: history entry %d: %v", ErrGame, i+1, err)
		}
	}
	if start == len(hist) {
		b.SetToMove(final.ToMove())
	}
	// proof[k] is the proved winner after start+k history entries
	proof := make([]hex.Color, 0, len(hist)-start+1)
	for i := start; ; i++ {
		if err := ctx.Err(); err != nil {
			return Decision{}, err
		}
		if i < len(hist) && hist[i].Cell != hex.Resign {
			// decide with the side the record moves next (White may move first,
			// a colour may move twice)
			b.SetToMove(hist[i].Color)
		}
		w, err := a.proved(b)
		if err != nil {
			return Decision{}, err
		}
		proof = append(proof, w)
		if i == len(hist) || hist[i].Cell == hex.Resign || b.Winner() != hex.Empty {
			break
		}
		if err := b.Play(hist[i]); err != nil {
			return Decision{}, fmt.Errorf("%w: move %d: %v", ErrGame, i+1, err)
		}
	}
	d := Decision{Kind: Open, Ply: -1, Move: hex.NoCell}
	first := -1
	for k, w := range proof {
		if w != hex.Empty {
			first = k
			break
		}
	}
	if first < 0 {
		return d, nil
	}
	d.Ply, d.Winner = start+first, proof[first]
	if first == 0 {
		d.Kind = Start
	} else {
		m := hist[d.Ply-1]
		d.Move, d.Mover = m.Cell, m.Color
		d.Kind = Found
		if d.Winner != m.Color {
			d.Kind = Blunder
		}
	}
	last := d.Winner
	for k := first + 1; k < len(proof); k++ {
		if w := proof[k]; w != hex.Empty && w != last {
			d.Throws = append(d.Throws, Throw{Ply: start + k, From: last})
			last = w
		}
	}
	// the counts, on the positions before the decision
	switch {
	case d.Kind == Blunder && d.Move >= 0:
		if err := rewind(b, d.Ply-1); err != nil {
			return Decision{}, err
		}
		d.Alternatives, d.Legal, err = a.notLost(ctx, b, d.Mover, false)
		d.Checked = err == nil
	case d.Kind == Found && a.opt.Deep && d.Ply-2 >= start && hist[d.Ply-2].Color == d.Mover.Opp() && hist[d.Ply-2].Cell >= 0:
		if err := rewind(b, d.Ply-2); err != nil {
			return Decision{}, err
		}
		d.Alternatives, d.Legal, err = a.notLost(ctx, b, d.Mover.Opp(), true)
		d.Checked = err == nil
	}
	if err != nil {
		return Decision{}, err
	}
	return d, nil
}

// rewind takes b back to its first ply history entries.
func rewind(b *hex.Board, ply int) error {
	for b.Ply() > ply {
		if !b.Undo() {
			return fmt.Errorf("%w: cannot take back move %d", ErrGame, b.Ply())
		}
	}
	return nil
}

// notLost counts x's moves on b (x to move) after which the connections do not prove
// x's loss and, with deep, after which no reply of the opponent is proved to win; and
// the empty cells. A move outside b's mustplay (the cells where the opponent's
// winning semi-connections all meet, as the players' searches restrict their moves)
// counts as proved lost. b is restored.
func (a *Analyzer) notLost(ctx context.Context, b *hex.Board, x hex.Color, deep bool) (n, legal int, err error) {
	b.SetToMove(x)
	empty := b.EmptyCells()
	legal = empty.Count()
	d, err := a.decide(b)
	b.SetToMove(x)
	switch {
	case err != nil:
		return 0, 0, err
	case d.Winner == x.Opp():
		return 0, legal, nil
	case d.Winner == hex.Empty && d.HasMustplay:
		empty = empty.And(d.Mustplay)
	}
	for c := empty.First(); c != hex.NoCell; c = empty.Next(c + 1) {
		if err := ctx.Err(); err != nil {
			return 0, 0, err
		}
		b.PlayStone(x, c)
		ok, err := a.survives(ctx, b, x, deep)
		b.Undo()
		b.SetToMove(x)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			n++
		}
	}
	return n, legal, nil
}

// survives reports whether b (x just moved) is not proved lost for x and, with deep,
// whether no reply of the opponent leads to a position proved won for it.
func (a *Analyzer) survives(ctx context.Context, b *hex.Board, x hex.Color, deep bool) (bool, error) {
	w, err := a.proved(b)
	if err != nil || w != hex.Empty || !deep {
		return w != x.Opp(), err
	}
	o := x.Opp()
	empty := b.EmptyCells()
	for r := empty.First(); r != hex.NoCell; r = empty.Next(r + 1) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		b.PlayStone(o, r)
		w, err := a.proved(b)
		b.Undo()
		b.SetToMove(o)
		if err != nil {
			return false, err
		}
		if w == o {
			return false, nil
		}
	}
	return true, nil
}
