package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/experiments/strength"
)

// strengthUsage is the usage of 'hexlearn experiment strength'.
const strengthUsage = `hexlearn experiment strength [--size 6,8,11] [--time 0.2,0.5] [--players learned,exact,exact-xh]
              [--engine NAME=CMDLINE ...] [--engine-init NAME=GTPCMD[;GTPCMD...] ...]
              [--openings auto|all|K] [--seed S] [--adjudicate-time S] [--out DIR] [--json]

A strength ladder: a round robin at equal time per move between the players, for every
board size and every time per move given. Every pair plays each opening twice, each
engine taking Black once, no swap, refereed as by 'hexlearn match'. Openings: 'auto'
plays every one-stone opening up to 8x8 and 20 seeded ones on larger boards, 'all'
every opening, a number K that many seeded ones; the seed fixes the openings, and the pairs are played
in the order of the players. A game in which an engine dies (crashes or closes its
output) goes to the true winner of its final position, as the DFPN solver decides it
within --adjudicate-time seconds; unsolved, it is no result, in no score or Elo fit
(--adjudicate-time 0: the engine that died loses).

Built-in players start this binary's GTP engine: learned ('hexlearn gtp --player
learned'), exact (H-search, '--player exact') and exact-xh (XH-search). --engine
NAME=CMDLINE (repeatable) adds any Hex GTP engine, or replaces a built-in of the same
name; {time} in CMDLINE is replaced by the time per move in seconds, and engines that
know param_search also get it as 'param_search time S'. --engine-init sends GTP
commands (also with {time}) once after a player's engine starts, e.g. an engine's own
time setting; each must succeed.

Writes DIR/README.md (per pair the score with a 95% Wilson interval; per size and time
an Elo table, maximum likelihood over all games, exact = 0 when present, 95% intervals
from the Fisher information), elo.csv, pairs.csv, games.csv, results.json, one Elo plot
per size (PNG and SVG) and every game as SGF under DIR/sgf/. Prints a line per game
with the running score (and a bar on a terminal). Ctrl-C stops at once and writes the
partial report, marked interrupted.`

// runStrength runs 'hexlearn experiment strength ARGS'.
func runStrength(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	// Help and errors as every command's (flags.go); usage errors point at 'hexlearn
	// help experiment'.
	fs := newFlags(&command{name: "experiment", usage: strengthUsage}, stdout)
	sizes := fs.String("size", "6,8,11", "board sides, comma-separated")
	times := fs.String("time", "0.2,0.5", "seconds per move, comma-separated (one ladder each)")
	players := fs.String("players", strings.Join(builtinPlayers, ","), "players, comma-separated: built-in names or --engine names")
	var engines engineFlags
	fs.Var(&engines, "engine", "NAME=CMDLINE: a Hex GTP engine to add (repeatable; {time} = seconds per move)")
	var inits engineInits
	fs.Var(&inits, "engine-init", "NAME=GTPCMD[;GTPCMD...]: GTP commands sent to a player's engine once at start (repeatable; {time} = seconds per move)")
	openings := fs.String("openings", "auto", "auto (every opening up to 8x8, 20 seeded above), all, or K seeded openings")
	seed := fs.Uint64("seed", 1, "seed choosing the openings")
	adj := fs.Float64("adjudicate-time", match.DefaultAdjudicateTime.Seconds(), "seconds the solver may take to decide a game an engine died in (0: the engine that died loses)")
	out := fs.String("out", "strength", "report directory")
	jsonOut := fs.Bool("json", false, "print the results as JSON on standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	adjTime, err := seconds("adjudicate-time", *adj, 0)
	if err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this binary to start the built-in players: %w", err)
	}
	cfg, err := strengthConfig(bin, *sizes, *times, *players, &engines, &inits, *openings, *seed, *out)
	if err != nil {
		return err
	}
	cfg.Adjudicate = match.Adjudication{Time: adjTime}
	if err := ctx.Err(); err != nil {
		return err // interrupted before the first game: write nothing
	}
	prog := newLadderProgress(stderr, cfg.Planned())
	cfg.Progress = prog.game
	fmt.Fprintf(stderr, "strength ladder: %d players, sizes %s, %s s per move: %d games\n", len(cfg.Players), *sizes, *times, cfg.Planned())
	res, err := strength.Run(ctx, cfg)
	prog.finish()
	if res == nil {
		return err
	}
	if *jsonOut {
		if jerr := res.WriteJSON(stdout); jerr != nil && err == nil {
			err = jerr
		}
	} else {
		printLadder(stdout, res)
	}
	if err == nil {
		fmt.Fprintf(stderr, "report written to %s\n", filepath.Join(cfg.Dir, "README.md"))
	} else if res.Interrupted {
		fmt.Fprintf(stderr, "partial report (interrupted) written to %s\n", filepath.Join(cfg.Dir, "README.md"))
	}
	return err
}

// printLadder prints the Elo table of every size and time per move.
func printLadder(w io.Writer, res *strength.Result) {
	fmt.Fprintf(w, "strength ladder: %s\n", res.Status())
	for _, l := range res.Ladders {
		fmt.Fprintf(w, "%dx%d, %s s per move:", l.Size, l.Size, strength.Seconds(l.Time))
		for i, r := range l.Elo.Ratings {
			if r.Games == 0 {
				continue
			}
			elo := math.Round(r.Elo)
			if elo == 0 {
				elo = 0 // not "-0"
			}
			fmt.Fprintf(w, "  %s %+.0f ±%.0f (%d/%d)", res.Players[i].Name, elo, 1.959963984540054*r.SE, r.Wins, r.Games)
		}
		fmt.Fprintln(w)
	}
}

// ladderProgress prints a line per finished game, with a bar when stderr is a terminal.
type ladderProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func newLadderProgress(w io.Writer, total int) *ladderProgress {
	p := &ladderProgress{w: w}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription("ladder"),
			progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish())
	}
	return p
}

func (p *ladderProgress) game(e strength.Progress) {
	if p.bar != nil {
		_ = p.bar.Clear()
	}
	eta := ""
	if e.Done < e.Total {
		left := time.Duration(float64(e.Elapsed) / float64(e.Done) * float64(e.Total-e.Done))
		eta = ", ~" + left.Round(time.Second).String() + " left"
	}
	g := e.Game
	won := "no result"
	if e.Winner != "" {
		won = e.Winner + " wins"
	}
	fmt.Fprintf(p.w, "[%d/%d %s%s] %dx%d %ss %s vs %s game %d/%d: %s Black, %s (%s, %d moves); %s %d - %d %s\n",
		e.Done, e.Total, e.Elapsed.Round(time.Second), eta, e.Size, e.Size, strength.Seconds(e.Time), e.A, e.B,
		e.PairDone, e.PairTotal, g.Black, won, g.Reason, len(g.Moves), e.A, e.WinsA, e.WinsB, e.B)
	if p.bar != nil {
		_ = p.bar.Set(e.Done)
	}
}

func (p *ladderProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
