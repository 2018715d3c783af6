package vc

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// The two position sets of the Benzene reference data: connection building may be
// tuned on BenzeneTuning; figures are reported on BenzeneHeldOut only.
const (
	BenzeneTuning  = "tuning"
	BenzeneHeldOut = "heldout"
)

// ErrNoReference is returned by BenzeneReference for a board size or set without
// reference data.
var ErrNoReference = errors.New("vc: no Benzene reference data")

//go:embed testdata/benzene-*.txt
var benzeneFS embed.FS

// BenzeneEntry is one line of the Benzene reference data: what Benzene's connection
// builder finds between one colour's two edges in one position.
type BenzeneEntry struct {
	Line    int           // line number in the file
	Moves   string        // the position: moves from the empty board, Black first
	Board   *hex.Board    // the position
	Color   hex.Color     // the colour whose edges are connected
	Wins    bool          // Benzene has a full connection between the colour's edges
	Carrier int           // cells of Benzene's smallest such carrier (0 when !Wins)
	CPU     time.Duration // CPU time of Benzene's vc-build (both colours' connections)
	Wall    time.Duration // GTP round-trip time of the same vc-build
}

// String formats the entry as a line of the reference file (see ParseBenzeneReference).
func (e BenzeneEntry) String() string {
	wins, carrier := "no", "-"
	if e.Wins {
		wins, carrier = "yes", strconv.Itoa(e.Carrier)
	}
	return fmt.Sprintf("%s %s %s %.3f %.3f %s", colorWord(e.Color), wins, carrier,
		float64(e.CPU)/1e6, float64(e.Wall)/1e6, e.Moves)
}

func colorWord(c hex.Color) string {
	if c == hex.White {
		return "white"
	}
	return "black"
}

