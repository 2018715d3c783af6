package player

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/model"
)

// tinyLearned is a learned evaluator stand-in: Black's stones minus White's.
type tinyLearned struct{}

func (tinyLearned) Evaluate(b *hex.Board) search.Result {
	return search.Result{Value: float64(b.Stones(hex.Black).Count() - b.Stones(hex.White).Count()), Winner: b.Winner()}
}

// tinyOrdered is tinyLearned with a move ordering (cells nearest the centre first),
// so that the MCTS player can use it.
type tinyOrdered struct{ tinyLearned }

func (tinyOrdered) MoveScores(b *hex.Board, scores []float64) {
	for i, p := range centreOrder(b) {
		scores[p] = -float64(i)
	}
}

// edgeFirst is tinyLearned with the move ordering reversed (cells farthest from the
// centre first): its MCTS player prefers the corners, which the solver refutes (or
// finds inferior) at once.
type edgeFirst struct{ tinyLearned }

func (edgeFirst) MoveScores(b *hex.Board, scores []float64) {
	for i, p := range centreOrder(b) {
		scores[p] = float64(i)
	}
}

// slowLearned never decides a position and takes a millisecond per evaluation, so
// that an alpha-beta search with it runs until its time is up.
type slowLearned struct{ tinyLearned }

func (s slowLearned) Evaluate(b *hex.Board) search.Result {
	time.Sleep(time.Millisecond)
	return search.Result{Value: s.tinyLearned.Evaluate(b).Value}
}

// playoutNet is tinyOrdered that says it estimates the random playouts' result.
type playoutNet struct{ tinyOrdered }

func (playoutNet) LogOdds() bool         { return true }
func (playoutNet) PlayoutEstimate() bool { return true }

// centreOrder lists the empty cells of b nearest the centre first.
func centreOrder(b *hex.Board) []hex.Cell {
	g := b.Geometry()
	empty := b.EmptyCells()
	cells := empty.AppendCells(nil)
	dist := func(p hex.Cell) int {
		x, y := g.XY(p)
		u := 4*x + 2*y - (2*(g.W-1) + (g.H - 1))
		v := 2*y - (g.H - 1)
		return u*u + 3*v*v
	}
	sort.SliceStable(cells, func(i, j int) bool { return dist(cells[i]) < dist(cells[j]) })
	return cells
}

// only returns an Options.Learned that gives ev on n x n boards and no model
// elsewhere.
func only(n int, ev search.Evaluator) func(w, h int) (search.Evaluator, error) {
	return func(w, h int) (search.Evaluator, error) {
		if w != n || h != n {
			return nil, fmt.Errorf("%w: %dx%d", ErrNoBuiltin, w, h)
		}
		return ev, nil
	}
}

// anySize is an Options.Learned that gives ev on every board.
func anySize(ev search.Evaluator) func(w, h int) (search.Evaluator, error) {
	return func(int, int) (search.Evaluator, error) { return ev, nil }
}

