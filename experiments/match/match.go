// Package match plays two Hex GTP engines against each other, as the XH-search paper
// (Henderson, Arneson & Hayward 2009, section 5) and Kahl et al. (section 6) compare
// players: every opening (or K seeded openings) is played twice, each engine taking
// each colour, without swap. The referee keeps its own board: it judges the end of the
// game with the winner test, and an illegal answer, a resignation or a time-out loses.
// An engine that dies mid-game (crashes or closes its output) does not simply lose:
// with Config.Adjudicate set, the DFPN solver decides the final position and the game
// is credited to its true winner, or counts as no result when the solver does not
// decide it within its limits (Adjudicate).
package match

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// Config describes a match.
type Config struct {
	Size        int           // board side
	Openings    int           // number of openings; 0 or >= Size*Size means every cell
	Seed        uint64        // chooses the openings when Openings < Size*Size
	TimePerMove time.Duration // per-move budget passed to engines that know param_search; 0: engine default
	Grace       time.Duration // extra time before a move counts as a time-out (default 2 s + TimePerMove)
	// Adjudicate sets the solver's limits for the games in which an engine dies; the
	// zero value keeps the forfeit rule (the engine that died loses).
	Adjudicate Adjudication
	// GameDone, if set, is called after each game (for progress and SGF output).
	GameDone func(g Game)
	// Restarted, if set, is called after an engine that died during a game was
	// started again (before the next game), to send its setup commands again.
	Restarted func(c *Client) error
}

// Game is the record of one game.
type Game struct {
	Index   int        // 0-based game number
	Opening hex.Cell   // Black's first stone
	Black   string     // engine label playing Black
	White   string     // engine label playing White
	Moves   []hex.Move // every move, the opening first
	Winner  hex.Color  // the colour that won; Empty for no result
	End     End        // how the game ended
	// Reason is the referee's reason: "connection", "resign", "illegal move ...",
	// "time-out", ..., "White died, adjudicated: solved win for Black", "White died,
	// no result: unsolved within 60 s".
	Reason string
	// Died is the colour whose engine died (crashed or closed its output) after the
	// game was set up; Empty otherwise.
	Died hex.Color
	// Failure is the error of an engine that died, else "".
	Failure string
	// Verdict is the solver's judgement of the final position (EndAdjudicated and
	// EndNoResult).
	Verdict Verdict
}

// Result returns the game's result as SGF writes it: "B+", "W+R" after a
// resignation, "B+F" after a forfeit, "Void" for no result (an adjudicated game is a
// plain "B+" or "W+").
func (g Game) Result() string {
	if g.End == EndNoResult || g.Winner == hex.Empty {
		return "Void"
	}
	re := g.Winner.Letter() + "+"
	switch g.End {
	case EndResign:
		re += "R"
	case EndForfeit:
		re += "F"
	}
	return re
}

// Describe returns the result with the referee's reason, as the per-game records
// print it: "B+ (connection)", "B+ (White died, adjudicated: solved win for Black)",
// "no result (White died, no result: unsolved within 60 s)".
func (g Game) Describe() string {
	re := g.Result()
	if re == "Void" {
		re = "no result"
	}
	return re + " (" + g.Reason + ")"
}

// Result is the outcome of a match from engine A's point of view.
type Result struct {
	A, B         string
	Games        int
	WinsA, WinsB int
	WinsABlack   int     // games A won as Black
	WinsAWhite   int     // games A won as White
	Lo, Hi       float64 // A's 95% Wilson interval over the decided games
	Forfeits     int     // games ended by an illegal move, a time-out or an engine failure
	// Adjudicated counts the games an engine died in whose final position the solver
	// decided (they are in WinsA and WinsB); NoResult those it did not decide (in
	// Games only).
	Adjudicated, NoResult int
	Restarts              int // engines started again after dying in a game
	ElapsedPerMoveA       time.Duration
	ElapsedPerMoveB       time.Duration
}

// Decided returns the number of games with a winner (Games less NoResult).
func (r Result) Decided() int { return r.WinsA + r.WinsB }

// WinRate returns A's share of the decided games.
func (r Result) WinRate() float64 {
	if r.Decided() == 0 {
		return 0
	}
	return float64(r.WinsA) / float64(r.Decided())
}

