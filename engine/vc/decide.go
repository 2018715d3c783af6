package vc

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
)

// Decision is what the virtual connections of both colours decide about a position
// with a given side to move (Anshelevich 2002, section 4: a winning VC decides the
// game; a winning SC decides it for the side to move, who plays its key; the
// opponent's winning SCs restrict the side to move to their mustplay region).
type Decision struct {
	// Winner is the colour with a proved win (Empty when the connections leave the
	// game open).
	Winner hex.Color
	// HasMustplay is set when the opponent of the side to move has winning SCs (or a
	// winning VC, then Winner is the opponent): the side to move must play inside
	// Mustplay or lose.
	HasMustplay bool
	Mustplay    hex.Bitset
	// Both reports that both builders hold b's connections (Decide stops after the side
	// to move's build when that already decides the game).
	Both bool
}

// Decide builds the connections of the side to move with mine and, unless those
// already decide the game, the opponent's with theirs, and reports the decision: the
// side to move wins with a winning VC or SC of its own; the opponent wins with a
// winning VC; otherwise the opponent's winning SCs give the mustplay region (empty
// means the side to move has lost). b must not be finished; it is only read.
func Decide(b *hex.Board, mine, theirs *Builder) (Decision, error) {
	me := b.ToMove()
	if err := mine.Build(b, me); err != nil {
		return Decision{}, err
	}
	if won, _ := mine.WinningVC(); won || len(mine.WinningSemis()) > 0 {
		return Decision{Winner: me}, nil
	}
	if err := theirs.Build(b, me.Opp()); err != nil {
		return Decision{}, err
	}
	d := Decision{Both: true}
	if won, _ := theirs.WinningVC(); won {
		d.Winner = me.Opp()
		return d, nil
	}
	if must, threatened := theirs.Mustplay(); threatened {
		d.HasMustplay, d.Mustplay = true, must
		if must.IsEmpty() {
			d.Winner = me.Opp()
		}
	}
	return d, nil
}

// FillDecider decides positions after inferior cell analysis (engine/ice): it fills the
// dead and captured cells of a copy of the position (ice.Analyzer.FillIn; every fill-in
// keeps the game value) and then decides the filled position as Decide does, so that
// connections may run through captured cells and H-search works on fewer empty cells.
// A captured set filled for a colour merges its chains; a filled board may even be
// won outright. The mustplay it reports holds only empty cells of the filled board: a
// move into a filled cell is never better than a move outside it (a dead cell is a
// pass; a cell captured by either side is answered inside its set; an inferior cell's
// fill still holds after its owner's move elsewhere, which the ice tests check for the
// pattern's own empty cells). An opponent's move on an inferior fill's support cell
// may win on the position yet lose on the filled board, so the mustplay can leave out
// such a winning move; a move that wins on the filled board wins on the position, so
// a side to move that wins keeps a winning move inside the mustplay. It is a reusable
// workspace, not safe for concurrent use.
type FillDecider struct {
	an     *ice.Analyzer
	filled *hex.Board
	res    ice.Result
}

// NewFillDecider returns a FillDecider with the embedded ICE patterns.
func NewFillDecider() *FillDecider {
	return &FillDecider{an: ice.NewAnalyzer(), filled: &hex.Board{}}
}

// Filled returns the filled position of the last Decide (valid until the next one).
func (f *FillDecider) Filled() *hex.Board { return f.filled }

// FilledCells returns the cells the last Decide filled.
func (f *FillDecider) FilledCells() hex.Bitset { return f.res.FilledCells() }

// Fill fills a copy of b (see FillDecider) and returns it (valid until the next Fill
// or Decide). b is only read and must not be nil.
func (f *FillDecider) Fill(b *hex.Board) *hex.Board {
	f.filled.CopyFrom(b)
	f.an.FillIn(f.filled, hex.Black, &f.res)
	return f.filled
}

// Decide fills a copy of b and decides it with mine and theirs (see Decide); the
// builders then hold the filled position's connections. b is only read and must not be
// finished.
func (f *FillDecider) Decide(b *hex.Board, mine, theirs *Builder) (Decision, error) {
	if b == nil {
		return Decision{}, ErrNoBoard
	}
	f.Fill(b)
	if w := f.filled.Winner(); w != hex.Empty {
		return Decision{Winner: w}, nil
	}
	return Decide(f.filled, mine, theirs)
}
