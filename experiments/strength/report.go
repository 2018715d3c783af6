package strength

import (
	"encoding/json"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/report"
)

// Status describes how far the ladder got, for the report and the command's output.
func (res *Result) Status() string {
	switch {
	case res.Interrupted:
		return fmt.Sprintf("interrupted after %d of %d games", res.Played, res.Planned)
	case res.Error != "":
		return fmt.Sprintf("stopped by an error after %d of %d games: %s", res.Played, res.Planned, res.Error)
	default:
		return fmt.Sprintf("complete, %d games", res.Played)
	}
}

// Write writes the report into dir: README.md, elo.csv, pairs.csv, games.csv,
// results.json and one Elo plot per board size (elo-NxN.png and .svg). The SGF files
// are written while the games are played.
func (res *Result) Write(dir string) error {
	r, err := report.New(dir, "Strength ladder")
	if err != nil {
		return err
	}
	if res.Interrupted || res.Error != "" {
		r.Printf("**Status: %s.** The tables below count only the finished games.\n\n", res.Status())
	} else {
		r.Printf("Status: %s, in %.0f s.\n\n", res.Status(), res.Elapsed)
	}
	r.Printf("A round robin at equal time per move: every pair plays each opening twice, each engine taking Black once, no swap. The referee (`hexlearn match`) judges the end of each game; an illegal move, a resignation or a time-out loses. %s ", res.adjudicationText())
	r.Printf("Openings: %s (seed %d). Elo is a maximum-likelihood Bradley–Terry fit over all decided games of a board size and time control, anchored at %s = 0, with 95%% intervals from the Fisher information; scores carry 95%% Wilson intervals.\n\n",
		res.openingsText(), res.Seed, res.Anchor)
	r.Printf("Players (command lines; %s is the time per move in seconds):\n\n", TimePlaceholder)
	var rows [][]string
	for _, p := range res.Players {
		init := ""
		if len(p.Init) > 0 {
			init = "`" + strings.ReplaceAll(strings.Join(p.Init, "; "), "|", `\|`) + "`"
		}
		rows = append(rows, []string{p.Name, "`" + strings.ReplaceAll(p.Cmd, "|", `\|`) + "`", init})
	}
	mdTable(r, []string{"player", "command", "initial GTP commands"}, rows)

	var eloRows, pairRows, gameRows [][]string
	sizes := []int{}
	for _, l := range res.Ladders {
		if len(sizes) == 0 || sizes[len(sizes)-1] != l.Size {
			if len(sizes) > 0 {
				if err := res.plotSize(r, sizes[len(sizes)-1]); err != nil {
					return err
				}
			}
			sizes = append(sizes, l.Size)
			r.Printf("## %dx%d\n\n", l.Size, l.Size)
		}
		r.Printf("### %dx%d, %s s per move (%d openings, %d games per pair)\n\n", l.Size, l.Size, Seconds(l.Time), l.Openings, 2*l.Openings)
		if l.played() == 0 {
			r.Printf("Not played.\n\n")
		}
		var md [][]string
		for i, rt := range l.Elo.Ratings {
			name := res.Players[i].Name
			elo, ci := "—", "—"
			if rt.Fitted && rt.Games > 0 || i == l.Elo.Anchor {
				elo = fmt.Sprintf("%.0f", noNegZero(rt.Elo))
				ci = fmt.Sprintf("%.0f..%.0f (±%.0f)", noNegZero(rt.Lo), noNegZero(rt.Hi), z95*rt.SE)
			}
			score := "—"
			if rt.Games > 0 {
				score = fmt.Sprintf("%.1f%%", 100*float64(rt.Wins)/float64(rt.Games))
			}
			md = append(md, []string{name, fmt.Sprint(rt.Games), fmt.Sprint(rt.Wins), score, elo, ci})
			eloRows = append(eloRows, []string{fmt.Sprint(l.Size), Seconds(l.Time), name, fmt.Sprint(rt.Games), fmt.Sprint(rt.Wins),
				fmt.Sprint(rt.Fitted), f1(rt.Elo), f1(rt.SE), f1(rt.Lo), f1(rt.Hi), fmt.Sprint(l.Elo.Prior)})
		}
		if l.played() > 0 {
			mdTable(r, []string{"player", "games", "wins", "score", "Elo", "95% interval"}, md)
			if l.Elo.Prior > 0 {
				r.Printf("Some players won or lost every game against the rest, which puts the plain maximum-likelihood Elo at infinity; the fit adds %g virtual draw per pair that played.\n\n", l.Elo.Prior)
			}
		}
		md = nil
		for _, p := range l.Pairs {
			tA, tB := "—", "—"
			if p.Complete {
				tA, tB = fmt.Sprintf("%.3f", p.SecPerMoveA), fmt.Sprintf("%.3f", p.SecPerMoveB)
			}
			score, ci := "—", "—"
			if p.Decided() > 0 {
				score = fmt.Sprintf("%.1f%%", 100*float64(p.WinsA)/float64(p.Decided()))
				ci = fmt.Sprintf("%.1f%%..%.1f%%", 100*p.Lo, 100*p.Hi)
			}
			games := fmt.Sprint(p.Games)
			if !p.Complete {
				games = fmt.Sprintf("%d of %d", p.Games, p.Planned)
			}
			md = append(md, []string{p.A, p.B, games, fmt.Sprint(p.WinsA), fmt.Sprint(p.WinsB), score, ci,
				fmt.Sprint(p.WinsABlack), fmt.Sprint(p.WinsAWhite), fmt.Sprint(p.Forfeits), fmt.Sprint(p.Adjudicated), fmt.Sprint(p.NoResult), tA, tB})
			pairRows = append(pairRows, []string{fmt.Sprint(l.Size), Seconds(l.Time), p.A, p.B, fmt.Sprint(p.Planned), fmt.Sprint(p.Games),
				fmt.Sprint(p.WinsA), fmt.Sprint(p.WinsB), fmt.Sprintf("%.4f", p.Lo), fmt.Sprintf("%.4f", p.Hi),
				fmt.Sprint(p.WinsABlack), fmt.Sprint(p.WinsAWhite), fmt.Sprint(p.Forfeits), fmt.Sprint(p.Adjudicated), fmt.Sprint(p.NoResult), fmt.Sprint(p.Complete),
				fmt.Sprintf("%.4f", p.SecPerMoveA), fmt.Sprintf("%.4f", p.SecPerMoveB)})
		}
		if l.played() > 0 {
			mdTable(r, []string{"A", "B", "games", "A wins", "B wins", "A score", "95% CI", "A wins as Black", "A wins as White", "forfeits", "adjudicated", "no result", "A s/move", "B s/move"}, md)
		}
	}
	if len(sizes) > 0 {
		if err := res.plotSize(r, sizes[len(sizes)-1]); err != nil {
			return err
		}
	}
	for _, g := range res.Games {
		gameRows = append(gameRows, []string{fmt.Sprint(g.Size), fmt.Sprint(g.Seconds), g.A, g.B, fmt.Sprint(g.Number), g.Opening,
			g.Black, g.White, g.Winner, g.Result, g.End, g.Reason, g.Died, fmt.Sprint(g.Moves), g.SGF})
	}
	r.Printf("Files: `elo.csv`, `pairs.csv`, `games.csv` (one row per game), `results.json`, one SGF file per game under `sgf/SIZE/TIMEs/A-vs-B/`, and what each engine wrote to its standard error under `logs/` (when it wrote anything). `hexlearn analyze` on this directory shows where each game was decided (the first position the players' connections prove, and the move that made it).\n")
	if err := r.CSV("elo", []string{"size", "seconds_per_move", "player", "games", "wins", "fitted", "elo", "se", "lo95", "hi95", "prior"}, eloRows); err != nil {
		return err
	}
	if err := r.CSV("pairs", []string{"size", "seconds_per_move", "a", "b", "planned", "games", "wins_a", "wins_b", "wilson_lo95", "wilson_hi95",
		"wins_a_black", "wins_a_white", "forfeits", "adjudicated", "no_result", "complete", "seconds_per_move_a", "seconds_per_move_b"}, pairRows); err != nil {
		return err
	}
	if err := r.CSV("games", []string{"size", "seconds_per_move", "a", "b", "number", "opening", "black", "white", "winner", "result", "end", "reason", "died", "moves", "sgf"}, gameRows); err != nil {
		return err
	}
	if err := fileutil.WriteAtomic(filepath.Join(dir, "results.json"), func(w io.Writer) error { return res.WriteJSON(w) }); err != nil {
		return fmt.Errorf("strength: %w", err)
	}
	return r.Close()
}

