package loop

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/stats"
	"github.com/hexlearn/hexlearn/player"
)

// GateConfig configures the gate: the candidate plays the best network's player at
// equal time per move (or, with Expansions, at equal work: the same number of MCTS
// expansions per move, which makes the gate and so the whole loop depend on the seed
// alone, not on the machine), each seeded opening twice with the colours exchanged, until a
// sequential probability ratio test (SPRT, Wald 1945) decides between "no stronger"
// (Elo0) and "stronger by Elo1", or MaxGames are played.
type GateConfig struct {
	// Time is each player's time per move (when Expansions is 0).
	Time time.Duration
	// Expansions, when above 0, replaces Time: each player makes this many MCTS
	// expansions per move, whatever the machine, so the gate's games and decision
	// follow from the seed.
	Expansions int `json:"Expansions,omitempty"`
	// MaxGames bounds the games (pairs of games: it is rounded up to an even number);
	// MinGames are played before the test may stop.
	MaxGames, MinGames int
	// Elo0 and Elo1 are the test's hypotheses (Elo1 > Elo0), Alpha and Beta its error
	// rates.
	Elo0, Elo1, Alpha, Beta float64
	// Seed chooses the openings (one first stone per pair of games).
	Seed uint64
}

// DefaultGate is the gate of DefaultConfig.
func DefaultGate() GateConfig {
	return GateConfig{Time: 200 * time.Millisecond, MaxGames: 128, MinGames: 16, Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05}
}

// Validate reports a gate that cannot run.
func (g GateConfig) Validate() error {
	switch {
	case g.Expansions < 0:
		return fmt.Errorf("%w: gate expansions per move %d (want >= 0)", ErrConfig, g.Expansions)
	case g.Expansions == 0 && g.Time <= 0:
		return fmt.Errorf("%w: gate time per move %v (want > 0, or expansions per move)", ErrConfig, g.Time)
	case g.MaxGames < 2 || g.MinGames < 0 || g.MinGames > g.MaxGames:
		return fmt.Errorf("%w: gate games %d to %d (want 0 <= min <= max, max >= 2)", ErrConfig, g.MinGames, g.MaxGames)
	case !(g.Elo1 > g.Elo0):
		return fmt.Errorf("%w: SPRT hypotheses elo0 %g, elo1 %g (want elo1 > elo0)", ErrConfig, g.Elo0, g.Elo1)
	case !(g.Alpha > 0 && g.Alpha < 0.5 && g.Beta > 0 && g.Beta < 0.5):
		return fmt.Errorf("%w: SPRT error rates %g, %g (want 0..0.5)", ErrConfig, g.Alpha, g.Beta)
	}
	return nil
}

// GameRecord is one game of a gate.
type GameRecord struct {
	Opening        string `json:"opening"`
	CandidateBlack bool   `json:"candidate_black"`
	CandidateWon   bool   `json:"candidate_won"`
	Moves          int    `json:"moves"`
}

// GateResult is what a gate decided, with the games so far (a gate that was stopped
// resumes from them).
type GateResult struct {
	Games []GameRecord `json:"games"`
	// Wins are the candidate's wins; Lo and Hi the 95% Wilson interval of its score.
	Wins   int     `json:"wins"`
	Lo, Hi float64 `json:"-"`
	// LLR is the SPRT's log-likelihood ratio; Lower and Upper its bounds.
	LLR, Lower, Upper float64
	// Done is set when the gate has decided; Accepted when the candidate passed (the
	// SPRT accepted "stronger", or MaxGames were played with the Wilson interval above
	// 50%).
	Done, Accepted bool
	// Reason says how the gate decided.
	Reason string
}

// Score is the candidate's score (wins over games; 0.5 before any game).
func (r GateResult) Score() float64 {
	if len(r.Games) == 0 {
		return 0.5
	}
	return float64(r.Wins) / float64(len(r.Games))
}

// EloDiff returns the candidate's Elo advantage implied by its score and the same
// for the ends of the score's Wilson interval (±800 at a score of 0 or 1).
func (r GateResult) EloDiff() (elo, lo, hi float64) {
	l, h := stats.Wilson(r.Wins, len(r.Games))
	return eloOf(r.Score()), eloOf(l), eloOf(h)
}

// eloOf is the Elo difference of an expected score s, clamped to ±800.
func eloOf(s float64) float64 {
	if s <= 0 {
		return -800
	}
	if s >= 1 {
		return 800
	}
	return math.Max(-800, math.Min(800, -400*math.Log10(1/s-1)))
}

// sprt returns the log-likelihood ratio of wins in games between the hypotheses
// elo0 and elo1 (the expected scores of those Elo differences), and its bounds
// log(β/(1−α)) and log((1−β)/α).
func sprt(wins, games int, g GateConfig) (llr, lower, upper float64) {
	p0, p1 := expected(g.Elo0), expected(g.Elo1)
	w, l := float64(wins), float64(games-wins)
	llr = w*math.Log(p1/p0) + l*math.Log((1-p1)/(1-p0))
	return llr, math.Log(g.Beta / (1 - g.Alpha)), math.Log((1 - g.Beta) / g.Alpha)
}

