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
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "gtp",
		summary: "speak the Hex GTP dialect (HexGui, Benzene) on standard input and output",
		usage: `hexlearn gtp [--player learned|exact] [--size N] [--model MODEL|builtin] [--patterns DB]
            [--xh] [--depth D] [--k K] [--time S] [--vc-plies P]

Serves the Hex dialect of the Go Text Protocol on standard input and output, as HexGui
and Benzene's tools expect: protocol_version, name, version, known_command,
list_commands, quit, boardsize N | W H, clear_board, play COLOR CELL (b/black, w/white;
c3, swap-pieces, resign), undo, showboard, genmove COLOR, loadsgf FILE [N],
savesgf FILE, final_score, all_legal_moves COLOR, hexgui-analyze_commands, and the
commands later parts of hexlearn register (list_commands shows them all). Errors are
answered with "? message" and the engine keeps serving until quit or end of input.

genmove searches with the player: 'learned' (the default where a model exists for the
board size: --model FILE, or the model built into the binary for 5x5 to 11x11) scores
the leaves with the network and proves wins and finds mustplay with H-search on the
first --vc-plies plies; 'exact' scores every node with H-search (XH-search with --xh)
plus the resistance circuit. A learned player on a size without a model plays as the
exact player, with a one-line note on standard error; a boardsize change switches
models. --patterns adds a goal-pattern database as terminal test. With --time the
search deepens until the clock stops (no depth limit unless --depth is given).
param_search changes depth, k, time and vc_plies later.

To use it from HexGui: Program > New Program, command "hexlearn gtp" (a full path to
the binary if it is not on PATH), then Program > Connect.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		kind := fs.String("player", "", "learned or exact (default: learned if a model exists for the board size, else exact)")
		size := fs.Int("size", gtp.DefaultSize, "side of the board before the first boardsize command")
		modelPath := fs.String("model", "", "learned player's model file, or 'builtin' (the default)")
		dbPath := fs.String("patterns", "", "goal-pattern database used as the search's terminal test")
		xh := fs.Bool("xh", false, "connections by XH-search instead of H-search")
		def := gtp.SearchDefaults()
		depth := fs.Int("depth", 0, "search depth in plies (0: no limit with --time, else 3)")
		k := fs.Int("k", 0, fmt.Sprintf("k-best successor limit (0: the player's default, exact %d, learned %d)", def.K, player.LearnedK))
		secs := fs.Float64("time", def.Time.Seconds(), "seconds per genmove (0: no limit)")
		vcPlies := fs.Int("vc-plies", player.LearnedVCPlies, "learned player: plies from the root where H-search proves wins and finds mustplay (0: none)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		d, err := seconds("time", *secs, 0)
		if err != nil {
			return err
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("depth", *depth, 0, search.MaxDepth),
			intIn("k", *k, 0, hex.MaxCells), intIn("vc-plies", *vcPlies, 0, search.MaxDepth),
			optionalInput("patterns", *dbPath), optionalModel(*modelPath)); err != nil {
			return err
		}
		b, err := hex.NewBoard(*size, *size)
		if err != nil {
			return usageErr("--size: %v", err)
		}
		cfg := player.Config{XH: *xh, Depth: *depth, K: *k, Time: d, VCPlies: *vcPlies, Notes: stderr}
		if *vcPlies == 0 {
			cfg.VCPlies = -1 // none (Config's zero value is the default)
		}
		switch *kind {
		case "":
			cfg.Kind = player.Learned // the exact player plays sizes without a model
		default:
			if cfg.Kind, err = player.ParseKind(*kind); err != nil {
				return usageErr("--player: %v", err)
			}
		}
		if *modelPath != "" && *modelPath != builtinModel {
			if cfg.Kind == player.Exact {
				return usageErr("--model: the exact player uses no model (drop --model or use --player learned)")
			}
			if cfg.Model, err = model.ReadFile(*modelPath); err != nil {
				return err
			}
			if *size == gtp.DefaultSize {
				if b, err = hex.NewBoard(cfg.Model.W, cfg.Model.H); err != nil { // start on the model's board
					return err
				}
			} else if err := cfg.Model.CheckSize(*size, *size); err != nil {
				return usageErr("--size %d: %v", *size, err)
			}
		}
		if *dbPath != "" {
			db, _, err := patterns.Load(*dbPath)
			if err != nil {
				return fmt.Errorf("%s: %w", *dbPath, err)
			}
			cfg.Terminal = db
		}
		p, err := cfg.GTP()
		if err != nil {
			return usageErr("%v", err)
		}
		e := gtp.New()
		e.SetBoard(b)
		e.SetPlayer(p)
		return e.Serve(ctx, os.Stdin, stdout)
	}
	register(c)
}
