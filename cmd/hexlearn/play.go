package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

func init() {
	c := &command{
		name:    "play",
		summary: "play Hex against the engine in the terminal",
		usage: `hexlearn play [--size N] [--color black|white] [--depth D] [--k K] [--root-k K] [--time S]

Plays a game against the searching engine (alpha-beta with the exact evaluator:
H-search + resistance circuit, k-best successors). The board is shown as a diagram
after every move; type a cell such as c3 to play, 'undo' to take back your last move
(and the engine's answer), 'quit' to stop. Black (first player) joins the top and
bottom rows, White the left and right columns. Moves are read from standard input, so
a game can be piped in.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		def := gtp.SearchDefaults()
		size := fs.Int("size", 7, "side of the board (1..19)")
		color := fs.String("color", "black", "your colour: black (moves first) or white")
		depth := fs.Int("depth", def.Depth, "search depth in plies")
		k := fs.Int("k", def.K, "best successors searched at each node (0 = all)")
		rootK := fs.Int("root-k", def.RootK, "best successors searched at the root (0 = same as --k)")
		secs := fs.Float64("time", def.Time.Seconds(), "seconds per engine move (0 = no limit)")
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
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("depth", *depth, 1, search.MaxDepth),
			intIn("k", *k, 0, hex.MaxCells), intIn("root-k", *rootK, 0, hex.MaxCells)); err != nil {
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
		x, err := circuit.NewExact(circuit.SearchExactConfig())
		if err != nil {
			return err
		}
		s, err := search.New(x, search.Params{Depth: *depth, K: *k, RootK: *rootK, Time: d})
		if err != nil {
			return usageErr("%v", err)
		}
		return playGame(ctx, b, human, s, os.Stdin, stdout)
	}
	register(c)
}

// playGame runs the terminal game loop: the engine answers with s, the human's moves
// come from in.
func playGame(ctx context.Context, b *hex.Board, human hex.Color, s *search.Searcher, in io.Reader, out io.Writer) error {
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
			o, err := s.Search(ctx, b)
			if err != nil {
				return err
			}
			if err := b.Play(hex.Move{Color: b.ToMove(), Cell: o.Move}); err != nil {
				return fmt.Errorf("play: the engine chose an illegal move: %w", err)
			}
			verdict := ""
			if o.Winner != hex.Empty {
				verdict = ", " + o.Winner.String() + " wins by force"
			}
			fmt.Fprintf(out, "engine plays %s (value %+.3f for Black, depth %d, %d nodes, %.2f s%s)\n",
				g.CellName(o.Move), clampValue(o.Value), o.Depth, o.Nodes, o.Time.Seconds(), verdict)
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
		p, err := g.ParseCell(line)
		if err == nil {
			err = b.Play(hex.Move{Color: human, Cell: p})
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
