package gtp

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// tinyLearned is a learned evaluator stand-in for 3x3 boards: it counts Black's
// stones minus White's (a real model is tested in package player).
type tinyLearned struct{}

func (tinyLearned) Evaluate(b *hex.Board) search.Result {
	return search.Result{Value: float64(b.Stones(hex.Black).Count() - b.Stones(hex.White).Count()), Winner: b.Winner()}
}

// learnedOn3x3 is a Player.Learned that knows only 3x3 boards.
func learnedOn3x3(w, h int) (search.Evaluator, error) {
	if w != 3 || h != 3 {
		return nil, fmt.Errorf("%w: %dx%d", ErrNoLearned, w, h)
	}
	return tinyLearned{}, nil
}

// onlyCell declares every non-empty board won for Black when Black holds cell c and
// won for White otherwise: a verdict that contradicts both evaluators.
type onlyCell hex.Cell

func (c onlyCell) Decided(b *hex.Board) hex.Color {
	switch {
	case b.NumStones() == 0:
		return hex.Empty
	case b.At(hex.Cell(c)) == hex.Black:
		return hex.Black
	}
	return hex.White
}

func TestLearnedPlayerGenmove(t *testing.T) {
	var notes strings.Builder
	e := New()
	e.SetPlayer(Player{Learned: learnedOn3x3, Params: search.Params{Depth: 2, K: 4, VCPlies: 2}, Notes: &notes})
	for _, c := range []string{"boardsize 3", "clear_board"} {
		if ok, ans := exec(t, e, c); !ok {
			t.Fatalf("%s: %s", c, ans)
		}
	}
	ok, ans := exec(t, e, "genmove b")
	if !ok {
		t.Fatalf("genmove: %s", ans)
	}
	if _, err := e.Board().Geometry().ParseCell(ans); err != nil {
		t.Fatalf("genmove answered %q", ans)
	}
	if notes.Len() != 0 {
		t.Fatalf("note on 3x3: %q", notes.String())
	}
	// Another board size falls back to the exact player (with the exact player's k and
	// no VC plies) and one note; param_search settings are kept across sizes played by
	// the same kind of player.
	exec(t, e, "param_search k 3")
	exec(t, e, "boardsize 2")
	if _, ans := exec(t, e, "param_search"); !strings.Contains(ans, "k 6") || !strings.Contains(ans, "vc_plies 0") {
		t.Fatalf("param_search of the exact fall-back: %q", ans)
	}
	exec(t, e, "param_search k 5")
	exec(t, e, "boardsize 4")
	ok, ans = exec(t, e, "genmove b")
	if !ok {
		t.Fatalf("genmove on 4x4 without a learned evaluator: %q", ans)
	}
	if !strings.Contains(notes.String(), "no learned model for 4x4") || strings.Count(notes.String(), "\n") != 2 {
		t.Fatalf("notes: %q", notes.String())
	}
	if _, ans := exec(t, e, "param_search"); !strings.Contains(ans, "k 5") {
		t.Fatalf("param_search after boardsize: %q", ans)
	}
	// An error other than ErrNoLearned is genmove's answer; the engine keeps serving.
	e.SetPlayer(Player{Learned: func(w, h int) (search.Evaluator, error) { return nil, errors.New("damaged model") }})
	if ok, ans := exec(t, e, "genmove b"); ok || !strings.Contains(ans, "damaged model") {
		t.Fatalf("genmove with a failing learned player: ok=%v %q", ok, ans)
	}
	if ok, _ := exec(t, e, "name"); !ok {
		t.Fatal("engine stopped serving")
	}
}

// tinyOrdered is tinyLearned with a move ordering (cells nearest the centre first),
// so that the MCTS player can use it.
type tinyOrdered struct{ tinyLearned }

func (tinyOrdered) MoveScores(b *hex.Board, scores []float64) {
	for i, p := range centreOrder(b) {
		scores[p] = -float64(i)
	}
}

// TestLearnedPlayerMCTS: the MCTS player keeps a win H-search proves (Black b2 on
// 3x3: every move it plays keeps the win, checked by brute force over the rest of
// the game) and, in a lost position, still answers a legal move (alpha-beta's); so
// does it with the circuit's move ordering in its priors (CircuitPriors) and
// random playouts (Playouts, PlayoutWeight), their AMAF priors (AMAFPriors) and
// a kept subtree (Reuse), which reach the search.
func TestLearnedPlayerMCTS(t *testing.T) {
	on3x3 := func(w, h int) (search.Evaluator, error) {
		if w != 3 || h != 3 {
			return nil, fmt.Errorf("%w: %dx%d", ErrNoLearned, w, h)
		}
		return tinyOrdered{}, nil
	}
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 50
	for i, moves := range []string{"b2 a1", "b2 c1", "b2 a3", "b2 a1", "b2 c1"} {
		e := New()
		pl := Player{Learned: on3x3, MCTS: true, MCTSParams: p, Params: search.Params{Depth: 3, K: 4, VCPlies: 2}}
		want, wantPlayouts := 0.0, 0
		if i >= 3 {
			pl.CircuitPriors, want = 0.5, 0.5
			pl.Playouts, pl.PlayoutWeight, wantPlayouts = 8, 0.5, 8
		}
		if i == 4 {
			pl.AMAFPriors, pl.Reuse = 0.25, 1
		}
		e.SetPlayer(pl)
		for _, c := range []string{"boardsize 3", "clear_board"} {
			exec(t, e, c)
		}
		if st, err := evalStateOf(e); err != nil || st.mcts == nil || st.mcts.Params().TacticsPriors != want {
			t.Fatalf("circuit priors %g: the search's weight is not %g (%v)", pl.CircuitPriors, want, err)
		} else if mp := st.mcts.Params(); mp.Playouts != wantPlayouts || mp.PlayoutWeight != pl.PlayoutWeight || mp.AMAFPriors != max(pl.AMAFPriors, 0) {
			t.Fatalf("playouts %d, weight %g, AMAF priors %g: the search has %d, %g and %g", pl.Playouts, pl.PlayoutWeight, pl.AMAFPriors, mp.Playouts, mp.PlayoutWeight, mp.AMAFPriors)
		} else if mp.Reuse != (pl.Reuse > 0) {
			t.Fatalf("reuse %d: the search has %v", pl.Reuse, mp.Reuse)
		}
		for i, m := range strings.Fields(moves) {
			exec(t, e, fmt.Sprintf("play %s %s", [2]string{"b", "w"}[i%2], m))
		}
		// Black to move wins; White answers whatever it likes, Black must finish.
		for turn := 0; e.Board().Winner() == hex.Empty && turn < 9; turn++ {
			col := "b"
			if e.Board().ToMove() == hex.White {
				col = "w"
			}
			ok, ans := exec(t, e, "genmove "+col)
			if !ok {
				t.Fatalf("%s: genmove %s: %s", moves, col, ans)
			}
		}
		if w := e.Board().Winner(); w != hex.Black {
			t.Fatalf("%s: winner %v, want Black (the proved win kept)\n%s", moves, w, e.Board().Diagram())
		}
	}
}

