package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/match"
)

// Record is one analysed game.
type Record struct {
	// Name names the game (its file).
	Name string
	// Black and White are the players' names (SGF PB and PW; "black" and "white"
	// when missing).
	Black, White string
	// Winner is the game's winner: SGF RE, else the final board's (a finished chain or
	// a resignation); Empty when unknown or no result.
	Winner hex.Color
	// Adjudicated is set for a game the referee credited to the true winner of its
	// final position, solved after an engine died; NoResult for one whose final
	// position the solver did not decide (match.SGFEnd reads both from the SGF).
	Adjudicated, NoResult bool
	// Plies is the number of history entries of the final position.
	Plies    int
	Decision Decision
	// g is the board geometry, for cell names
	g *hex.Geometry
}

// player returns the name of colour c's player.
func (r *Record) player(c hex.Color) string {
	if c == hex.White {
		return r.White
	}
	return r.Black
}

// GameRecord analyses one game: final is the position after its main line (with its
// history), props the SGF root properties (PB, PW, RE).
func (a *Analyzer) GameRecord(ctx context.Context, name string, final *hex.Board, props map[string]string) (Record, error) {
	r := Record{Name: name, Black: props["PB"], White: props["PW"], Plies: final.Ply(), g: final.Geometry()}
	if r.Black == "" {
		r.Black = "black"
	}
	if r.White == "" {
		r.White = "white"
	}
	switch re := strings.ToUpper(strings.TrimSpace(props["RE"])); {
	case strings.HasPrefix(re, "B+"):
		r.Winner = hex.Black
	case strings.HasPrefix(re, "W+"):
		r.Winner = hex.White
	case final.Winner() != hex.Empty:
		r.Winner = final.Winner()
	case final.Resigned() != hex.Empty:
		r.Winner = final.Resigned().Opp()
	}
	if e, ok := match.SGFEnd(props); ok {
		r.Adjudicated, r.NoResult = e == match.EndAdjudicated, e == match.EndNoResult
		if r.NoResult {
			r.Winner = hex.Empty
		}
	}
	d, err := a.Analyze(ctx, final)
	if err != nil {
		return Record{}, err
	}
	r.Decision = d
	return r, nil
}

// PlayerStats sums the decisions of one player's games.
type PlayerStats struct {
	Name        string
	Games, Wins int
	// Finds counts its moves that proved its own win first; FoundAgainst the
	// opponent's finds in its games.
	Finds, FoundAgainst int
	// Missed counts the finds against it (checked with Options.Deep) where it had a
	// move on its turn before that left no reply proved to win.
	Missed int
	// Blunders counts its moves into a position proved lost (first decisions);
	// Avoidable those where it had a move not proved lost.
	Blunders, Avoidable int
	// Thrown counts its proved wins given away later (the proved winner changed).
	Thrown int
	// Open counts its games the connections never decided.
	Open int
	// Adjudicated counts its games the referee decided by solving the final position
	// after an engine died; NoResult those it could not decide (in Games, not Wins).
	Adjudicated, NoResult int
}

// Summarize sums the records per player name, in order of first appearance. A game
// of a player against itself (PB equal to PW) counts once in Games and Open, while its
// finds and blunders count for both sides under the one name.
func Summarize(recs []Record) []PlayerStats {
	var out []PlayerStats
	idx := map[string]int{}
	get := func(name string) *PlayerStats {
		i, ok := idx[name]
		if !ok {
			i = len(out)
			idx[name] = i
			out = append(out, PlayerStats{Name: name})
		}
		return &out[i]
	}
	for i := range recs {
		r := &recs[i]
		names := []string{r.Black, r.White}
		if r.White == r.Black {
			names = names[:1]
		}
		for _, n := range names {
			p := get(n)
			p.Games++
			if r.Adjudicated {
				p.Adjudicated++
			}
			if r.NoResult {
				p.NoResult++
			}
		}
		if r.Winner != hex.Empty {
			get(r.player(r.Winner)).Wins++
		}
		d := &r.Decision
		switch d.Kind {
		case Open:
			for _, n := range names {
				get(n).Open++
			}
		case Found:
			get(r.player(d.Mover)).Finds++
			p := get(r.player(d.Mover.Opp()))
			p.FoundAgainst++
			if d.Checked && d.Alternatives > 0 {
				p.Missed++
			}
		case Blunder:
			p := get(r.player(d.Mover))
			p.Blunders++
			if d.Checked && d.Alternatives > 0 {
				p.Avoidable++
			}
		}
		for _, t := range d.Throws {
			get(r.player(t.From)).Thrown++
		}
	}
	return out
}

// CellName names cell c of the game's board.
func (r *Record) CellName(c hex.Cell) string {
	if r.g == nil {
		return fmt.Sprint(c)
	}
	return r.g.CellName(c)
}

// describe returns the decision as the text report prints it.
func (r *Record) describe() string {
	d := &r.Decision
	cell := r.CellName
	var s string
	switch d.Kind {
	case Open:
		s = "never proved"
	case Start:
		s = fmt.Sprintf("proved for %s at the start", r.player(d.Winner))
	case Found:
		s = fmt.Sprintf("%s found a proved win with %s", r.player(d.Mover), cell(d.Move))
		if d.Checked {
			s += fmt.Sprintf("; %s had %d of %d moves left that stop every proved reply", r.player(d.Mover.Opp()), d.Alternatives, d.Legal)
		}
	case Blunder:
		s = fmt.Sprintf("%s moved into a proved loss with %s", r.player(d.Mover), cell(d.Move))
		if d.Checked {
			s += fmt.Sprintf(" (%d of %d moves not proved lost)", d.Alternatives, d.Legal)
		}
	}
	for _, t := range d.Throws {
		s += fmt.Sprintf("; %s gave its proved win away (proved lost at ply %d)", r.player(t.From), t.Ply)
	}
	return s
}

