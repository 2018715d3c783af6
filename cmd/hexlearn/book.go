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
and whoever runs it ('hexlearn book build --size 5 --tt-bits 16' remakes the binary's
5x5 book; its 8x8 book is older, made with time limits). The file's first line
records the flags that made it. One line per
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
	def := book.DefaultRecipe(8)
	size := fs.Int("size", def.Size, "board side (n x n)")
	out := fs.String("out", "", "book file to write (required)")
	in := fs.String("in", "", "book file to start from")
	openings := fs.String("openings", def.Openings, "all, or the opening cells to follow (comma- or space-separated)")
	depth := fs.Int("depth", def.Depth, "winning moves stored along each line")
	replies := fs.Int("replies", def.Replies, "losing replies followed after each stored move")
	timeout := fs.Duration("timeout", 0, "time limit per solved position (0: none; a book built with one depends on the machine)")
	rootTimeout := fs.Duration("root-timeout", 0, "time limit for each opening itself (0: --timeout)")
	maxNodes := fs.Int64("max-nodes", def.MaxNodes, "node limit per solved position (0: none)")
	rootMaxNodes := fs.Int64("root-max-nodes", def.RootMaxNodes, "node limit for each opening itself (0: --max-nodes)")
	ttBits := fs.Int("tt-bits", def.TTBits, "log2 of the solver table's entries per worker")
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
	r := book.Recipe{Size: *size, Openings: *openings, Depth: *depth, Replies: *replies, MaxNodes: *maxNodes,
		RootMaxNodes: *rootMaxNodes, Timeout: *timeout, RootTimeout: *rootTimeout, TTBits: *ttBits}
	roots, names, err := r.Roots()
	if err != nil {
		return usageErr("--openings: %v", strings.TrimPrefix(err.Error(), book.ErrOpenings.Error()+": "))
	}
	if strings.TrimSpace(r.Openings) != "all" {
		r.Openings = strings.Join(names, ",")
	}
	bk, err := book.New(*size, *size)
	if err != nil {
		return err
	}
	recipe := r.String()
	if *in != "" {
		if bk, err = player.ReadBook(*in, *size); err != nil {
			return err
		}
		recipe += " --in " + filepath.Base(*in)
	}
	start := time.Now()
	finished := 0
	err = book.BuildRoots(ctx, bk, roots, *workers, r.BuildConfig, func(rep book.RootReport) {
		finished++
		fmt.Fprintf(stderr, "%-4s %4d positions stored, %3d solves, %2d unknown, %9d nodes, %6.1f s\n", names[rep.Index],
			rep.Stored, rep.Solves, rep.Unknown, rep.Nodes, rep.Elapsed.Seconds())
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
