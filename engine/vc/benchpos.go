package vc

import (
	"bufio"
	"embed"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

//go:embed testdata/bench8.txt testdata/bench11.txt
var benchFS embed.FS

// BenchPositions returns the fixed benchmark positions for board size 8 or 11
// (testdata/benchN.txt: midgame positions of random games, 30–50 moves on 11x11 and
// 16–28 on 8x8, with no winner yet; made by GenerateBenchPositions with seed 1).
func BenchPositions(size int) ([]*hex.Board, error) {
	if size != 8 && size != 11 {
		return nil, fmt.Errorf("vc: no benchmark positions for size %d (have 8 and 11)", size)
	}
	name := fmt.Sprintf("testdata/bench%d.txt", size)
	data, err := benchFS.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("vc: %v", err)
	}
	return ParseBenchPositions(size, string(data))
}

// ParseBenchPositions reads one position per line ("a1 b2 ..." moves from the empty
// size x size board, Black first); blank lines and lines starting with # are skipped.
func ParseBenchPositions(size int, text string) ([]*hex.Board, error) {
	var out []*hex.Board
	err := dataLines(text, func(_ int, line string) error {
		b, err := hex.ParsePosition(size, size, line)
		if err != nil {
			return err
		}
		out = append(out, b)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("vc: benchmark %w", err)
	}
	return out, nil
}

// dataLines calls f with each line of text that is neither blank nor a # comment,
// trimmed, and its 1-based number; an error of f, or a line too long to read, comes
// back as "line N: error".
func dataLines(text string, f func(ln int, line string) error) error {
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	ln := 0
	for sc.Scan() {
		ln++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if err := f(ln, line); err != nil {
			return fmt.Errorf("line %d: %v", ln, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("line %d: %v", ln+1, err)
	}
	return nil
}

// GenerateBenchPositions plays n random games on a size x size board from seed and
// returns, for each, the move list after a random number of moves in [lo, hi] at which
// neither side has won yet, in the format ParseBenchPositions reads.
func GenerateBenchPositions(size, n, lo, hi int, seed uint64) ([]string, error) {
	g, err := hex.NewGeometry(size, size)
	if err != nil {
		return nil, err
	}
	if lo < 0 || hi < lo || hi > g.N {
		return nil, fmt.Errorf("vc: bad move range %d..%d for %dx%d", lo, hi, size, size)
	}
	r := rand.New(rand.NewPCG(seed, 0x7663))
	var out []string
	for len(out) < n {
		b := hex.NewBoardGeometry(g)
		cells := make([]hex.Cell, g.N)
		for i := range cells {
			cells[i] = hex.Cell(i)
		}
		r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
		k := lo + r.IntN(hi-lo+1)
		col := hex.Black
		for i := 0; i < k; i++ {
			b.PlayStone(col, cells[i])
			col = col.Opp()
		}
		if b.Winner() != hex.Empty {
			continue
		}
		out = append(out, g.FormatMoves(b.Moves()))
	}
	return out, nil
}
