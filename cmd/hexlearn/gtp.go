package main

import (
	"context"
	"io"
	"os"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
)

func init() {
	c := &command{
		name:    "gtp",
		summary: "speak the Hex GTP dialect (HexGui, Benzene) on standard input and output",
		usage: `hexlearn gtp [--size N]

Serves the Hex dialect of the Go Text Protocol on standard input and output, as HexGui
and Benzene's tools expect: protocol_version, name, version, known_command,
list_commands, quit, boardsize N | W H, clear_board, play COLOR CELL (b/black, w/white;
c3, swap-pieces, resign), undo, showboard, genmove COLOR, loadsgf FILE [N],
savesgf FILE, final_score, all_legal_moves COLOR, hexgui-analyze_commands, and the
commands later parts of hexlearn register (list_commands shows them all). Errors are
answered with "? message" and the engine keeps serving until quit or end of input.

To use it from HexGui: Program > New Program, command "hexlearn gtp" (a full path to
the binary if it is not on PATH), then Program > Connect.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stderr)
		size := fs.Int("size", gtp.DefaultSize, "side of the board before the first boardsize command")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		b, err := hex.NewBoard(*size, *size)
		if err != nil {
			return usageErr("--size: %v", err)
		}
		e := gtp.New()
		e.SetBoard(b)
		return e.Serve(ctx, os.Stdin, stdout)
	}
	register(c)
}