// newPlayer builds the player of s and o.
func newPlayer(t testing.TB, s Settings, o Options) *Player {
	t.Helper()
	p, err := New(s, o)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// engine returns a GTP engine playing with p.
func engine(p gtp.Player) *gtp.Engine {
	e := gtp.New()
	e.SetPlayer(p)
	return e
}

// exec runs lines on e and returns the last answer and whether it succeeded.
func exec(t testing.TB, e *gtp.Engine, lines ...string) (bool, string) {
	t.Helper()
	var resp string
	for _, l := range lines {
		resp, _ = e.Exec(context.Background(), l)
	}
	return strings.HasPrefix(resp, "="), strings.TrimSpace(resp[1:])
}

// mustExec is exec that fails the test on an error answer.
func mustExec(t testing.TB, e *gtp.Engine, lines ...string) string {
	t.Helper()
	for _, l := range lines {
		if ok, ans := exec(t, e, l); !ok {
			t.Fatalf("%s: %s", l, ans)
		}
	}
	_, ans := exec(t, e, "showboard")
	return ans
}

// genmove plays genmove for colour c on e and returns the move.
func genmove(t testing.TB, e *gtp.Engine, c string) string {
	t.Helper()
	ok, ans := exec(t, e, "genmove "+c)
	if !ok {
		t.Fatalf("genmove %s: %s", c, ans)
	}
	return ans
}

// TestBuiltinModels: every size from 5x5 to 11x11 has a valid built-in model of its
// own size that evaluates positions, and other sizes report ErrNoBuiltin.
func TestBuiltinModels(t *testing.T) {
	for n := 5; n <= 11; n++ {
		m, err := Builtin(n, n)
		if err != nil {
			t.Fatalf("%dx%d: %v", n, n, err)
		}
		// pipeline.DefaultRecipes: 11x11 learns the playouts; 6x6 to 9x9 are generations
		// of the self-improving loop, which learns its search's targets
		want := model.TargetValue
		switch n {
		case 6, 7, 8, 9:
			want = model.TargetSearch
		case 11:
			want = model.TargetPlayouts
		}
		if m.W != n || m.H != n || m.Target != want {
			t.Fatalf("%dx%d: model for %dx%d, target %s", n, n, m.W, m.H, m.Target)
		}
		ev, err := model.NewEvaluator(m, n, n)
		if err != nil {
			t.Fatal(err)
		}
		b := hex.MustBoard(n, n)
		b.PlayStone(hex.Black, hex.Cell(n/2*n+n/2)) // the centre (for even n the cell below and right of it)
		if v := ev.Evaluate(b).Value; v != v || v <= 0 {
			t.Errorf("%dx%d: centre stone for Black valued %v, want > 0", n, n, v)
		}
	}
	if len(BuiltinSizes()) < 7 {
		t.Errorf("built-in sizes %v", BuiltinSizes())
	}
	for _, s := range [][2]int{{4, 4}, {12, 12}, {8, 9}} {
		if _, err := Builtin(s[0], s[1]); !errors.Is(err, ErrNoBuiltin) {
			t.Errorf("%dx%d: %v", s[0], s[1], err)
		}
	}
}

func TestParseKindAndSearch(t *testing.T) {
	for in, want := range map[string]Kind{"learned": Learned, "EXACT": Exact, " exact ": Exact} {
		if k, err := ParseKind(in); err != nil || k != want {
			t.Errorf("%q: %v %v", in, k, err)
		}
	}
	for _, bad := range []string{"", "nonsense", "learn"} {
		if _, err := ParseKind(bad); !errors.Is(err, ErrKind) || !errors.Is(err, ErrSettings) {
			t.Errorf("%q: %v", bad, err)
		}
	}
	for in, want := range map[string]SearchKind{"mcts": SearchMCTS, " AlphaBeta ": SearchAlphaBeta} {
		if k, err := ParseSearch(in); err != nil || k != want {
			t.Errorf("%q: %v %v", in, k, err)
		}
	}
	for _, bad := range []string{"", "minimax", "uct"} {
		if _, err := ParseSearch(bad); !errors.Is(err, ErrSearch) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestNewFiles: New reads the files its settings name and refuses what it cannot play
// with: a model for the exact player, missing and damaged files (naming them), files
// for another board size (CheckSize).
func TestNewFiles(t *testing.T) {
	dir := t.TempDir()
	m5, err := Builtin(5, 5)
	if err != nil {
		t.Fatal(err)
	}
	modelPath := filepath.Join(dir, "5x5.model")
	if err := m5.WriteFile(modelPath); err != nil {
		t.Fatal(err)
	}
	bookPath := filepath.Join(dir, "4x4.book")
	if err := os.WriteFile(bookPath, []byte("size 4x4\nb2 - w a4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "bad.model")
	data, _ := os.ReadFile(modelPath)
	data[len(data)/2] ^= 0x55
	os.WriteFile(damaged, data, 0o644)

	p := newPlayer(t, settings(t, "model="+modelPath, "book="+bookPath), Options{})
	if p.Model() == nil || p.Model().W != 5 || p.Name() != "learned (5x5 model)" {
		t.Errorf("model file: %v %q", p.Model(), p.Name())
	}
	if err := p.CheckSize(5, 5); !errors.Is(err, book.ErrSize) {
		t.Errorf("a 4x4 book on 5x5: %v", err)
	}
	if err := newPlayer(t, settings(t, "model="+modelPath), Options{}).CheckSize(7, 7); !errors.Is(err, model.ErrWrongSize) || !errors.Is(err, ErrSettings) {
		t.Errorf("a 5x5 model on 7x7: %v", err)
	}
	if err := newPlayer(t, settings(t, "book="+bookPath, "player=exact"), Options{}).CheckSize(4, 4); err != nil {
		t.Errorf("a 4x4 book on 4x4: %v", err)
	}
	for _, c := range []struct {
		s    Settings
		want string
		is   error
	}{
		{settings(t, "player=exact", "model="+modelPath), "the exact player uses no model", ErrSettings},
		{settings(t, "model="+filepath.Join(dir, "none.model")), "none.model", os.ErrNotExist},
		{settings(t, "model="+damaged), "", nil},
		{settings(t, "patterns="+filepath.Join(dir, "none.db")), "none.db", nil},
		{settings(t, "book="+modelPath), "5x5.model", nil},
		{settings(t, "amaf-priors=0.5", "playouts=0"), "needs playouts", ErrSettings},
		{settings(t, "xh", "fastvc"), "choose one connection search", ErrSettings},
	} {
		_, err := New(c.s, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%v: %v, want an error with %q", c.s.Args(), err, c.want)
		}
	}
}

// TestLearnedFallback: the learned player plays a size with its evaluator, falls back
// to the exact player's search (its k, no VC plies; one note) on a size without a
// model, keeps the settings given on every size, and answers genmove with any other
// error of its evaluator while eval-resist and param_search keep working.
func TestLearnedFallback(t *testing.T) {
	var notes strings.Builder
	p := newPlayer(t, settings(t, "depth=2", "k=4", "vc-plies=2", "search=alphabeta", "time=0"), Options{Learned: only(3, tinyLearned{}), Notes: &notes})
	e := engine(p)
	mustExec(t, e, "boardsize 3")
	if _, err := hex.MustGeometry(3, 3).ParseCell(genmove(t, e, "b")); err != nil || notes.Len() != 0 {
		t.Fatalf("3x3: %v, notes %q", err, notes.String())
	}
	mustExec(t, e, "boardsize 2")
	if _, ans := exec(t, e, "param_search"); !strings.Contains(ans, "k 4") || !strings.Contains(ans, "vc_plies 0") {
		t.Fatalf("param_search of the exact fall-back: %q", ans)
	}
	mustExec(t, e, "param_search k 5", "boardsize 4")
	genmove(t, e, "b")
	if !strings.Contains(notes.String(), "no learned model for 4x4") || strings.Count(notes.String(), "\n") != 1 {
		t.Fatalf("notes: %q", notes.String())
	}
	if _, ans := exec(t, e, "param_search"); !strings.Contains(ans, "k 5") {
		t.Fatalf("param_search after boardsize: %q", ans)
	}
	mustExec(t, e, "boardsize 3")
	if _, ans := exec(t, e, "param_search"); !strings.Contains(ans, "k 5") || !strings.Contains(ans, "vc_plies 2") {
		t.Fatalf("param_search back on the learned size: %q", ans)
	}
	// An error other than ErrNoBuiltin is genmove's answer; the engine keeps serving.
	only3 := func(w, h int) (search.Evaluator, error) {
		if w != 3 || h != 3 {
			return nil, fmt.Errorf("model for 3x3, not %dx%d", w, h)
		}
		return tinyLearned{}, nil
	}
	e = engine(newPlayer(t, settings(t, "depth=1", "k=4", "time=0", "search=alphabeta"), Options{Learned: only3}))
	mustExec(t, e, "boardsize 4")
	for _, c := range []string{"eval-resist black", "param_search k 3", "param_search"} {
		if ok, ans := exec(t, e, c); !ok {
			t.Errorf("%s on 4x4: %q", c, ans)
		}
	}
	if ok, ans := exec(t, e, "genmove b"); ok || !strings.Contains(ans, "model for 3x3") {
		t.Errorf("genmove on 4x4: ok=%v %q", ok, ans)
	}
	mustExec(t, e, "boardsize 3")
	genmove(t, e, "b")
}

// TestBuiltinPlayer: the learned player with the built-in models answers genmove on a
// built-in size and falls back (one note) elsewhere; a model for another size fails
// genmove on the engine's board.
func TestBuiltinPlayer(t *testing.T) {
	var notes strings.Builder
	e := engine(newPlayer(t, settings(t, "depth=2", "time=0"), Options{Notes: &notes}))
	for _, line := range []string{"boardsize 5", "genmove b", "boardsize 4", "genmove b"} {
		if ok, ans := exec(t, e, line); !ok {
			t.Fatalf("%s: %q", line, ans)
		}
	}
	if got := notes.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "4x4") {
		t.Fatalf("notes %q, want one line about 4x4", got)
	}
	m, err := Builtin(6, 6)
	if err != nil {
		t.Fatal(err)
	}
	e = engine(newPlayer(t, settings(t, "depth=2", "time=0"), Options{Model: m}))
	mustExec(t, e, "boardsize 7")
	if ok, ans := exec(t, e, "genmove b"); ok || !strings.Contains(ans, "size") {
		t.Fatalf("6x6 model on 7x7: %v %q", ok, ans)
	}
	// The cheap connection test at every node plays a legal move.
	e = engine(newPlayer(t, settings(t, "depth=3", "leaf-vc", "search=alphabeta", "time=0"), Options{}))
	mustExec(t, e, "boardsize 5", "play b c3")
	genmove(t, e, "w")
}

// TestLearnedMCTS: the MCTS player keeps a win H-search proves (Black b2 on 3x3) to
// the end of the game, with the settings that reach its search: the circuit's priors,
// playouts and their weight, AMAF priors and a kept subtree.
func TestLearnedMCTS(t *testing.T) {
	for i, moves := range []string{"b2 a1", "b2 c1", "b2 a3", "b2 a1", "b2 c1"} {
		s := settings(t, "expansions=50", "time=0", "depth=3", "k=4", "vc-plies=2")
		want, wantPlayouts, wantWeight := 0.0, 0, DefaultPlayoutWeight
		if i >= 3 {
			s = settings(t, "expansions=50", "time=0", "depth=3", "k=4", "circuit-priors=0.5", "playouts=8", "playout-weight=0.5")
			want, wantPlayouts, wantWeight = 0.5, 8, 0.5
		}
		if i == 4 {
			s.AMAFPriors, s.Reuse = Set(0.25), Set(true)
		}
		p := newPlayer(t, s, Options{Learned: only(3, tinyOrdered{})})
		e := engine(p)
		mustExec(t, e, "boardsize 3")
		for i, m := range strings.Fields(moves) {
			mustExec(t, e, fmt.Sprintf("play %s %s", [2]string{"b", "w"}[i%2], m))
		}
		// Black to move wins; White answers whatever it likes, Black must finish.
		for turn := 0; e.Board().Winner() == hex.Empty && turn < 9; turn++ {
			genmove(t, e, e.Board().ToMove().String())
		}
		if w := e.Board().Winner(); w != hex.Black {
			t.Fatalf("%s: winner %v, want Black (the proved win kept)\n%s", moves, w, e.Board().Diagram())
		}
		mp := p.size.mcts.Params()
		if mp.TacticsPriors != want || mp.Playouts != wantPlayouts || mp.PlayoutWeight != wantWeight ||
			mp.AMAFPriors != s.AMAFPriors.V || mp.Reuse != s.Reuse.V || mp.MaxExpansions != 50 {
			t.Errorf("%v: the search has %+v", s.Args(), mp)
		}
	}
}

// TestPlayoutNetNoPlayouts: above 8x8 the learned MCTS runs its playouts by default,
// but not over a network that estimates them (search.WinProbability), unless asked.
func TestPlayoutNetNoPlayouts(t *testing.T) {
	for _, tc := range []struct {
		ev   search.Evaluator
		s    Settings
		want int
	}{
		{tinyOrdered{}, Settings{}, search.LargeBoardPlayouts},
		{playoutNet{}, Settings{}, 0},
		{playoutNet{}, settings(t, "playouts=8"), 8},
	} {
		p := newPlayer(t, tc.s, Options{Learned: anySize(tc.ev)})
		st, err := p.sizeFor(hex.MustBoard(9, 9))
		if err != nil || st.mcts == nil {
			t.Fatalf("%T: no MCTS (%v)", tc.ev, err)
		}
		if got := st.mcts.Params().Playouts; got != tc.want {
			t.Errorf("%T with %v: the search runs %d playouts, want %d", tc.ev, tc.s.Args(), got, tc.want)
		}
		params := p.Params(9, 9)
		for _, q := range params {
			if q.Name == "playouts" && q.Value != fmt.Sprint(tc.want) {
				t.Errorf("%T: param_player shows playouts %s, want %d", tc.ev, q.Value, tc.want)
			}
		}
	}
}

// TestSearchingGenmove: the exact player finds a win in one with and without fill-in
// and the edge templates, whose settings reach its evaluator.
func TestSearchingGenmove(t *testing.T) {
	for _, s := range []Settings{settings(t, "player=exact"), settings(t, "player=exact", "fill-in=false"), settings(t, "player=exact", "edge-templates=false")} {
		p := newPlayer(t, s, Options{})
		e := engine(p)
		// Black a4 or b4 completes the chain. After ICE fill-in every move is a proved
		// win (a4-b4 is captured), and the finishing move must still be preferred.
		mustExec(t, e, "boardsize 4", "play b b1", "play w a3", "play b b2", "play w c3", "play b b3", "play w d3")
		if a := genmove(t, e, "b"); a != "a4" && a != "b4" {
			t.Fatalf("%v: genmove b answered %s, not a winning move", s.Args(), a)
		}
		r := p.size.r
		if _, fast := p.exactConfigs(r); fast.FillIn != r.FillIn.V || fast.VC.EdgeTemplates != r.EdgeTemplates.V {
			t.Errorf("%v: the search's evaluator has fill-in %v, templates %v", s.Args(), fast.FillIn, fast.VC.EdgeTemplates)
		}
	}
}

// TestParamPlayer: param_player and param_search show the settings on the current
// board and change them for every size; bad values are refused.
func TestParamPlayer(t *testing.T) {
	e := engine(newPlayer(t, Settings{}, Options{}))
	mustExec(t, e, "boardsize 9", "param_search depth 2", "param_search k 4", "param_search time 1.5", "param_search root_k 0", "param_search vc_plies 3")
	want := "[string] depth 2\n[string] k 4\n[string] root_k 0\n[string] time 1.5\n[string] vc_plies 3"
	if _, got := exec(t, e, "param_search"); got != want {
		t.Fatalf("param_search shows %q, want %q", got, want)
	}
	_, all := exec(t, e, "param_player")
	for _, line := range []string{"[string] player learned", "[string] circuit_priors 1", "[bool] fill_in 1", "[string] playouts 32"} {
		if !strings.Contains(all, line+"\n") {
			t.Errorf("param_player on 9x9 lacks %q:\n%s", line, all)
		}
	}
	mustExec(t, e, "boardsize 8")
	if _, all := exec(t, e, "param_player"); !strings.Contains(all, "[string] circuit_priors 0\n") || !strings.Contains(all, "[string] k 4\n") {
		t.Errorf("param_player on 8x8:\n%s", all)
	}
	for _, bad := range []string{"param_search depth 0", "param_search depth x", "param_search k -1", "param_search time -2",
		"param_search colour 3", "param_search depth", "param_search vc_plies -1", "param_player solve_share 2", "param_player model /nonexistent"} {
		if ok, _ := exec(t, e, bad); ok {
			t.Errorf("%s accepted", bad)
		}
	}
	mustExec(t, e, "param_player player exact", "param_player fill_in 0")
	if _, all := exec(t, e, "param_player"); !strings.Contains(all, "[string] player exact\n") || !strings.Contains(all, "[bool] fill_in 0\n") {
		t.Errorf("after player exact:\n%s", all)
	}
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

// heldBy declares a board won for colour c once c holds cell p (and open otherwise):
// a stand-in for a goal-pattern database that knows one winning move.
type heldBy struct {
	p hex.Cell
	c hex.Color
}

func (h heldBy) Decided(b *hex.Board) hex.Color {
	if b.At(h.p) == h.c {
		return h.c
	}
	return hex.Empty
}

// TestTerminal: a1 loses 3x3 for Black, but the terminal test says it is the only
// win: both players follow it; and a move after which the terminal test declares the
// mover the winner is played at once, even by a search that would not look at it (an
// MCTS of one expansion, whose priors prefer the centre).
func TestTerminal(t *testing.T) {
	g := hex.MustGeometry(3, 3)
	a1, _ := g.ParseCell("a1")
	for _, o := range []Options{{Learned: only(3, tinyLearned{}), Terminal: onlyCell(a1)}, {Terminal: onlyCell(a1)}} {
		p := newPlayer(t, settings(t, "depth=1", "search=alphabeta", "time=0", "player="+map[bool]string{true: "learned", false: "exact"}[o.Learned != nil]), o)
		e := engine(p)
		mustExec(t, e, "boardsize 3")
		if m := genmove(t, e, "b"); m != "a1" || p.Last().From != FromPatterns {
			t.Errorf("%s: genmove b = %q from %s, want a1 from the patterns", p.Name(), m, p.Last().From)
		}
		if !strings.HasSuffix(p.Name(), " + patterns") {
			t.Errorf("name %q", p.Name())
		}
	}
	g = hex.MustGeometry(7, 7)
	a1, _ = g.ParseCell("a1")
	move := func(term search.Terminal) string {
		e := engine(newPlayer(t, settings(t, "expansions=1", "time=1"), Options{Learned: anySize(tinyOrdered{}), Terminal: term}))
		mustExec(t, e, "boardsize 7")
		return genmove(t, e, "b")
	}
	if m := move(nil); m == "a1" {
		t.Fatal("the search alone plays a1: the test cannot fail")
	}
	if m := move(heldBy{a1, hex.Black}); m != "a1" {
		t.Errorf("with a1 a stored win for Black: genmove b = %s, want a1", m)
	}
}

// TestNames names the players in logs and reports.
func TestNames(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		o    Options
		want string
	}{
		{settings(t, "player=exact", "xh"), Options{}, "exact (XH-search + circuit)"},
		{settings(t, "player=exact"), Options{}, "exact (H-search + circuit)"},
		{settings(t, "player=exact", "fastvc"), Options{}, "exact (H-search with the FastVC rules + circuit)"},
		{settings(t, "player=exact", "fill-in=false"), Options{}, "exact (H-search + circuit) without fill-in"},
		{settings(t, "player=exact", "edge-templates=false"), Options{}, "exact (H-search + circuit) without edge templates"},
		{settings(t, "player=exact", "book=builtin"), Options{}, "exact (H-search + circuit) + book"},
		{Settings{}, Options{}, "learned"},
		{Settings{}, Options{Terminal: onlyCell(0)}, "learned + patterns"},
	} {
		if got := newPlayer(t, c.s, c.o).Name(); got != c.want {
			t.Errorf("%v: name %q, want %q", c.s.Args(), got, c.want)
		}
	}
}

// testBook writes a book with one 4x4 position, b2 with White to move, answered by
// a deliberately poor a4 (no search would choose it).
func testBook(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "4x4.book")
	if err := os.WriteFile(path, []byte("size 4x4\nb2 - w a4\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBook: a position in the opening book is answered with the book's move for both
// players and under the book's symmetries (the reflection with the colours exchanged
// too); positions the book does not hold are searched, and the decision says where its
// move came from, with the search's counters (alpha-beta and MCTS).
func TestBook(t *testing.T) {
	path := testBook(t)
	for _, c := range []struct {
		s Settings
		o Options
	}{
		{settings(t, "player=exact", "book="+path, "depth=2", "time=0"), Options{}},
		{settings(t, "book="+path, "depth=2", "search=alphabeta", "time=0"), Options{Learned: anySize(tinyOrdered{})}},
		{settings(t, "book="+path, "depth=2", "expansions=40", "time=0"), Options{Learned: anySize(tinyOrdered{})}},
	} {
		p := newPlayer(t, c.s, c.o)
		e := engine(p)
		for _, tc := range []struct{ setup, color, want string }{
			{"play b b2", "w", "a4"}, // as stored
			{"play b c3", "w", "d1"}, // the 180° rotation
			{"play w b2", "b", "d1"}, // the reflection with the colours exchanged
		} {
			mustExec(t, e, "boardsize 4", tc.setup)
			if m := genmove(t, e, tc.color); m != tc.want || p.Last().From != FromBook || p.Last().Searched {
				t.Errorf("%v, %s: genmove = %q (%+v), want %s from the book", c.s.Args(), tc.setup, m, p.Last(), tc.want)
			}
		}
		mustExec(t, e, "boardsize 6", "play b a1")
		genmove(t, e, "w")
		d := p.Last()
		if d.From != FromSearch || !d.Searched || d.Outcome.Nodes < 2 || d.Outcome.Depth < 1 {
			t.Fatalf("%v: a searched move's decision %+v", c.s.Args(), d)
		}
		if p.Searches() == SearchMCTS && d.Outcome.Tactics == 0 {
			t.Errorf("MCTS: no H-search calls counted (%+v)", d.Outcome.Stats)
		}
	}
}

// imitator6 is a 6x6 network with one input per cell that imitates the exact
// evaluator (testdata/README.md).
const imitator6 = "testdata/imitator-6x6.model"

// TestSolveShare: the solver gets its share of the time first and its winning move is
// played: on 6x6 after Black a2, d3 is White's only winning move; a depth-1 search
// alone does not find it, nor does the player whose solver is limited to positions
// with fewer empty cells.
func TestSolveShare(t *testing.T) {
	for _, kind := range []string{"exact", "learned"} {
		move := func(extra ...string) string {
			s := []string{"player=" + kind, "depth=1", "time=3", "search=alphabeta"}
			if kind == "learned" { // pinned: the built-in network may find d3 alone
				s = append(s, "model="+imitator6)
			}
			p := newPlayer(t, settings(t, append(s, extra...)...), Options{})
			e := engine(p)
			mustExec(t, e, "boardsize 6", "play b a2")
			return genmove(t, e, "w")
		}
		if m := move("solve-share=0"); m == "d3" {
			t.Fatalf("%s player without the solver plays d3: the test cannot fail", kind)
		}
		if m := move("solve-share=0.9", "solve-max-empty=0"); m != "d3" {
			t.Errorf("%s player with the solver: genmove w %q, want d3", kind, m)
		}
		if m := move("solve-share=0.9", "solve-max-empty=30"); m == "d3" {
			t.Errorf("%s player with the solver limited to 30 empty cells plays d3", kind)
		}
	}
}

// TestLookaheadDepth: the alpha-beta learned player's cheap ordering is off by
// default (the plain evaluator); a lookahead depth wraps the model in its ordering,
// the given mode for a two-distance model (8x8; the model's own, the policy head, by
// default) and the potential ordering for a cells model (imitator6). The MCTS player always
// has the ordering (its priors).
func TestLookaheadDepth(t *testing.T) {
	for _, tc := range []struct {
		s    Settings
		size int
		mode model.OrderMode // "": no ordering wrapper
	}{
		{settings(t, "search=alphabeta"), 8, ""},
		{settings(t, "search=alphabeta", "lookahead-depth=2"), 8, model.OrderPolicy},
		{Settings{}, 8, model.OrderPolicy},
		{settings(t, "order=mix"), 8, model.OrderMix},
		{settings(t, "model="+imitator6), 6, model.OrderPotential},
		{settings(t, "lookahead-depth=3", "order=network"), 8, model.OrderNetwork},
		{settings(t, "lookahead-depth=3", "order=network", "model="+imitator6), 6, model.OrderPotential},
	} {
		p := newPlayer(t, tc.s, Options{})
		ev, err := p.evaluatorFor(tc.size, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		o, ok := ev.(*model.Ordering)
		switch {
		case tc.mode == "" && ok:
			t.Errorf("%v on %dx%d: an ordering (%s) without a lookahead depth", tc.s.Args(), tc.size, tc.size, o.Mode())
		case tc.mode != "" && (!ok || o.Mode() != tc.mode):
			t.Errorf("%v on %dx%d: evaluator %T, want the %s ordering", tc.s.Args(), tc.size, tc.size, ev, tc.mode)
		}
	}
}

// TestSolveBesideRefutedMove: with the solver beside it, the MCTS player does not
// play a move the solver refuted before it stopped (a node limit here), but its best
// move among the rest; the same player without the solver plays the refuted move.
func TestSolveBesideRefutedMove(t *testing.T) {
	move := func(s Settings, nodes int64) (hex.Cell, *sizeState) {
		t.Helper()
		p := newPlayer(t, s, Options{Learned: anySize(edgeFirst{})})
		b := hex.MustBoard(7, 7)
		st, err := p.sizeFor(b)
		if err != nil {
			t.Fatal(err)
		}
		cfg := solver.DefaultConfig()
		cfg.MaxNodes, cfg.TTBits = nodes, 12
		st.solver = solver.New(cfg)
		m, err := p.GenMove(t.Context(), b, false)
		if err != nil {
			t.Fatal(err)
		}
		return m, st
	}
	alone, _ := move(settings(t, "time=0.3", "solve-share=0"), 0)
	m, st := move(settings(t, "time=0.3", "solve-share=1", "solve-parallel"), 20)
	cands, open := st.solver.RootCandidates()
	if !open {
		t.Fatal("the solver finished in 20 nodes on the empty 7x7 board: the test needs it open")
	}
	if cands.Has(alone) {
		t.Fatalf("the solver did not refute %d, the search's own move: the test cannot fail", alone)
	}
	if !cands.Has(m) {
		t.Errorf("plays %d, which the solver refuted (candidates %v)", m, cands)
	}
	if best, ok := st.mcts.BestAmong(cands); !ok || best != m {
		t.Errorf("plays %d, want the search's best unrefuted move %d", m, best)
	}
}

// TestSolveBesideWinStopsSearch: a win the solver proves is played at once, without
// waiting for the search beside it (which would run its whole 20 s), for both players.
func TestSolveBesideWinStopsSearch(t *testing.T) {
	for _, o := range []Options{{Learned: anySize(slowLearned{})}, {}} {
		kind := map[bool]string{true: "learned", false: "exact"}[o.Learned != nil]
		p := newPlayer(t, settings(t, "player="+kind, "search=alphabeta", "k=4", "time=20", "solve-share=1", "solve-parallel"), o)
		// The empty 5x5 board: Black to move wins, which the solver proves in
		// milliseconds and H-search does not see.
		b := hex.MustBoard(5, 5)
		start := time.Now()
		m, err := p.GenMove(t.Context(), b, false)
		if err != nil {
			t.Fatal(err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s: the proved win took %v (from %s): the search was not stopped", kind, d, p.Last().From)
		}
		b.PlayStone(hex.Black, m)
		r, err := solver.New(solver.DefaultConfig()).Solve(t.Context(), b)
		if err != nil || r.Winner != hex.Black {
			t.Errorf("%s: after %d Black does not win (%v, %v)", kind, m, r.Winner, err)
		}
	}
}

// TestSolverResistantMove: in a position the root solver proves lost, the player plays
// the solver's most resistant losing move, with the solver before the search and
// beside it; without the solver the same player plays another move there (so the
// test can fail).
func TestSolverResistantMove(t *testing.T) {
	move := func(extra ...string) (hex.Cell, *sizeState, *hex.Board) {
		t.Helper()
		p := newPlayer(t, settings(t, append([]string{"k=4", "time=1"}, extra...)...), Options{Learned: anySize(edgeFirst{})})
		// 6x6 after Black a2 and White d3: Black to move loses (proved in about 60
		// nodes, with several refuted moves to choose from).
		b, err := hex.ParsePosition(6, 6, "a2 d3")
		if err != nil {
			t.Fatal(err)
		}
		m, err := p.GenMove(t.Context(), b, false)
		if err != nil {
			t.Fatal(err)
		}
		return m, p.size, b
	}
	alone, _, _ := move("solve-share=0")
	for _, parallel := range []string{"false", "true"} {
		m, st, before := move("solve-share=1", "solve-parallel="+parallel)
		want, ok := st.solver.Resistant(before)
		if !ok {
			t.Fatalf("parallel %s: the solver knows no resistant move: the position is not lost for Black?", parallel)
		}
		if m != want {
			t.Errorf("parallel %s: plays %s, want the resistant %s", parallel, before.Geometry().CellName(m), before.Geometry().CellName(want))
		}
		if want == alone {
			t.Fatalf("the player without the solver plays the resistant move %s too: the test cannot fail", before.Geometry().CellName(alone))
		}
	}
}

// TestDecideLeavesBoard: a decision leaves the board as it was, and a finished game
// or a cancelled context is an error.
func TestDecideLeavesBoard(t *testing.T) {
	p := newPlayer(t, settings(t, "expansions=30", "time=0"), Options{})
	b, _ := hex.ParsePosition(6, 6, "c3 d4")
	before := b.Clone()
	if _, err := p.Decide(t.Context(), b, false); err != nil {
		t.Fatal(err)
	}
	if b.Hash() != before.Hash() || b.Ply() != before.Ply() || b.ToMove() != before.ToMove() {
		t.Fatalf("the board changed:\n%s", b)
	}
	done, _ := hex.ParsePosition(3, 3, "a1 b1 a2 b2 a3")
	if done.Winner() != hex.Black {
		t.Fatal("the test needs a finished game")
	}
	if _, err := p.Decide(t.Context(), done, false); err == nil {
		t.Error("a finished game was decided")
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := p.Decide(ctx, before, false); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRootVisits: after an MCTS decision the player gives its root statistics; after
// a book move, or with alpha-beta, none.
func TestRootVisits(t *testing.T) {
	p := newPlayer(t, settings(t, "expansions=200", "time=0", "book="+testBook(t)), Options{Learned: anySize(tinyOrdered{})})
	visits := make([]float64, 16)
	b, _ := hex.ParsePosition(4, 4, "a1")
	d, err := p.Decide(t.Context(), b, false)
	if err != nil {
		t.Fatal(err)
	}
	v, total, ok := p.RootVisits(visits)
	if !ok || d.From != FromSearch || !(v >= -1 && v <= 1) || total == 0 && d.Outcome.Winner == hex.Empty {
		t.Fatalf("after a search (%+v): value %g, %d visits, %v", d, v, total, ok)
	}
	b, _ = hex.ParsePosition(4, 4, "b2")
	if _, err := p.Decide(t.Context(), b, false); err != nil || p.Last().From != FromBook {
		t.Fatalf("book position: %+v %v", p.Last(), err)
	}
	if _, _, ok := p.RootVisits(visits); ok {
		t.Error("root statistics after a book move")
	}
	ab := newPlayer(t, settings(t, "search=alphabeta", "depth=1", "time=0"), Options{Learned: anySize(tinyOrdered{})})
	if _, err := ab.Decide(t.Context(), hex.MustBoard(4, 4), false); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := ab.RootVisits(visits); ok {
		t.Error("root statistics of alpha-beta")
	}
}

// TestFastVCSetting: --fastvc gives the player's connections the FastVC rules, the
// full and the search's alike, and keeps the edge-template setting.
func TestFastVCSetting(t *testing.T) {
	for _, kind := range []string{"player=exact", "player=learned"} {
		def := newPlayer(t, settings(t, kind), Options{})
		fast := newPlayer(t, settings(t, kind, "fastvc"), Options{})
		noTemplates := newPlayer(t, settings(t, kind, "fastvc", "edge-templates=false"), Options{})
		if def.AnalysisConfig().VC.ReduceFull || !fast.AnalysisConfig().VC.ReduceFull || !fast.AnalysisConfig().VC.GreedyOr {
			t.Errorf("%s: FastVC rules default %v, --fastvc %v", kind, def.AnalysisConfig().VC, fast.AnalysisConfig().VC)
		}
		_, fastSearch := fast.exactConfigs(fast.s.Resolve(11, false))
		if fastSearch.VC != vc.FastVCConfig() {
			t.Errorf("%s: the search's connections %+v, want vc.FastVCConfig", kind, fastSearch.VC)
		}
		if noTemplates.AnalysisConfig().VC.EdgeTemplates {
			t.Errorf("%s: --fastvc --edge-templates=false kept the edge templates", kind)
		}
	}
}
