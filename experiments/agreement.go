package experiments

import (
	"context"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/experiments/report"
)

func init() {
	add(&Experiment{
		Name:  "9-solver",
		Title: "agreement of the learned and the exact evaluator (and of the side to move) with the solver's true winner, per ply",
		Paper: "not in the paper; a mature resistance evaluator predicts the winner of random solved positions only about 70-75% of the time.",
		Run:   runAgreement,
	})
}

// solverNodeLimit bounds the solver per position; positions it cannot solve within
// the limit are left out and counted.
const solverNodeLimit = 200_000

// predicted is the winner an evaluation predicts: the decided colour, else the sign of
// the value (Black's point of view).
func predicted(v float64, decided hex.Color) hex.Color {
	if decided != hex.Empty {
		return decided
	}
	if v > 0 {
		return hex.Black
	}
	return hex.White
}

func runAgreement(ctx context.Context, env *Env, r *report.Report) (err error) {
	if env.Size > 8 {
		return fmt.Errorf("%w: the solver labels boards up to 8x8, not %dx%d", ErrBadEnv, env.Size, env.Size)
	}
	ex, le, err := env.evaluators()
	if err != nil {
		return err
	}
	lab := solver.NewLabeler(solverNodeLimit)
	cells := env.Size * env.Size
	// A tally counts the positions and how often each predictor names the true winner;
	// stm is the trivial rule "the side to move wins".
	type tally struct{ n, exact, learned, stm int }
	add := func(t *tally, truth, e, l, stm hex.Color) {
		t.n++
		if e == truth {
			t.exact++
		}
		if l == truth {
			t.learned++
		}
		if stm == truth {
			t.stm++
		}
	}
	per := make([]tally, cells+1)
	var total, open tally // open: the positions the exact evaluator leaves undecided
	unsolved := 0
	boards := randomPositions(env.Size, env.Positions, env.Seed)
	bar := env.progress("agreement", len(boards), "position")
	defer func() { bar.Done(err) }()
	for i, b := range boards {
		bar.Set(int64(i))
		if err := ctx.Err(); err != nil {
			return err
		}
		truth, err := lab.Winner(ctx, b)
		if err != nil || truth == hex.Empty {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			unsolved++
			continue
		}
		er := ex.Evaluate(b)
		lr := le.Evaluate(b)
		pe, pl := predicted(er.Value, er.Winner), predicted(lr.Value, lr.Winner)
		add(&per[b.NumStones()], truth, pe, pl, b.ToMove())
		add(&total, truth, pe, pl, b.ToMove())
		if er.Winner == hex.Empty {
			add(&open, truth, pe, pl, b.ToMove())
		}
	}
	if total.n == 0 {
		return errNoPositions
	}
	var rows [][]string
	var xs, ye, yl, elo, ehi, llo, lhi []float64
	for ply, t := range per {
		if t.n == 0 {
			continue
		}
		pe, pl := 100*float64(t.exact)/float64(t.n), 100*float64(t.learned)/float64(t.n)
		rows = append(rows, []string{fmt.Sprint(ply), fmt.Sprint(t.n), fmt.Sprintf("%.1f", pe), fmt.Sprintf("%.1f", pl),
			fmt.Sprintf("%.1f", 100*float64(t.stm)/float64(t.n))})
		xs, ye, yl = append(xs, float64(ply)), append(ye, pe), append(yl, pl)
		lo, hi := match.Wilson(t.exact, t.n)
		elo, ehi = append(elo, 100*lo), append(ehi, 100*hi)
		lo, hi = match.Wilson(t.learned, t.n)
		llo, lhi = append(llo, 100*lo), append(lhi, 100*hi)
	}
	r.Printf("%d random undecided positions (seed %d) labelled by the solver (%d left out: not solved within %d nodes). An evaluator predicts the colour it declares decided, else the sign of its value.\n\n",
		total.n, env.Seed, unsolved, solverNodeLimit)
	pct := func(k, n int) string {
		if n == 0 {
			return "-"
		}
		lo, hi := match.Wilson(k, n)
		return fmt.Sprintf("%.1f%% (%.1f..%.1f)", 100*float64(k)/float64(n), 100*lo, 100*hi)
	}
	summary := [][]string{
		{"all", fmt.Sprint(total.n), pct(total.exact, total.n), pct(total.learned, total.n), pct(total.stm, total.n)},
		{"undecided by H-search", fmt.Sprint(open.n), pct(open.exact, open.n), pct(open.learned, open.n), pct(open.stm, open.n)},
	}
	if err := r.Table("agreement-summary", []string{"positions", "n", "exact", "learned", "side to move"}, summary); err != nil {
		return err
	}
	if err := r.Table("agreement", []string{"stones", "positions", "exact agrees %", "learned agrees %", "side to move wins %"}, rows); err != nil {
		return err
	}
	p, err := report.Lines(fmt.Sprintf("Agreement with the solver %dx%d", env.Size, env.Size), "stones on the board", "winner predicted (% of positions, 95% CI)",
		[]report.Series{{Name: "exact", X: xs, Y: ye, Low: elo, High: ehi}, {Name: "learned", X: xs, Y: yl, Low: llo, High: lhi}}, 100)
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, "agreement"); err != nil {
		return err
	}
	r.Image("agreement", "agreement with the solver's true winner per number of stones")
	env.logf("  agreement: exact %.1f%%, learned %.1f%%, side to move %.1f%% over %d positions; undecided by H-search (%d): exact %.1f%%, learned %.1f%%, side to move %.1f%%",
		100*float64(total.exact)/float64(total.n), 100*float64(total.learned)/float64(total.n), 100*float64(total.stm)/float64(total.n), total.n,
		open.n, 100*float64(open.exact)/float64(max(1, open.n)), 100*float64(open.learned)/float64(max(1, open.n)), 100*float64(open.stm)/float64(max(1, open.n)))
	return nil
}
