package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/progress"
)

// DefaultAdjudicateTime is the solver's time limit for the final position of a game
// in which an engine died, as the command line sets it by default.
const DefaultAdjudicateTime = 60 * time.Second

// End says how a game ended.
type End int

const (
	// EndConnection: a chain joined its player's two edges.
	EndConnection End = iota
	// EndResign: an engine resigned.
	EndResign
	// EndForfeit: an engine lost by an illegal move, a time-out, a refused command or
	// a failure while the game was set up; or it died (crashed or closed its output)
	// with adjudication off.
	EndForfeit
	// EndAdjudicated: an engine died mid-game and the solver proved the winner of the
	// final position; the game is credited to that winner.
	EndAdjudicated
	// EndNoResult: an engine died mid-game and the solver did not decide the final
	// position within its limit; the game counts for neither side.
	EndNoResult
)

// String names the ending as the reports print it.
func (e End) String() string {
	switch e {
	case EndResign:
		return "resign"
	case EndForfeit:
		return "forfeit"
	case EndAdjudicated:
		return "adjudicated"
	case EndNoResult:
		return "no result"
	}
	return "connection"
}

// Adjudication holds the limits of the solver that decides the final position of a
// game in which an engine died. The zero value turns adjudication off: an engine
// that dies forfeits the game, as one that times out does.
type Adjudication struct {
	Time     time.Duration // the solver's time limit per game (0: none)
	MaxNodes int64         // the solver's node limit per game (0: none)
}

// On reports whether dead engines' games are adjudicated (some limit is set).
func (a Adjudication) On() bool { return a.Time > 0 || a.MaxNodes > 0 }

// Validate rejects negative limits.
func (a Adjudication) Validate() error {
	if a.Time < 0 || a.MaxNodes < 0 {
		return fmt.Errorf("match: adjudication limits %v and %d nodes (want >= 0)", a.Time, a.MaxNodes)
	}
	return nil
}

// Limit describes the limits, for the reports ("60 s", "1000 nodes").
func (a Adjudication) Limit() string {
	var s string
	if a.Time > 0 {
		s = fmt.Sprintf("%g s", a.Time.Seconds())
	}
	if a.MaxNodes > 0 {
		if s != "" {
			s += " and "
		}
		s += progress.Count(a.MaxNodes, "node")
	}
	return s
}

// Verdict is the solver's judgement of a final position.
type Verdict struct {
	ToMove  hex.Color     // the side to move in the position judged
	Winner  hex.Color     // the winner with perfect play; Empty when undecided within the limits
	Nodes   int64         // the solver's nodes
	Elapsed time.Duration // the solver's time
}

// adjudicationTTBits is log2 of the solver's table entries: 22 MiB up to 8x8, 92 MiB
// above (the table is made for one position and dropped after it).
const adjudicationTTBits = 18

// Adjudicate solves the position the moves lead to on a size x size board with the
// DFPN solver (solver.DefaultConfig) within a's limits. The side to move is the
// colour after the last move's, whatever command the dead engine was answering. An
// undecided position is a Verdict with Winner Empty and no error; a cancelled ctx
// returns ctx's error.
func Adjudicate(ctx context.Context, size int, moves []hex.Move, a Adjudication) (Verdict, error) {
	b, err := hex.NewBoard(size, size)
	if err != nil {
		return Verdict{}, fmt.Errorf("match: %w", err)
	}
	for i, m := range moves {
		if err := b.Play(m); err != nil {
			return Verdict{}, fmt.Errorf("match: adjudication: move %d: %w", i+1, err)
		}
	}
	if len(moves) > 0 {
		b.SetToMove(moves[len(moves)-1].Color.Opp())
	}
	v := Verdict{ToMove: b.ToMove()}
	cfg := solver.DefaultConfig()
	cfg.TTBits, cfg.Timeout, cfg.MaxNodes = adjudicationTTBits, a.Time, a.MaxNodes
	r, err := solver.Solve(ctx, b, cfg)
	v.Nodes, v.Elapsed = r.Stats.Nodes, r.Stats.Elapsed
	switch {
	case ctx.Err() != nil:
		return v, ctx.Err()
	case errors.Is(err, solver.ErrLimit):
		return v, nil
	case err != nil:
		return v, fmt.Errorf("match: adjudication: %w", err)
	}
	v.Winner = r.Winner
	return v, nil
}

// title capitalises a colour's name ("Black").
func title(c hex.Color) string {
	if c == hex.White {
		return "White"
	}
	return "Black"
}

// adjudicatedMark is the text by which the reason of an adjudicated game says so
// (SGFEnd reads it back from an SGF comment).
const adjudicatedMark = ", adjudicated: solved win for "

// adjudicate ends the game whose engine of colour game.Died died in the position
// after game.Moves.
func adjudicate(ctx context.Context, size int, a Adjudication, game *Game) error {
	died := game.Died
	v, aerr := Adjudicate(ctx, size, game.Moves, a)
	if aerr != nil {
		return aerr
	}
	game.Verdict = v
	if v.Winner == hex.Empty {
		game.End, game.Winner = EndNoResult, hex.Empty
		game.Reason = fmt.Sprintf("%s died, no result: unsolved within %s", title(died), a.Limit())
		return nil
	}
	game.End, game.Winner = EndAdjudicated, v.Winner
	game.Reason = fmt.Sprintf("%s died%s%s", title(died), adjudicatedMark, title(v.Winner))
	return nil
}
