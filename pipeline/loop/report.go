package loop

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hexlearn/hexlearn/internal/report"
	"github.com/hexlearn/hexlearn/internal/stats"
)

// WriteReport writes the loop's report into dir/report: the configuration, a row per
// iteration (self-play, training, gate), the generations with their Elo relative to
// the start network (chained through the gates, with the chained 95% intervals) and
// a plot of that Elo (elo.png, elo.svg).
func WriteReport(dir string, st *State) error {
	r, err := report.New(filepath.Join(dir, "report"), fmt.Sprintf("Self-improving loop, %dx%d", st.Config.Size, st.Config.Size))
	if err != nil {
		return err
	}
	c := st.Config
	gateWork := fmt.Sprintf("%v", c.Gate.Time)
	if c.Gate.Expansions > 0 {
		gateWork = fmt.Sprintf("%d MCTS expansions", c.Gate.Expansions)
	}
	settings := "the player's defaults"
	if len(c.Player) > 0 {
		settings = "player settings " + strings.Join(c.Player, " ")
	}
	r.Printf("Start network %s; per iteration %d self-play games (%d shards) at %d MCTS expansions per move, %d random opening move(s), %d moves drawn from the visits; candidates learn the search target (game result weight %g) from the last %d iteration(s), %d hidden units, %d epochs; the gate plays each seeded opening twice at %v per move, SPRT elo0 %g / elo1 %g (alpha %g, beta %g), %d to %d games. Seed %d; %s.\n\n",
		c.Start, c.Games, c.Shards, c.Expansions, c.Opening, c.Explore, c.Train.SearchMix, c.Window, c.Train.Hidden, c.Train.Epochs,
		gateWork, c.Gate.Elo0, c.Gate.Elo1, c.Gate.Alpha, c.Gate.Beta, c.Gate.MinGames, c.Gate.MaxGames, c.Seed, settings)
	if c.LabelNodes > 0 {
		r.Printf("The solver labels the self-play positions H-search leaves open, at most %d nodes each.\n\n", c.LabelNodes)
	}
	if c.Solved > 0 {
		r.Printf("Solved set: %d of %d random positions decided by the solver (at most %d nodes each), in every candidate's training.\n\n", st.Solved, c.Solved, c.SolvedNodes)
	}
	var rows [][]string
	for _, it := range st.Iterations {
		row := []string{fmt.Sprint(it.Index), fmt.Sprint(it.Best), fmt.Sprint(it.Games), fmt.Sprint(it.Rows), it.Trained, "", "", "", "", ""}
		if g := it.Gate; g != nil {
			n := len(g.Games)
			row[5] = fmt.Sprintf("%d–%d", g.Wins, n-g.Wins)
			lo, hi := stats.Wilson(g.Wins, n) // Lo and Hi are not in loop.json
			row[6] = fmt.Sprintf("%.1f%% (%.1f–%.1f%%)", 100*g.Score(), 100*lo, 100*hi)
			row[7] = fmt.Sprintf("%.2f", g.LLR)
			row[8] = map[bool]string{true: "accepted", false: "rejected"}[g.Accepted]
			if !g.Done {
				row[8] = "playing"
			}
		}
		if it.Generation >= 0 {
			row[9] = fmt.Sprint(it.Generation)
		}
		rows = append(rows, row)
	}
	r.Printf("## Iterations\n\n")
	if err := r.Table("iterations", []string{"iteration", "played by generation", "games", "positions", "candidate", "gate", "candidate's score (95% CI)", "SPRT LLR", "decision", "new generation"}, rows); err != nil {
		return err
	}
	rows = rows[:0]
	s := report.Series{Name: "Elo relative to the start network"}
	for _, g := range st.Generations {
		rows = append(rows, []string{fmt.Sprint(g.Index), fmt.Sprint(g.Iteration), fmt.Sprint(g.Parent),
			fmt.Sprintf("%+.0f (%+.0f to %+.0f)", g.Elo, g.EloLo, g.EloHi), g.Model, g.Hash[:16]})
		s.X, s.Y = append(s.X, float64(g.Index)), append(s.Y, g.Elo)
		s.Low, s.High = append(s.Low, g.EloLo), append(s.High, g.EloHi)
	}
	r.Printf("## Generations\n\n")
	if err := r.Table("generations", []string{"generation", "iteration", "parent", "Elo (95% CI, chained)", "model", "sha256"}, rows); err != nil {
		return err
	}
	p, err := report.Lines("Elo of every generation", "generation", "Elo", []report.Series{s}, 0)
	if err != nil {
		return err
	}
	if err := r.SavePlot(p, "elo"); err != nil {
		return err
	}
	r.Image("elo", "Elo of every generation, relative to the start network")
	return r.Close()
}