// expected is the expected score of an Elo advantage.
func expected(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// decide updates r's counts, test and decision after its games.
func (r *GateResult) decide(g GateConfig) {
	r.Wins = 0
	for _, gm := range r.Games {
		if gm.CandidateWon {
			r.Wins++
		}
	}
	n := len(r.Games)
	r.Lo, r.Hi = stats.Wilson(r.Wins, n)
	r.LLR, r.Lower, r.Upper = sprt(r.Wins, n, g)
	switch {
	case n%2 == 1 || n < g.MinGames:
	case r.LLR >= r.Upper:
		r.Done, r.Accepted, r.Reason = true, true, fmt.Sprintf("SPRT accepted elo1 %g (LLR %.2f >= %.2f)", g.Elo1, r.LLR, r.Upper)
	case r.LLR <= r.Lower:
		r.Done, r.Reason = true, fmt.Sprintf("SPRT accepted elo0 %g (LLR %.2f <= %.2f)", g.Elo0, r.LLR, r.Lower)
	case n >= g.MaxGames:
		r.Done, r.Accepted = true, r.Lo > 0.5
		r.Reason = fmt.Sprintf("%d games without an SPRT decision (LLR %.2f): Wilson interval %.1f–%.1f%%", n, r.LLR, 100*r.Lo, 100*r.Hi)
	}
}

// Gate plays the candidate's player against the best's until the gate decides,
// continuing the games of r (nil: none yet); after every game it calls save with the
// result so far (a gate stopped by ctx resumes from the last one saved).
func Gate(ctx context.Context, size int, g GateConfig, candidate, best *player.Player, r *GateResult, save func(GateResult) error) (GateResult, error) {
	if err := g.Validate(); err != nil {
		return GateResult{}, err
	}
	var res GateResult
	if r != nil {
		res = *r
	}
	res.decide(g)
	maxGames := g.MaxGames + g.MaxGames%2
	openings := gateOpenings(size, maxGames, g.Seed)
	geom := hex.MustGeometry(size, size)
	for !res.Done && len(res.Games) < maxGames {
		i := len(res.Games)
		open := openings[(i/2)%len(openings)]
		candBlack := i%2 == 0
		black, white := candidate, best
		if !candBlack {
			black, white = best, candidate
		}
		winner, moves, err := PlayGame(ctx, size, open, black, white)
		if err != nil {
			return res, err
		}
		res.Games = append(res.Games, GameRecord{Opening: geom.CellName(open), CandidateBlack: candBlack,
			CandidateWon: (winner == hex.Black) == candBlack, Moves: moves})
		res.decide(g)
		if save != nil {
			if err := save(res); err != nil {
				return res, err
			}
		}
	}
	return res, nil
}

// PlayGame plays one game in process on a size x size board that starts with Black's
// stone on opening, black and white taking turns (each with a fresh game,
// player.Player.NewGame), and returns the winner and the number of moves.
func PlayGame(ctx context.Context, size int, opening hex.Cell, black, white *player.Player) (hex.Color, int, error) {
	b := hex.MustBoard(size, size)
	if err := b.Play(hex.Move{Color: hex.Black, Cell: opening}); err != nil {
		return hex.Empty, 0, fmt.Errorf("loop: opening: %w", err)
	}
	black.NewGame()
	white.NewGame()
	for b.Winner() == hex.Empty {
		if err := ctx.Err(); err != nil {
			return hex.Empty, b.Ply(), err
		}
		p := black
		if b.ToMove() == hex.White {
			p = white
		}
		m, err := p.GenMove(ctx, b, false)
		if err != nil {
			return hex.Empty, b.Ply(), fmt.Errorf("loop: %s to move: %w", b.ToMove(), err)
		}
		if err := b.Play(hex.Move{Color: b.ToMove(), Cell: m}); err != nil {
			return hex.Empty, b.Ply(), fmt.Errorf("loop: %s played an illegal move: %w", b.ToMove(), err)
		}
	}
	return b.Winner(), b.Ply(), nil
}

// gateOpenings returns the opening stones of a gate of at most maxGames games (one per
// pair): maxGames/2 seeded cells, all of them when the board has no more, in a seeded
// random order. The SPRT may stop after any pair of games, so every prefix must sample
// the board, not its first rows (whose edge openings the opening stone alone decides).
func gateOpenings(size, maxGames int, seed uint64) []hex.Cell {
	openings := positions.Openings(size, maxGames/2, seed)
	rand.New(rand.NewPCG(seed, 0x67617465)).Shuffle(len(openings), func(i, j int) {
		openings[i], openings[j] = openings[j], openings[i]
	})
	return openings
}
