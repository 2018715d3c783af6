package search_test

import (
	"context"
	"errors"
	"math"
	"math/rand"
	"sort"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/brute"
)

func newMCTS(t testing.TB, ev, tac search.Evaluator, p search.MCTSParams) *search.MCTS {
	t.Helper()
	m, err := search.NewMCTS(ev, tac, p)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// orderedTracking is trackingEval with the resistance evaluator's move ordering, so
// that MCTS can use it and the Tracker hooks are checked.
type orderedTracking struct {
	*trackingEval
	o search.Orderer
}

func (e orderedTracking) MoveScores(b *hex.Board, scores []float64) { e.o.MoveScores(b, scores) }

// TestMCTSOracle: on random 3x3 and 4x4 positions the search, given enough
// expansions, proves the winner the brute-force solver finds, plays a winning move
// when the side to move wins, keeps the Tracker in step and restores the board. Every
// claim it makes with fewer expansions is true as well.
func TestMCTSOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	memos := map[int]map[uint64]bool{3: {}, 4: {}} // one per size: hashes are per geometry
	proved := 0
	for i := 0; i < 60; i++ {
		n := 3 + i%2
		b := brute.RandomPosition(rng, n, rng.Intn(n*n/2))
		memo := memos[n]
		if b.Winner() != hex.Empty {
			continue
		}
		me := b.ToMove()
		want := me.Opp()
		if brute.MoverWins(b, memo) {
			want = me
		}
		r := resistance(t)
		ev := orderedTracking{&trackingEval{t: t, inner: r}, r}
		for _, budget := range []int{5, 50, 100000} {
			h := b.Hash()
			p := search.MCTSParams{MaxExpansions: budget, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1}
			if i%3 == 0 { // random playouts in the scores change no proof
				p.Playouts, p.PlayoutWeight, p.Seed = 4, 0.7, uint64(i)
			}
			if i%6 == 0 { // nor do their AMAF counts in the priors
				p.AMAFPriors = 0.5
			}
			out, err := newMCTS(t, ev, nil, p).Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if b.Hash() != h || ev.board.Hash() != h {
				t.Fatalf("board or tracker not restored:\n%s", b.Diagram())
			}
			if out.Winner != hex.Empty && out.Winner != want {
				t.Fatalf("%d expansions: claims %v wins, brute force says %v:\n%s", budget, out.Winner, want, b.Diagram())
			}
			if budget == 100000 {
				if out.Winner != want {
					t.Fatalf("not proved (%v, want %v) after %d expansions:\n%s", out.Winner, want, out.Nodes, b.Diagram())
				}
				proved++
			}
			if out.Winner == me {
				keepsWin(t, b, out.Move, memo)
			}
		}
	}
	if proved < 40 {
		t.Fatalf("only %d positions tried", proved)
	}
}

// keepsWin fails the test unless the move mv of b's side to move, which a search
// claims wins, keeps the win (brute force).
func keepsWin(t *testing.T, b *hex.Board, mv hex.Cell, memo map[uint64]bool) {
	t.Helper()
	me := b.ToMove()
	b.PlayStone(me, mv)
	keeps := b.Winner() == me || !brute.MoverWins(b, memo)
	b.Undo()
	if !keeps {
		t.Fatalf("claims a win but plays %s, which loses:\n%s", b.Geometry().CellName(mv), b.Diagram())
	}
}

