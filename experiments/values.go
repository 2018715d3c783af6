package experiments

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/report"
	"github.com/hexlearn/hexlearn/internal/stats"
)

func init() {
	add(&Experiment{
		Name:  "1-values",
		Title: "learned vs exact values of the first-move boards",
		Paper: "figure 8: the network's values follow the exact evaluation of every first-move board closely on 6x6 and 11x11.",
		Run:   runValues,
	})
	add(&Experiment{
		Name:  "2-evaltime",
		Title: "evaluation times, learned vs exact",
		Paper: "figures 9 and 10: the network evaluates far faster than the exact evaluator on 6x6 and 11x11.",
		Run:   runEvalTime,
	})
}

func runValues(ctx context.Context, env *Env, r *report.Report) (err error) {
	ex, le, err := env.evaluators()
	if err != nil {
		return err
	}
	boards := firstMoveBoards(env.Size)
	exact := make([]float64, len(boards))
	decided := make([]bool, len(boards))
	learned := make([]float64, len(boards))
	rows := make([][]string, len(boards))
	var se float64
	bar := env.progress("values", len(boards), "board")
	defer func() { bar.Done(err) }()
	for i, b := range boards {
		bar.Set(int64(i))
		if err := ctx.Err(); err != nil {
			return err
		}
		er := ex.Evaluate(b)
		exact[i], decided[i] = er.Value, er.Winner != hex.Empty
		learned[i] = le.Evaluate(b).Value
		d := exact[i] - learned[i]
		se += d * d
		rows[i] = []string{b.Geometry().CellName(b.LastMove().Cell), f3(exact[i]), f3(learned[i]), decidedFor(er.Winner)}
	}
	rmse := math.Sqrt(se / float64(len(boards)))
	rho := stats.Spearman(exact, learned)
	// Decided boards (a winning VC) get the circuit's clamped values; report the fit on
	// the open boards separately, and how often the signs agree.
	var openE, openL []float64
	agree := 0
	for i := range exact {
		if !decided[i] {
			openE = append(openE, exact[i])
			openL = append(openL, learned[i])
		}
		if (exact[i] > 0) == (learned[i] > 0) {
			agree++
		}
	}
	var seOpen float64
	for i := range openE {
		seOpen += (openE[i] - openL[i]) * (openE[i] - openL[i])
	}
	rmseOpen := math.Sqrt(seOpen / math.Max(1, float64(len(openE))))
	bestE, bestL := argmax(exact), argmax(learned)
	g := boards[0].Geometry()
	r.Printf("Every board after Black's first move, valued by the exact evaluator and by the network (value from Black's point of view, ln(R_W/R_B) units).\n\n")
	r.Printf("- All %d boards: RMSE %.4f, Spearman rank correlation %.4f; the sign (who is ahead) agrees on %d (%.1f%%).\n",
		len(boards), rmse, rho, agree, 100*float64(agree)/float64(len(boards)))
	r.Printf("- The %d boards the exact evaluator leaves open (the others have a winning connection and carry clamped values, ln R = ±%g): RMSE %.4f, Spearman %.4f.\n",
		len(openE), circuit.LogClamp, rmseOpen, stats.Spearman(openE, openL))
	r.Printf("- Best first move: exact %s, learned %s.\n\n", g.CellName(hex.Cell(bestE)), g.CellName(hex.Cell(bestL)))
	p, err := report.Scatter(fmt.Sprintf("First-move boards %dx%d", env.Size, env.Size), "exact value", "learned value", exact, learned, true)
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, "values"); err != nil {
		return err
	}
	r.Image("values", "learned vs exact value of each first-move board (dashed: y = x)")
	env.logf("  rmse %.4f, spearman %.4f", rmse, rho)
	return r.CSV("values", []string{"first_move", "exact", "learned", "exact_decided_for"}, rows)
}

func argmax(v []float64) int {
	best := 0
	for i := range v {
		if v[i] > v[best] {
			best = i
		}
	}
	return best
}

