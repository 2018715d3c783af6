package player

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// TestBuiltinModels: every size from 5x5 to 11x11 has a valid built-in model of its
// own size that evaluates positions, and other sizes report ErrNoBuiltin (which a GTP
// engine treats as "play exact").
func TestBuiltinModels(t *testing.T) {
	for n := 5; n <= 11; n++ {
		m, err := Builtin(n, n)
		if err != nil {
			t.Fatalf("%dx%d: %v", n, n, err)
		}
		want := model.TargetValue // pipeline.DefaultRecipes: 11x11 learns the playouts
		if n == 11 {
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
		c := hex.Cell(n*n/2 + 0)
		b.PlayStone(hex.Black, c)
		v := ev.Evaluate(b).Value
		if v != v || v <= 0 {
			t.Errorf("%dx%d: centre stone for Black valued %v, want > 0", n, n, v)
		}
	}
	if len(BuiltinSizes()) < 7 {
		t.Errorf("built-in sizes %v", BuiltinSizes())
	}
	for _, s := range [][2]int{{4, 4}, {12, 12}, {8, 9}} {
		_, err := Builtin(s[0], s[1])
		if !errors.Is(err, ErrNoBuiltin) || !errors.Is(err, gtp.ErrNoLearned) {
			t.Errorf("%dx%d: %v", s[0], s[1], err)
		}
	}
}

func TestParseKind(t *testing.T) {
	for in, want := range map[string]Kind{"learned": Learned, "EXACT": Exact, " exact ": Exact} {
		if k, err := ParseKind(in); err != nil || k != want {
			t.Errorf("%q: %v %v", in, k, err)
		}
	}
	for _, bad := range []string{"", "nonsense", "learn"} {
		if _, err := ParseKind(bad); !errors.Is(err, ErrKind) || !strings.Contains(err.Error(), "want learned or exact") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

func TestParseSearch(t *testing.T) {
	for in, want := range map[string]SearchKind{"mcts": SearchMCTS, " AlphaBeta ": SearchAlphaBeta} {
		if k, err := ParseSearch(in); err != nil || k != want {
			t.Errorf("%q: %v %v", in, k, err)
		}
	}
	for _, bad := range []string{"", "minimax", "uct"} {
		if _, err := ParseSearch(bad); !errors.Is(err, ErrSearch) || !strings.Contains(err.Error(), "want mcts or alphabeta") {
			t.Errorf("%q: %v", bad, err)
		}
	}
	if _, err := (Config{Kind: Learned, Search: "uct"}).GTP(); !errors.Is(err, ErrSearch) {
		t.Errorf("bad search: %v", err)
	}
	for _, c := range []struct {
		cfg  Config
		mcts bool
	}{{Config{Kind: Learned}, LearnedSearch == SearchMCTS}, {Config{Kind: Learned, Search: SearchAlphaBeta}, false},
		{Config{Kind: Learned, Search: SearchMCTS}, true}, {Config{Kind: Exact, Search: SearchMCTS}, false}} {
		p, err := c.cfg.GTP()
		if err != nil || p.MCTS != c.mcts {
			t.Errorf("%+v: MCTS %v (%v), want %v", c.cfg, p.MCTS, err, c.mcts)
		}
	}
}

// TestParams: with a time limit there is no hidden depth cap; the learned player
// gets its own k and VC plies unless overridden.
func TestParams(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want search.Params
	}{
		{Config{Kind: Exact, Time: time.Second}, search.Params{Depth: search.MaxDepth, K: gtp.SearchDefaults().K, Time: time.Second}},
		{Config{Kind: Exact}, search.Params{Depth: gtp.SearchDefaults().Depth, K: gtp.SearchDefaults().K}},
		{Config{Kind: Learned, Time: time.Second, Search: SearchAlphaBeta}, search.Params{Depth: search.MaxDepth, K: LearnedK, Time: time.Second, VCPlies: LearnedVCPlies}},
		{Config{Kind: Learned, Depth: 5, K: 3, VCPlies: -1, Search: SearchAlphaBeta}, search.Params{Depth: 5, K: 3}},
		{Config{Kind: Learned, Depth: 5, VCPlies: 2, Search: SearchAlphaBeta}, search.Params{Depth: 5, K: LearnedK, VCPlies: 2}},
		// With MCTS the evaluator carries the cheap ordering (the priors); alpha-beta,
		// which plays the lost positions, keeps its 1-ply lookahead everywhere.
		{Config{Kind: Learned, Time: time.Second, Search: SearchMCTS}, search.Params{Depth: search.MaxDepth, K: LearnedK, Time: time.Second, VCPlies: LearnedVCPlies, LookaheadDepth: 1}},
		{Config{Kind: Learned, Depth: 5, LookaheadDepth: 3, Search: SearchMCTS}, search.Params{Depth: 5, K: LearnedK, VCPlies: LearnedVCPlies, LookaheadDepth: 3}},
	} {
		if got := c.cfg.Params(); got != c.want {
			t.Errorf("%+v: %+v, want %+v", c.cfg, got, c.want)
		}
	}
}

// TestLearnedGTP: the learned player answers genmove on a built-in size, falls back
// to the exact player (with one note) on a size without a model, and a model for
// another size is refused on the engine's board.
func TestLearnedGTP(t *testing.T) {
	var notes strings.Builder
	p, err := Config{Kind: Learned, Depth: 2, Notes: &notes}.GTP()
	if err != nil {
		t.Fatal(err)
	}
	e := gtp.New()
	e.SetPlayer(p)
	for _, line := range []string{"boardsize 5", "genmove b", "boardsize 4", "genmove b"} {
		if resp, _ := e.Exec(t.Context(), line); !strings.HasPrefix(resp, "=") {
			t.Fatalf("%s: %q", line, resp)
		}
	}
	if got := notes.String(); strings.Count(got, "\n") != 1 || !strings.Contains(got, "4x4") {
		t.Fatalf("notes %q, want one line about 4x4", got)
	}
	m, err := Builtin(6, 6)
	if err != nil {
		t.Fatal(err)
	}
	p, err = Config{Kind: Learned, Model: m, Depth: 2}.GTP()
	if err != nil {
		t.Fatal(err)
	}
	e = gtp.New()
	e.SetPlayer(p)
	e.Exec(t.Context(), "boardsize 7")
	if resp, _ := e.Exec(t.Context(), "genmove b"); !strings.HasPrefix(resp, "?") || !strings.Contains(resp, "size") {
		t.Fatalf("6x6 model on 7x7: %q", resp)
	}
	if _, err := (Config{Kind: "nonsense"}).GTP(); !errors.Is(err, ErrKind) {
		t.Fatalf("bad kind: %v", err)
	}
}

// TestDamagedModel: a damaged model file is refused with the model package's error.
func TestDamagedModel(t *testing.T) {
	data, err := builtinFS.ReadFile("models/" + BuiltinName(5, 5))
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x55
	path := filepath.Join(t.TempDir(), "bad.model")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := model.ReadFile(path); err == nil {
		t.Fatal("damaged model accepted")
	}
}

// TestLeafVC: the learned player's cheap connection test follows Config.LeafVC (0:
// LearnedLeafVC); the exact player never has it.
func TestLeafVC(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want bool
	}{
		{Config{Kind: Learned}, LearnedLeafVC},
		{Config{Kind: Learned, LeafVC: 1}, true},
		{Config{Kind: Learned, LeafVC: -1}, false},
		{Config{Kind: Exact, LeafVC: 1}, false},
	} {
		p, err := c.cfg.GTP()
		if err != nil {
			t.Fatal(err)
		}
		if p.LeafVC != c.want {
			t.Errorf("%+v: LeafVC %v, want %v", c.cfg, p.LeafVC, c.want)
		}
	}
	// A learned player with the test plays a legal move.
	p, err := Config{Kind: Learned, Depth: 3, LeafVC: 1}.GTP()
	if err != nil {
		t.Fatal(err)
	}
	e := gtp.New()
	e.SetPlayer(p)
	for _, line := range []string{"boardsize 5", "play b c3", "genmove w"} {
		if resp, _ := e.Exec(t.Context(), line); !strings.HasPrefix(resp, "=") {
			t.Fatalf("%s: %q", line, resp)
		}
	}
}

// TestSolveShare: Config.SolveShare reaches gtp.Player (0: the player's default,
// negative: none), a share above 1 or NaN is refused, and a player with a share plays the
// solver's winning move: on 6x6 after Black a2, d3 is White's only winning move.
func TestSolveShare(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want float64
	}{
		{Config{Kind: Learned}, LearnedSolveShare},
		{Config{Kind: Exact}, ExactSolveShare},
		{Config{Kind: Learned, SolveShare: 0.4}, 0.4},
		{Config{Kind: Exact, SolveShare: 1}, 1},
		{Config{Kind: Learned, SolveShare: -1}, 0},
	} {
		p, err := c.cfg.GTP()
		if err != nil {
			t.Fatal(err)
		}
		if p.SolveShare != c.want {
			t.Errorf("%+v: SolveShare %v, want %v", c.cfg, p.SolveShare, c.want)
		}
	}
	for _, c := range []struct {
		cfg  Config
		want bool
	}{
		{Config{Kind: Learned}, SolveParallel},
		{Config{Kind: Learned, SolveParallel: 1}, true},
		{Config{Kind: Exact, SolveShare: 0.5, SolveParallel: 1}, true},
		{Config{Kind: Learned, SolveParallel: -1}, false},
		{Config{Kind: Learned, SolveShare: -1, SolveParallel: 1}, false}, // no solver
	} {
		if p, err := c.cfg.GTP(); err != nil || p.SolveParallel != c.want {
			t.Errorf("%+v: SolveParallel %v (%v), want %v", c.cfg, p.SolveParallel, err, c.want)
		}
	}
	for _, share := range []float64{1.5, math.NaN(), math.Inf(1)} {
		if _, err := (Config{Kind: Learned, SolveShare: share}).GTP(); !errors.Is(err, ErrSolveShare) {
			t.Fatalf("share %v: %v, want ErrSolveShare", share, err)
		}
	}
	for _, w := range []float64{1.5, math.NaN(), math.Inf(1)} {
		if _, err := (Config{Kind: Learned, CircuitPriors: w}).GTP(); !errors.Is(err, ErrCircuitPriors) {
			t.Fatalf("circuit priors %v: %v, want ErrCircuitPriors", w, err)
		}
	}
	for _, w := range []float64{-0.5, 1.5, math.NaN(), math.Inf(1)} {
		if _, err := (Config{Kind: Learned, PlayoutWeight: w}).GTP(); !errors.Is(err, ErrPlayoutWeight) {
			t.Fatalf("playout weight %v: %v, want ErrPlayoutWeight", w, err)
		}
	}
	for _, w := range []float64{1.5, math.NaN(), math.Inf(1)} {
		if _, err := (Config{Kind: Learned, AMAFPriors: w}).GTP(); !errors.Is(err, ErrAMAFPriors) {
			t.Fatalf("AMAF priors %v: %v, want ErrAMAFPriors", w, err)
		}
	}
	if p, err := (Config{Kind: Learned, AMAFPriors: 0.25}).GTP(); err != nil || p.AMAFPriors != 0.25 {
		t.Fatalf("AMAF priors: %g (%v)", p.AMAFPriors, err)
	}
	if p, err := (Config{Kind: Learned, Playouts: 32, PlayoutWeight: 0.8}).GTP(); err != nil || p.Playouts != 32 || p.PlayoutWeight != 0.8 {
		t.Fatalf("playouts: %d, weight %g (%v)", p.Playouts, p.PlayoutWeight, err)
	}
	for _, w := range []float64{-1, 0, 0.5, 1} {
		if p, err := (Config{Kind: Learned, CircuitPriors: w}).GTP(); err != nil || p.CircuitPriors != w {
			t.Fatalf("circuit priors %v: %v (%v)", w, p.CircuitPriors, err)
		}
	}
	genmove := func(cfg Config) string {
		t.Helper()
		p, err := cfg.GTP()
		if err != nil {
			t.Fatal(err)
		}
		e := gtp.New()
		e.SetPlayer(p)
		var resp string
		for _, line := range []string{"boardsize 6", "play b a2", "genmove w"} {
			if resp, _ = e.Exec(t.Context(), line); !strings.HasPrefix(resp, "=") {
				t.Fatalf("%s: %q", line, resp)
			}
		}
		return strings.TrimSpace(strings.TrimPrefix(resp, "="))
	}
	for _, kind := range []Kind{Exact, Learned} {
		// A depth-1 search alone does not find d3, so the test does not depend on
		// the machine's speed.
		cfg := Config{Kind: kind, Depth: 1, Time: 3 * time.Second, SolveShare: -1, SolveMaxEmpty: -1, Search: SearchAlphaBeta}
		if m := genmove(cfg); m == "d3" {
			t.Fatalf("%s player without the solver plays d3: the test cannot fail", kind)
		}
		cfg.SolveShare = 0.9
		if m := genmove(cfg); m != "d3" {
			t.Errorf("%s player with the solver: genmove w %q, want d3", kind, m)
		}
		cfg.SolveMaxEmpty = 30 // the position has 35 empty cells: no solver
		if m := genmove(cfg); m == "d3" {
			t.Errorf("%s player with the solver limited to 30 empty cells plays d3", kind)
		}
	}
}

