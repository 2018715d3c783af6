package analysis

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/experiments/match"
)

// truth returns the winner of b with perfect play (the solver; small boards only).
func truth(t *testing.T, b *hex.Board) hex.Color {
	t.Helper()
	if w := b.Winner(); w != hex.Empty {
		return w
	}
	w, err := solver.TrueWinner(context.Background(), b, 0)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// play plays moves (cell names, colours alternating from the side to move) on b.
func play(t *testing.T, b *hex.Board, moves string) {
	t.Helper()
	ms, err := b.Geometry().ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		m.Color = b.ToMove()
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
}

// at returns the position of b after its first ply history entries.
func at(t *testing.T, b *hex.Board, ply int) *hex.Board {
	t.Helper()
	c := b.Clone()
	if err := rewind(c, ply); err != nil {
		t.Fatal(err)
	}
	return c
}

// holding counts x's moves on b (x to move) that do not lose with perfect play.
func holding(t *testing.T, b *hex.Board, x hex.Color) int {
	t.Helper()
	n := 0
	empty := b.EmptyCells()
	for c := empty.First(); c != hex.NoCell; c = empty.Next(c + 1) {
		b.PlayStone(x, c)
		if truth(t, b) == x {
			n++
		}
		b.Undo()
		b.SetToMove(x)
	}
	return n
}

const empty6 = `
	. . . . . .
	 . . . . . .
	  . . . . . .
	   . . . . . .
	    . . . . . .
	     . . . . . .`

func TestAnalyzeCases(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		moves   string
		kind    Kind
		ply     int
		winner  hex.Color
		move    string // the deciding move ("" for none)
		alt     int    // Alternatives (Blunder; Found with Deep)
		legal   int
		checked bool
		throws  []Throw
	}{
		{name: "open to the end", board: empty6, moves: "a1 c4", kind: Open, ply: -1},
		{name: "a blunder with one move left", board: empty6, moves: "a1 c4 a2",
			kind: Blunder, ply: 3, winner: hex.White, move: "a2", alt: 1, legal: 34, checked: true},
		{name: "a find", board: empty6, moves: "c5 e1 b5 a6 c2",
			kind: Found, ply: 5, winner: hex.Black, move: "c2", alt: 7, legal: 33, checked: true},
		{name: "proved wins given away", board: empty6, moves: "c2 e6 d2 a2 a6",
			kind: Blunder, ply: 2, winner: hex.Black, move: "e6", alt: 8, legal: 35, checked: true, // 12 without the mustplay
			throws: []Throw{{Ply: 3, From: hex.Black}, {Ply: 4, From: hex.White}, {Ply: 5, From: hex.Black}}},
		{name: "proved at the start", board: `
			. . . .
			 . . . .
			  . . . .
			   . . . .`, moves: "a1", kind: Start, ply: 0, winner: hex.Black,
			throws: []Throw{{Ply: 1, From: hex.Black}}},
		{name: "after setup stones", board: `
			. . . .
			 . B . .
			  . . W .
			   . . . .`, moves: "a4 d1", kind: Start, ply: 2, winner: hex.Black},
	}
	a, err := New(Options{Deep: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := hex.ParseDiagram(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			play(t, b, tc.moves)
			before := b.Hash()
			d, err := a.Analyze(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if b.Hash() != before {
				t.Errorf("Analyze changed the board")
			}
			g := b.Geometry()
			move := ""
			if d.Move >= 0 {
				move = g.CellName(d.Move)
			}
			if d.Kind != tc.kind || d.Ply != tc.ply || d.Winner != tc.winner || move != tc.move ||
				d.Checked != tc.checked || d.Alternatives != tc.alt || d.Legal != tc.legal {
				t.Errorf("got %v at ply %d for %v by %q, %d of %d (checked %v); want %v at %d for %v by %q, %d of %d (checked %v)",
					d.Kind, d.Ply, d.Winner, move, d.Alternatives, d.Legal, d.Checked,
					tc.kind, tc.ply, tc.winner, tc.move, tc.alt, tc.legal, tc.checked)
			}
			if len(d.Throws) != len(tc.throws) || len(d.Throws) > 0 && !equalThrows(d.Throws, tc.throws) {
				t.Errorf("throws %v, want %v", d.Throws, tc.throws)
			}
			// the solver agrees with every proof reported
			if d.Kind != Open {
				if w := truth(t, at(t, b, d.Ply)); w != d.Winner {
					t.Errorf("proved %v at ply %d, the solver says %v", d.Winner, d.Ply, w)
				}
			}
			for _, th := range d.Throws {
				if w := truth(t, at(t, b, th.Ply)); w != th.From.Opp() {
					t.Errorf("throw at ply %d: the solver says %v wins, want %v", th.Ply, w, th.From.Opp())
				}
			}
			// the counts bound the moves that truly hold from above
			switch {
			case d.Kind == Blunder:
				if h := holding(t, at(t, b, d.Ply-1), d.Mover); h > d.Alternatives {
					t.Errorf("%d moves hold, %d counted", h, d.Alternatives)
				}
			case d.Kind == Found:
				if h := holding(t, at(t, b, d.Ply-2), d.Mover.Opp()); h > d.Alternatives {
					t.Errorf("%d moves hold, %d counted", h, d.Alternatives)
				}
			}
		})
	}
}

func equalThrows(a, b []Throw) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestAnalyzeOracle checks the analysis of random 6x6 games from random setups against
// the solver: every proof is the true winner, the counts of moves not proved lost are
// at least the moves that truly hold (proofs are sound), and the proved winners end
// with the game's winner.
func TestAnalyzeOracle(t *testing.T) {
	n := 60
	if testing.Short() {
		n = 15
	}
	a, err := New(Options{Deep: true})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(15, 19))
	kinds := map[Kind]int{}
	throws := 0
	for i := 0; i < n; i++ {
		b := hex.MustBoard(6, 6)
		for k := 0; k < 1+r.IntN(2); k++ {
			for _, c := range []hex.Color{hex.Black, hex.White} {
				cells := b.EmptyCells().AppendCells(nil)
				if err := b.PlaySetup(c, cells[r.IntN(len(cells))]); err != nil {
					t.Fatal(err)
				}
			}
		}
		if b.Winner() != hex.Empty {
			continue
		}
		for b.Winner() == hex.Empty {
			// half the moves random, the others a move the connections prove winning
			// when there is one (so that finds occur)
			x := b.ToMove()
			cells := b.EmptyCells().AppendCells(nil)
			m := cells[r.IntN(len(cells))]
			if r.IntN(2) == 0 {
				for _, c := range cells {
					b.PlayStone(x, c)
					w, err := a.proved(b)
					b.Undo()
					b.SetToMove(x)
					if err != nil {
						t.Fatal(err)
					}
					if w == x {
						m = c
						break
					}
				}
			}
			b.PlayStone(x, m)
		}
		d, err := a.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		kinds[d.Kind]++
		throws += len(d.Throws)
		last := d.Winner
		if d.Kind != Open {
			if w := truth(t, at(t, b, d.Ply)); w != d.Winner {
				t.Fatalf("game %d: proved %v at ply %d, the solver says %v", i, d.Winner, d.Ply, w)
			}
		}
		for _, th := range d.Throws {
			if w := truth(t, at(t, b, th.Ply)); w != th.From.Opp() {
				t.Fatalf("game %d: throw at ply %d, the solver says %v", i, th.Ply, w)
			}
			last = th.From.Opp()
		}
		if last != b.Winner() {
			t.Fatalf("game %d: the last proved winner is %v, the game's %v (%+v)", i, last, b.Winner(), d)
		}
		switch {
		case d.Kind == Blunder:
			p := at(t, b, d.Ply-1)
			if d.Legal != p.EmptyCells().Count() || d.Alternatives > d.Legal {
				t.Fatalf("game %d: %d of %d moves, %d empty", i, d.Alternatives, d.Legal, p.EmptyCells().Count())
			}
			if h := holding(t, p, d.Mover); d.Alternatives < h {
				t.Fatalf("game %d: %d moves not proved lost, but %d hold", i, d.Alternatives, h)
			}
		case d.Kind == Found && d.Checked:
			p := at(t, b, d.Ply-2)
			if h := holding(t, p, d.Mover.Opp()); d.Alternatives < h || d.Alternatives > d.Legal {
				t.Fatalf("game %d: %d of %d moves counted, but %d hold", i, d.Alternatives, d.Legal, h)
			}
		}
	}
	t.Logf("decisions %v, %d throws", kinds, throws)
	if kinds[Blunder] == 0 || kinds[Found] == 0 || throws == 0 {
		t.Errorf("degenerate sample: %v, %d throws", kinds, throws)
	}
}

