package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "book",
		summary: "build an opening book of solved positions, or look a position up in one",
		usage: `hexlearn book build --size N --out FILE [--openings all|CELLS] [--depth D] [--replies K]
              [--max-nodes N] [--root-max-nodes N] [--timeout D] [--root-timeout D] [--tt-bits B]
              [--workers W] [--in FILE]
hexlearn book probe --book FILE|builtin --size N --moves "a1 b2 ..."

build grows an opening book (engine/book) from the one-stone openings of the N x N
board (all: every opening up to the 180° rotation, which a lookup tries; or the
openings --openings lists): the DFPN solver decides each opening; on the
winning side it stores the winning move, then follows the losing side's --replies most
plausible replies inside the solver's proof set (smallest two-distance potential sum
first) and stores the winning answer to each, --depth winning moves deep. A position
the solver does not decide within --max-nodes (an opening itself: --root-max-nodes),
or --timeout (--root-timeout) when set, is left out with everything below it; an
opening it does not decide has its most plausible moves solved one ply down instead.
Each opening gets a fresh solver table, so with node limits and no timeouts (the
defaults) the same flags give the same book, byte for byte, whatever --workers is
and whoever runs it; the defaults are the built-in books' flags, so
'hexlearn book build --size 8 --workers 2 --out player/books/8x8.book' remakes the
binary's 8x8 book. The file's first line records the flags that made it. One line per
opening goes to standard error as it finishes; the book is written to --out through a
temporary file (also when Ctrl-C stops the build: the openings finished so far). --in
starts from an existing book.

probe prints the book move of the position the moves reach (or "none").`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) == 0 {
			return usageErr("want a subcommand: build or probe")
		}
		switch args[0] {
		case "build":
			return bookBuild(ctx, c, args[1:], stdout, stderr)
		case "probe":
			return bookProbe(c, args[1:], stdout)
		case "-h", "--help", "-help":
			fmt.Fprintln(stdout, c.usage)
			return nil
		}
		return usageErr("unknown subcommand %q (want build or probe)", args[0])
	}
	register(c)
}

// bookBuild is 'hexlearn book build'.
func bookBuild(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(c, stdout)
	size := fs.Int("size", 8, "board side (n x n)")
	out := fs.String("out", "", "book file to write (required)")
	in := fs.String("in", "", "book file to start from")
	openings := fs.String("openings", "all", "all, or the opening cells to follow (comma- or space-separated)")
	depth := fs.Int("depth", bookDepth, "winning moves stored along each line")
	replies := fs.Int("replies", bookReplies, "losing replies followed after each stored move")
	timeout := fs.Duration("timeout", 0, "time limit per solved position (0: none; a book built with one depends on the machine)")
	rootTimeout := fs.Duration("root-timeout", 0, "time limit for each opening itself (0: --timeout)")
	maxNodes := fs.Int64("max-nodes", bookMaxNodes, "node limit per solved position (0: none)")
	rootMaxNodes := fs.Int64("root-max-nodes", bookRootMaxNodes, "node limit for each opening itself (0: --max-nodes)")
	ttBits := fs.Int("tt-bits", bookTTBits, "log2 of the solver table's entries per worker")
	workers := fs.Int("workers", 1, "openings built in parallel")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if *out == "" {
		return usageErr("--out is required")
	}
	for _, chk := range []error{intIn("size", *size, 1, 11), intIn("depth", *depth, 1, 64), intIn("replies", *replies, 1, 121),
		intIn("tt-bits", *ttBits, 10, 26), intIn("workers", *workers, 1, 64), intIn("max-nodes", *maxNodes, 0, 1<<50),
		intIn("root-max-nodes", *rootMaxNodes, 0, 1<<50)} {
		if chk != nil {
			return chk
		}
	}
	if *timeout < 0 || *rootTimeout < 0 {
		return usageErr("--timeout and --root-timeout must not be negative")
	}
	bk, err := book.New(*size, *size)
	if err != nil {
		return err
	}
	if *in != "" {
		if bk, err = player.ReadBook(*in, *size); err != nil {
			return err
		}
	}
	roots, names, err := bookRoots(*size, *openings)
	if err != nil {
		return err
	}
	mk := func() book.BuildConfig {
		scfg := solver.DefaultConfig()
		scfg.TTBits, scfg.MaxNodes = *ttBits, *maxNodes
		return book.BuildConfig{Depth: *depth, Replies: *replies, Timeout: *timeout, RootTimeout: *rootTimeout,
			RootMaxNodes: *rootMaxNodes, Solver: scfg}
	}
	spec := strings.Join(names, ",")
	if strings.TrimSpace(*openings) == "all" {
		spec = "all"
	}
	recipe := bookRecipe(*size, spec, *depth, *replies, *maxNodes, *rootMaxNodes, *timeout, *rootTimeout, *ttBits)
	if *in != "" {
		recipe += " --in " + filepath.Base(*in)
	}
	start := time.Now()
	finished := 0
	err = book.BuildRoots(ctx, bk, roots, *workers, mk, func(r book.RootReport) {
		finished++
		fmt.Fprintf(stderr, "%-4s %4d positions stored, %3d solves, %2d unknown, %9d nodes, %6.1f s\n", names[r.Index],
			r.Stored, r.Solves, r.Unknown, r.Nodes, r.Elapsed.Seconds())
	})
	if errors.Is(err, book.ErrConfig) {
		return usageErr("%v", err)
	}
	if finished == 0 && *in == "" && err != nil {
		return err // stopped before any opening finished: nothing to write
	}
	if err != nil {
		recipe += fmt.Sprintf(" (stopped: %d of %d openings)", finished, len(roots))
	}
	if err := fileutil.WriteAtomic(*out, func(w io.Writer) error {
		if _, err := fmt.Fprintln(w, recipe); err != nil {
			return err
		}
		return bk.Write(w)
	}); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d positions from %d openings in %s\n", *out, bk.Len(), len(roots), time.Since(start).Round(time.Second))
	return err
}

