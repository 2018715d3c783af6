package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

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
              [--time-per-move S] [--sgf DIR] [--json]

Plays engine A against engine B: every opening (or K openings chosen with the seed) is
played twice, each engine taking Black once, without swap. The referee judges the end
of the game itself; an illegal answer, a resignation or a time-out loses. Engines that
know 'param_search' get the time per move with 'param_search time S'. Prints the score
with a 95% Wilson interval and, with --sgf, writes one SGF file per game.`,
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
		cfg := match.Config{
			Size: *size, Openings: k, Seed: *seed,
			TimePerMove: perMove,
			GameDone: func(gm match.Game) {
				if !*quiet && !*jsonOut {
					fmt.Fprintf(stdout, "game %3d opening %-4s black %-8s white %-8s winner %-5s (%s, %s)\n",
						gm.Index+1, g.CellName(gm.Opening), gm.Black, gm.White, gm.Winner, gm.Reason, progress.Count(int64(len(gm.Moves)), "move"))
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
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(map[string]any{
				"a": res.A, "b": res.B, "size": *size, "games": res.Games,
				"wins_a": res.WinsA, "wins_b": res.WinsB, "win_rate_a": res.WinRate(),
				"ci95": []float64{res.Lo, res.Hi}, "wins_a_black": res.WinsABlack, "wins_a_white": res.WinsAWhite,
				"forfeits": res.Forfeits, "seconds_per_move_a": res.ElapsedPerMoveA.Seconds(),
				"seconds_per_move_b": res.ElapsedPerMoveB.Seconds(),
			})
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
