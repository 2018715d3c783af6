package vc_test

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/benchutil"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/stats"
)

var updateSolved = flag.String("update-solved", "", "regenerate testdata/solvedN.txt for these comma-separated sizes N with the solver (minutes)")

// solvedSets are the stored solved measurement sets: the first n positions of
// positions.Random(size, 3n, solvedSeed) that the solver labels within nodes nodes
// (experiment 9 allows 200000; on 8x8 that takes minutes per hard position, so the
// 8x8 set skips the hardest, mostly early, positions).
var solvedSets = []struct {
	size, n int
	nodes   int64
}{{6, 100, 200000}, {7, 100, 200000}, {8, 200, 20000}}

const solvedSeed = 16 // seed of positions.Random (issue 16)

// solved is one labelled position.
type solved struct {
	b      *hex.Board
	winner hex.Color
}

// solvedPath is the file of the solved set of one size.
func solvedPath(size int) string { return fmt.Sprintf("testdata/solved%d.txt", size) }

// generateSolved labels the positions of one solved set with the solver.
func generateSolved(t *testing.T, size, n int, nodes int64) string {
	t.Helper()
	lab := solver.NewLabeler(nodes)
	var sb strings.Builder
	fmt.Fprintf(&sb, "# vc measurement set: the first %d positions of positions.Random(%d, %d, seed %d) that\n", n, size, 3*n, solvedSeed)
	fmt.Fprintf(&sb, "# solver.NewLabeler(%d) solves, one per line: true winner (B or W; side to move\n", nodes)
	sb.WriteString("# by parity, Black first), then the moves. Regenerate with\n")
	fmt.Fprintf(&sb, "#   go test ./engine/vc -run TestSolvedSet -timeout 1h -update-solved %d\n", size)
	kept, skipped := 0, 0
	for _, b := range positions.Random(size, 3*n, solvedSeed) {
		if kept == n {
			break
		}
		w, err := lab.Winner(context.Background(), b)
		if err != nil || w == hex.Empty {
			skipped++
			continue
		}
		kept++
		if kept%10 == 0 {
			t.Logf("%dx%d: %d solved, %d skipped", size, size, kept, skipped)
		}
		col := "B"
		if w == hex.White {
			col = "W"
		}
		fmt.Fprintf(&sb, "%s %s\n", col, b.Geometry().FormatMoves(b.Moves()))
	}
	if kept < n {
		t.Fatalf("solved set %dx%d: only %d of %d positions solved", size, size, kept, n)
	}
	fmt.Fprintf(&sb, "# %d positions skipped (not solved within the node limit)\n", skipped)
	return sb.String()
}

