package search

import (
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Terminal decides positions without searching them, as Kahl et al. (section 5) use
// their goal-pattern database: Decided returns the colour that has won, or Empty. The
// goal-pattern database of engine/patterns implements it.
type Terminal interface {
	Decided(b *hex.Board) hex.Color
}

// MustplayTerminal is a Terminal that also restricts the side to move of positions it
// leaves open: when has is set, the side to move must play inside mustplay or lose (a
// sound restriction, as Result.Mustplay). Its winner must be Decided's answer.
// vc.Quick implements it.
type MustplayTerminal interface {
	Terminal
	DecidedMustplay(b *hex.Board) (winner hex.Color, has bool, mustplay hex.Bitset)
}

// TerminalStats counts the probes of a terminal test.
type TerminalStats struct {
	Probes int64         // positions looked up
	Hits   int64         // positions decided by the terminal test
	Time   time.Duration // total time spent in lookups (measured only when Timed)
}

// WithTerminal is an Evaluator that asks a terminal test first and the inner
// evaluator only for positions the test leaves open. When the test is a
// MustplayTerminal its mustplay is added to the inner evaluator's (the intersection
// when both have one). It passes the inner evaluator's Tracker hooks through, so
// incremental evaluators stay incremental.
type WithTerminal struct {
	Inner Evaluator
	Term  Terminal
	// Timed makes every probe measure its duration into Stats.Time (two clock reads per
	// probe; leave it off when only counts are needed).
	Timed bool
	Stats TerminalStats
	// decided is set when the last Evaluate was answered by the terminal test.
	decided bool
}

// Evaluate implements Evaluator.
func (w *WithTerminal) Evaluate(b *hex.Board) Result {
	var start time.Time
	if w.Timed {
		start = time.Now()
	}
	var (
		win  hex.Color
		has  bool
		must hex.Bitset
	)
	if mt, ok := w.Term.(MustplayTerminal); ok {
		win, has, must = mt.DecidedMustplay(b)
	} else {
		win = w.Term.Decided(b)
	}
	if w.Timed {
		w.Stats.Time += time.Since(start)
	}
	w.Stats.Probes++
	w.decided = win != hex.Empty
	if win != hex.Empty {
		w.Stats.Hits++
		v := 1.0
		if win == hex.White {
			v = -1
		}
		return Result{Value: v, Winner: win}
	}
	r := w.Inner.Evaluate(b)
	if has {
		if r.HasMustplay {
			r.Mustplay = r.Mustplay.And(must)
		} else {
			r.HasMustplay, r.Mustplay = true, must
		}
	}
	return r
}

// Reset implements Tracker when the inner evaluator does.
func (w *WithTerminal) Reset(b *hex.Board) {
	if t, ok := w.Inner.(Tracker); ok {
		t.Reset(b)
	}
}

// Play implements Tracker when the inner evaluator does.
func (w *WithTerminal) Play(c hex.Color, p hex.Cell) {
	if t, ok := w.Inner.(Tracker); ok {
		t.Play(c, p)
	}
}

// Undo implements Tracker when the inner evaluator does.
func (w *WithTerminal) Undo(c hex.Color, p hex.Cell) {
	if t, ok := w.Inner.(Tracker); ok {
		t.Undo(c, p)
	}
}

// LogOdds implements WinProbability for the inner evaluator (false when it does not).
func (w *WithTerminal) LogOdds() bool {
	p, ok := w.Inner.(WinProbability)
	return ok && p.LogOdds()
}

// PlayoutEstimate implements WinProbability for the inner evaluator (false when it
// does not).
func (w *WithTerminal) PlayoutEstimate() bool {
	p, ok := w.Inner.(WinProbability)
	return ok && p.PlayoutEstimate()
}

// OrderedTerminal is WithTerminal over an inner evaluator with an Orderer (Order,
// normally the inner evaluator itself): it forwards MoveScores, first evaluating the
// position with the inner evaluator when the terminal test answered the last
// Evaluate, so the Orderer ranks the position it evaluated last.
type OrderedTerminal struct {
	WithTerminal
	Order Orderer
}

// MoveScores implements Orderer.
func (w *OrderedTerminal) MoveScores(b *hex.Board, scores []float64) {
	if w.decided {
		w.Inner.Evaluate(b)
		w.decided = false
	}
	w.Order.MoveScores(b, scores)
}
