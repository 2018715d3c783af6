package solver

import (
	"context"
	"errors"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Finder is a goal-pattern finder (engine/patterns.Finder and MoveFinder) on the DFPN
// solver: a colour's winning carrier is the proof set of its win with the opponent to
// move, so a pattern stores a position the solver proved won, reduced to the cells the
// proof needs. One solver, whose table is kept from position to position (the
// positions of one game share their subtrees), answers every question within
// Timeout (a position it does not decide in time has no pattern).
type Finder struct {
	Timeout time.Duration
	s       *Solver
}

// NewFinder returns a Finder that gives each position at most timeout (0: no limit).
func NewFinder(timeout time.Duration) *Finder {
	return &Finder{Timeout: timeout, s: New(DefaultConfig())}
}

// solve decides b as it stands within the time limit; ok is false when it did not.
func (f *Finder) solve(b *hex.Board) (Result, bool, error) {
	ctx := context.Background()
	if f.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, f.Timeout)
		defer cancel()
	}
	r, err := f.s.Solve(ctx, b)
	switch {
	case errors.Is(err, ErrLimit):
		return r, false, nil
	case err != nil:
		return r, false, err
	}
	return r, true, nil
}

// WinningCarrier reports whether c wins b with its opponent to move and, if so, the
// proof set of that win (the empty cells whose state matters: c still wins when every
// other empty cell is the opponent's).
func (f *Finder) WinningCarrier(b *hex.Board, c hex.Color) (hex.Bitset, bool, error) {
	if w := b.Winner(); w != hex.Empty {
		return hex.Bitset{}, w == c, nil
	}
	p := b.Clone()
	p.SetToMove(c.Opp())
	r, ok, err := f.solve(p)
	if !ok || r.Winner != c {
		return hex.Bitset{}, false, err
	}
	return r.Proof, true, nil
}

// WinningMove returns a winning move of b's side to move, when the solver proves one
// within the time limit. A position the mover wins by a connection it already has is
// decided without a move (its own pattern, WinningCarrier, covers it).
func (f *Finder) WinningMove(b *hex.Board) (hex.Cell, bool, error) {
	if b.Winner() != hex.Empty {
		return hex.NoCell, false, nil
	}
	r, ok, err := f.solve(b)
	if !ok || r.Winner != b.ToMove() || r.Move == hex.NoCell {
		return hex.NoCell, false, err
	}
	return r.Move, true, nil
}