// loadSolved reads the solved set of one size.
func loadSolved(t testing.TB, size int) []solved {
	t.Helper()
	f, err := os.Open(solvedPath(size))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []solved
	sc := bufio.NewScanner(f)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		col, moves, _ := strings.Cut(line, " ")
		var w hex.Color
		switch col {
		case "B":
			w = hex.Black
		case "W":
			w = hex.White
		default:
			t.Fatalf("%s:%d: bad winner %q", solvedPath(size), ln, col)
		}
		b, err := hex.ParsePosition(size, size, moves)
		if err != nil {
			t.Fatalf("%s:%d: %v", solvedPath(size), ln, err)
		}
		out = append(out, solved{b, w})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// decideCount decides every position of set with configuration c (vc.Decide, or
// vc.FillDecider when c.fill) and returns how many it decides, the positions where a
// decision contradicts the true winner, and the median thread CPU time of a decision
// (minimum of reps runs per position; 0 when reps is 0).
func decideCount(t testing.TB, set []solved, c measureConfig, reps int) (decided int, wrong []int, median time.Duration) {
	t.Helper()
	mine, theirs := vc.NewBuilder(c.cfg), vc.NewBuilder(c.cfg)
	fd := vc.NewFillDecider()
	decide := func(b *hex.Board) vc.Decision {
		var d vc.Decision
		var err error
		if c.fill {
			d, err = fd.Decide(b, mine, theirs)
		} else {
			d, err = vc.Decide(b, mine, theirs)
		}
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, _ := benchutil.ThreadClock()
	var times []time.Duration
	for i, s := range set {
		d := decide(s.b)
		best := time.Duration(math.MaxInt64)
		for r := 0; r < reps; r++ {
			t0 := clock()
			decide(s.b)
			best = min(best, clock()-t0)
		}
		times = append(times, best)
		if d.Winner == hex.Empty {
			continue
		}
		decided++
		if d.Winner != s.winner {
			wrong = append(wrong, i)
		}
	}
	if reps > 0 {
		median = stats.DurationQuantile(times, 0.5)
	}
	return decided, wrong, median
}

// TestSolvedSet checks that H-search never contradicts the solver on the stored solved
// sets (default configuration, the exact player's search configuration, and every
// configuration switch this package offers) and logs how many positions each decides.
// With -update-solved it regenerates the sets with the solver first.
func TestSolvedSet(t *testing.T) {
	for _, ss := range solvedSets {
		if slices.Contains(strings.Split(*updateSolved, ","), strconv.Itoa(ss.size)) {
			text := generateSolved(t, ss.size, ss.n, ss.nodes)
			if err := fileutil.WriteFileAtomic(solvedPath(ss.size), []byte(text)); err != nil {
				t.Fatal(err)
			}
		}
		set := loadSolved(t, ss.size)
		if len(set) != ss.n {
			t.Fatalf("%s: %d positions, want %d", solvedPath(ss.size), len(set), ss.n)
		}
		for _, c := range measureConfigs() {
			if testing.Short() && c.name != "default" {
				continue
			}
			decided, wrong, _ := decideCount(t, set, c, 0)
			for _, i := range wrong {
				t.Errorf("%dx%d %s: position %d (%s) decided against the true winner %v", ss.size, ss.size, c.name, i,
					set[i].b.Geometry().FormatMoves(set[i].b.Moves()), set[i].winner)
			}
			t.Logf("%dx%d %-10s decides %d of %d", ss.size, ss.size, c.name, decided, len(set))
		}
	}
}

// measureConfig is a named H-search configuration measured on the solved sets; fill
// decides after ICE fill-in (vc.FillDecider).
type measureConfig struct {
	name string
	cfg  vc.Config
	fill bool
}

// measureConfigs returns the configurations TestSolvedSet checks and TestMeasureSolved
// times: the lists before issue 16 (5 VCs and 8 SCs per pair; the search's 8/8), the
// default before the OR retune (5 VCs, 16 SCs, MaxOr 4) and before the edge templates
// (6 VCs, MaxOr 5), the default, the default without the templates, the exact
// player's search configuration (circuit.SearchExactConfig), AND over edges,
// Benzene's list sizes, and the default and the earlier ones after ICE fill-in
// (vc.FillDecider).
func measureConfigs() []measureConfig {
	old := vc.DefaultConfig()
	old.MaxFull, old.MaxSemi, old.MaxOr, old.EdgeTemplates = 5, 8, 4, false
	before := before16()
	oldSearch := circuit.SearchExactConfig().VC
	oldSearch.MaxSemi, oldSearch.EdgeTemplates = 8, false
	or5 := beforeTemplates()
	plain := vc.DefaultConfig()
	plain.EdgeTemplates = false
	edge := vc.DefaultConfig()
	edge.AndOverEdge = true
	return []measureConfig{
		{"5/8", old, false},
		{"8/8", oldSearch, false},
		{"5/16/4", before, false},
		{"6/16/5", or5, false},
		{"default", vc.DefaultConfig(), false},
		{"no tmpl", plain, false},
		{"search", circuit.SearchExactConfig().VC, false},
		{"andedge", edge, false},
		{"25/50", benzeneLists(), false},
		{"fill 5/16/4", before, true},
		{"fill 6/16/5", or5, true},
		{"fill", vc.DefaultConfig(), true},
		{"fill no tmpl", plain, true},
	}
}

// TestMeasureSolved prints, when HEXLEARN_VC_MEASURE=1, for every configuration of
// measureConfigs the number of positions of each solved set it decides, the median
// time of one decision (vc.Decide or vc.FillDecider: fill-in and the side to move's
// build, the opponent's when that does not decide), and the median build time of both
// colours (internal/benchutil.MeasureVC) on the solved set and on the benchmark
// positions: thread CPU times, minimum of 3 runs per position, all in one run.
func TestMeasureSolved(t *testing.T) {
	if os.Getenv("HEXLEARN_VC_MEASURE") != "1" {
		t.Skip("set HEXLEARN_VC_MEASURE=1")
	}
	bench8, err := vc.BenchPositions(8)
	if err != nil {
		t.Fatal(err)
	}
	for _, ss := range solvedSets {
		set := loadSolved(t, ss.size)
		boards := make([]*hex.Board, len(set))
		for i := range set {
			boards[i] = set[i].b
		}
		for _, c := range measureConfigs() {
			decided, wrong, dt := decideCount(t, set, c, 3)
			st, err := benchutil.MeasureVC(boards, c.cfg, true, 3)
			if err != nil {
				t.Fatal(err)
			}
			line := fmt.Sprintf("%dx%d %-10s decides %3d of %d (%d wrong), median decision %.3f ms, build %.3f ms", ss.size, ss.size, c.name,
				decided, len(set), len(wrong), float64(dt)/1e6, float64(st.Median)/1e6)
			if ss.size == 8 {
				bt, err := benchutil.MeasureVC(bench8, c.cfg, true, 3)
				if err != nil {
					t.Fatal(err)
				}
				line += fmt.Sprintf(", bench8 median %.3f ms", float64(bt.Median)/1e6)
			}
			t.Log(line)
		}
	}
}
