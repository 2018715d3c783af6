package solver

import (
	_ "embed"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// openingsTable lists, for every n x n board from 3x3 to 8x8, the cells where Black's
// first stone wins with perfect play (White to move next, no swap); every other cell of
// that board loses for Black. Black joins north–south, a1 is the top-left (acute)
// corner.
//
// Provenance: the published solved-openings values of Hex (Hayward et al. 2005;
// Henderson, Arneson & Hayward 2009, "Solving 8x8 Hex"), as recorded in public solver
// regression suites; the 3x3 and 4x4 rows come from exhaustive search. The solver
// reproduces every row it has solved (3x3 to 7x7 in full, 52 of the 64 8x8 openings),
// but the table is not derived from it: it is the independent oracle the solver is
// tested against (openings_test.go), and the win map the player's swap rule follows.
//
//go:embed openings.tsv
var openingsTable string

var (
	knownOnce sync.Once
	known     map[int]hex.Bitset
	knownErr  error
)

// KnownOpenings returns the published win map of the one-stone openings of an n x n
// board: the cells where Black's first stone wins (every other cell loses for Black),
// and false for a size the table does not hold (it holds 3x3 to 8x8).
func KnownOpenings(n int) (hex.Bitset, bool) {
	knownOnce.Do(func() { known, knownErr = parseOpenings(openingsTable) })
	if knownErr != nil {
		panic(knownErr) // the embedded table is part of the binary; its tests read it
	}
	wins, ok := known[n]
	return wins, ok
}

// parseOpenings reads the table of openings.tsv: '#' comments, a header line, then
// "size<TAB>cells" lines.
func parseOpenings(text string) (map[int]hex.Bitset, error) {
	out := map[int]hex.Bitset{}
	for i, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "size") || strings.TrimSpace(line) == "" {
			continue
		}
		size, cells, ok := strings.Cut(line, "\t")
		n, err := strconv.Atoi(size)
		if !ok || err != nil || n < 1 || n > hex.MaxSize {
			return nil, fmt.Errorf("solver: openings table line %d: bad size in %q", i+1, line)
		}
		g := hex.MustGeometry(n, n)
		var wins hex.Bitset
		for _, name := range strings.Fields(cells) {
			c, err := g.ParseCell(name)
			if err != nil {
				return nil, fmt.Errorf("solver: openings table line %d: %v", i+1, err)
			}
			wins.Set(c)
		}
		out[n] = wins
	}
	return out, nil
}
