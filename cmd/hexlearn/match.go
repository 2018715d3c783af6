package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/internal/progress"
)

func init() {
	c := &command{
		name:    "match",
		writes:  true,
		summary: "play two GTP engines against each other over every opening",
		usage: `hexlearn match --a "CMD" --b "CMD" --size N [--openings all|K] [--seed S]
              [--time-per-move S] [--adjudicate-time S] [--sgf DIR] [--json]

Plays engine A against engine B: every opening (or K openings chosen with the seed) is
played twice, each engine taking Black once, without swap. The referee judges the end
of the game itself; an illegal answer, a resignation or a time-out loses. A game in
which an engine dies (crashes or closes its output) is adjudicated: the DFPN solver
solves its final position within --adjudicate-time seconds and the game goes to the
true winner; unsolved, it is no result, left out of the score (--adjudicate-time 0:
the engine that died loses). Engines that know 'param_search' get the time per move
with 'param_search time S'. Prints the score with a 95% Wilson interval over the
decided games and, with --sgf, writes one SGF file per game.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
		var outs outputs
		defer func() { outs.cleanup(err) }()
		fs := newFlags(c, stdout)
		outs.addForce(fs)
		a := fs.String("a", "", "command line of engine A (run with sh -c)")
		b := fs.String("b", "", "command line of engine B")
		nameA := fs.String("name-a", "A", "label of engine A")
		nameB := fs.String("name-b", "B", "label of engine B")
		size := fs.Int("size", 0, "board side")
		openings := fs.String("openings", "all", "all, or the number K of seeded openings")
		seed := fs.Uint64("seed", 1, "seed choosing the openings")
		tpm := fs.Float64("time-per-move", 0, "seconds per move passed to engines (0: their default)")
		adj := fs.Float64("adjudicate-time", match.DefaultAdjudicateTime.Seconds(), "seconds the solver may take to decide a game an engine died in (0: the engine that died loses)")
		sgfDir := fs.String("sgf", "", "directory for one SGF file per game")
		jsonOut := fs.Bool("json", false, "print the result as JSON")
		quiet := fs.Bool("quiet", false, "do not print a line per game")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if *a == "" || *b == "" {
			return usageErr("--a and --b are required")
		}
		if fs.NArg() > 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := intIn("size", *size, 1, hex.MaxSize); err != nil {
			return err
		}
		k := 0
		if *openings != "all" {
			n, err := strconv.Atoi(*openings)
			if err != nil || n < 1 || n > hex.MaxCells {
				return usageErr("--openings %q: want 'all' or 1..%d", *openings, hex.MaxCells)
			}
			k = n
		}
		perMove, err := seconds("time-per-move", *tpm, 0)
		if err != nil {
			return err
		}
		adjTime, err := seconds("adjudicate-time", *adj, 0)
		if err != nil {
			return err
		}
		if *sgfDir != "" {
			if err := outs.dir("sgf", *sgfDir, "*.sgf"); err != nil {
				return err
			}
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		g := hex.MustGeometry(*size, *size)
		ea, err := match.Start(*nameA, *a, stderr)
		if err != nil {
			return err
		}
		defer endEngine(ctx, ea)
		eb, err := match.Start(*nameB, *b, stderr)
		if err != nil {
			return err
		}
		defer endEngine(ctx, eb)
		var sgfErr error
		var games []match.Game
		cfg := match.Config{
			Size: *size, Openings: k, Seed: *seed,
			TimePerMove: perMove, Adjudicate: match.Adjudication{Time: adjTime},
			GameDone: func(gm match.Game) {
				games = append(games, gm)
				if !*quiet && !*jsonOut {
					fmt.Fprintf(stdout, "game %3d opening %-4s black %-8s white %-8s winner %-5s (%s, %s)\n",
						gm.Index+1, g.CellName(gm.Opening), gm.Black, gm.White, gm.WinnerName(), gm.Reason, progress.Count(int64(len(gm.Moves)), "move"))
				}
				if *sgfDir != "" && sgfErr == nil {
					sgfErr = match.WriteGameSGF(*sgfDir, g, gm)
				}
			},
		}
		res, err := match.Run(ctx, cfg, ea, eb)
		if err != nil {
			return err
		}
		if sgfErr != nil {
			return sgfErr
		}
		if *jsonOut {
			return writeMatchJSON(stdout, g, res, games, adjTime)
		}
		fmt.Fprintln(stdout, res.String())
		return nil
	}
	register(c)
}

// endEngine asks an engine to quit, or kills it when the run was interrupted (an
// engine still thinking about a move would keep the interrupted match waiting).
func endEngine(ctx context.Context, c *match.Client) {
	if ctx.Err() != nil {
		c.Kill()
		return
	}
	c.Close()
}

// writeMatchJSON prints a match's result as JSON: the score over the decided games,
// the adjudicated and no-result counts, and one record per game.
func writeMatchJSON(w io.Writer, g *hex.Geometry, res match.Result, games []match.Game, adjTime time.Duration) error {
	recs := make([]map[string]any, 0, len(games))
	for _, gm := range games {
		winner := ""
		if gm.Winner != hex.Empty {
			winner = gm.Winner.String()
		}
		recs = append(recs, map[string]any{"number": gm.Index + 1, "opening": g.CellName(gm.Opening),
			"black": gm.Black, "white": gm.White, "winner": winner, "result": gm.Result(), "end": gm.End.String(),
			"reason": gm.Reason, "moves": len(gm.Moves)})
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(map[string]any{
		"a": res.A, "b": res.B, "size": g.W, "games": res.Games, "decided": res.Decided(),
		"wins_a": res.WinsA, "wins_b": res.WinsB, "win_rate_a": res.WinRate(),
		"ci95": []float64{res.Lo, res.Hi}, "wins_a_black": res.WinsABlack, "wins_a_white": res.WinsAWhite,
		"forfeits": res.Forfeits, "adjudicated": res.Adjudicated, "no_result": res.NoResult,
		"adjudicate_seconds": adjTime.Seconds(), "seconds_per_move_a": res.ElapsedPerMoveA.Seconds(),
		"seconds_per_move_b": res.ElapsedPerMoveB.Seconds(), "game_records": recs,
	})
}