func runEvalTime(ctx context.Context, env *Env, r *report.Report) (err error) {
	ex, le, err := env.evaluators()
	if err != nil {
		return err
	}
	boards := append(firstMoveBoards(env.Size), randomPositions(env.Size, env.Positions, env.Seed)...)
	if len(boards) == 0 {
		return errNoPositions
	}
	const reps = 200 // learned evaluations are timed in batches: one is below the clock's resolution
	exactUS := make([]float64, len(boards))
	scratchUS := make([]float64, len(boards))
	incrUS := make([]float64, 0, len(boards))
	bar := env.progress("evaluation times", len(boards), "position")
	defer func() { bar.Done(err) }()
	for i, b := range boards {
		bar.Set(int64(i))
		if err := ctx.Err(); err != nil {
			return err
		}
		t := time.Now()
		ex.Evaluate(b)
		exactUS[i] = float64(time.Since(t).Nanoseconds()) / 1e3
		t = time.Now()
		for j := 0; j < reps; j++ {
			le.Evaluate(b) // not tracked: from scratch
		}
		scratchUS[i] = float64(time.Since(t).Nanoseconds()) / 1e3 / reps
		// Incremental: track b, then play, evaluate and undo every empty cell, as a
		// search does at each node.
		empty := b.EmptyCells()
		cells := empty.AppendCells(nil)
		if len(cells) == 0 {
			continue
		}
		le.Reset(b)
		c := b.ToMove()
		t = time.Now()
		for _, p := range cells {
			b.PlayStone(c, p)
			le.Play(c, p)
			le.Evaluate(b)
			b.Undo()
			le.Undo(c, p)
		}
		incrUS = append(incrUS, float64(time.Since(t).Nanoseconds())/1e3/float64(len(cells)))
	}
	me, ms, mi := stats.QuantileOf(exactUS, 0.5), stats.QuantileOf(scratchUS, 0.5), stats.QuantileOf(incrUS, 0.5)
	r.Printf("%d positions: every first-move board and %d random undecided positions (seed %d).\n\n", len(boards), env.Positions, env.Seed)
	rows := [][]string{
		{"exact (H-search + circuit)", fmt.Sprintf("%.1f", me), fmt.Sprintf("%.1f", stats.QuantileOf(exactUS, 0.9)), "1"},
		{"learned, from scratch", fmt.Sprintf("%.3f", ms), fmt.Sprintf("%.3f", stats.QuantileOf(scratchUS, 0.9)), fmt.Sprintf("%.0f", me/ms)},
		{"learned, incremental (play+eval+undo)", fmt.Sprintf("%.3f", mi), fmt.Sprintf("%.3f", stats.QuantileOf(incrUS, 0.9)), fmt.Sprintf("%.0f", me/mi)},
	}
	if err := r.Table("evaltime_summary", []string{"evaluator", "median µs", "p90 µs", "speed-up vs exact"}, rows); err != nil {
		return err
	}
	logs := func(v []float64) []float64 {
		out := make([]float64, len(v))
		for i, x := range v {
			out[i] = math.Log10(math.Max(x, 1e-3))
		}
		return out
	}
	p, err := report.Histograms(fmt.Sprintf("Evaluation time %dx%d", env.Size, env.Size), "log10(µs per evaluation)", "evaluations", 40,
		[]string{"exact", "learned (scratch)", "learned (incremental)"}, [][]float64{logs(exactUS), logs(scratchUS), logs(incrUS)})
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, "evaltime"); err != nil {
		return err
	}
	r.Image("evaltime", "distribution of evaluation times (log scale)")
	raw := make([][]string, len(boards))
	for i := range boards {
		raw[i] = []string{fmt.Sprint(boards[i].NumStones()), fmt.Sprintf("%.2f", exactUS[i]), fmt.Sprintf("%.4f", scratchUS[i])}
	}
	env.logf("  median exact %.1f µs, learned %.3f µs (scratch), %.3f µs (incremental): %.0fx", me, ms, mi, me/mi)
	return r.CSV("evaltime", []string{"stones", "exact_us", "learned_scratch_us"}, raw)
}