// BenzeneReference returns the Benzene reference data for board size 8, 11 or 13 and
// set BenzeneTuning or BenzeneHeldOut (testdata/benzene-SIZE-SET.txt): for seeded
// random midgame positions (GenerateBenchPositions, 15–40 stones on 8x8 and 15–60 on
// the larger boards; the file's header gives the seed) and each colour, whether
// Benzene's VC builder, with inferior-cell analysis and decompositions off, finds a
// full connection between that colour's edges, its smallest carrier and the time of
// Benzene's build. ErrNoReference (wrapped) when there is no such file.
func BenzeneReference(size int, set string) ([]BenzeneEntry, error) {
	name := fmt.Sprintf("testdata/benzene-%d-%s.txt", size, set)
	data, err := benzeneFS.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w for %dx%d, set %q (have 8, 11 and 13, sets %s and %s)",
			ErrNoReference, size, size, set, BenzeneTuning, BenzeneHeldOut)
	}
	if err != nil {
		return nil, fmt.Errorf("vc: %v", err)
	}
	es, err := ParseBenzeneReference(size, string(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return es, nil
}

// ParseBenzeneReference reads Benzene reference data for size x size boards: one line
// per position and colour,
//
//	COLOUR WINS CARRIER CPU-MS WALL-MS MOVE ...
//
// with COLOUR black or white, WINS yes or no, CARRIER the cell count of Benzene's
// smallest edge-to-edge carrier ("-" when WINS is no), the two times in milliseconds
// and the moves of the position from the empty board, Black first. Blank lines and
// lines starting with # are skipped. A bad line is reported with its number; a
// position that is already won is bad.
func ParseBenzeneReference(size int, text string) ([]BenzeneEntry, error) {
	var out []BenzeneEntry
	err := dataLines(text, func(ln int, line string) error {
		e, err := parseBenzeneLine(size, line)
		if err != nil {
			return err
		}
		e.Line = ln
		out = append(out, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("vc: Benzene reference %w", err)
	}
	return out, nil
}

func parseBenzeneLine(size int, line string) (BenzeneEntry, error) {
	var e BenzeneEntry
	f := strings.Fields(line)
	if len(f) < 6 {
		return e, fmt.Errorf("%d fields, want colour, wins, carrier, cpu-ms, wall-ms and at least one move", len(f))
	}
	switch f[0] {
	case "black":
		e.Color = hex.Black
	case "white":
		e.Color = hex.White
	default:
		return e, fmt.Errorf("colour %q: want black or white", f[0])
	}
	switch f[1] {
	case "yes":
		e.Wins = true
	case "no":
	default:
		return e, fmt.Errorf("wins %q: want yes or no", f[1])
	}
	e.Moves = strings.Join(f[5:], " ")
	b, err := hex.ParsePosition(size, size, e.Moves)
	if err != nil {
		return e, err
	}
	if w := b.Winner(); w != hex.Empty {
		return e, fmt.Errorf("the position is already won by %s", w)
	}
	e.Board = b
	switch {
	case !e.Wins && f[2] != "-":
		return e, fmt.Errorf("carrier %q without a connection: want -", f[2])
	case e.Wins:
		n, err := strconv.Atoi(f[2])
		if empty := b.EmptyCells().Count(); err != nil || n < 0 || n > empty {
			return e, fmt.Errorf("carrier %q: want a cell count 0..%d", f[2], empty)
		}
		e.Carrier = n
	}
	for i, p := range []*time.Duration{&e.CPU, &e.Wall} {
		v, err := strconv.ParseFloat(f[3+i], 64)
		if err != nil || !(v >= 0) || v > 1e9 {
			return e, fmt.Errorf("%s %q: want milliseconds >= 0", [...]string{"cpu-ms", "wall-ms"}[i], f[3+i])
		}
		*p = time.Duration(math.Round(v * 1e6))
	}
	return e, nil
}

// BenzeneComparison compares this package's edge-to-edge connections with Benzene's
// over reference entries (CompareBenzene).
type BenzeneComparison struct {
	Entries int   // entries compared (positions x colours)
	Benzene int   // entries where Benzene has a winning VC
	Found   int   // of those, entries where the Builder has one too
	Larger  int   // of those, entries where the Builder's smallest carrier is larger than Benzene's
	Missed  []int // indexes of the entries where Benzene has a winning VC and the Builder not
	Extra   []int // indexes of the entries where the Builder has a winning VC and Benzene not
	// Times holds, when CompareBenzeneTimed was given a clock, the build time of both
	// colours of every distinct position, in order of first appearance: for each
	// colour the fastest of the repetitions.
	Times []time.Duration
	// BenzeneTimes holds Benzene's time (BenzeneEntry.CPU, the smaller of the
	// position's lines) for the same positions.
	BenzeneTimes []time.Duration
}

// Coverage is Found/Benzene in per cent (100 when Benzene has none).
func (c BenzeneComparison) Coverage() float64 {
	if c.Benzene == 0 {
		return 100
	}
	return 100 * float64(c.Found) / float64(c.Benzene)
}

// CompareBenzene builds every entry's position for its colour with cfg and compares
// the winning VC (Builder.WinningVC) with Benzene's.
func CompareBenzene(ref []BenzeneEntry, cfg Config) (BenzeneComparison, error) {
	return CompareBenzeneTimed(ref, cfg, nil, 1)
}

// CompareBenzeneTimed is CompareBenzene that also times the builds with clock (nil:
// no timing), building each entry reps times (at least once) and keeping the fastest.
// The clock is read around each Build; a thread CPU clock needs the caller's
// goroutine locked to its thread.
func CompareBenzeneTimed(ref []BenzeneEntry, cfg Config, clock func() time.Duration, reps int) (BenzeneComparison, error) {
	if err := cfg.Validate(); err != nil {
		return BenzeneComparison{}, err
	}
	if clock == nil {
		reps = 1
	}
	b := NewBuilder(cfg)
	cmp := BenzeneComparison{Entries: len(ref)}
	pos := map[string]int{}
	for i, e := range ref {
		if e.Board == nil {
			return cmp, fmt.Errorf("%w: Benzene reference entry %d", ErrNoBoard, i)
		}
		best := time.Duration(math.MaxInt64)
		for range max(reps, 1) {
			var t0 time.Duration
			if clock != nil {
				t0 = clock()
			}
			if err := b.Build(e.Board, e.Color); err != nil {
				return cmp, err
			}
			if clock != nil {
				best = min(best, clock()-t0)
			}
		}
		if clock != nil {
			if k, ok := pos[e.Moves]; ok {
				cmp.Times[k] += best
				cmp.BenzeneTimes[k] = min(cmp.BenzeneTimes[k], e.CPU)
			} else {
				pos[e.Moves] = len(cmp.Times)
				cmp.Times = append(cmp.Times, best)
				cmp.BenzeneTimes = append(cmp.BenzeneTimes, e.CPU)
			}
		}
		win, carrier := b.WinningVC()
		switch {
		case e.Wins && win:
			cmp.Benzene++
			cmp.Found++
			if carrier.Count() > e.Carrier {
				cmp.Larger++
			}
		case e.Wins:
			cmp.Benzene++
			cmp.Missed = append(cmp.Missed, i)
		case win:
			cmp.Extra = append(cmp.Extra, i)
		}
	}
	return cmp, nil
}