// The flags of the built-in books (player/books): the defaults of book build.
const (
	bookDepth        = 5
	bookReplies      = 3
	bookMaxNodes     = 30_000
	bookRootMaxNodes = 1_500_000
	bookTTBits       = 22
)

// bookRecipe is the first line of a built book: the flags that decide its content
// (--workers and --out do not).
func bookRecipe(size int, openings string, depth, replies int, maxNodes, rootMaxNodes int64, timeout, rootTimeout time.Duration, ttBits int) string {
	return fmt.Sprintf("# hexlearn book build --size %d --openings %s --depth %d --replies %d --max-nodes %d --root-max-nodes %d --timeout %v --root-timeout %v --tt-bits %d",
		size, openings, depth, replies, maxNodes, rootMaxNodes, timeout, rootTimeout, ttBits)
}

// bookRoots returns the one-stone openings of an n x n board that spec names, and
// their names: for "all", every cell whose 180° rotation does not come before it.
func bookRoots(n int, spec string) (roots []*hex.Board, names []string, err error) {
	names = strings.FieldsFunc(spec, func(r rune) bool { return r == ',' || r == ' ' })
	if strings.TrimSpace(spec) == "all" {
		g := hex.MustGeometry(n, n)
		var half hex.Bitset
		for p := hex.Cell(0); int(p) < g.N; p++ {
			if g.Rotate180(p) >= p {
				half.Set(p)
			}
		}
		names = g.CellNames(half)
	}
	for _, name := range names {
		b, err := hex.ParsePosition(n, n, name)
		if err != nil || b.NumStones() != 1 {
			return nil, nil, usageErr("--openings: %q is not a cell of the %dx%d board", name, n, n)
		}
		roots = append(roots, b)
	}
	if len(roots) == 0 {
		return nil, nil, usageErr("--openings: no cell given")
	}
	return roots, names, nil
}

// bookProbe is 'hexlearn book probe'.
func bookProbe(c *command, args []string, stdout io.Writer) error {
	fs := newFlags(c, stdout)
	size := fs.Int("size", 8, "board side (n x n)")
	file := fs.String("book", "builtin", "book file, or builtin")
	moves := fs.String("moves", "", "moves from the empty board, e.g. \"e4 d5\"")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	if err := intIn("size", *size, 1, 11); err != nil {
		return err
	}
	b, err := hex.ParsePosition(*size, *size, *moves)
	if err != nil {
		return usageErr("--moves: %v", err)
	}
	bk, err := loadBook(*file, *size)
	if err != nil {
		return err
	}
	if bk == nil {
		fmt.Fprintf(stdout, "none (no built-in book for %dx%d)\n", *size, *size)
		return nil
	}
	if m, ok := bk.Lookup(b); ok {
		fmt.Fprintf(stdout, "%s\n", b.Geometry().CellName(m))
		return nil
	}
	fmt.Fprintln(stdout, "none")
	return nil
}

// loadBook returns the book named by spec for n x n boards: "builtin" (nil when the
// binary has none for that size) or a file.
func loadBook(spec string, n int) (*book.Book, error) {
	if spec == "builtin" {
		return player.BuiltinBook(n, n)
	}
	return player.ReadBook(spec, n)
}
