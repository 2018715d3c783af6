package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

func init() {
	c := &command{
		name:    "gtp",
		summary: "speak the Hex GTP dialect (HexGui, Benzene) on standard input and output",
		usage: `hexlearn gtp [--size N] [--model MODEL] [--patterns DB] [--xh] [--depth D] [--k K] [--time S]

Serves the Hex dialect of the Go Text Protocol on standard input and output, as HexGui
and Benzene's tools expect: protocol_version, name, version, known_command,
list_commands, quit, boardsize N | W H, clear_board, play COLOR CELL (b/black, w/white;
c3, swap-pieces, resign), undo, showboard, genmove COLOR, loadsgf FILE [N],
savesgf FILE, final_score, all_legal_moves COLOR, hexgui-analyze_commands, and the
commands later parts of hexlearn register (list_commands shows them all). Errors are
answered with "? message" and the engine keeps serving until quit or end of input.

genmove searches with the exact evaluator (H-search, or XH-search with --xh, plus the
resistance circuit) or, with --model, with the learned evaluator; --patterns adds the
goal-pattern database as terminal test. param_search changes depth, k and time later.

To use it from HexGui: Program > New Program, command "hexlearn gtp" (a full path to
the binary if it is not on PATH), then Program > Connect.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", gtp.DefaultSize, "side of the board before the first boardsize command")
		modelPath := fs.String("model", "", "search with this learned model instead of the exact evaluator")
		dbPath := fs.String("patterns", "", "goal-pattern database used as the search's terminal test")
		xh := fs.Bool("xh", false, "exact evaluator: XH-search instead of H-search")
		def := gtp.SearchDefaults()
		depth := fs.Int("depth", def.Depth, "search depth in plies")
		k := fs.Int("k", def.K, "k-best successor limit (0: all)")
		secs := fs.Float64("time", def.Time.Seconds(), "seconds per genmove (0: no limit)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		d, err := seconds("time", *secs, 0)
		if err != nil {
			return err
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("depth", *depth, 1, search.MaxDepth),
			intIn("k", *k, 0, hex.MaxCells), optionalInput("model", *modelPath), optionalInput("patterns", *dbPath)); err != nil {
			return err
		}
		player := gtp.Player{XH: *xh, Params: search.Params{Depth: *depth, K: *k, Time: d}}
		if err := player.Params.Validate(); err != nil {
			return usageErr("%v", err)
		}
		if *modelPath != "" {
			m, err := model.ReadFile(*modelPath)
			if err != nil {
				return err
			}
			player.Model = m
			if *size == gtp.DefaultSize {
				*size = m.W // start on the model's board
			}
		}
		if *dbPath != "" {
			db, _, err := patterns.Load(*dbPath)
			if err != nil {
				return fmt.Errorf("%s: %w", *dbPath, err)
			}
			player.Terminal = db
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		b, err := hex.NewBoard(*size, *size)
		if player.Model != nil && (b.Width() != player.Model.W || b.Height() != player.Model.H) {
			return usageErr("--size %d does not match the model's %dx%d board", *size, player.Model.W, player.Model.H)
		}
		if err != nil {
			return usageErr("--size: %v", err)
		}
		e := gtp.New()
		e.SetBoard(b)
		e.SetPlayer(player)
		return e.Serve(ctx, os.Stdin, stdout)
	}
	register(c)
}
