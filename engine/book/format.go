package book

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrFormat reports a malformed book file; the message names the line.
var ErrFormat = errors.New("book: bad book file")

// The text format (docs/formats.md): comment lines start with '#'; the first other
// line is "size WxH"; every later line is one position and its move,
//
//	BLACK WHITE TOMOVE MOVE
//
// with BLACK and WHITE the cells of each colour's stones, comma-separated ('-' for
// none), TOMOVE b or w, and MOVE the winning cell, e.g. "d4,e5 c6 w d6". Write sorts
// the lines, so the same book gives the same file.

// Write writes the book in its text format.
func (bk *Book) Write(w io.Writer) error {
	lines := make([]string, 0, len(bk.m))
	for k, m := range bk.m {
		tm := "b"
		if k.toMove == hex.White {
			tm = "w"
		}
		lines = append(lines, fmt.Sprintf("%s %s %s %s", bk.cells(k.black), bk.cells(k.white), tm, bk.g.CellName(m)))
	}
	sort.Strings(lines)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# hexlearn opening book: BLACK WHITE TOMOVE MOVE per line, MOVE wins for TOMOVE\nsize %dx%d\n", bk.g.W, bk.g.H)
	for _, l := range lines {
		bw.WriteString(l)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

func (bk *Book) cells(s hex.Bitset) string {
	if s.IsEmpty() {
		return "-"
	}
	return strings.Join(bk.g.CellNames(s), ",")
}

// Read reads a book in its text format. Every error wraps ErrFormat and names the
// line: a missing or bad size line, a bad cell, a cell given twice, a stone count no
// game reaches with that side to move (Black moves first; no swap), a move on a
// stone, or a finished game.
func Read(r io.Reader) (*Book, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	var bk *Book
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if bk == nil {
			var w, h int
			var rest string
			if c, _ := fmt.Sscanf(line, "size %dx%d%s", &w, &h, &rest); c != 2 {
				return nil, fmt.Errorf("%w: line %d: want \"size WxH\", got %q", ErrFormat, n, clip(line))
			}
			b, err := New(w, h)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, n, err)
			}
			bk = b
			continue
		}
		if err := bk.parseLine(line); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: line %d: %v", ErrFormat, n+1, err)
	}
	if bk == nil {
		return nil, fmt.Errorf("%w: no \"size WxH\" line", ErrFormat)
	}
	return bk, nil
}

// parseLine adds the position and move of one line.
func (bk *Book) parseLine(line string) error {
	f := strings.Fields(line)
	if len(f) != 4 {
		return fmt.Errorf("want 4 fields (BLACK WHITE TOMOVE MOVE), got %d", len(f))
	}
	b := hex.NewBoardGeometry(bk.g)
	for i, c := range []hex.Color{hex.Black, hex.White} {
		if f[i] == "-" {
			continue
		}
		for _, name := range strings.Split(f[i], ",") {
			p, err := bk.g.ParseCell(name)
			if err != nil {
				return err
			}
			if b.At(p) != hex.Empty {
				return fmt.Errorf("cell %s given twice", name)
			}
			b.PlayStone(c, p)
		}
	}
	nb, nw := b.Stones(hex.Black).Count(), b.Stones(hex.White).Count()
	switch {
	case f[2] == "b" && nb == nw:
		b.SetToMove(hex.Black)
	case f[2] == "w" && nb == nw+1:
		b.SetToMove(hex.White)
	case f[2] != "b" && f[2] != "w":
		return fmt.Errorf("side to move %q (want b or w)", clip(f[2]))
	default:
		return fmt.Errorf("%d black and %d white stones with %s to move: no game reaches it", nb, nw, f[2])
	}
	if b.Winner() != hex.Empty {
		return fmt.Errorf("the game is over")
	}
	m, err := bk.g.ParseCell(f[3])
	if err != nil {
		return err
	}
	if b.At(m) != hex.Empty {
		return fmt.Errorf("move %s is on a stone", f[3])
	}
	bk.m[keyOf(b)] = m
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