// String prints the score with A's 95% Wilson interval, and the adjudicated and
// no-result games when there are any.
func (r Result) String() string {
	s := fmt.Sprintf("%s %d - %d %s over %d games: %s wins %.1f%% (95%% CI %.1f%%..%.1f%%); as Black %d, as White %d; forfeits %d",
		r.A, r.WinsA, r.WinsB, r.B, r.Games, r.A, 100*r.WinRate(), 100*r.Lo, 100*r.Hi, r.WinsABlack, r.WinsAWhite, r.Forfeits)
	if r.Adjudicated > 0 || r.NoResult > 0 {
		s += fmt.Sprintf("; adjudicated %d, no result %d", r.Adjudicated, r.NoResult)
	}
	return s
}

// Wilson returns the 95% Wilson score interval for k successes in n trials
// (stats.Wilson).
func Wilson(k, n int) (lo, hi float64) { return stats.Wilson(k, n) }

// OpeningCells returns the openings a match plays: every cell in order, or k cells
// chosen with the seed (sorted by cell index; positions.Openings).
func OpeningCells(size, k int, seed uint64) []hex.Cell { return positions.Openings(size, k, seed) }

// Run plays the match between engines a and b, each game on a fresh board.
func Run(ctx context.Context, cfg Config, a, b *Client) (Result, error) {
	g, err := hex.NewGeometry(cfg.Size, cfg.Size)
	if err != nil {
		return Result{}, fmt.Errorf("match: %w", err)
	}
	res := Result{A: a.Name(), B: b.Name()}
	if err := cfg.Adjudicate.Validate(); err != nil {
		return res, err
	}
	if cfg.Grace == 0 {
		cfg.Grace = 2*time.Second + cfg.TimePerMove
	}
	for _, c := range []*Client{a, b} {
		if err := prepare(ctx, c, cfg); err != nil {
			return res, err
		}
	}
	var timeA, timeB time.Duration
	var movesA, movesB int
	var died *Client // the engine that died in the last game
	idx := 0
	for _, op := range OpeningCells(cfg.Size, cfg.Openings, cfg.Seed) {
		for _, aBlack := range []bool{true, false} {
			black, white := a, b
			if !aBlack {
				black, white = b, a
			}
			for _, c := range []*Client{a, b} {
				if !c.Dead() && c != died {
					continue
				}
				// A crash ended the game it happened in; the next game gets a fresh
				// engine (also when its output has not closed yet: the write failed).
				if err := c.Restart(); err != nil {
					return res, err
				}
				if err := prepare(ctx, c, cfg); err != nil {
					return res, err
				}
				if cfg.Restarted != nil {
					if err := cfg.Restarted(c); err != nil {
						return res, err
					}
				}
				res.Restarts++
			}
			game, spent, err := playGame(ctx, g, cfg, op, black, white)
			if err != nil {
				return res, err
			}
			game.Index = idx
			idx++
			died = nil
			if game.Died != hex.Empty {
				died = black
				if game.Died == hex.White {
					died = white
				}
			}
			res.Games++
			switch aWon := (game.Winner == hex.Black) == aBlack; {
			case game.Winner == hex.Empty:
			case aWon:
				res.WinsA++
				if aBlack {
					res.WinsABlack++
				} else {
					res.WinsAWhite++
				}
			default:
				res.WinsB++
			}
			switch game.End {
			case EndForfeit:
				res.Forfeits++
			case EndAdjudicated:
				res.Adjudicated++
			case EndNoResult:
				res.NoResult++
			}
			if aBlack {
				timeA += spent[hex.Black].d
				movesA += spent[hex.Black].n
				timeB += spent[hex.White].d
				movesB += spent[hex.White].n
			} else {
				timeA += spent[hex.White].d
				movesA += spent[hex.White].n
				timeB += spent[hex.Black].d
				movesB += spent[hex.Black].n
			}
			if cfg.GameDone != nil {
				cfg.GameDone(game)
			}
		}
	}
	res.Lo, res.Hi = Wilson(res.WinsA, res.Decided())
	if movesA > 0 {
		res.ElapsedPerMoveA = timeA / time.Duration(movesA)
	}
	if movesB > 0 {
		res.ElapsedPerMoveB = timeB / time.Duration(movesB)
	}
	return res, nil
}

// prepare checks the engine answers and passes it the time budget if it can take one.
func prepare(ctx context.Context, c *Client, cfg Config) error {
	if _, err := c.Send(ctx, "protocol_version", 30*time.Second); err != nil {
		return err
	}
	if cfg.TimePerMove > 0 {
		known, err := c.Send(ctx, "known_command param_search", 10*time.Second)
		if err == nil && strings.TrimSpace(known) == "true" {
			secs := fmt.Sprintf("%g", cfg.TimePerMove.Seconds())
			if _, err := c.Send(ctx, "param_search time "+secs, 10*time.Second); err != nil {
				return err
			}
		}
	}
	return nil
}

