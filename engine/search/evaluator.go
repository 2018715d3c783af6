package search

import "github.com/hexlearn/hexlearn/engine/hex"

// Evaluator scores positions for the search. It is declared here, where it is consumed;
// the exact evaluator (H-search/XH-search + resistance circuit), the learned evaluator
// (model) and logging decorators (selfplay) implement it.
type Evaluator interface {
	// Evaluate scores b. It must not change b (it may play and undo internally as long
	// as b is restored exactly).
	Evaluate(b *hex.Board) Result
}

// Result is what an evaluation tells the search.
type Result struct {
	// Value is the heuristic value from Black's point of view: positive is good for
	// Black, in the evaluator's own units (for the exact evaluator ln(R_W/R_B)).
	Value float64
	// Winner is Black or White when the position is decided: that colour has a winning
	// virtual connection, a matched goal pattern, or a finished chain. Empty otherwise.
	Winner hex.Color
	// HasMustplay is set when the opponent of the side to move has winning
	// semi-connections; the side to move must then play inside Mustplay (the
	// intersection of their carriers) or lose.
	HasMustplay bool
	Mustplay    hex.Bitset
}

// Tracker is implemented by evaluators that keep incremental state (such as the
// learned evaluator's hidden-layer accumulators). The search calls Reset with the root
// position, then Play after each stone it places and Undo after each stone it removes,
// always in stack order.
type Tracker interface {
	Reset(b *hex.Board)
	Play(c hex.Color, p hex.Cell)
	Undo(c hex.Color, p hex.Cell)
}
