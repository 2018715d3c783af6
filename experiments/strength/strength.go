// Package strength runs a strength ladder: a round robin between Hex GTP engines at
// equal time per move, for several board sizes and time controls. Every pair plays a
// match through package match (each opening twice, each engine taking Black once, no
// swap; an engine that dies mid-game is adjudicated by the solver, match.Adjudicate);
// the games of each size and time control are fitted to Elo ratings by maximum
// likelihood (FitElo), and the results are written as a report directory: README.md,
// CSV tables, results.json, Elo plots (PNG and SVG) and one SGF file per game.
package strength

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/match"
)

// ErrConfig is returned for a configuration that cannot run.
var ErrConfig = errors.New("strength: bad configuration")

// Openings modes for Config.Openings; a positive value K plays K seeded openings on
// every size (every cell when K is at least the number of cells).
const (
	// OpeningsAuto plays every opening on boards up to AutoAllMaxSize and AutoOpenings
	// seeded openings on larger boards.
	OpeningsAuto = 0
	// OpeningsAll plays every opening on every size.
	OpeningsAll = -1
	// AutoAllMaxSize is the largest board on which OpeningsAuto plays every opening.
	AutoAllMaxSize = 8
	// AutoOpenings is the number of seeded openings OpeningsAuto plays on larger boards.
	AutoOpenings = 20
)

// TimePlaceholder in a player's command line is replaced by the time per move in
// seconds, for engines that take their time limit on the command line.
const TimePlaceholder = "{time}"

// Entrant is one entrant of the ladder (not a player of its own: an engine that the
// ladder starts): a name and the command line (run with sh -c)
// that starts its GTP engine.
type Entrant struct {
	Name string `json:"name"`
	Cmd  string `json:"command"`
	// Init holds GTP commands sent once after the engine starts (each must succeed),
	// e.g. an engine's own time setting; TimePlaceholder is replaced in them too.
	Init []string `json:"init,omitempty"`
}

// CommandFor returns the player's command line for time t per move.
func (p Entrant) CommandFor(t time.Duration) string {
	return strings.ReplaceAll(p.Cmd, TimePlaceholder, Seconds(t))
}

// Seconds formats a duration as seconds the way command lines and reports show it.
func Seconds(t time.Duration) string { return fmt.Sprintf("%g", t.Seconds()) }

// validName matches names that are safe in file paths and reports.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._+-]*$`)

// ValidName reports whether name may name a player.
func ValidName(name string) bool { return validName.MatchString(name) }

// Config describes a ladder.
type Config struct {
	Sizes    []int           // board sides, in the order played
	Times    []time.Duration // times per move, in the order played
	Players  []Entrant       // at least two; pairs are played in this order
	Openings int             // OpeningsAuto, OpeningsAll or K > 0
	Seed     uint64          // chooses the seeded openings
	Dir      string          // report directory (created)
	// Grace is the extra time before a move counts as a time-out (0: match's default).
	Grace time.Duration
	// Adjudicate sets the solver's limits for the games in which an engine dies (the
	// zero value: off, the engine that died loses).
	Adjudicate match.Adjudication
	// EngineStderr, if set, also receives the engines' standard error, which is kept
	// in the report's logs/ directory in any case.
	EngineStderr io.Writer
	// Progress, if set, is called after every game.
	Progress func(Progress)
}

