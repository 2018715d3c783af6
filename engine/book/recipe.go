package book

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// ErrOpenings reports an openings list that names no cell of the board, or a
// string that is not a cell.
var ErrOpenings = errors.New("book: bad openings")

// Recipe is everything that decides a built book's content: the roots, how far each
// is followed and the solver's limits. How many builders run at once does not
// change the book (each root gets a fresh solver table), so a recipe with node limits
// and no time limits gives the same book, byte for byte, on every machine.
type Recipe struct {
	Size         int           // board side
	Openings     string        // "all" (every one-stone opening up to the 180° rotation) or cells
	Depth        int           // BuildConfig.Depth
	Replies      int           // BuildConfig.Replies
	MaxNodes     int64         // the solver's node limit per solved position (0: none)
	RootMaxNodes int64         // BuildConfig.RootMaxNodes
	Timeout      time.Duration // BuildConfig.Timeout (0: none)
	RootTimeout  time.Duration // BuildConfig.RootTimeout
	TTBits       int           // log2 of the solver table's entries per builder
}

// DefaultRecipe is the recipe of the built-in books (player/books) for n x n boards:
// node limits and no time limits.
func DefaultRecipe(n int) Recipe {
	return Recipe{Size: n, Openings: "all", Depth: 5, Replies: 3, MaxNodes: 30_000, RootMaxNodes: 1_500_000, TTBits: 22}
}

// String is the recipe as a book file's first line, a comment in the flags of
// 'hexlearn book build' that remake it.
func (r Recipe) String() string {
	return fmt.Sprintf("# hexlearn book build --size %d --openings %s --depth %d --replies %d --max-nodes %d --root-max-nodes %d --timeout %v --root-timeout %v --tt-bits %d",
		r.Size, r.Openings, r.Depth, r.Replies, r.MaxNodes, r.RootMaxNodes, r.Timeout, r.RootTimeout, r.TTBits)
}

// BuildConfig returns a builder configuration of the recipe with a solver of its
// own (call it once per builder: a solver configuration is not safe for concurrent
// use).
func (r Recipe) BuildConfig() BuildConfig {
	scfg := solver.DefaultConfig()
	scfg.TTBits, scfg.MaxNodes = r.TTBits, r.MaxNodes
	return BuildConfig{Depth: r.Depth, Replies: r.Replies, Timeout: r.Timeout, RootTimeout: r.RootTimeout,
		RootMaxNodes: r.RootMaxNodes, Solver: scfg}
}

// Roots returns the one-stone openings the recipe names and their cell names: for
// "all", every cell whose 180° rotation does not come before it (a lookup tries the
// rotation, so the other half would add nothing); else the cells listed, separated
// by commas or spaces. Errors wrap ErrOpenings.
func (r Recipe) Roots() (roots []*hex.Board, names []string, err error) {
	names = strings.FieldsFunc(r.Openings, func(c rune) bool { return c == ',' || c == ' ' })
	if strings.TrimSpace(r.Openings) == "all" {
		g, err := hex.NewGeometry(r.Size, r.Size)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrOpenings, err)
		}
		var half hex.Bitset
		for p := hex.Cell(0); int(p) < g.N; p++ {
			if g.Rotate180(p) >= p {
				half.Set(p)
			}
		}
		names = g.CellNames(half)
	}
	for _, name := range names {
		b, err := hex.ParsePosition(r.Size, r.Size, name)
		if err != nil || b.NumStones() != 1 {
			return nil, nil, fmt.Errorf("%w: %q is not a cell of the %dx%d board", ErrOpenings, name, r.Size, r.Size)
		}
		roots = append(roots, b)
	}
	if len(roots) == 0 {
		return nil, nil, fmt.Errorf("%w: no cell given", ErrOpenings)
	}
	return roots, names, nil
}