func TestAnalyzeSetupAfterMoves(t *testing.T) {
	// a1, swap, a setup stone, then a move: the analysis starts after the setup stone
	b := hex.MustBoard(5, 5)
	g := b.Geometry()
	cell := func(name string) hex.Cell {
		c, err := g.ParseCell(name)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	for _, step := range []func() error{
		func() error { return b.Play(hex.Move{Color: hex.Black, Cell: cell("a1")}) },
		func() error { return b.Play(hex.Move{Color: hex.White, Cell: hex.Swap}) },
		func() error { return b.PlaySetup(hex.Black, cell("c3")) },
		func() error { return b.Play(hex.Move{Color: hex.Black, Cell: cell("d2")}) },
	} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, err := a.Analyze(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if d.Kind == Open || d.Ply < 3 {
		t.Errorf("got %+v, want a decision at ply 3 or later", d)
	}
	if w := truth(t, at(t, b, d.Ply)); w != d.Winner {
		t.Errorf("proved %v, the solver says %v", d.Winner, w)
	}
}

// TestAnalyzeMoveOrder checks that every position is decided with the side the record
// moves next: White first, and a colour moving twice.
func TestAnalyzeMoveOrder(t *testing.T) {
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		sgf    string
		winner hex.Color
		throws bool // whether changes of the proved winner may occur
	}{
		{"(;FF[4]GM[11]SZ[4];W[b2];B[a1];W[c3])", hex.White, true},
		{"(;FF[4]GM[11]SZ[4];B[b2];B[c3])", hex.Black, false}, // White never moves
	} {
		b, _, err := hex.ReadSGFProps(strings.NewReader(tc.sgf))
		if err != nil {
			t.Fatal(err)
		}
		d, err := a.Analyze(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if d.Kind != Start || d.Ply != 0 || d.Winner != tc.winner || !tc.throws && len(d.Throws) != 0 {
			t.Errorf("%s: got %v at ply %d for %v, throws %v; want proved for %v at the start (throws %v)",
				tc.sgf, d.Kind, d.Ply, d.Winner, d.Throws, tc.winner, tc.throws)
		}
		// every proof is the solver's, with the side to move of the record
		next := func(ply int) *hex.Board {
			p := at(t, b, ply)
			if ms := b.Moves(); ply < len(ms) {
				p.SetToMove(ms[ply].Color)
			}
			return p
		}
		if w := truth(t, next(0)); w != d.Winner {
			t.Errorf("%s: proved %v at the start, the solver says %v", tc.sgf, d.Winner, w)
		}
		for _, th := range d.Throws {
			if w := truth(t, next(th.Ply)); w != th.From.Opp() {
				t.Errorf("%s: throw at ply %d, the solver says %v", tc.sgf, th.Ply, w)
			}
		}
	}
}

func TestAnalyzeCancel(t *testing.T) {
	b, err := hex.ParsePosition(6, 6, "a1 c4 a2")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.Analyze(ctx, b); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestReport(t *testing.T) {
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	var recs []Record
	for _, g := range []struct{ moves, pb, pw, re string }{
		{"a1 c4 a2 d3 f1 e2", "one", "two", "W+"},
		{"c5 e1 b5 a6 c2", "two", "one", "B+R"},
		{"c2 e6 d2 a2 a6", "one", "two", ""},
		{"a1 c4", "two", "one", ""},
	} {
		b, err := hex.ParsePosition(6, 6, g.moves)
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.GameRecord(context.Background(), g.moves, b, map[string]string{"PB": g.pb, "PW": g.pw, "RE": g.re})
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	st := Summarize(recs)
	want := []PlayerStats{
		{Name: "one", Games: 4, Wins: 0, Finds: 0, FoundAgainst: 1, Blunders: 1, Avoidable: 1, Thrown: 2, Open: 1},
		{Name: "two", Games: 4, Wins: 2, Finds: 1, Blunders: 1, Avoidable: 1, Thrown: 1, Open: 1},
	}
	if len(st) != len(want) || st[0] != want[0] || st[1] != want[1] {
		t.Errorf("Summarize:\n got %+v\nwant %+v", st, want)
	}
	var out bytes.Buffer
	if err := WriteText(&out, recs); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"one moved into a proved loss with a2 (1 of 34 moves not proved lost)",
		"two found a proved win with c2",
		"two gave its proved win away (proved lost at ply 4)",
		"never proved",
		"player  games  wins  finds  found against  missed defences  blunders  avoidable  thrown away  never proved",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
}

// FuzzAnalyzeSGF: any game record that reads analyses without a panic, and a failure
// is a bad game (ErrGame).
func FuzzAnalyzeSGF(f *testing.F) {
	for _, s := range []string{
		"(;FF[4]GM[11]SZ[4]PB[a]PW[b]RE[B+];B[a1];W[b2];B[c3])",
		"(;FF[4]GM[11]SZ[3]AB[b2]AW[a1]PL[W];W[c1];B[b1])",
		"(;FF[4]GM[11]SZ[4];B[b2];W[swap-pieces];B[c3];W[resign])",
		"(;FF[4]GM[11]SZ[3];B[a1];AE[a1];W[b2])",
		"(;FF[4]GM[11]SZ[4];W[b2];B[a1];W[c3])",
		"(;FF[4]GM[11]SZ[4];B[b2];B[c3])",
	} {
		f.Add(s)
	}
	a, err := New(Options{Deep: true})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		b, props, err := hex.ReadSGFProps(strings.NewReader(s))
		if err != nil || b.Geometry().N > 16 {
			return // the reader has its own fuzz test; keep the analysis cheap
		}
		r, err := a.GameRecord(context.Background(), "fuzz", b, props)
		if err != nil && !errors.Is(err, ErrGame) {
			t.Fatalf("%q: %v", s, err)
		}
		if err == nil {
			var out bytes.Buffer
			if err := WriteText(&out, []Record{r}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// TestReportAdjudicated: games the referee adjudicated after an engine died, and
// games without a result, read from the SGF files match writes, are shown apart in
// the text and the JSON, and a no-result game is nobody's win.
func TestReportAdjudicated(t *testing.T) {
	a, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	moves := []hex.Move{{Color: hex.Black, Cell: 5}, {Color: hex.White, Cell: 0}}
	dir := t.TempDir()
	var recs []Record
	for i, gm := range []match.Game{
		{End: match.EndAdjudicated, Winner: hex.Black, Died: hex.White, Reason: "White died, adjudicated: solved win for Black"},
		{End: match.EndNoResult, Died: hex.Black, Reason: "Black died, no result: unsolved within 1 node"},
		{End: match.EndResign, Winner: hex.White, Reason: "resign"},
	} {
		gm.Index, gm.Black, gm.White, gm.Moves = i, "one", "two", moves
		if err := match.WriteGameSGF(dir, hex.MustGeometry(4, 4), gm); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("game-%04d.sgf", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		b, props, err := hex.ReadSGFProps(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		r, err := a.GameRecord(context.Background(), fmt.Sprint(i+1), b, props)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	if !recs[0].Adjudicated || recs[0].Winner != hex.Black || !recs[1].NoResult || recs[1].Winner != hex.Empty || recs[2].Adjudicated || recs[2].NoResult {
		t.Fatalf("records %+v", recs)
	}
	st := Summarize(recs)
	if st[0].Wins != 1 || st[1].Wins != 1 || st[0].Adjudicated != 1 || st[0].NoResult != 1 || st[1].Adjudicated != 1 {
		t.Errorf("Summarize: %+v", st)
	}
	var out bytes.Buffer
	if err := WriteText(&out, recs); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"one (adjudicated)", "no result", "never proved  adjudicated  no result"} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
	out.Reset()
	if err := WriteJSON(&out, recs); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`"adjudicated": true`, `"no_result": true`, `"adjudicated": 1`} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("JSON lacks %q:\n%s", s, out.String())
		}
	}
}
