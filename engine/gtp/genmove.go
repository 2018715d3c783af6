package gtp

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// errNoPlayer is genmove's answer on an engine without a player.
var errNoPlayer = errors.New("no player: the engine was started without one")

// cmdGenmove answers genmove COLOR: it resigns when the opponent has already joined
// its edges or no move is left, otherwise asks the player (on a copy of the board with
// COLOR to move, and the swap rule of param_game), checks the move is legal, plays it
// and answers its name.
func cmdGenmove(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 1); err != nil {
		return "", err
	}
	c, err := ArgColor(args, 0)
	if err != nil {
		return "", err
	}
	b := e.board
	p := hex.NoCell
	if w := b.Winner(); w == c.Opp() || (b.NumStones() == b.Geometry().N && w == hex.Empty) {
		p = hex.Resign
	} else if b.EmptyCells().IsEmpty() {
		p = hex.Resign
	} else {
		if e.player == nil {
			return "", fmt.Errorf("genmove: %v", errNoPlayer)
		}
		work := b.Clone()
		work.SetToMove(c)
		p, err = e.player.GenMove(e.Context(), work, e.allowSwap)
		if err != nil {
			return "", fmt.Errorf("genmove: %v", errText(err))
		}
	}
	m := hex.Move{Color: c, Cell: p}
	if err := b.Legal(m); err != nil {
		return "", fmt.Errorf("genmove: the player chose an illegal move %s: %v", b.Geometry().CellName(p), errText(err))
	}
	if err := b.Play(m); err != nil {
		return "", err
	}
	return b.Geometry().CellName(p), nil
}