func TestPlayerTerminalDecides(t *testing.T) {
	// a1 loses 3x3 for Black, but the terminal test says it is the only win: a depth-1
	// search for Black must follow the terminal test, whatever the evaluator thinks.
	g := hex.MustGeometry(3, 3)
	a1, _ := g.ParseCell("a1")
	for _, p := range []Player{
		{Learned: learnedOn3x3, Terminal: onlyCell(a1), Params: search.Params{Depth: 1}},
		{Terminal: onlyCell(a1), Params: search.Params{Depth: 1}},
	} {
		e := New()
		e.SetPlayer(p)
		exec(t, e, "boardsize 3")
		ok, ans := exec(t, e, "genmove b")
		if !ok || ans != "a1" {
			t.Errorf("%s: genmove b = %v %q, want a1", p.Describe(), ok, ans)
		}
	}
}

func TestPlayerDescribe(t *testing.T) {
	for _, c := range []struct {
		p    Player
		want string
	}{
		{Player{XH: true}, "exact (XH-search + circuit)"},
		{Player{}, "exact (H-search + circuit)"},
		{Player{NoFillIn: true}, "exact (H-search + circuit) without fill-in"},
		{Player{NoTemplates: true}, "exact (H-search + circuit) without edge templates"},
		{Player{Learned: learnedOn3x3}, "learned"},
		{Player{Learned: learnedOn3x3, Terminal: onlyCell(0)}, "learned + patterns"},
		{Player{Name: "mine"}, "mine"},
	} {
		if d := c.p.Describe(); d != c.want {
			t.Errorf("describe = %q, want %q", d, c.want)
		}
	}
}

// TestLearnedWrongSizeOtherCommands: a learned player whose model fits another board
// size (an error that is not ErrNoLearned) fails genmove on this size, but eval-resist
// and param_search, which need no learned evaluator, keep working.
func TestLearnedWrongSizeOtherCommands(t *testing.T) {
	only3 := func(w, h int) (search.Evaluator, error) {
		if w != 3 || h != 3 {
			return nil, fmt.Errorf("model for 3x3, not %dx%d", w, h)
		}
		return tinyLearned{}, nil
	}
	e := New()
	e.SetPlayer(Player{Learned: only3, Params: search.Params{Depth: 1, K: 4}})
	exec(t, e, "boardsize 4")
	for _, c := range []string{"eval-resist black", "param_search k 3", "param_search"} {
		if ok, ans := exec(t, e, c); !ok {
			t.Errorf("%s on 4x4: %q", c, ans)
		}
	}
	if ok, ans := exec(t, e, "genmove b"); ok || !strings.Contains(ans, "model for 3x3") {
		t.Errorf("genmove on 4x4: ok=%v %q", ok, ans)
	}
	exec(t, e, "boardsize 3")
	if ok, ans := exec(t, e, "genmove b"); !ok {
		t.Errorf("genmove on 3x3: %q", ans)
	}
}

// playoutNet is tinyOrdered that says it estimates the random playouts' result.
type playoutNet struct{ tinyOrdered }

func (playoutNet) LogOdds() bool         { return true }
func (playoutNet) PlayoutEstimate() bool { return true }

// TestPlayoutNetNoPlayouts: above 8x8 the learned MCTS runs its playouts by default,
// but not over a network that estimates them (search.WinProbability), unless asked.
func TestPlayoutNetNoPlayouts(t *testing.T) {
	for _, tc := range []struct {
		ev       search.Evaluator
		playouts int
		want     int
	}{
		{tinyOrdered{}, 0, search.LargeBoardPlayouts},
		{playoutNet{}, 0, 0},
		{playoutNet{}, 8, 8},
	} {
		e := New()
		e.SetPlayer(Player{Learned: func(int, int) (search.Evaluator, error) { return tc.ev, nil }, MCTS: true,
			Playouts: tc.playouts, Params: search.Params{Depth: 3, K: 4, VCPlies: 2}})
		exec(t, e, "boardsize 9")
		st, err := evalStateOf(e)
		if err != nil || st.mcts == nil {
			t.Fatalf("%T: no MCTS (%v)", tc.ev, err)
		}
		if got := st.mcts.Params().Playouts; got != tc.want {
			t.Errorf("%T with Playouts %d: the search runs %d playouts, want %d", tc.ev, tc.playouts, got, tc.want)
		}
	}
}