// Validate checks the configuration before any game is played.
func (c *Config) Validate() error {
	if len(c.Sizes) == 0 {
		return fmt.Errorf("%w: no board size", ErrConfig)
	}
	seenSize := map[int]bool{}
	for _, s := range c.Sizes {
		if s < 2 || s > hex.MaxSize {
			return fmt.Errorf("%w: board size %d (want 2..%d)", ErrConfig, s, hex.MaxSize)
		}
		if seenSize[s] {
			return fmt.Errorf("%w: board size %d given twice", ErrConfig, s)
		}
		seenSize[s] = true
	}
	if len(c.Times) == 0 {
		return fmt.Errorf("%w: no time per move", ErrConfig)
	}
	seenTime := map[time.Duration]bool{}
	for _, t := range c.Times {
		if t <= 0 {
			return fmt.Errorf("%w: time per move %v (want > 0)", ErrConfig, t)
		}
		if seenTime[t] {
			return fmt.Errorf("%w: time per move %v given twice", ErrConfig, t)
		}
		seenTime[t] = true
	}
	if len(c.Players) < 2 {
		return fmt.Errorf("%w: %d players (want at least 2)", ErrConfig, len(c.Players))
	}
	seenName := map[string]bool{}
	for _, p := range c.Players {
		if !ValidName(p.Name) {
			return fmt.Errorf("%w: player name %q (letters, digits and ._+- only)", ErrConfig, p.Name)
		}
		if seenName[p.Name] {
			return fmt.Errorf("%w: player %q given twice", ErrConfig, p.Name)
		}
		seenName[p.Name] = true
		if strings.TrimSpace(p.Cmd) == "" {
			return fmt.Errorf("%w: player %q has an empty command line", ErrConfig, p.Name)
		}
		for _, cmd := range p.Init {
			if strings.TrimSpace(cmd) == "" || strings.ContainsAny(cmd, "\n\r") {
				return fmt.Errorf("%w: player %q: initial GTP command %q", ErrConfig, p.Name, cmd)
			}
		}
	}
	if c.Openings < OpeningsAll {
		return fmt.Errorf("%w: openings %d", ErrConfig, c.Openings)
	}
	if c.Dir == "" {
		return fmt.Errorf("%w: no report directory", ErrConfig)
	}
	if err := c.Adjudicate.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

// OpeningsFor returns the number of openings played on a board of side size.
func (c *Config) OpeningsFor(size int) int {
	n := size * size
	switch {
	case c.Openings == OpeningsAll, c.Openings == OpeningsAuto && size <= AutoAllMaxSize:
		return n
	case c.Openings == OpeningsAuto:
		return min(n, AutoOpenings)
	default:
		return min(n, c.Openings)
	}
}

// Planned returns the number of games the ladder plays.
func (c *Config) Planned() int {
	p := len(c.Players)
	total := 0
	for _, s := range c.Sizes {
		total += 2 * c.OpeningsFor(s) * p * (p - 1) / 2 * len(c.Times)
	}
	return total
}

// Progress is reported after every game.
type Progress struct {
	Done, Total int           // games finished and planned in the whole ladder
	Size        int           // board side
	Time        time.Duration // time per move
	A, B        string        // the pair
	Game        match.Game    // the game just finished
	Winner      string        // the name of its winner ("" for no result)
	PairDone    int           // games finished in this pair
	PairTotal   int           // games planned for this pair
	WinsA       int           // the pair's running score
	WinsB       int
	Elapsed     time.Duration // since the ladder started
}

// GameRecord is one finished game.
type GameRecord struct {
	Size    int     `json:"size"`
	Seconds float64 `json:"seconds_per_move"`
	A       string  `json:"a"`
	B       string  `json:"b"`
	Number  int     `json:"number"` // 1-based within the pair, as in the SGF file name
	Opening string  `json:"opening"`
	Black   string  `json:"black"`
	White   string  `json:"white"`
	Winner  string  `json:"winner"` // "" for no result
	// Result is the result as SGF writes it (match.Game.Result: "B+", "W+R", "B+F",
	// "Void"); End how the game ended (match.End: "connection", "resign",
	// "forfeit", "adjudicated", "no result").
	Result string `json:"result"`
	End    string `json:"end"`
	Reason string `json:"reason"`
	// Died names the engine that died mid-game, if one did.
	Died  string `json:"died,omitempty"`
	Moves int    `json:"moves"`
	SGF   string `json:"sgf"` // path relative to the report directory
}

// Pair is the score of one pair at one size and time control, from A's side.
type Pair struct {
	A          string `json:"a"`
	B          string `json:"b"`
	Planned    int    `json:"planned"`
	Games      int    `json:"games"`
	WinsA      int    `json:"wins_a"`
	WinsB      int    `json:"wins_b"`
	WinsABlack int    `json:"wins_a_black"`
	WinsAWhite int    `json:"wins_a_white"`
	Forfeits   int    `json:"forfeits"`
	// Adjudicated counts the games an engine died in that the solver decided (in
	// WinsA and WinsB); NoResult those it did not (in Games only, left out of the
	// score and the Elo fit).
	Adjudicated int     `json:"adjudicated"`
	NoResult    int     `json:"no_result"`
	Lo          float64 `json:"ci95_lo"` // A's 95% Wilson interval over the decided games
	Hi          float64 `json:"ci95_hi"`
	// SecPerMoveA and SecPerMoveB are the measured seconds per move (0 until the pair's
	// match is complete).
	SecPerMoveA float64 `json:"seconds_per_move_a"`
	SecPerMoveB float64 `json:"seconds_per_move_b"`
	Complete    bool    `json:"complete"`

	ia, ib int // player indices
}

// Ladder is the round robin at one board size and time per move.
type Ladder struct {
	Size     int           `json:"size"`
	Seconds  float64       `json:"seconds_per_move"`
	Time     time.Duration `json:"-"`
	Openings int           `json:"openings"`
	Pairs    []Pair        `json:"pairs"`
	Elo      Fit           `json:"elo"`

	outcomes []Outcome
}

// Result is what a ladder produced, complete or not.
type Result struct {
	Players []Entrant `json:"players"`
	Anchor  string    `json:"anchor"` // the player whose Elo is 0
	Seed    uint64    `json:"seed"`
	// AdjudicateSeconds and AdjudicateNodes are the solver's limits for the games
	// in which an engine died (both 0: adjudication off).
	AdjudicateSeconds float64      `json:"adjudicate_seconds"`
	AdjudicateNodes   int64        `json:"adjudicate_nodes,omitempty"`
	Ladders           []Ladder     `json:"ladders"`
	Games             []GameRecord `json:"games"`
	Planned           int          `json:"planned"`
	Played            int          `json:"played"`
	Interrupted       bool         `json:"interrupted"`
	Error             string       `json:"error,omitempty"` // the error that stopped the ladder early
	Elapsed           float64      `json:"elapsed_seconds"`
	Dir               string       `json:"dir"`

	openingsMode int
}

// AnchorName is the player anchored at Elo 0 when present (else the first player).
const AnchorName = "exact"

// Run plays the ladder and writes its report into cfg.Dir. When ctx is cancelled the
// engines are stopped at once, the SGF files of finished games are kept and the
// partial report, marked interrupted, is written; Run then returns ctx's error. An
// engine that fails to start or to answer stops the ladder the same way, with the
// error in the report.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	res := newResult(&cfg)
	start := time.Now()
	runErr := cfg.play(ctx, res, start)
	res.Elapsed = time.Since(start).Seconds()
	switch {
	case ctx.Err() != nil:
		res.Interrupted = true
		runErr = ctx.Err()
	case runErr != nil:
		res.Error = runErr.Error()
	}
	if err := res.fit(); err != nil && runErr == nil {
		runErr = err
	}
	if err := res.Write(cfg.Dir); err != nil && runErr == nil {
		runErr = err
	}
	return res, runErr
}