type spentT struct {
	d time.Duration
	n int
}

// playGame plays one game from the opening stone; the engine that fails loses, and
// one that dies mid-game is adjudicated when cfg.Adjudicate is on.
func playGame(ctx context.Context, g *hex.Geometry, cfg Config, opening hex.Cell, black, white *Client) (Game, [3]spentT, error) {
	var spent [3]spentT
	game := Game{Opening: opening, Black: black.Name(), White: white.Name()}
	b := hex.NewBoardGeometry(g)
	players := [3]*Client{nil, black, white}
	size := fmt.Sprint(cfg.Size)
	forfeit := func(loser hex.Color, why string) (Game, [3]spentT, error) {
		game.Winner = loser.Opp()
		game.End = EndForfeit
		game.Reason = why
		game.Moves = b.Moves()
		return game, spent, nil
	}
	// failed ends the game after colour c's engine failed mid-game with err: a
	// death is adjudicated (when on), anything else forfeits with the reason why.
	failed := func(c hex.Color, why string, err error) (Game, [3]spentT, error) {
		if !errors.Is(err, ErrEngineDied) {
			return forfeit(c, why)
		}
		game.Died, game.Failure = c, err.Error()
		if !cfg.Adjudicate.On() {
			return forfeit(c, why)
		}
		game.Moves = b.Moves()
		if w := b.Winner(); w != hex.Empty { // died on the move that ended the game
			game.Winner, game.End, game.Reason = w, EndConnection, "connection"
			return game, spent, nil
		}
		if err := adjudicate(ctx, cfg.Size, cfg.Adjudicate, &game); err != nil {
			return game, spent, err
		}
		return game, spent, nil
	}
	for _, c := range []hex.Color{hex.Black, hex.White} {
		for _, cmd := range []string{"boardsize " + size, "clear_board", "play b " + g.CellName(opening)} {
			if _, err := players[c].Send(ctx, cmd, 30*time.Second); err != nil {
				if ctx.Err() != nil {
					return game, spent, ctx.Err()
				}
				return forfeit(c, "setup failed: "+err.Error())
			}
		}
	}
	b.PlayStone(hex.Black, opening)
	toMove := hex.White
	for b.Winner() == hex.Empty {
		p := players[toMove]
		start := time.Now()
		ans, err := p.Send(ctx, "genmove "+toMove.String(), cfg.Grace)
		spent[toMove].d += time.Since(start)
		spent[toMove].n++
		if ctx.Err() != nil {
			return game, spent, ctx.Err()
		}
		if err != nil {
			if errors.Is(err, ErrTimeout) {
				return forfeit(toMove, "time-out")
			}
			return failed(toMove, "engine failure: "+err.Error(), err)
		}
		word := strings.ToLower(strings.TrimSpace(ans))
		if word == "resign" {
			b.Play(hex.Move{Color: toMove, Cell: hex.Resign})
			return forfeit(toMove, "resign")
		}
		cell, perr := g.ParseCell(word)
		if perr != nil || b.At(cell) != hex.Empty {
			return forfeit(toMove, fmt.Sprintf("illegal move %q", ans))
		}
		b.PlayStone(toMove, cell)
		other := players[toMove.Opp()]
		if _, err := other.Send(ctx, "play "+toMove.String()+" "+word, 30*time.Second); err != nil {
			if ctx.Err() != nil {
				return game, spent, ctx.Err()
			}
			return failed(toMove.Opp(), "refused a legal move: "+err.Error(), err)
		}
		toMove = toMove.Opp()
	}
	game.Winner = b.Winner()
	game.End = EndConnection
	game.Reason = "connection"
	game.Moves = b.Moves()
	return game, spent, nil
}

// WinnerName returns the winning colour's name, "none" for no result.
func (g Game) WinnerName() string {
	if g.Winner == hex.Empty {
		return "none"
	}
	return g.Winner.String()
}

// WriteSummary prints a one-line-per-game log and the final score.
func WriteSummary(w io.Writer, g *hex.Geometry, games []Game, r Result) {
	for _, gm := range games {
		fmt.Fprintf(w, "game %3d opening %-4s black %-10s white %-10s winner %-5s (%s) %d moves\n",
			gm.Index+1, g.CellName(gm.Opening), gm.Black, gm.White, gm.WinnerName(), gm.Reason, len(gm.Moves))
	}
	fmt.Fprintln(w, r.String())
}
