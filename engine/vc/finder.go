package vc

import "github.com/hexlearn/hexlearn/engine/hex"

// WinningCarrier builds colour c's connections on board and reports whether c has a
// winning VC, with its smallest carrier. It makes a Builder a winning-connection finder
// for the goal-pattern database (engine/patterns' Finder); configure the Builder with
// StopAtWin when only the winning connection is wanted.
func (b *Builder) WinningCarrier(board *hex.Board, c hex.Color) (hex.Bitset, bool, error) {
	if err := b.Build(board, c); err != nil {
		return hex.Bitset{}, false, err
	}
	ok, carrier := b.WinningVC()
	return carrier, ok, nil
}
