package experiments

import (
	"context"
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/internal/report"
)

func init() {
	add(&Experiment{
		Name:  "9-solver",
		Title: "agreement of the learned and the exact evaluator (and of the side to move) with the solver's true winner, per ply, statically and one move deep",
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

// lookahead predicts the winner of b one move deep, for the exact and the learned
// evaluator at once. The connections of ex decide first: b itself when they prove it;
// else the side to move wins if one of its moves finishes a chain or leads to a position
// they prove won for it, and loses if they prove every move lost (a move outside b's
// mustplay counts as lost). Otherwise the best value among the moves they leave open
// decides, from the side to move's point of view (ex's value for the exact prediction,
// le's for the learned one; a best value of exactly 0 counts as a loss), so the two
// predictions differ only where nothing is proved. proved reports that the
// connections decided. b is restored.
func lookahead(b *hex.Board, ex, le search.Evaluator) (pe, pl hex.Color, proved bool, err error) {
	root := ex.Evaluate(b)
	if root.Winner != hex.Empty {
		return root.Winner, root.Winner, true, nil
	}
	x := b.ToMove()
	sgn := 1.0
	if x == hex.White {
		sgn = -1
	}
	moves := b.EmptyCells()
	if root.HasMustplay {
		moves = moves.And(root.Mustplay)
	}
	bestE, bestL := math.Inf(-1), math.Inf(-1)
	for p := moves.First(); p != hex.NoCell; p = moves.Next(p + 1) {
		if err := b.Play(hex.Move{Color: x, Cell: p}); err != nil {
			return hex.Empty, hex.Empty, false, fmt.Errorf("experiments: one-ply lookahead: %w", err)
		}
		won := b.Winner() == x
		var er search.Result
		if !won {
			er = ex.Evaluate(b)
			won = er.Winner == x
		}
		if !won && er.Winner == hex.Empty {
			bestE = max(bestE, sgn*er.Value)
			bestL = max(bestL, sgn*le.Evaluate(b).Value)
		}
		b.Undo()
		if won {
			return x, x, true, nil
		}
	}
	side := func(v float64) hex.Color {
		if v > 0 {
			return x
		}
		return x.Opp()
	}
	return side(bestE), side(bestL), math.IsInf(bestE, -1), nil
}

func runAgreement(ctx context.Context, env *Env, r *report.Report) (err error) {
	if env.Size > 8 {
		return fmt.Errorf("%w: the solver labels boards up to 8x8, not %dx%d", ErrBadEnv, env.Size, env.Size)
	}
	ex, le, err := env.evaluators()
	if err != nil {
		return err
	}
	// The one-ply predictions judge the positions with the connections the players'
	// searches use (fill-in and edge templates on).
	cfg := env.Exact
	cfg.FillIn, cfg.VC.EdgeTemplates = true, true
	child, err := circuit.NewExact(cfg)
	if err != nil {
		return err
	}
	lab := solver.NewLabeler(solverNodeLimit)
	cells := env.Size * env.Size
	// A tally counts the positions and how often each predictor names the true winner;
	// stm is the trivial rule "the side to move wins", exact1 and learned1 the one-ply
	// lookahead.
	type tally struct{ n, exact, learned, stm, exact1, learned1 int }
	type guess struct{ e, l, stm, e1, l1 hex.Color }
	add := func(t *tally, truth hex.Color, g guess) {
		t.n++
		for _, c := range []struct {
			p hex.Color
			k *int
		}{{g.e, &t.exact}, {g.l, &t.learned}, {g.stm, &t.stm}, {g.e1, &t.exact1}, {g.l1, &t.learned1}} {
			if c.p == truth {
				*c.k++
			}
		}
	}
	per := make([]tally, cells+1)
	// open: the positions the exact evaluator leaves undecided; open1: those of them
	// that one ply of connections does not decide either (the values decide).
	var total, open, open1 tally
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
		g := guess{e: predicted(er.Value, er.Winner), l: predicted(lr.Value, lr.Winner), stm: b.ToMove()}
		proved := true
		if g.e1, g.l1 = er.Winner, er.Winner; er.Winner == hex.Empty {
			if g.e1, g.l1, proved, err = lookahead(b, child, le); err != nil {
				return err
			}
		}
		add(&per[b.NumStones()], truth, g)
		add(&total, truth, g)
		if er.Winner == hex.Empty {
			add(&open, truth, g)
			if !proved {
				add(&open1, truth, g)
			}
		}
	}
	if total.n == 0 {
		return errNoPositions
	}
	var rows [][]string
	var xs, ye, yl, y1, ye1, elo, ehi, llo, lhi, lo1, hi1, elo1, ehi1 []float64
	for ply, t := range per {
		if t.n == 0 {
			continue
		}
		pc := func(k int) float64 { return 100 * float64(k) / float64(t.n) }
		pe, pl, p1 := pc(t.exact), pc(t.learned), pc(t.learned1)
		rows = append(rows, []string{fmt.Sprint(ply), fmt.Sprint(t.n), fmt.Sprintf("%.1f", pe), fmt.Sprintf("%.1f", pl),
			fmt.Sprintf("%.1f", pc(t.stm)), fmt.Sprintf("%.1f", pc(t.exact1)), fmt.Sprintf("%.1f", p1)})
		xs, ye, yl, y1, ye1 = append(xs, float64(ply)), append(ye, pe), append(yl, pl), append(y1, p1), append(ye1, pc(t.exact1))
		lo, hi := match.Wilson(t.exact, t.n)
		elo, ehi = append(elo, 100*lo), append(ehi, 100*hi)
		lo, hi = match.Wilson(t.learned, t.n)
		llo, lhi = append(llo, 100*lo), append(lhi, 100*hi)
		lo, hi = match.Wilson(t.learned1, t.n)
		lo1, hi1 = append(lo1, 100*lo), append(hi1, 100*hi)
		lo, hi = match.Wilson(t.exact1, t.n)
		elo1, ehi1 = append(elo1, 100*lo), append(ehi1, 100*hi)
	}
	r.Printf("%d random undecided positions (seed %d) labelled by the solver (%d left out: not solved within %d nodes). An evaluator predicts the colour it declares decided, else the sign of its value. The one-ply columns search one move deep: the side to move wins if a move leads to a position the connections (after fill-in, with the edge templates, as in the players' searches) prove won for it, loses if every move inside its mustplay leads to one proved lost, and otherwise is predicted by the evaluator's best value among the moves the connections leave open. Of the %d positions H-search leaves undecided, %d are proved one ply deep (the root after fill-in, or its moves); on the other %d the values alone decide, and the last row shows them.\n\n",
		total.n, env.Seed, unsolved, solverNodeLimit, open.n, open.n-open1.n, open1.n)
	pct := func(k, n int) string {
		if n == 0 {
			return "-"
		}
		lo, hi := match.Wilson(k, n)
		return fmt.Sprintf("%.1f%% (%.1f..%.1f)", 100*float64(k)/float64(n), 100*lo, 100*hi)
	}
	row := func(name string, t tally) []string {
		return []string{name, fmt.Sprint(t.n), pct(t.exact, t.n), pct(t.learned, t.n), pct(t.stm, t.n), pct(t.exact1, t.n), pct(t.learned1, t.n)}
	}
	summary := [][]string{row("all", total), row("undecided by H-search", open), row("undecided, not proved one ply deep", open1)}
	if err := r.Table("agreement-summary", []string{"positions", "n", "exact", "learned", "side to move", "exact, 1 ply", "learned, 1 ply"}, summary); err != nil {
		return err
	}
	if err := r.Table("agreement", []string{"stones", "positions", "exact agrees %", "learned agrees %", "side to move wins %", "exact 1 ply %", "learned 1 ply %"}, rows); err != nil {
		return err
	}
	p, err := report.Lines(fmt.Sprintf("Agreement with the solver %dx%d", env.Size, env.Size), "stones on the board", "winner predicted (% of positions, 95% CI)",
		[]report.Series{{Name: "exact", X: xs, Y: ye, Low: elo, High: ehi}, {Name: "learned", X: xs, Y: yl, Low: llo, High: lhi},
			{Name: "exact, 1 ply", X: xs, Y: ye1, Low: elo1, High: ehi1}, {Name: "learned, 1 ply", X: xs, Y: y1, Low: lo1, High: hi1}}, 100)
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, "agreement"); err != nil {
		return err
	}
	r.Image("agreement", "agreement with the solver's true winner per number of stones, all positions (decided ones included)")
	on := float64(max(1, open.n))
	env.logf("  agreement: exact %.1f%%, learned %.1f%%, side to move %.1f%% over %d positions; undecided by H-search (%d): exact %.1f%%, learned %.1f%%, side to move %.1f%%; one ply: exact %.1f%%, learned %.1f%% (%d proved; on the other %d exact %.1f%%, learned %.1f%%)",
		100*float64(total.exact)/float64(total.n), 100*float64(total.learned)/float64(total.n), 100*float64(total.stm)/float64(total.n), total.n,
		open.n, 100*float64(open.exact)/on, 100*float64(open.learned)/on, 100*float64(open.stm)/on, 100*float64(open.exact1)/on, 100*float64(open.learned1)/on,
		open.n-open1.n, open1.n, 100*float64(open1.exact1)/float64(max(1, open1.n)), 100*float64(open1.learned1)/float64(max(1, open1.n)))
	return nil
}