// WriteText writes one line per game and the per-player sums. Games adjudicated after
// an engine died show "(adjudicated)" after the winner, games without a result "no
// result"; the sums then have the columns "adjudicated" and "no result".
func WriteText(w io.Writer, recs []Record) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "game\tblack\twhite\twinner\tplies\tdecided at\thow")
	apart := false // some game was adjudicated or has no result
	for i := range recs {
		r := &recs[i]
		apart = apart || r.Adjudicated || r.NoResult
		win := "?"
		switch {
		case r.NoResult:
			win = "no result"
		case r.Winner != hex.Empty:
			win = r.player(r.Winner)
			if r.Adjudicated {
				win += " (adjudicated)"
			}
		}
		at := "-"
		if r.Decision.Ply >= 0 {
			at = fmt.Sprint(r.Decision.Ply)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", r.Name, r.Black, r.White, win, r.Plies, at, r.describe())
	}
	fmt.Fprintln(tw)
	head := "player\tgames\twins\tfinds\tfound against\tmissed defences\tblunders\tavoidable\tthrown away\tnever proved"
	if apart {
		head += "\tadjudicated\tno result"
	}
	fmt.Fprintln(tw, head)
	for _, p := range Summarize(recs) {
		missed := "-"
		if deepChecked(recs) {
			missed = fmt.Sprint(p.Missed)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\t%d", p.Name, p.Games, p.Wins, p.Finds, p.FoundAgainst, missed, p.Blunders, p.Avoidable, p.Thrown, p.Open)
		if apart {
			fmt.Fprintf(tw, "\t%d\t%d", p.Adjudicated, p.NoResult)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}

// deepChecked reports whether any find was checked two moves deep.
func deepChecked(recs []Record) bool {
	for i := range recs {
		if d := &recs[i].Decision; d.Kind == Found && d.Checked {
			return true
		}
	}
	return false
}

// gameJSON is one game of the JSON output.
type gameJSON struct {
	Game         string      `json:"game"`
	Black        string      `json:"black"`
	White        string      `json:"white"`
	Winner       string      `json:"winner"`      // "black", "white" or "" (unknown, no result)
	Adjudicated  bool        `json:"adjudicated"` // decided by the referee's solver after an engine died
	NoResult     bool        `json:"no_result"`   // an engine died and the solver did not decide the game
	Plies        int         `json:"plies"`
	Kind         string      `json:"kind"`       // open, start, found, blunder
	DecidedAt    int         `json:"decided_at"` // -1 when open
	ProvedWinner string      `json:"proved_winner,omitempty"`
	Move         string      `json:"move,omitempty"`
	Mover        string      `json:"mover,omitempty"`
	Alternatives *int        `json:"alternatives,omitempty"` // counted moves (see the help)
	Legal        *int        `json:"legal,omitempty"`
	Throws       []throwJSON `json:"throws"`
}

// throwJSON is one change of the proved winner.
type throwJSON struct {
	Ply  int    `json:"ply"`
	From string `json:"from"`
}

// playerJSON is one player's sums.
type playerJSON struct {
	Name         string `json:"name"`
	Games        int    `json:"games"`
	Wins         int    `json:"wins"`
	Finds        int    `json:"finds"`
	FoundAgainst int    `json:"found_against"`
	Missed       *int   `json:"missed_defences"` // null when no find was checked (Options.Deep)
	Blunders     int    `json:"blunders"`
	Avoidable    int    `json:"avoidable"`
	Thrown       int    `json:"thrown_away"`
	Open         int    `json:"never_proved"`
	Adjudicated  int    `json:"adjudicated"`
	NoResult     int    `json:"no_result"`
}

// WriteJSON writes the records and the per-player sums as JSON (hexlearn analyze
// --json).
func WriteJSON(w io.Writer, recs []Record) error {
	out := struct {
		Games   []gameJSON   `json:"games"`
		Players []playerJSON `json:"players"`
	}{Games: []gameJSON{}, Players: []playerJSON{}}
	for _, r := range recs {
		d := r.Decision
		g := gameJSON{Game: r.Name, Black: r.Black, White: r.White, Winner: colorName(r.Winner),
			Adjudicated: r.Adjudicated, NoResult: r.NoResult,
			Plies: r.Plies, Kind: d.Kind.String(), DecidedAt: d.Ply, ProvedWinner: colorName(d.Winner),
			Mover: colorName(d.Mover), Throws: []throwJSON{}}
		if d.Move != hex.NoCell {
			g.Move = r.CellName(d.Move)
		}
		if d.Checked {
			a, l := d.Alternatives, d.Legal
			g.Alternatives, g.Legal = &a, &l
		}
		for _, t := range d.Throws {
			g.Throws = append(g.Throws, throwJSON{Ply: t.Ply, From: t.From.String()})
		}
		out.Games = append(out.Games, g)
	}
	deep := false
	for _, r := range recs {
		if r.Decision.Kind == Found && r.Decision.Checked {
			deep = true
		}
	}
	for _, p := range Summarize(recs) {
		pj := playerJSON{Name: p.Name, Games: p.Games, Wins: p.Wins,
			Finds: p.Finds, FoundAgainst: p.FoundAgainst, Blunders: p.Blunders, Avoidable: p.Avoidable,
			Thrown: p.Thrown, Open: p.Open, Adjudicated: p.Adjudicated, NoResult: p.NoResult}
		if deep {
			m := p.Missed
			pj.Missed = &m
		}
		out.Players = append(out.Players, pj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// colorName is a colour's name, "" for Empty.
func colorName(c hex.Color) string {
	if c == hex.Empty {
		return ""
	}
	return c.String()
}
