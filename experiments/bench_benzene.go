package experiments

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"time"

	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/benchutil"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// Limits of the soundness check of the connections Benzene does not find: a claim is
// solved (DFPN, opponent to move) when its position has at most benzeneSolveEmpty
// empty cells, with at most benzeneSolveNodes nodes; the others count as unchecked.
const (
	benzeneSolveEmpty = 64
	benzeneSolveNodes = 100_000
)

// BenzeneResult compares one H-search configuration with Benzene's reference data
// (vc.BenzeneReference) on one board size and set.
type BenzeneResult struct {
	Size      int
	Set       string
	Name      string // the configuration's name
	Cmp       vc.BenzeneComparison
	Unsound   int           // extra claims the solver refutes (the opponent, moving first, wins)
	Sound     int           // extra claims the solver confirms
	Unchecked int           // extra claims not solved (too many empty cells, or the node limit)
	Positions int           // distinct positions timed
	Median    time.Duration // median over positions of one build of both colours
	P90       time.Duration
	Mean      time.Duration
	CPU       bool          // our times are thread CPU times
	Benzene   time.Duration // median over positions of Benzene's vc-build (CPU time, from the data)
}

// CompareWithBenzene builds the positions of Benzene's reference data for size and
// set with cfg and reports the coverage of Benzene's winning edge-to-edge VCs, the
// claims Benzene does not make (checked with the DFPN solver where the position is
// small enough), and the median time of one build of both colours (thread CPU time,
// for each colour the fastest of reps builds) next to Benzene's median.
// vc.ErrNoReference (wrapped) when there is no data for size and set.
func CompareWithBenzene(ctx context.Context, size int, set, name string, cfg vc.Config, reps int) (BenzeneResult, error) {
	ref, err := vc.BenzeneReference(size, set)
	if err != nil {
		return BenzeneResult{}, err
	}
	return compareBenzene(ctx, ref, size, set, name, cfg, reps)
}

func compareBenzene(ctx context.Context, ref []vc.BenzeneEntry, size int, set, name string, cfg vc.Config, reps int) (BenzeneResult, error) {
	res := BenzeneResult{Size: size, Set: set, Name: name}
	clock, cpu := benchutil.ThreadClock()
	if cpu {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
	}
	cmp, err := vc.CompareBenzeneTimed(ref, cfg, clock, reps)
	if err != nil {
		return res, err
	}
	res.Cmp, res.CPU, res.Positions = cmp, cpu, len(cmp.Times)
	if len(cmp.Times) > 0 {
		var sum time.Duration
		for _, d := range cmp.Times {
			sum += d
		}
		res.Mean = sum / time.Duration(len(cmp.Times))
		res.Median, res.P90 = stats.DurationQuantile(cmp.Times, 0.5), stats.DurationQuantile(cmp.Times, 0.9)
		res.Benzene = stats.DurationQuantile(cmp.BenzeneTimes, 0.5)
	}
	for _, i := range cmp.Extra {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		switch sound, err := checkClaim(ctx, ref[i]); {
		case errors.Is(err, errTooBig), errors.Is(err, solver.ErrLimit):
			res.Unchecked++
		case err != nil:
			return res, fmt.Errorf("checking %s's claim on line %d: %w", ref[i].Color, ref[i].Line, err)
		case sound:
			res.Sound++
		default:
			res.Unsound++
		}
	}
	return res, nil
}

var errTooBig = errors.New("too many empty cells to solve")

// checkClaim solves e's position with the opponent of e.Color to move: a winning VC
// of e.Color is sound when e.Color still wins.
func checkClaim(ctx context.Context, e vc.BenzeneEntry) (bool, error) {
	if e.Board.EmptyCells().Count() > benzeneSolveEmpty {
		return false, errTooBig
	}
	b := e.Board.Clone()
	b.SetToMove(e.Color.Opp())
	w, err := solver.TrueWinner(ctx, b, benzeneSolveNodes)
	if err != nil {
		return false, err
	}
	return w == e.Color, nil
}

// Row returns the result as a benchmark row: our times, Benzene's median as the
// baseline (the ratio compares medians), coverage and claims in the note.
func (r BenzeneResult) Row() BenchRow {
	clock := "wall-clock"
	if r.CPU {
		clock = "thread CPU"
	}
	set := r.Set
	if set == vc.BenzeneHeldOut {
		set = "held-out"
	}
	row := BenchRow{Name: r.Name + " vs Benzene, " + set + " set, both colours", PerOp: r.Mean, Median: r.Median, P90: r.P90,
		Note: fmt.Sprintf("found %d of Benzene's %d winning VCs (%.0f%%); %d claims Benzene does not make (%d unsound, %d sound, %d unchecked); %d of ours with a larger carrier; Benzene's median %s; %d positions, %s times",
			r.Cmp.Found, r.Cmp.Benzene, r.Cmp.Coverage(), len(r.Cmp.Extra), r.Unsound, r.Sound, r.Unchecked, r.Cmp.Larger, fmtDur(r.Benzene), r.Positions, clock)}
	if r.Benzene > 0 && r.Median > 0 {
		row.Baseline, row.Ratio = "Benzene's median", float64(r.Benzene)/float64(r.Median)
	}
	return row
}