// TestLookaheadDepth: the alpha-beta learned player's cheap ordering is off by
// default (the plain evaluator, Params.LookaheadDepth 0); a lookahead depth wraps the
// model in its ordering, the configured mode for a two-distance model (8x8) and the
// potential ordering for a cells model (6x6); a negative depth turns it off. The MCTS
// player always has the ordering (its priors), and alpha-beta (for lost positions)
// then keeps the 1-ply lookahead at every node (depth 1).
func TestLookaheadDepth(t *testing.T) {
	for _, tc := range []struct {
		cfg   Config
		size  int
		depth int
		mode  model.OrderMode // "": no ordering wrapper
	}{
		{Config{Kind: Learned, Search: SearchAlphaBeta}, 8, LearnedLookaheadDepth, ""},
		{Config{Kind: Learned, LookaheadDepth: -1, Search: SearchAlphaBeta}, 8, 0, ""},
		{Config{Kind: Learned, LookaheadDepth: 2, Search: SearchAlphaBeta}, 8, 2, LearnedOrder},
		{Config{Kind: Learned, Search: SearchMCTS}, 8, 1, LearnedOrder},
		{Config{Kind: Learned, LookaheadDepth: -1, Search: SearchMCTS}, 8, 1, LearnedOrder},
		{Config{Kind: Learned, Search: SearchMCTS}, 6, 1, model.OrderPotential},
		{Config{Kind: Learned, LookaheadDepth: 3, Order: model.OrderNetwork}, 8, 3, model.OrderNetwork},
		{Config{Kind: Learned, LookaheadDepth: 3, Order: model.OrderNetwork}, 6, 3, model.OrderPotential},
		{Config{Kind: Exact, LookaheadDepth: 3}, 8, 0, ""},
	} {
		p, err := tc.cfg.GTP()
		if err != nil {
			t.Fatal(err)
		}
		if p.Params.LookaheadDepth != tc.depth {
			t.Errorf("%+v: lookahead depth %d, want %d", tc.cfg, p.Params.LookaheadDepth, tc.depth)
		}
		if p.Learned == nil {
			continue
		}
		ev, err := p.Learned(tc.size, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		o, ok := ev.(*model.Ordering)
		switch {
		case tc.mode == "" && ok:
			t.Errorf("%+v on %dx%d: an ordering (%s) without a lookahead depth", tc.cfg, tc.size, tc.size, o.Mode())
		case tc.mode != "" && (!ok || o.Mode() != tc.mode):
			t.Errorf("%+v on %dx%d: evaluator %T, want the %s ordering", tc.cfg, tc.size, tc.size, ev, tc.mode)
		}
	}
}
