package main

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"strings"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "gtp",
		summary: "speak the Hex GTP dialect (HexGui, Benzene) on standard input and output",
		usage: `hexlearn gtp [--size N] [--swap] [player flags: --player learned|exact, --model FILE,
            --time S, --search mcts|alphabeta, ... (below; docs/cli.md has them as a table)]

Serves the Hex dialect of the Go Text Protocol on standard input and output, as HexGui
and Benzene's tools expect: protocol_version, name, version, known_command,
list_commands, quit, boardsize N | W H, clear_board, play COLOR CELL (b/black, w/white;
c3, swap-pieces, resign), undo, showboard, genmove COLOR, loadsgf FILE [N],
savesgf FILE, final_score, all_legal_moves COLOR, hexgui-analyze_commands, and the
commands later parts of hexlearn register (list_commands shows them all). Errors are
answered with "? message" and the engine keeps serving until quit or end of input.

genmove asks hexlearn's player, which decides in this order: with the swap rule on
(--swap, or param_game allow_swap 1) it opens with a balanced move and swaps an opening
that wins for its mover (by the published win map up to 8x8, by its values above); the
opening book's proved move (--book); a move the goal-pattern database (--patterns)
declares won; the DFPN solver's proved move, in the first --solve-share of the time per
move in positions with at most --solve-max-empty empty cells (or beside the search with
--solve-parallel); otherwise its search. The learned player (the default; --model FILE,
or the model built into the binary for 5x5 to 11x11; on a size without a model it
searches as the exact player, with a note on standard error) searches by Monte Carlo tree
search over the network's values, with its cheap --order as priors, H-search proofs and
mustplay near the root and at nodes visited often, the circuit's ordering in the priors
(--circuit-priors) and random playouts (--playouts, --playout-weight) above 8x8; or by
alpha-beta (--search alphabeta) with H-search proofs on the first --vc-plies plies. The
exact player scores every node with H-search (XH-search with --xh) plus the resistance
circuit. Both work on the position after ICE fill-in and take the edge templates as
base connections. Each setting not given takes its default for the kind of player and
the board size, so a boardsize change keeps the settings given and the defaults follow
the size. param_player shows and changes every setting during the game (param_search
the search's limits).

To use it from HexGui: Program > New Program, command "hexlearn gtp" (a full path to
the binary if it is not on PATH), then Program > Connect.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		e, err := gtpEngine(c, args, stdout, stderr)
		if err != nil {
			return err
		}
		return e.Serve(ctx, os.Stdin, stdout)
	}
	register(c)
}

// gtpEngine parses the gtp command's flags and returns the engine on its starting
// board, playing with the player the flags describe.
func gtpEngine(c *command, args []string, stdout, stderr io.Writer) (*gtp.Engine, error) {
	fs := newFlags(c, stdout)
	size := fs.Int("size", gtp.DefaultSize, "side of the board before the first boardsize command (if not given: a --model file's board, else 11)")
	swap := fs.Bool("swap", false, "the swap rule is on from the start (param_game allow_swap)")
	var s player.Settings
	s.Flags(fs.FlagSet)
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() != 0 {
		return nil, usageErr("unexpected argument %q", fs.Arg(0))
	}
	if err := intIn("size", *size, 1, hex.MaxSize); err != nil {
		return nil, err
	}
	for _, name := range []string{"model", "patterns", "book"} {
		v, given, _ := s.Get(name)
		if given && v != player.BuiltinModel && v != player.BookNone {
			if err := optionalInput(name, v); err != nil {
				return nil, err
			}
		}
	}
	p, err := player.New(s, player.Options{Notes: stderr})
	if errors.Is(err, player.ErrSettings) {
		return nil, usageErr("%s", strings.TrimPrefix(err.Error(), player.ErrSettings.Error()+": "))
	}
	if err != nil {
		return nil, err
	}
	n := *size
	sizeGiven := false
	fs.Visit(func(f *flag.Flag) { sizeGiven = sizeGiven || f.Name == "size" })
	if m := p.Model(); m != nil && !sizeGiven {
		n = m.W // without --size: the model file's board
		if m.W != m.H {
			return nil, usageErr("--model: a %dx%d model; give --size", m.W, m.H)
		}
	}
	if err := p.CheckSize(n, n); err != nil {
		return nil, usageErr("%s", strings.TrimPrefix(err.Error(), player.ErrSettings.Error()+": "))
	}
	e := gtp.New()
	e.SetBoard(hex.MustBoard(n, n))
	e.SetPlayer(p)
	e.SetAllowSwap(*swap)
	return e, nil
}