// WriteJSON writes the result as indented JSON.
func (res *Result) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(res)
}

// adjudicationText says how the games of engines that died were scored.
func (res *Result) adjudicationText() string {
	a := match.Adjudication{Time: time.Duration(res.AdjudicateSeconds * float64(time.Second)), MaxNodes: res.AdjudicateNodes}
	if !a.On() {
		return "An engine that died (crashed or closed its output) lost the game (adjudication off)."
	}
	return fmt.Sprintf("A game in which an engine died (crashed or closed its output) after the set-up went to the true winner of its final position, as the DFPN solver decided it within %s (column *adjudicated*); a position the solver did not decide is *no result*: counted in *games*, but in no score, interval or Elo fit.", a.Limit())
}

func (res *Result) openingsText() string {
	switch res.openingsMode {
	case OpeningsAll:
		return "every one-stone opening"
	case OpeningsAuto:
		return fmt.Sprintf("every one-stone opening up to %dx%d, %d seeded ones on larger boards", AutoAllMaxSize, AutoAllMaxSize, AutoOpenings)
	default:
		return fmt.Sprintf("%d seeded one-stone openings per size, every cell on smaller boards", res.openingsMode)
	}
}

func (l *Ladder) played() int {
	n := 0
	for _, p := range l.Pairs {
		n += p.Games
	}
	return n
}