func newResult(cfg *Config) *Result {
	res := &Result{Players: cfg.Players, Seed: cfg.Seed, Planned: cfg.Planned(), Dir: cfg.Dir,
		openingsMode: cfg.Openings, Anchor: cfg.Players[anchorIndex(cfg.Players)].Name,
		AdjudicateSeconds: cfg.Adjudicate.Time.Seconds(), AdjudicateNodes: cfg.Adjudicate.MaxNodes}
	for _, s := range cfg.Sizes {
		for _, t := range cfg.Times {
			l := Ladder{Size: s, Time: t, Seconds: t.Seconds(), Openings: cfg.OpeningsFor(s)}
			for i := range cfg.Players {
				for j := i + 1; j < len(cfg.Players); j++ {
					l.Pairs = append(l.Pairs, Pair{A: cfg.Players[i].Name, B: cfg.Players[j].Name,
						Planned: 2 * l.Openings, Lo: 0, Hi: 1, ia: i, ib: j})
				}
			}
			res.Ladders = append(res.Ladders, l)
		}
	}
	return res
}

func anchorIndex(ps []Entrant) int {
	for i, p := range ps {
		if p.Name == AnchorName {
			return i
		}
	}
	return 0
}

// fit computes every ladder's Elo table from its games.
func (res *Result) fit() error {
	anchor := anchorIndex(res.Players)
	for i := range res.Ladders {
		f, err := FitElo(len(res.Players), res.Ladders[i].outcomes, anchor)
		if err != nil {
			return err
		}
		res.Ladders[i].Elo = f
	}
	return nil
}

// play runs every pair of every ladder in order.
func (c *Config) play(ctx context.Context, res *Result, start time.Time) error {
	for li := range res.Ladders {
		l := &res.Ladders[li]
		for pi := range l.Pairs {
			if err := c.playPair(ctx, res, l, &l.Pairs[pi], start); err != nil {
				return err
			}
		}
	}
	return nil
}

// engineStderr returns where an engine's standard error goes: its log, and
// c.EngineStderr too when set.
func (c *Config) engineStderr(log *capLog) io.Writer {
	if c.EngineStderr != nil {
		return io.MultiWriter(log, c.EngineStderr)
	}
	return log
}

// mkdirAll creates a directory and its parents.
func mkdirAll(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("strength: %w", err)
	}
	return nil
}

// initEngine sends a player's Init commands.
func initEngine(ctx context.Context, cl *match.Client, p Entrant, t time.Duration) error {
	for _, cmd := range p.Init {
		cmd = strings.ReplaceAll(cmd, TimePlaceholder, Seconds(t))
		if _, err := cl.Send(ctx, cmd, 30*time.Second); err != nil {
			return fmt.Errorf("strength: engine %s: initial command %q: %w", p.Name, cmd, err)
		}
	}
	return nil
}

// SGFDir returns the directory, relative to the report, of a pair's SGF files.
func SGFDir(size int, t time.Duration, a, b string) string {
	return filepath.Join("sgf", fmt.Sprintf("%dx%d", size, size), Seconds(t)+"s", a+"-vs-"+b)
}