// TestMCTSReuse: one search object plays whole 4x4 games against itself, keeping the
// subtree of each new position: every winner it claims is the brute-force winner and
// every claimed win plays a winning move; the same position searched again, or after
// the move it chose, keeps a subtree; without Reuse none is kept.
func TestMCTSReuse(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	memo := map[uint64]bool{}
	kept := 0
	for g := 0; g < 6; g++ {
		b := brute.RandomPosition(rng, 4, rng.Intn(3))
		m := newMCTS(t, resistance(t), tactics(t), search.MCTSParams{MaxExpansions: 60, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1, VCPlies: 1, VCVisits: 8, Reuse: true})
		for b.Winner() == hex.Empty {
			me := b.ToMove()
			out, err := m.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if out.Reused > 0 {
				kept++
			}
			wins := brute.MoverWins(b, memo)
			if out.Winner == me && !wins || out.Winner == me.Opp() && wins {
				t.Fatalf("claims %v wins, brute force says the mover wins: %v\n%s", out.Winner, wins, b.Diagram())
			}
			b.PlayStone(me, out.Move)
			if out.Winner == me && b.Winner() != me && brute.MoverWins(b, memo) {
				t.Fatalf("claimed win thrown away by %s:\n%s", b.Geometry().CellName(out.Move), b.Diagram())
			}
		}
	}
	if kept == 0 {
		t.Fatal("no search kept a subtree")
	}
	b := hex.MustBoard(5, 5)
	p := search.DefaultMCTSParams()
	p.MaxExpansions, p.Reuse = 100, true
	m := newMCTS(t, resistance(t), nil, p)
	out, _ := m.Search(context.Background(), b)
	again, _ := m.Search(context.Background(), b)
	if again.Reused <= 100 {
		t.Fatalf("the same position kept %d nodes, want the whole tree", again.Reused)
	}
	b.PlayStone(hex.Black, out.Move)
	next, _ := m.Search(context.Background(), b)
	if next.Reused == 0 {
		t.Fatalf("the position after the chosen move kept no subtree")
	}
	// A kept subtree's nodes near the new root were expanded deeper down, without
	// the tactics: they are consulted as a fresh search would have.
	p.VCPlies, p.VCVisits = 2, 0
	for g := 0; g < 6; g++ {
		b := brute.RandomPosition(rng, 5, 2*rng.Intn(3))
		m := newMCTS(t, resistance(t), tactics(t), p)
		for b.Winner() == hex.Empty {
			out, err := m.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if n := search.UnconsultedNearRoot(m); n > 0 {
				t.Fatalf("%d nodes near the root (%d kept) never consulted the tactics:\n%s", n, out.Reused, b.Diagram())
			}
			if out.Reused > 0 {
				kept++
			}
			b.PlayStone(b.ToMove(), out.Move)
		}
	}
	p.Reuse = false
	m = newMCTS(t, resistance(t), nil, p)
	m.Search(context.Background(), b)
	if again, _ := m.Search(context.Background(), b); again.Reused != 0 {
		t.Fatalf("without Reuse kept %d nodes", again.Reused)
	}
}

// TestMCTSTacticsRootWin: when H-search proves the root won, the move played keeps the
// proved win even with a single expansion, as the brute-force solver confirms.
func TestMCTSTacticsRootWin(t *testing.T) {
	memo := map[uint64]bool{}
	for _, c := range []struct {
		n     int
		moves string
	}{
		{3, "b2 a1"},
		{4, "b2 a4 c3 d1"},
	} {
		b, err := hex.ParsePosition(c.n, c.n, c.moves)
		if err != nil {
			t.Fatal(err)
		}
		m := newMCTS(t, resistance(t), tactics(t), search.MCTSParams{MaxExpansions: 1, CPuct: 0.5, Scale: 0.5, RankTemp: 4, VCPlies: 1})
		out, err := m.Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		me := b.ToMove()
		if out.Winner != me || out.Score < search.WinScore/2 {
			t.Fatalf("%s: winner %v score %g, want a proved win for %v", c.moves, out.Winner, out.Score, me)
		}
		b.PlayStone(me, out.Move)
		lost := b.Winner() != me && brute.MoverWins(b, memo)
		b.Undo()
		if lost {
			t.Fatalf("%s: plays %s, which gives the win away", c.moves, b.Geometry().CellName(out.Move))
		}
		if out.Tactics < 2 {
			t.Errorf("%s: %d tactics calls, want the root and its winning child", c.moves, out.Tactics)
		}
	}
}

// TestMCTSEvaluatorRootWin: an evaluator that proves the root won (a goal-pattern
// database, here a perfect one) without a tactics evaluator still leaves a move to
// find: the search goes on and plays a winning move (brute force).
func TestMCTSEvaluatorRootWin(t *testing.T) {
	memo := map[uint64]bool{}
	rng := rand.New(rand.NewSource(8))
	tried := 0
	for i := 0; i < 40 && tried < 8; i++ {
		b := brute.RandomPosition(rng, 4, rng.Intn(5))
		if !brute.MoverWins(b, memo) {
			continue
		}
		tried++
		ev := struct {
			perfectEval
			search.Orderer
		}{perfectEval{memo}, resistance(t)}
		out, err := newMCTS(t, ev, nil, search.MCTSParams{MaxExpansions: 200, CPuct: 0.5, Scale: 0.5, RankTemp: 4}).Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		me := b.ToMove()
		b.PlayStone(me, out.Move)
		lost := b.Winner() != me && brute.MoverWins(b, memo)
		b.Undo()
		if out.Winner != me || lost {
			t.Fatalf("winner %v, move %s (loses: %v):\n%s", out.Winner, b.Geometry().CellName(out.Move), lost, b.Diagram())
		}
	}
	if tried < 8 {
		t.Fatalf("only %d won positions", tried)
	}
}

