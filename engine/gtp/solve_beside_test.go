package gtp

import (
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// edgeFirst is tinyLearned with the move ordering reversed (cells farthest from the
// centre first): its MCTS player prefers the corners, which the solver refutes
// (or finds inferior) at once.
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

// TestSolveBesideRefutedMove: with the solver beside it, the MCTS player does not
// play a move the solver refuted before it stopped (a node limit here), but its best
// move among the rest; the same player without the solver plays the refuted move.
func TestSolveBesideRefutedMove(t *testing.T) {
	p := search.DefaultMCTSParams()
	pl := Player{Learned: func(w, h int) (search.Evaluator, error) { return edgeFirst{}, nil }, MCTS: true, MCTSParams: p,
		Params: search.Params{Depth: search.MaxDepth, Time: 300 * time.Millisecond}}
	genmove := func(pl Player, nodes int64) (hex.Cell, *evalState) {
		t.Helper()
		e := New()
		e.SetPlayer(pl)
		exec(t, e, "boardsize 7")
		st, err := evalStateOf(e)
		if err != nil {
			t.Fatal(err)
		}
		cfg := solver.DefaultConfig()
		cfg.MaxNodes, cfg.TTBits = nodes, 12
		st.solver = solver.New(cfg)
		ok, ans := exec(t, e, "genmove b")
		if !ok {
			t.Fatalf("genmove: %s", ans)
		}
		c, err := e.Board().Geometry().ParseCell(ans)
		if err != nil {
			t.Fatal(err)
		}
		return c, st
	}
	alone, _ := genmove(pl, 0)
	pl.SolveShare, pl.SolveParallel = 1, true
	move, st := genmove(pl, 20)
	cands, open := st.solver.RootCandidates()
	if !open {
		t.Fatal("the solver finished in 20 nodes on the empty 7x7 board: the test needs it open")
	}
	if cands.Has(alone) {
		t.Fatalf("the solver did not refute %d, the search's own move: the test cannot fail", alone)
	}
	if !cands.Has(move) {
		t.Errorf("plays %d, which the solver refuted (candidates %v)", move, cands)
	}
	if best, ok := st.mcts.BestAmong(cands); !ok || best != move {
		t.Errorf("plays %d, want the search's best unrefuted move %d", move, best)
	}
}

// TestSolveBesideWinStopsSearch: a win the solver proves is played at once, without
// waiting for the search beside it (which would run its whole 20 s), for both players.
func TestSolveBesideWinStopsSearch(t *testing.T) {
	slow := func(w, h int) (search.Evaluator, error) { return slowLearned{}, nil }
	for _, pl := range []Player{
		{Learned: slow, Params: search.Params{Depth: search.MaxDepth, K: 4, Time: 20 * time.Second}},
		{Params: search.Params{Depth: search.MaxDepth, K: 4, Time: 20 * time.Second}},
	} {
		pl.SolveShare, pl.SolveParallel = 1, true
		e := New()
		e.SetPlayer(pl)
		// The empty 5x5 board: Black to move wins, which the solver proves in
		// milliseconds and H-search does not see.
		exec(t, e, "boardsize 5")
		start := time.Now()
		ok, ans := exec(t, e, "genmove b")
		if !ok {
			t.Fatalf("genmove: %s", ans)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("learned %v: the proved win took %v: the search was not stopped", pl.Learned != nil, d)
		}
		b := e.Board().Clone()
		r, err := solver.New(solver.DefaultConfig()).Solve(t.Context(), b)
		if err != nil || r.Winner != hex.Black {
			t.Errorf("learned %v: after %s Black does not win (%v, %v)", pl.Learned != nil, ans, r.Winner, err)
		}
	}
}

// TestSolverResistantMove: in a position the root solver proves lost, the player plays
// the solver's most resistant losing move, with the solver before the search and
// beside it; without the solver the same player plays another move there (so the
// test can fail).
func TestSolverResistantMove(t *testing.T) {
	base := Player{Learned: func(w, h int) (search.Evaluator, error) { return edgeFirst{}, nil }, MCTS: true,
		MCTSParams: search.DefaultMCTSParams(), Params: search.Params{Depth: search.MaxDepth, K: 4, Time: time.Second}}
	play := func(pl Player) (hex.Cell, *evalState, *hex.Board) {
		t.Helper()
		e := New()
		e.SetPlayer(pl)
		// 6x6 after Black a2 and White d3: Black to move loses (proved in about 60
		// nodes, with several refuted moves to choose from).
		for _, c := range []string{"boardsize 6", "play b a2", "play w d3"} {
			exec(t, e, c)
		}
		before := e.Board().Clone()
		ok, ans := exec(t, e, "genmove b")
		if !ok {
			t.Fatalf("genmove: %s", ans)
		}
		c, err := before.Geometry().ParseCell(ans)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := evalStateOf(e)
		return c, st, before
	}
	alone, _, _ := play(base)
	for _, parallel := range []bool{false, true} {
		pl := base
		pl.SolveShare, pl.SolveParallel = 1, parallel
		m, st, before := play(pl)
		want, ok := st.solver.Resistant(before)
		if !ok {
			t.Fatalf("parallel %v: the solver knows no resistant move: the position is not lost for Black?", parallel)
		}
		if m != want {
			t.Errorf("parallel %v: plays %s, want the resistant %s", parallel, before.Geometry().CellName(m), before.Geometry().CellName(want))
		}
		if want == alone {
			t.Fatalf("the player without the solver plays the resistant move %s too: the test cannot fail", before.Geometry().CellName(alone))
		}
	}
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

// TestTerminalWinAtRoot: a move after which the terminal test declares the mover the
// winner is played at once, even by a search that would not look at it (an MCTS of
// one expansion, whose priors prefer the centre).
func TestTerminalWinAtRoot(t *testing.T) {
	g := hex.MustGeometry(7, 7)
	a1, _ := g.ParseCell("a1")
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 1
	genmove := func(term search.Terminal) string {
		e := New()
		e.SetPlayer(Player{Learned: func(w, h int) (search.Evaluator, error) { return tinyOrdered{}, nil }, MCTS: true, MCTSParams: p,
			Terminal: term, Params: search.Params{Depth: search.MaxDepth, Time: time.Second}})
		exec(t, e, "boardsize 7")
		ok, ans := exec(t, e, "genmove b")
		if !ok {
			t.Fatalf("genmove: %s", ans)
		}
		return ans
	}
	if m := genmove(nil); m == "a1" {
		t.Fatal("the search alone plays a1: the test cannot fail")
	}
	if m := genmove(heldBy{a1, hex.Black}); m != "a1" {
		t.Errorf("with a1 a stored win for Black: genmove b = %s, want a1", m)
	}
}