// playPair plays one pair's match, recording every game as it finishes.
func (c *Config) playPair(ctx context.Context, res *Result, l *Ladder, p *Pair, start time.Time) (retErr error) {
	pa, pb := c.Players[p.ia], c.Players[p.ib]
	var logA, logB capLog
	defer func() {
		// Keep what the engines said on standard error, also after a failure.
		if err := writeLog(c.Dir, LogPath(l.Size, l.Time, p.A, p.B, p.A), &logA); err != nil && retErr == nil {
			retErr = err
		}
		if err := writeLog(c.Dir, LogPath(l.Size, l.Time, p.A, p.B, p.B), &logB); err != nil && retErr == nil {
			retErr = err
		}
	}()
	ea, err := match.Start(pa.Name, pa.CommandFor(l.Time), c.engineStderr(&logA))
	if err != nil {
		return err
	}
	eb, err := match.Start(pb.Name, pb.CommandFor(l.Time), c.engineStderr(&logB))
	if err != nil {
		ea.Kill()
		return err
	}
	for _, e := range []struct {
		pl Entrant
		cl *match.Client
	}{{pa, ea}, {pb, eb}} {
		if err := initEngine(ctx, e.cl, e.pl, l.Time); err != nil {
			ea.Kill()
			eb.Kill()
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
	}
	geo := hex.MustGeometry(l.Size, l.Size)
	rel := SGFDir(l.Size, l.Time, p.A, p.B)
	mctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var sgfErr error
	mcfg := match.Config{Size: l.Size, Openings: l.Openings, Seed: c.Seed, TimePerMove: l.Time, Grace: c.Grace,
		Adjudicate: c.Adjudicate,
		Restarted: func(cl *match.Client) error { // an engine that crashed gets its setup again
			pl := pa
			if cl == eb {
				pl = pb
			}
			return initEngine(ctx, cl, pl, l.Time)
		},
		GameDone: func(g match.Game) {
			if sgfErr != nil {
				return
			}
			if err := match.WriteGameSGF(filepath.Join(c.Dir, rel), geo, g); err != nil {
				sgfErr = err
				cancel()
				return
			}
			winner := nameOf(g, g.Winner)
			p.Games++
			switch {
			case g.Winner == hex.Empty: // no result: in no score and no Elo fit
			case winner == p.A:
				p.WinsA++
				l.outcomes = append(l.outcomes, Outcome{p.ia, p.ib})
				if g.Black == p.A {
					p.WinsABlack++
				} else {
					p.WinsAWhite++
				}
			default:
				p.WinsB++
				l.outcomes = append(l.outcomes, Outcome{p.ib, p.ia})
			}
			switch g.End {
			case match.EndForfeit:
				p.Forfeits++
			case match.EndAdjudicated:
				p.Adjudicated++
			case match.EndNoResult:
				p.NoResult++
			}
			p.Lo, p.Hi = match.Wilson(p.WinsA, p.Decided())
			res.Played++
			res.Games = append(res.Games, GameRecord{Size: l.Size, Seconds: l.Seconds, A: p.A, B: p.B,
				Number: g.Index + 1, Opening: geo.CellName(g.Opening), Black: g.Black, White: g.White,
				Winner: winner, Result: g.Result(), End: g.End.String(), Reason: g.Reason, Died: nameOf(g, g.Died),
				Moves: len(g.Moves), SGF: filepath.ToSlash(filepath.Join(rel, fmt.Sprintf("game-%04d.sgf", g.Index+1)))})
			if c.Progress != nil {
				c.Progress(Progress{Done: res.Played, Total: res.Planned, Size: l.Size, Time: l.Time, A: p.A, B: p.B,
					Game: g, Winner: winner, PairDone: p.Games, PairTotal: p.Planned, WinsA: p.WinsA, WinsB: p.WinsB,
					Elapsed: time.Since(start)})
			}
		}}
	mr, err := match.Run(mctx, mcfg, ea, eb)
	if err != nil {
		ea.Kill()
		eb.Kill()
		if sgfErr != nil {
			return sgfErr
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("strength: %dx%d, %ss per move, %s vs %s: %w", l.Size, l.Size, Seconds(l.Time), p.A, p.B, err)
	}
	ea.Close()
	eb.Close()
	p.Complete = true
	p.SecPerMoveA, p.SecPerMoveB = mr.ElapsedPerMoveA.Seconds(), mr.ElapsedPerMoveB.Seconds()
	return nil
}

// nameOf returns the name of the engine that played colour c in g ("" for Empty).
func nameOf(g match.Game, c hex.Color) string {
	switch c {
	case hex.Black:
		return g.Black
	case hex.White:
		return g.White
	}
	return ""
}

// Decided returns the pair's games with a winner (Games less NoResult).
func (p Pair) Decided() int { return p.WinsA + p.WinsB }
