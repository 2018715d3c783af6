package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "play",
		summary: "play Hex against the engine in the terminal",
		usage: `hexlearn play [--size N] [--color black|white] [--swap] [player flags, as for 'hexlearn gtp']

Plays a game against hexlearn's player (the learned player by default; --player exact
for the exact evaluator's alpha-beta, and every other flag of 'hexlearn gtp', listed
below, to set it up). The board is shown as a diagram after every move; type a cell
such as c3 to play (swap-pieces for the swap move with --swap), 'undo' to take back your
last move (and the engine's answer), 'quit' to stop. Black (first player) joins the top
and bottom rows, White the left and right columns. Moves are read from standard input,
so a game can be piped in.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", 7, "side of the board (1..19)")
		color := fs.String("color", "black", "your colour: black (moves first) or white")
		swap := fs.Bool("swap", false, "play with the swap rule")
		var s player.Settings
		s.Flags(fs.FlagSet)
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := intIn("size", *size, 1, hex.MaxSize); err != nil {
			return err
		}
		b, err := hex.NewBoard(*size, *size)
		if err != nil {
			return usageErr("--size: %v", err)
		}
		human, err := hex.ParseColor(*color)
		if err != nil {
			return usageErr("--color: %v", err)
		}
		p, err := player.New(s, player.Options{Notes: stderr})
		if err == nil {
			err = p.CheckSize(*size, *size)
		}
		if errors.Is(err, player.ErrSettings) {
			return usageErr("%s", strings.TrimPrefix(err.Error(), player.ErrSettings.Error()+": "))
		}
		if err != nil {
			return err
		}
		return playGame(ctx, b, human, p, *swap, os.Stdin, stdout)
	}
	register(c)
}

// playGame runs the terminal game loop: the engine answers with p, the human's moves
// come from in; swap turns the swap rule on.
func playGame(ctx context.Context, b *hex.Board, human hex.Color, p *player.Player, swap bool, in io.Reader, out io.Writer) error {
	g := b.Geometry()
	sc := bufio.NewScanner(in)
	fmt.Fprintf(out, "You play %v (%s). Type a cell (e.g. c3), 'undo' or 'quit'.\n", human, sideText(human))
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		fmt.Fprintf(out, "\n%s", b.Diagram())
		if w := b.Winner(); w != hex.Empty {
			if w == human {
				fmt.Fprintln(out, "You win.")
			} else {
				fmt.Fprintln(out, "The engine wins.")
			}
			return nil
		}
		if b.ToMove() != human {
			d, err := p.Decide(ctx, b, swap)
			if err != nil {
				return err
			}
			if err := b.Play(hex.Move{Color: b.ToMove(), Cell: d.Move}); err != nil {
				return fmt.Errorf("play: the engine chose an illegal move: %w", err)
			}
			if !d.Searched {
				fmt.Fprintf(out, "engine plays %s (%s)\n", g.CellName(d.Move), d.From)
				continue
			}
			o := d.Outcome
			verdict := ""
			if o.Winner != hex.Empty {
				verdict = ", " + o.Winner.String() + " wins by force"
			}
			fmt.Fprintf(out, "engine plays %s (value %+.3f for Black, depth %d, %d nodes, %.2f s%s)\n",
				g.CellName(d.Move), clampValue(o.Value), o.Depth, o.Nodes, o.Time.Seconds(), verdict)
			continue
		}
		fmt.Fprintf(out, "%v to move> ", human)
		if !sc.Scan() {
			if err := sc.Err(); err != nil {
				return fmt.Errorf("play: reading moves: %w", err)
			}
			fmt.Fprintln(out, "\nend of input: game abandoned")
			return nil
		}
		line := strings.TrimSpace(strings.ToLower(sc.Text()))
		switch line {
		case "":
			continue
		case "quit", "exit", "resign":
			fmt.Fprintln(out, "bye")
			return nil
		case "undo":
			n := 0
			for b.Ply() > 0 && (n == 0 || b.ToMove() != human) {
				b.Undo()
				n++
			}
			if n == 0 {
				fmt.Fprintln(out, "nothing to undo")
			}
			continue
		}
		c, err := g.ParseMoveCell(line)
		if err == nil {
			err = b.Play(hex.Move{Color: human, Cell: c})
		}
		if err != nil {
			fmt.Fprintf(out, "%v\n", err)
		}
	}
}

// clampValue shows a decided value as the extreme of the heuristic scale.
func clampValue(v float64) float64 {
	if v > 2*circuit.LogClamp {
		return 2 * circuit.LogClamp
	}
	if v < -2*circuit.LogClamp {
		return -2 * circuit.LogClamp
	}
	return v
}

func sideText(c hex.Color) string {
	if c == hex.White {
		return "join the left and right columns, moving second"
	}
	return "join the top and bottom rows, moving first"
}