// TestMCTSMustplay: a mustplay from the evaluator limits the root's moves; an empty one
// means the side to move has lost.
func TestMCTSMustplay(t *testing.T) {
	b := hex.MustBoard(5, 5)
	g := b.Geometry()
	a1, _ := g.ParseCell("a1")
	e5, _ := g.ParseCell("e5")
	var set hex.Bitset
	set.Set(a1)
	set.Set(e5)
	r := resistance(t)
	ev := &mustplayEval{inner: r, root: b.Hash(), set: set}
	ordered := struct {
		*mustplayEval
		search.Orderer
	}{ev, r}
	out, err := newMCTS(t, ordered, nil, search.MCTSParams{MaxExpansions: 200, CPuct: 0.5, Scale: 0.5, RankTemp: 4}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Move != a1 && out.Move != e5 {
		t.Fatalf("move %s outside the mustplay", g.CellName(out.Move))
	}
	ev.set = hex.Bitset{}
	out, err = newMCTS(t, ordered, nil, search.MCTSParams{MaxExpansions: 200, CPuct: 0.5, Scale: 0.5, RankTemp: 4}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Winner != hex.White {
		t.Fatalf("empty mustplay: winner %v", out.Winner)
	}
}

// TestMCTSDeterministic: with an expansion limit and no clock the same search gives
// the same move, score and counts, and a reused searcher allocates nothing.
func TestMCTSDeterministic(t *testing.T) {
	b := hex.MustBoard(6, 6)
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 300
	m := newMCTS(t, resistance(t), tactics(t), p)
	ctx := context.Background()
	a, err := m.Search(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	c, err := newMCTS(t, resistance(t), tactics(t), p).Search(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if a.Move != c.Move || a.Score != c.Score || a.Nodes != c.Nodes || a.Evals != c.Evals || a.Tactics != c.Tactics || a.Depth != c.Depth {
		t.Fatalf("two searches differ: %+v and %+v", a, c)
	}
	if a.Nodes != 300 || a.Depth < 3 {
		t.Errorf("%d expansions to depth %d", a.Nodes, a.Depth)
	}
	m2 := newMCTS(t, resistance(t), nil, p)
	m2.Search(ctx, b)
	if n := testing.AllocsPerRun(3, func() { m2.Search(ctx, b) }); n > 0 {
		t.Errorf("%v allocations per search", n)
	}
	// With playouts: the same seed gives the same search, another seed another one,
	// and a search allocates nothing once the workspace exists.
	p.Playouts, p.PlayoutWeight, p.Seed = 16, 0.5, 5
	run := func(p search.MCTSParams) search.Outcome {
		out, err := newMCTS(t, resistance(t), nil, p).Search(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	x, y := run(p), run(p)
	if x.Move != y.Move || x.Score != y.Score || x.Playouts != y.Playouts {
		t.Fatalf("same seed, two searches differ: %+v and %+v", x, y)
	}
	if x.Playouts != 16*x.Evals || x.Playouts == 0 {
		t.Errorf("%d playouts for %d evaluations of 16 each", x.Playouts, x.Evals)
	}
	p.Seed = 6
	if z := run(p); z.Score == x.Score {
		t.Errorf("seeds 5 and 6 give the same score %g", z.Score)
	}
	m3 := newMCTS(t, resistance(t), nil, p)
	m3.Search(ctx, b)
	if n := testing.AllocsPerRun(3, func() { m3.Search(ctx, b) }); n > 0 {
		t.Errorf("%v allocations per search with playouts", n)
	}
	// The AMAF priors: deterministic, a different search, no allocation.
	p.Seed = 5
	p.AMAFPriors = 0.5
	u, v := run(p), run(p)
	if u.Move != v.Move || u.Score != v.Score {
		t.Fatalf("AMAF priors, same seed, two searches differ: %+v and %+v", u, v)
	}
	if u.Score == x.Score {
		t.Errorf("the AMAF priors changed nothing: score %g", u.Score)
	}
	m4 := newMCTS(t, resistance(t), nil, p)
	m4.Search(ctx, b)
	if n := testing.AllocsPerRun(3, func() { m4.Search(ctx, b) }); n > 0 {
		t.Errorf("%v allocations per search with AMAF priors", n)
	}
}

// TestMCTSTime: a time limit stops the search about when it says; a cancelled context
// stops it too.
func TestMCTSTime(t *testing.T) {
	b := hex.MustBoard(7, 7)
	p := search.DefaultMCTSParams()
	p.Time = 50 * time.Millisecond
	start := time.Now()
	out, err := newMCTS(t, resistance(t), nil, p).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > 2*time.Second || !out.TimedOut || b.Legal(hex.Move{Color: hex.Black, Cell: out.Move}) != nil {
		t.Fatalf("%v elapsed, timed out %v, move %d", el, out.TimedOut, out.Move)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p.Time = time.Hour
	if _, err := newMCTS(t, resistance(t), nil, p).Search(ctx, b); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}

func TestDefaultMCTSParamsFor(t *testing.T) {
	for cells, want := range map[int]int{9: 4, 36: 4, 49: 5, 64: 8, 81: 13, 100: 20, 121: 29} {
		p := search.DefaultMCTSParamsFor(cells)
		if p.VCVisits != want || p.Validate() != nil {
			t.Errorf("%d cells: VCVisits %d, want %d (%v)", cells, p.VCVisits, want, p.Validate())
		}
		wantPriors := 0.0
		if cells > 64 {
			wantPriors = search.LargeBoardTacticsPriors
		}
		if p.TacticsPriors != wantPriors {
			t.Errorf("%d cells: TacticsPriors %g, want %g", cells, p.TacticsPriors, wantPriors)
		}
		wantPlayouts, wantWeight := 0, 0.0
		if cells > 64 {
			wantPlayouts, wantWeight = search.LargeBoardPlayouts, search.LargeBoardPlayoutWeight
		}
		if p.Playouts != wantPlayouts || p.PlayoutWeight != wantWeight {
			t.Errorf("%d cells: %d playouts of weight %g, want %d of %g", cells, p.Playouts, p.PlayoutWeight, wantPlayouts, wantWeight)
		}
		p.VCVisits, p.TacticsPriors, p.Playouts, p.PlayoutWeight = search.DefaultMCTSParams().VCVisits, 0, 0, 0
		if p != search.DefaultMCTSParams() {
			t.Errorf("%d cells: %+v differs from the defaults beyond VCVisits, TacticsPriors and the playouts", cells, p)
		}
	}
}

func TestMCTSErrors(t *testing.T) {
	good := search.DefaultMCTSParams()
	for _, c := range []struct {
		name string
		ev   search.Evaluator
		p    search.MCTSParams
	}{
		{"nil evaluator", nil, good},
		{"no ordering", blindEval{}, good},
		{"zero params", resistance(t), search.MCTSParams{}},
		{"negative time", resistance(t), func() search.MCTSParams { p := good; p.Time = -1; return p }()},
		{"negative expansions", resistance(t), func() search.MCTSParams { p := good; p.MaxExpansions = -1; return p }()},
		{"negative fpu", resistance(t), func() search.MCTSParams { p := good; p.FPU = -0.1; return p }()},
		{"negative vc plies", resistance(t), func() search.MCTSParams { p := good; p.VCPlies = -1; return p }()},
		{"tactics priors above 1", resistance(t), func() search.MCTSParams { p := good; p.TacticsPriors = 1.5; return p }()},
		{"negative tactics priors", resistance(t), func() search.MCTSParams { p := good; p.TacticsPriors = -0.5; return p }()},
		{"NaN tactics priors", resistance(t), func() search.MCTSParams { p := good; p.TacticsPriors = math.NaN(); return p }()},
		{"negative playouts", resistance(t), func() search.MCTSParams { p := good; p.Playouts = -1; return p }()},
		{"playout weight above 1", resistance(t), func() search.MCTSParams { p := good; p.PlayoutWeight = 1.5; return p }()},
		{"NaN playout weight", resistance(t), func() search.MCTSParams { p := good; p.PlayoutWeight = math.NaN(); return p }()},
		{"AMAF priors without playouts", resistance(t), func() search.MCTSParams { p := good; p.AMAFPriors = 0.5; return p }()},
		{"AMAF priors above 1", resistance(t), func() search.MCTSParams { p := good; p.Playouts, p.AMAFPriors = 8, 1.5; return p }()},
	} {
		if _, err := search.NewMCTS(c.ev, nil, c.p); !errors.Is(err, search.ErrParams) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	m := newMCTS(t, resistance(t), nil, good)
	if err := m.SetParams(search.MCTSParams{}); !errors.Is(err, search.ErrParams) {
		t.Errorf("SetParams: %v", err)
	}
	b, _ := hex.ParsePosition(1, 1, "a1")
	if _, err := m.Search(context.Background(), b); !errors.Is(err, search.ErrNoMove) {
		t.Errorf("finished game: %v", err)
	}
}

// TestMCTSReuseProvedRoot: a kept subtree whose root was proved won for its side to
// move without a proving child (by the evaluator or the tactics, as a node below the
// old root) still plays a move that keeps the win.
func TestMCTSReuseProvedRoot(t *testing.T) {
	memo := map[uint64]bool{}
	rng := rand.New(rand.NewSource(11))
	tried := 0
	for i := 0; i < 30; i++ {
		b := brute.RandomPosition(rng, 4, rng.Intn(5))
		if b.Winner() != hex.Empty {
			continue
		}
		for _, c := range b.EmptyCells().AppendCells(nil) {
			ev := struct {
				perfectEval
				search.Orderer
			}{perfectEval{memo}, resistance(t)}
			for _, tac := range []search.Evaluator{nil, tactics(t)} {
				m := newMCTS(t, ev, tac, search.MCTSParams{MaxExpansions: 40, CPuct: 0.5, Scale: 0.5, RankTemp: 4, VCPlies: 2, Reuse: true})
				if _, err := m.Search(context.Background(), b); err != nil {
					t.Fatal(err)
				}
				b.PlayStone(b.ToMove(), c)
				if b.Winner() == hex.Empty {
					me := b.ToMove()
					out, err := m.Search(context.Background(), b)
					if err != nil {
						t.Fatal(err)
					}
					if out.Winner == me {
						tried++
						b.PlayStone(me, out.Move)
						lost := b.Winner() != me && brute.MoverWins(b, memo)
						b.Undo()
						if lost {
							t.Fatalf("claims a win but plays %s (reused %d):\n%s", b.Geometry().CellName(out.Move), out.Reused, b.Diagram())
						}
					}
				}
				b.Undo()
			}
		}
	}
	if tried < 20 {
		t.Fatalf("only %d claimed wins", tried)
	}
}

// reversedOrder is an evaluator whose move ordering is its inner Orderer's backwards:
// the moves it ranks first are the inner one's last.
type reversedOrder struct {
	search.Evaluator
	o search.Orderer
}

func (r reversedOrder) MoveScores(b *hex.Board, scores []float64) {
	r.o.MoveScores(b, scores)
	for i := range scores {
		scores[i] = -scores[i]
	}
}

// openTactics is a tactics evaluator that proves nothing and ranks the moves by the
// resistance circuit's energies (as the exact evaluator does).
type openTactics struct{ r *circuit.Resistance }

func (o openTactics) Evaluate(b *hex.Board) search.Result {
	return search.Result{Value: o.r.Evaluate(b).Value}
}

func (o openTactics) MoveScores(b *hex.Board, scores []float64) { o.r.MoveScores(b, scores) }

// TestMCTSTacticsPriors: with an evaluator that ranks the moves backwards, a short
// search plays one of the circuit's worst-ranked moves; with TacticsPriors 1 the
// tactics evaluator's ranking (the circuit's) gives the priors where it is asked (the
// root), and the same search plays one of the circuit's five best moves. Without an
// ordering the tactics change nothing.
func TestMCTSTacticsPriors(t *testing.T) {
	b, err := hex.ParsePosition(7, 7, "d4 c5")
	if err != nil {
		t.Fatal(err)
	}
	r := resistance(t)
	r.Evaluate(b)
	var sc [hex.NumPoints]float64
	r.MoveScores(b, sc[:])
	cells := b.EmptyCells().AppendCells(nil)
	sort.SliceStable(cells, func(i, j int) bool { return sc[cells[i]] > sc[cells[j]] })
	best := map[hex.Cell]bool{}
	var names []string
	for _, c := range cells[:5] {
		best[c] = true
		names = append(names, b.Geometry().CellName(c))
	}
	ev := reversedOrder{resistance(t), r}
	search40 := func(tac search.Evaluator, w float64) hex.Cell {
		t.Helper()
		p := search.MCTSParams{MaxExpansions: 40, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1, VCPlies: 1, TacticsPriors: w}
		out, err := newMCTS(t, ev, tac, p).Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		return out.Move
	}
	g := b.Geometry()
	if mv := search40(openTactics{resistance(t)}, 0); best[mv] {
		t.Fatalf("without the tactics' priors the search plays %s, one of the circuit's best", g.CellName(mv))
	}
	if mv := search40(openTactics{resistance(t)}, 1); !best[mv] {
		t.Fatalf("with the tactics' priors the search plays %s, not one of the circuit's best %v", g.CellName(mv), names)
	}
	blind := struct{ search.Evaluator }{openTactics{resistance(t)}} // no Orderer
	if mv := search40(blind, 1); best[mv] {
		t.Fatalf("tactics without an ordering: the search plays %s, one of the circuit's best", g.CellName(mv))
	}
}

// TestMCTSLimitRoot: LimitRoot restricts the next search's root to its moves, only
// that search; a set without a legal move is ignored.
func TestMCTSLimitRoot(t *testing.T) {
	b, err := hex.ParsePosition(5, 5, "c3 b4")
	if err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	var set hex.Bitset
	for _, n := range []string{"a1", "e5", "c3"} { // c3 is taken
		c, _ := g.ParseCell(n)
		set.Set(c)
	}
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 300
	m := newMCTS(t, resistance(t), tactics(t), p)
	ctx := context.Background()
	m.LimitRoot(set)
	out, err := m.Search(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if name := g.CellName(out.Move); name != "a1" && name != "e5" {
		t.Fatalf("limited to a1 and e5, plays %s", name)
	}
	free, err := m.Search(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if name := g.CellName(free.Move); name == "a1" || name == "e5" {
		t.Fatalf("the next search is still limited: plays %s", name)
	}
	var taken hex.Bitset
	taken.Set(b.Moves()[0].Cell)
	m.LimitRoot(taken)
	if again, err := m.Search(ctx, b); err != nil || again.Move != free.Move {
		t.Fatalf("a limit without a legal move: plays %s (%v), want %s as unlimited", g.CellName(again.Move), err, g.CellName(free.Move))
	}
}

// TestMCTSBestAmong: the best root move of the last search among a set is the search's
// own move when the set holds it, another move of the set when it does not, and
// nothing for a set without a root move or before any search.
func TestMCTSBestAmong(t *testing.T) {
	b, err := hex.ParsePosition(5, 5, "c3 b4")
	if err != nil {
		t.Fatal(err)
	}
	g := b.Geometry()
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 300
	m := newMCTS(t, resistance(t), tactics(t), p)
	if c, ok := m.BestAmong(b.EmptyCells()); ok {
		t.Fatalf("before any search: %s", g.CellName(c))
	}
	out, err := m.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := m.BestAmong(b.EmptyCells()); !ok || c != out.Move {
		t.Fatalf("among every move: %s (%v), want the search's %s", g.CellName(c), ok, g.CellName(out.Move))
	}
	rest := b.EmptyCells()
	rest.Clear(out.Move)
	other, ok := m.BestAmong(rest)
	if !ok || other == out.Move || !rest.Has(other) {
		t.Fatalf("without the search's move: %s (%v)", g.CellName(other), ok)
	}
	var pair hex.Bitset
	pair.Set(out.Move)
	pair.Set(other)
	if c, _ := m.BestAmong(pair); c != out.Move {
		t.Fatalf("between %s and %s: %s, want the search's move", g.CellName(out.Move), g.CellName(other), g.CellName(c))
	}
	var only hex.Bitset
	only.Set(other)
	if c, _ := m.BestAmong(only); c != other {
		t.Fatalf("among {%s}: %s", g.CellName(other), g.CellName(c))
	}
	var taken hex.Bitset
	taken.Set(b.Moves()[0].Cell)
	if c, ok := m.BestAmong(taken); ok {
		t.Fatalf("among an occupied cell: %s", g.CellName(c))
	}
}

// TestMCTSRootVisits: the root statistics after a search: a visit count per root
// move summing to the root's, none on the stones, the most visited move the one
// played (an open position), the value in [-1, 1] agreeing with the outcome's sign;
// a root the tactics prove won gives value 1 and its winning move.
func TestMCTSRootVisits(t *testing.T) {
	b, err := hex.ParsePosition(7, 7, "a1 g7")
	if err != nil {
		t.Fatal(err)
	}
	visits := make([]float64, b.Geometry().N)
	p := search.DefaultMCTSParams()
	p.MaxExpansions = 300
	m := newMCTS(t, resistance(t), tactics(t), p)
	if _, _, ok := m.RootVisits(visits); ok {
		t.Fatal("root statistics before any search")
	}
	out, err := m.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	v, total, ok := m.RootVisits(visits)
	if !ok || total < 100 || !(v >= -1 && v <= 1) {
		t.Fatalf("value %g, %d visits (%v)", v, total, ok)
	}
	sum, best := 0.0, hex.NoCell
	for c, n := range visits {
		if n > 0 && b.At(hex.Cell(c)) != hex.Empty {
			t.Fatalf("visits on the stone %d", c)
		}
		if best == hex.NoCell || n > visits[best] {
			best = hex.Cell(c)
		}
		sum += n
	}
	if int(sum) != total || out.Winner == hex.Empty && best != out.Move {
		t.Fatalf("visits sum %g of %d; most visited %d, played %d", sum, total, best, out.Move)
	}
	black := v // the root's value for Black
	if b.ToMove() == hex.White {
		black = -v
	}
	if out.Winner == hex.Empty && (black > 0) != (out.Value > 0) {
		t.Errorf("root value %g (Black %g), outcome value %g", v, black, out.Value)
	}
	won, _ := hex.ParsePosition(3, 3, "b2 a1")
	m = newMCTS(t, resistance(t), tactics(t), search.MCTSParams{MaxExpansions: 1, CPuct: 0.5, Scale: 0.5, RankTemp: 4, VCPlies: 1})
	out, err = m.Search(context.Background(), won)
	if err != nil {
		t.Fatal(err)
	}
	visits = make([]float64, won.Geometry().N)
	if v, _, _ := m.RootVisits(visits); v != 1 || out.Winner != won.ToMove() {
		t.Errorf("a proved root: value %g, winner %v", v, out.Winner)
	}
}

// probEval values every position 1 for Black, as log-odds when logOdds is set.
type probEval struct{ logOdds bool }

func (probEval) Evaluate(*hex.Board) search.Result         { return search.Result{Value: 1} }
func (probEval) MoveScores(_ *hex.Board, scores []float64) {}
func (e probEval) LogOdds() bool                           { return e.logOdds }
func (probEval) PlayoutEstimate() bool                     { return false }

// TestMCTSLogOdds: an evaluator whose values are log-odds (search.WinProbability) is
// scored tanh(v/2), the expected result 2p − 1, whatever Scale is; others tanh(v/Scale).
func TestMCTSLogOdds(t *testing.T) {
	for _, logOdds := range []bool{false, true} {
		p := search.MCTSParams{MaxExpansions: 2, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1}
		m := newMCTS(t, probEval{logOdds}, nil, p)
		out, err := m.Search(context.Background(), hex.MustBoard(3, 3))
		if err != nil {
			t.Fatal(err)
		}
		want := math.Tanh(1 / 0.5)
		if logOdds {
			want = 2/(1+math.Exp(-1)) - 1
		}
		if math.Abs(out.Score-want) > 1e-9 {
			t.Errorf("log-odds %v: the searched child scores %.6f, want %.6f", logOdds, out.Score, want)
		}
	}
}

// TestMCTSTacticsTable: remembering the tactics' answers changes nothing but the
// number of calls. Along whole games on 6x6 and 7x7, a search with the table (of 1,024
// positions, and of a single slot, which every position shares, so that each hit is
// checked against the stones and side to move) plays the same move with the same
// score, expansions and depth as one without, and the calls it saves are its hits.
func TestMCTSTacticsTable(t *testing.T) {
	exact := func() search.Evaluator {
		x, err := circuit.NewExact(circuit.SearchExactConfig())
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	rng := rand.New(rand.NewSource(3))
	base := search.MCTSParams{MaxExpansions: 150, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1,
		VCPlies: 2, VCVisits: 4, TacticsPriors: 1}
	cached := map[int]int64{}
	for _, size := range []int{1024, 1} {
		for g := 0; g < 4; g++ {
			n := 6 + g%2
			b := brute.RandomPosition(rng, n, 2*rng.Intn(2))
			with := base
			with.TacticsTable = size
			plain := newMCTS(t, resistance(t), exact(), base)
			table := newMCTS(t, resistance(t), exact(), with)
			for b.Winner() == hex.Empty {
				want, err := plain.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				got, err := table.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				if got.Move != want.Move || got.Score != want.Score || got.Nodes != want.Nodes || got.Depth != want.Depth {
					t.Fatalf("table of %d: move %v score %v (%d expansions, depth %d), without: %v %v (%d, %d)\n%s",
						size, got.Move, got.Score, got.Nodes, got.Depth, want.Move, want.Score, want.Nodes, want.Depth, b.Diagram())
				}
				if got.Tactics+got.TacticsCached != want.Tactics || want.TacticsCached != 0 {
					t.Fatalf("table of %d: %d calls + %d remembered, without: %d calls + %d", size, got.Tactics, got.TacticsCached, want.Tactics, want.TacticsCached)
				}
				cached[size] += got.TacticsCached
				b.PlayStone(b.ToMove(), got.Move)
			}
		}
	}
	if cached[1024] == 0 {
		t.Fatal("the table of 1,024 positions answered nothing")
	}
	p := search.DefaultMCTSParams()
	p.TacticsTable = -1
	if _, err := search.NewMCTS(resistance(t), nil, p); !errors.Is(err, search.ErrParams) {
		t.Fatalf("a negative table size: %v, want ErrParams", err)
	}
}

// TestMCTSAnchorTactics: with the positions up to three plies below the root
// evaluated from the root's connections (AnchorPlies over the exact evaluator with
// fill-in, a ChildEvaluator) every winner the search claims on random 4x4 and 5x5
// positions is the brute-force winner, and a claimed win plays a winning move; some
// positions are evaluated from the root.
func TestMCTSAnchorTactics(t *testing.T) {
	cfg := circuit.SearchExactConfig()
	cfg.FillIn = true
	x, err := circuit.NewExact(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(8))
	memos := map[int]map[uint64]bool{4: {}, 5: {}}
	var children, claims int64
	for i := 0; i < 40; i++ {
		n, k := 4, 1+rng.Intn(6)
		if i%2 == 1 {
			n, k = 5, 9+rng.Intn(4)
		}
		b := brute.RandomPosition(rng, n, k)
		if b.Winner() != hex.Empty {
			continue
		}
		memo := memos[n]
		me := b.ToMove()
		want := me.Opp()
		if brute.MoverWins(b, memo) {
			want = me
		}
		p := search.MCTSParams{MaxExpansions: 60, CPuct: 0.5, Scale: 0.5, RankTemp: 4, FPU: 0.1,
			VCPlies: 2, VCVisits: 3, TacticsPriors: 1, TacticsTable: 64, AnchorPlies: 3}
		out, err := newMCTS(t, resistance(t), x, p).Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		children += out.TacticsAnchored
		if out.Winner == hex.Empty {
			continue
		}
		claims++
		if out.Winner != want {
			t.Fatalf("claims %v wins, brute force says %v:\n%s", out.Winner, want, b.Diagram())
		}
		if out.Winner == me {
			keepsWin(t, b, out.Move, memo)
		}
	}
	if children == 0 || claims < 10 {
		t.Fatalf("%d children evaluated from the root, %d claims: the test checks too little", children, claims)
	}
}

// policyEval is a PolicyOrderer: a constant value and logits that make one cell far
// more likely than the rest.
type policyEval struct{ best hex.Cell }

func (policyEval) Evaluate(*hex.Board) search.Result { return search.Result{} }
func (e policyEval) MoveScores(_ *hex.Board, scores []float64) {
	for i := range scores {
		scores[i] = 0
	}
	scores[e.best] = 5
}
func (policyEval) PolicyLogits() bool { return true }

// rankedEval is policyEval without the PolicyOrderer mark: its scores give rank priors.
type rankedEval struct{ policyEval }

func (rankedEval) PolicyLogits() bool { return false }

// TestMCTSPolicyPriors: a policy's logits become softmax priors (the favoured move
// gets e^5 times the weight of each other move, so the search spends most of its
// visits there), while the same scores as a plain ordering give rank priors, which
// spread the visits.
func TestMCTSPolicyPriors(t *testing.T) {
	b := hex.MustBoard(5, 5)
	best, _ := b.Geometry().ParseCell("a1")
	share := func(ev search.Evaluator) float64 {
		p := search.DefaultMCTSParams()
		p.MaxExpansions, p.VCPlies, p.VCVisits = 200, 0, 0
		m := newMCTS(t, ev, nil, p)
		if _, err := m.Search(context.Background(), b); err != nil {
			t.Fatal(err)
		}
		visits := make([]float64, 25)
		_, total, _ := m.RootVisits(visits)
		return visits[best] / float64(total)
	}
	pol, rank := share(policyEval{best}), share(rankedEval{policyEval{best}})
	if !(pol > 0.5 && pol > rank+0.1) {
		t.Errorf("the favoured move got %.2f of the visits with policy priors, %.2f with rank priors", pol, rank)
	}
}
