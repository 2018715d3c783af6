package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func init() {
	c := &command{
		name:    "show",
		summary: "print a position given as a move list or an SGF file",
		usage: `hexlearn show --size N [--width W --height H] --moves "a1 b2 ..." [--json]
hexlearn show --sgf FILE [--json]

Prints the position as a text diagram (row 1 at the top; Black joins rows 1 and N,
White columns a and the last), the side to move and the winner, if any. Moves
alternate from Black; swap-pieces and resign are moves too, and "b:c3" / "w:c3" name
a colour. With --sgf the board comes from the main line of an SGF Hex file (GM[11]).
--json prints a machine-readable object instead.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", 11, "board side (n x n)")
		width := fs.Int("width", 0, "board width (columns a..), overrides --size")
		height := fs.Int("height", 0, "board height (rows 1..), overrides --size")
		moves := fs.String("moves", "", "moves from the empty board, e.g. \"f6 swap-pieces e7\"")
		sgf := fs.String("sgf", "", "read the position from this SGF file instead")
		asJSON := fs.Bool("json", false, "print JSON")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("width", *width, 0, hex.MaxSize),
			intIn("height", *height, 0, hex.MaxSize), optionalInput("sgf", *sgf)); err != nil {
			return err
		}
		var b *hex.Board
		if *sgf != "" {
			if *moves != "" {
				return usageErr("give --moves or --sgf, not both")
			}
			f, err := os.Open(*sgf)
			if err != nil {
				return err
			}
			defer f.Close()
			if b, err = hex.ReadSGF(f); err != nil {
				return fmt.Errorf("%s: %w", *sgf, err)
			}
		} else {
			w, h := *size, *size
			if *width != 0 {
				w = *width
			}
			if *height != 0 {
				h = *height
			}
			var err error
			if b, err = hex.NewBoard(w, h); err != nil {
				return usageErr("%v", err)
			}
			ms, err := b.Geometry().ParseMoves(*moves)
			if err != nil {
				return err
			}
			if err := b.PlayMoves(ms); err != nil {
				return err
			}
		}
		if *asJSON {
			return writeShowJSON(stdout, b)
		}
		fmt.Fprint(stdout, b.Diagram())
		fmt.Fprintf(stdout, "\n%s to move\n", b.ToMove())
		switch {
		case b.Resigned() != hex.Empty:
			fmt.Fprintf(stdout, "winner: %s (%s resigned)\n", b.Resigned().Opp(), b.Resigned())
		case b.Winner() != hex.Empty:
			fmt.Fprintf(stdout, "winner: %s\n", b.Winner())
		default:
			fmt.Fprintln(stdout, "winner: none yet")
		}
		return nil
	}
	register(c)
}

// showJSON is the --json output of hexlearn show.
type showJSON struct {
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Moves    []string `json:"moves"`   // history, each "B c3" / "W swap-pieces"; setup stones as "AB c3"
	Black    []string `json:"black"`   // cells with Black stones
	White    []string `json:"white"`   // cells with White stones
	ToMove   string   `json:"to_move"` // "black" or "white"
	Winner   string   `json:"winner"`  // "black", "white" or "" (undecided)
	Resigned string   `json:"resigned,omitempty"`
	Hash     string   `json:"hash"` // Zobrist hash, hexadecimal
	Diagram  string   `json:"diagram"`
}

func writeShowJSON(w io.Writer, b *hex.Board) error {
	g := b.Geometry()
	out := showJSON{
		Width: b.Width(), Height: b.Height(),
		Moves: []string{}, Black: []string{}, White: []string{},
		ToMove: b.ToMove().String(), Hash: fmt.Sprintf("%016x", b.Hash()), Diagram: b.Diagram(),
	}
	for i, m := range b.Moves() {
		tag := m.Color.Letter()
		if b.IsSetup(i) {
			tag = "A" + tag
		}
		out.Moves = append(out.Moves, tag+" "+g.CellName(m.Cell))
	}
	for p := hex.Cell(0); int(p) < g.N; p++ {
		switch b.At(p) {
		case hex.Black:
			out.Black = append(out.Black, g.CellName(p))
		case hex.White:
			out.White = append(out.White, g.CellName(p))
		}
	}
	winner := b.Winner()
	if r := b.Resigned(); r != hex.Empty {
		out.Resigned = r.String()
		winner = r.Opp()
	}
	if winner != hex.Empty {
		out.Winner = winner.String()
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
