package experiments

import (
	"context"
	"fmt"

	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/internal/report"
	hexplayer "github.com/hexlearn/hexlearn/player"
)

func init() {
	add(&Experiment{
		Name:  "7-match",
		Title: "matches at equal time per move: learned vs exact player, XH-search vs H-search",
		Paper: "Kahl et al. play the learned against the exact player; the XH paper played every opening with both colours, no swap, XH-search beating H-search 501-467.",
		Run:   runMatches,
	})
}

// engineCmd returns the command line that starts hexlearn's GTP engine (env.Self) as
// the player s on the environment's board, at env.Time per move with no depth limit.
func (env *Env) engineCmd(s hexplayer.Settings) string {
	s.Time = hexplayer.Set(env.Time)
	return s.CommandLine(env.Self, "--size", fmt.Sprint(env.Size))
}

// pairing is one match of experiment 7: names and the engines' players.
type pairing struct {
	name, a, b string
	pa, pb     hexplayer.Settings
}

// matchPairings lists the matches of experiment 7: the learned player (with the
// environment's model and patterns) against the exact player, and XH-search against
// H-search, each player named explicitly (the GTP engine's default player is the
// learned one).
func matchPairings(env *Env) []pairing {
	var pairs []pairing
	exact := hexplayer.Settings{Kind: hexplayer.Set(hexplayer.Exact)}
	if env.ModelPath != "" {
		learned := hexplayer.Settings{Kind: hexplayer.Set(hexplayer.Learned), Model: hexplayer.Set(env.ModelPath)}
		if env.PatternsPath != "" {
			learned.Patterns = hexplayer.Set(env.PatternsPath)
		}
		name := "learned"
		if env.PatternsPath != "" {
			name = "learned+patterns"
		}
		pairs = append(pairs, pairing{"learned-vs-exact", name, "exact", learned, exact})
	}
	xh := exact
	xh.XH = hexplayer.Set(true)
	return append(pairs, pairing{"xh-vs-h", "XH-search", "H-search", xh, exact})
}

func runMatches(ctx context.Context, env *Env, r *report.Report) error {
	if env.Self == "" {
		return fmt.Errorf("%w: experiment 7 needs the hexlearn binary (Env.Self) to start engines", ErrBadEnv)
	}
	pairs := matchPairings(env)
	r.Printf("Each match plays every opening (or %d seeded openings) twice, each engine taking Black once, no swap, %v per move (iterative deepening, k = search default). The referee judges the end of each game; illegal moves, resignations and time-outs lose; a game an engine died in goes to the winner of its final position, as the solver decides it (no result if it cannot within %v).\n\n", env.Openings, env.Time, match.DefaultAdjudicateTime)
	var rows [][]string
	var rates []report.Bar
	for _, p := range pairs {
		env.logf("  match %s ...", p.name)
		a, err := match.Start(p.a, env.engineCmd(p.pa), nil)
		if err != nil {
			return err
		}
		b, err := match.Start(p.b, env.engineCmd(p.pb), nil)
		if err != nil {
			a.Close()
			return err
		}
		var games []match.Game
		n := env.Size * env.Size // every opening, each played twice
		if env.Openings > 0 {
			n = min(n, env.Openings)
		}
		bar := env.progress(p.name, 2*n, "game")
		res, err := match.Run(ctx, match.Config{Size: env.Size, Openings: env.Openings, Seed: env.Seed, TimePerMove: env.Time,
			Adjudicate: match.Adjudication{Time: match.DefaultAdjudicateTime},
			GameDone:   func(g match.Game) { games = append(games, g); bar.Add(1) }}, a, b)
		bar.Done(err)
		a.Close()
		b.Close()
		if err != nil {
			return fmt.Errorf("match %s: %w", p.name, err)
		}
		for _, g := range games {
			if err := match.WriteGameSGF(r.Dir+"/"+p.name, hexGeometry(env.Size), g); err != nil {
				return err
			}
		}
		rows = append(rows, []string{p.a, p.b, fmt.Sprint(res.Games), fmt.Sprint(res.WinsA), fmt.Sprint(res.WinsB),
			fmt.Sprintf("%.1f%%", 100*res.WinRate()), fmt.Sprintf("%.1f%%..%.1f%%", 100*res.Lo, 100*res.Hi),
			fmt.Sprint(res.WinsABlack), fmt.Sprint(res.WinsAWhite), fmt.Sprint(res.Forfeits),
			fmt.Sprintf("%.2f", res.ElapsedPerMoveA.Seconds()), fmt.Sprintf("%.2f", res.ElapsedPerMoveB.Seconds())})
		rates = append(rates, report.Bar{Label: p.a + " vs " + p.b, Value: 100 * res.WinRate()}.WithInterval(100*res.Lo, 100*res.Hi))
		env.logf("  %s", res.String())
	}
	if err := r.Table("matches", []string{"A", "B", "games", "A wins", "B wins", "A win rate", "95% CI", "A wins as Black",
		"A wins as White", "forfeits", "A s/move", "B s/move"}, rows); err != nil {
		return err
	}
	r.Printf("Game records (SGF) are in the folders named after each match.\n\n")
	return barPlot(r, "matches", "win rate of A with 95% Wilson interval", "win rate of A (%)", rates, 100)
}