func f1(v float64) string {
	if v > -0.05 && v < 0.05 {
		v = 0 // not "-0.0"
	}
	return fmt.Sprintf("%.1f", v)
}

// noNegZero rounds values that would print as "-0" with %.0f to 0.
func noNegZero(v float64) float64 {
	if v > -0.5 && v < 0.5 {
		return 0
	}
	return v
}

// mdTable appends a Markdown table to the report (the CSV files hold all ladders).
func mdTable(r *report.Report, header []string, rows [][]string) {
	r.Printf("| %s |\n|", strings.Join(header, " | "))
	for range header {
		r.Printf("---|")
	}
	r.Printf("\n")
	for _, row := range rows {
		r.Printf("| %s |\n", strings.Join(row, " | "))
	}
	r.Printf("\n")
}

// errBars are points with symmetric vertical error bars.
type errBars struct{ x, y, e []float64 }

func (b errBars) Len() int                        { return len(b.x) }
func (b errBars) XY(i int) (float64, float64)     { return b.x[i], b.y[i] }
func (b errBars) YError(i int) (float64, float64) { return b.e[i], b.e[i] }

// plotSize plots the Elo of every player with its 95% interval, one colour per time
// control, for one board size, and links the plot into the report.
func (res *Result) plotSize(r *report.Report, size int) error {
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Strength ladder, %dx%d", size, size)
	p.X.Label.Text = "player"
	p.Y.Label.Text = fmt.Sprintf("Elo (%s = 0), 95%% interval", res.Anchor)
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil // players are categories
	p.Add(grid)
	var ladders []*Ladder
	for i := range res.Ladders {
		if res.Ladders[i].Size == size && res.Ladders[i].played() > 0 {
			ladders = append(ladders, &res.Ladders[i])
		}
	}
	if len(ladders) == 0 {
		return nil
	}
	lo, hi := 0.0, 0.0
	for k, l := range ladders {
		var b errBars
		off := 0.0
		if len(ladders) > 1 {
			off = 0.3 * (float64(k)/float64(len(ladders)-1) - 0.5)
		}
		for i, rt := range l.Elo.Ratings {
			if !rt.Fitted || (rt.Games == 0 && i != l.Elo.Anchor) {
				continue
			}
			b.x = append(b.x, float64(i)+off)
			b.y = append(b.y, rt.Elo)
			b.e = append(b.e, z95*rt.SE)
			lo, hi = math.Min(lo, rt.Lo), math.Max(hi, rt.Hi)
		}
		if b.Len() == 0 {
			continue
		}
		c := report.Palette[k%len(report.Palette)]
		s, err := plotter.NewScatter(b)
		if err != nil {
			return fmt.Errorf("strength: plot: %w", err)
		}
		s.GlyphStyle.Color, s.GlyphStyle.Radius, s.GlyphStyle.Shape = c, vg.Points(3), draw.CircleGlyph{}
		eb, err := plotter.NewYErrorBars(b)
		if err != nil {
			return fmt.Errorf("strength: plot: %w", err)
		}
		eb.Color = c
		p.Add(s, eb)
		p.Legend.Add(Seconds(l.Time)+" s per move", s)
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: 0}, {X: float64(len(res.Players)) - 0.5, Y: 0}})
	if err == nil {
		zero.Color = color.Gray{Y: 140}
		zero.Dashes = []vg.Length{vg.Points(3), vg.Points(3)}
		p.Add(zero)
	}
	names := make([]string, len(res.Players))
	for i, pl := range res.Players {
		names[i] = pl.Name
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.5, float64(len(names))-0.5
	span := math.Max(hi-lo, 50)
	p.Y.Min, p.Y.Max = lo-0.05*span, hi+(0.1+0.08*float64(len(ladders)))*span // room for the legend
	p.Legend.Top = true
	name := fmt.Sprintf("elo-%dx%d", size, size)
	if err := r.SavePlot(p, name); err != nil {
		return err
	}
	r.Image(name, fmt.Sprintf("Elo per player on %dx%d (points: maximum-likelihood fit; bars: 95%% interval), one colour per time per move", size, size))
	return nil
}
