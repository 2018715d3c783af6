package vc

import "github.com/hexlearn/hexlearn/engine/hex"

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
