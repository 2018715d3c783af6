package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/strength"
)

// strengthUsage is the usage of 'hexlearn experiment strength'.
const strengthUsage = `hexlearn experiment strength [--size 6,8,11] [--time 0.2,0.5] [--players learned,exact,exact-xh]
              [--engine NAME=CMDLINE ...] [--engine-init NAME=GTPCMD[;GTPCMD...] ...]
              [--openings auto|all|K] [--seed S] [--out DIR] [--json]

A strength ladder: a round robin at equal time per move between the players, for every
board size and every time per move given. Every pair plays each opening twice, each
engine taking Black once, no swap, refereed as by 'hexlearn match'. Openings: 'auto'
plays every one-stone opening up to 8x8 and 20 seeded ones on larger boards, 'all'
every opening, a number K that many seeded ones; the seed fixes the openings, and the pairs are played
in the order of the players.

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

// builtinPlayers lists the players that name this binary's own GTP engine.
var builtinPlayers = []string{"learned", "exact", "exact-xh"}

// builtinCommand returns the command line of a built-in player (with the time per move
// left as strength.TimePlaceholder), and false for any other name. Depth 32 is the
// search's maximum, so iterative deepening runs until the clock stops.
func builtinCommand(bin, name string) (string, bool) {
	var flags string
	switch name {
	case "learned":
		flags = "--player learned"
	case "exact":
		flags = "--player exact"
	case "exact-xh":
		flags = "--player exact --xh"
	default:
		return "", false
	}
	return shellQuote(bin) + " gtp " + flags + " --depth 32 --time " + strength.TimePlaceholder, true
}

// shellQuote quotes s for sh -c.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// engineFlags collects repeated --engine NAME=CMDLINE flags.
type engineFlags struct {
	names []string
	cmds  map[string]string
}

func (e *engineFlags) String() string { return strings.Join(e.names, ",") }

func (e *engineFlags) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
	switch {
	case !ok:
		return fmt.Errorf("want NAME=CMDLINE, got %q", v)
	case !strength.ValidName(name):
		return fmt.Errorf("bad engine name %q (letters, digits and ._+- only)", name)
	case cmd == "":
		return fmt.Errorf("engine %s has an empty command line", name)
	case e.cmds[name] != "":
		return fmt.Errorf("engine %s given twice", name)
	}
	if e.cmds == nil {
		e.cmds = map[string]string{}
	}
	e.names = append(e.names, name)
	e.cmds[name] = cmd
	return nil
}

// engineInits collects repeated --engine-init NAME=GTPCMD[;GTPCMD...] flags.
type engineInits struct {
	cmds map[string][]string
}

func (e *engineInits) String() string { return fmt.Sprint(len(e.cmds)) }

func (e *engineInits) Set(v string) error {
	name, cmds, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want NAME=GTPCOMMAND[;GTPCOMMAND...], got %q", v)
	}
	if e.cmds == nil {
		e.cmds = map[string][]string{}
	}
	for _, c := range strings.Split(cmds, ";") {
		if c = strings.TrimSpace(c); c != "" {
			e.cmds[name] = append(e.cmds[name], c)
		}
	}
	if len(e.cmds[name]) == 0 {
		return fmt.Errorf("no GTP command for %s in %q", name, v)
	}
	return nil
}

// strengthConfig turns the flags into a ladder configuration; every error is a usage
// error naming its flag.
func strengthConfig(bin, sizes, times, players string, engines *engineFlags, inits *engineInits, openings string, seed uint64, out string) (strength.Config, error) {
	cfg := strength.Config{Seed: seed, Dir: out}
	seen := map[string]bool{}
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > hex.MaxSize {
			return cfg, usageErr("--size: want a comma-separated list of board sides 2..%d, got %q", hex.MaxSize, f)
		}
		if key := fmt.Sprint("size ", n); seen[key] {
			return cfg, usageErr("--size: %d given twice", n)
		} else {
			seen[key] = true
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	for _, f := range strings.Split(times, ",") {
		s, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(s > 0) || s > 3600 {
			return cfg, usageErr("--time: want a comma-separated list of seconds per move > 0, got %q", f)
		}
		t := time.Duration(s * float64(time.Second))
		if key := "time " + t.String(); seen[key] {
			return cfg, usageErr("--time: %g given twice", s)
		} else {
			seen[key] = true
		}
		cfg.Times = append(cfg.Times, t)
	}
	var names []string
	for _, f := range strings.Split(players, ",") {
		if f = strings.TrimSpace(f); f != "" {
			names = append(names, f)
		}
	}
	for _, n := range engines.names {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	for _, n := range names {
		cmd, ok := engines.cmds[n]
		if !ok {
			if cmd, ok = builtinCommand(bin, n); !ok {
				return cfg, usageErr("--players: unknown player %q (built-in: %s; add others with --engine NAME=CMDLINE)", n, strings.Join(builtinPlayers, ", "))
			}
		}
		if key := "player " + n; seen[key] {
			return cfg, usageErr("--players: %s given twice", n)
		} else {
			seen[key] = true
		}
		cfg.Players = append(cfg.Players, strength.Player{Name: n, Cmd: cmd, Init: inits.cmds[n]})
	}
	for n := range inits.cmds {
		if !contains(names, n) {
			return cfg, usageErr("--engine-init: %q is not a player", n)
		}
	}
	if len(cfg.Players) < 2 {
		return cfg, usageErr("--players: a ladder needs at least two players, got %d", len(cfg.Players))
	}
	switch openings {
	case "auto":
		cfg.Openings = strength.OpeningsAuto
	case "all":
		cfg.Openings = strength.OpeningsAll
	default:
		k, err := strconv.Atoi(openings)
		if err != nil || k < 1 {
			return cfg, usageErr("--openings: want auto, all or a positive number, got %q", openings)
		}
		cfg.Openings = k
	}
	if out == "" {
		return cfg, usageErr("--out: a report directory is required")
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageErr("%v", err)
	}
	return cfg, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

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
	out := fs.String("out", "strength", "report directory")
	jsonOut := fs.Bool("json", false, "print the results as JSON on standard output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find this binary to start the built-in players: %w", err)
	}
	cfg, err := strengthConfig(bin, *sizes, *times, *players, &engines, &inits, *openings, *seed, *out)
	if err != nil {
		return err
	}
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
	fmt.Fprintf(p.w, "[%d/%d %s%s] %dx%d %ss %s vs %s game %d/%d: %s Black, %s wins (%s, %d moves); %s %d - %d %s\n",
		e.Done, e.Total, e.Elapsed.Round(time.Second), eta, e.Size, e.Size, strength.Seconds(e.Time), e.A, e.B,
		e.PairDone, e.PairTotal, g.Black, e.Winner, g.Reason, len(g.Moves), e.A, e.WinsA, e.WinsB, e.B)
	if p.bar != nil {
		_ = p.bar.Set(e.Done)
	}
}

func (p *ladderProgress) finish() {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}
