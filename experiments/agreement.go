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
		Title: "agreement of the learned and the exact evaluator with the solver's true winner, per ply",
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
	if env.Size > 7 {
		return fmt.Errorf("%w: the solver labels boards up to 7x7, not %dx%d", ErrBadEnv, env.Size, env.Size)
	}
	ex, le, err := env.evaluators()
	if err != nil {
		return err
	}
	lab := solver.NewLabeler(solverNodeLimit)
	cells := env.Size * env.Size
	type tally struct{ n, exact, learned int }
	per := make([]tally, cells+1)
	var total tally
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
		ply := b.NumStones()
		t := &per[ply]
		t.n++
		total.n++
		if predicted(er.Value, er.Winner) == truth {
			t.exact++
			total.exact++
		}
		if predicted(lr.Value, lr.Winner) == truth {
			t.learned++
			total.learned++
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
		rows = append(rows, []string{fmt.Sprint(ply), fmt.Sprint(t.n), fmt.Sprintf("%.1f", pe), fmt.Sprintf("%.1f", pl)})
		xs, ye, yl = append(xs, float64(ply)), append(ye, pe), append(yl, pl)
		lo, hi := match.Wilson(t.exact, t.n)
		elo, ehi = append(elo, 100*lo), append(ehi, 100*hi)
		lo, hi = match.Wilson(t.learned, t.n)
		llo, lhi = append(llo, 100*lo), append(lhi, 100*hi)
	}
	r.Printf("%d random undecided positions (seed %d) labelled by the solver (%d left out: not solved within %d nodes). An evaluator predicts the colour it declares decided, else the sign of its value.\n\n",
		total.n, env.Seed, unsolved, solverNodeLimit)
	r.Printf("Overall agreement with the true winner: exact %.1f%%, learned %.1f%%.\n\n",
		100*float64(total.exact)/float64(total.n), 100*float64(total.learned)/float64(total.n))
	if err := r.Table("agreement", []string{"stones", "positions", "exact agrees %", "learned agrees %"}, rows); err != nil {
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
	env.logf("  agreement: exact %.1f%%, learned %.1f%% over %d positions", 100*float64(total.exact)/float64(total.n), 100*float64(total.learned)/float64(total.n), total.n)
	return nil
}
