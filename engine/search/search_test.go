package search_test

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

func resistance(t testing.TB) *circuit.Resistance {
	t.Helper()
	r, err := circuit.NewResistance(circuit.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func newSearcher(t testing.TB, ev search.Evaluator, p search.Params) *search.Searcher {
	t.Helper()
	s, err := search.New(ev, p)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestBeatsRandom: the engine playing Black on 6x6 beats a random player in every game.
func TestBeatsRandom(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 3
	}
	s := newSearcher(t, resistance(t), search.Params{Depth: 2, K: 6})
	for seed := 0; seed < games; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 99))
		b := hex.MustBoard(6, 6)
		for b.Winner() == hex.Empty {
			var p hex.Cell
			if b.ToMove() == hex.Black {
				out, err := s.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				p = out.Move
			} else {
				em := b.EmptyCells()
				cells := em.AppendCells(nil)
				p = cells[rng.IntN(len(cells))]
			}
			if err := b.Play(hex.Move{Color: b.ToMove(), Cell: p}); err != nil {
				t.Fatal(err)
			}
		}
		if b.Winner() != hex.Black {
			t.Fatalf("seed %d: the engine lost:\n%s", seed, b.Diagram())
		}
	}
}

// minimax is the brute-force oracle: full-width negamax without pruning or table.
func minimax(b *hex.Board, ev search.Evaluator, depth, ply int) float64 {
	me := b.ToMove()
	sign := 1.0
	if me == hex.White {
		sign = -1
	}
	if w := b.Winner(); w != hex.Empty {
		if w == me {
			return search.WinScore - float64(ply)
		}
		return -(search.WinScore - float64(ply))
	}
	r := ev.Evaluate(b)
	if r.Winner != hex.Empty && ply > 0 { // a proof, the game not finished
		if r.Winner == me {
			return search.WinScore - float64(ply) - search.ProvedMargin
		}
		return -(search.WinScore - float64(ply) - search.ProvedMargin)
	}
	if depth == 0 {
		return sign * r.Value
	}
	best := math.Inf(-1)
	em := b.EmptyCells()
	for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
		b.PlayStone(me, p)
		v := -minimax(b, ev, depth-1, ply+1)
		b.Undo()
		best = math.Max(best, v)
	}
	return best
}

func TestAgainstMinimax(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ev := resistance(t)
	for i := 0; i < 12; i++ {
		b := hex.MustBoard(4, 4)
		for j := 0; j < rng.IntN(6); j++ {
			em := b.EmptyCells()
			cells := em.AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
		}
		if b.Winner() != hex.Empty {
			continue
		}
		for depth := 1; depth <= 3; depth++ {
			s := newSearcher(t, ev, search.Params{Depth: depth})
			h := b.Hash()
			out, err := s.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if b.Hash() != h {
				t.Fatal("board not restored")
			}
			want := minimax(b, ev, depth, 0)
			if math.Abs(out.Score-want) > 1e-9 {
				t.Fatalf("depth %d: score %v, minimax %v on\n%s", depth, out.Score, want, b.Diagram())
			}
			// The move achieves the score.
			b.PlayStone(b.ToMove(), out.Move)
			got := -minimax(b, ev, depth-1, 1)
			b.Undo()
			if math.Abs(got-want) > 1e-9 {
				t.Fatalf("depth %d: move %s scores %v, best %v", depth, b.Geometry().CellName(out.Move), got, want)
			}
		}
	}
}

func TestWinInOne(t *testing.T) {
	b, err := hex.ParseDiagram(`
 . B . .
  . B . .
   W B W W
    . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	b.SetToMove(hex.Black)
	s := newSearcher(t, resistance(t), search.Params{Depth: 3, K: 4})
	out, err := s.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Winner != hex.Black || out.Value < search.WinScore/2 {
		t.Fatalf("winner %v value %v move %s", out.Winner, out.Value, b.Geometry().CellName(out.Move))
	}
	name := b.Geometry().CellName(out.Move)
	if name != "a4" && name != "b4" {
		t.Fatalf("move %s does not win at once", name)
	}
	if out.Depth != 1 {
		t.Errorf("search went on to depth %d after a proved win", out.Depth)
	}
}

// trackingEval checks that the Tracker hooks mirror the search's board exactly.
type trackingEval struct {
	t     *testing.T
	inner search.Evaluator
	board *hex.Board
	calls int
}

func (e *trackingEval) Reset(b *hex.Board) { e.board = b.Clone() }
func (e *trackingEval) Play(c hex.Color, p hex.Cell) {
	e.board.PlayStone(c, p)
	e.calls++
}
func (e *trackingEval) Undo(c hex.Color, p hex.Cell) {
	if last := e.board.LastMove(); last.Color != c || last.Cell != p {
		e.t.Fatalf("undo %v %d out of order (last %v)", c, p, last)
	}
	e.board.Undo()
}
func (e *trackingEval) Evaluate(b *hex.Board) search.Result {
	if b.Hash() != e.board.Hash() {
		e.t.Fatalf("tracker out of sync:\n%s\nvs\n%s", b.Diagram(), e.board.Diagram())
	}
	return e.inner.Evaluate(b)
}

func TestTrackerAndOneplyOrdering(t *testing.T) {
	// trackingEval does not implement Orderer: this also exercises the 1-ply ordering.
	ev := &trackingEval{t: t, inner: resistance(t)}
	b := hex.MustBoard(5, 5)
	s := newSearcher(t, ev, search.Params{Depth: 3, K: 5})
	out, err := s.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if ev.calls == 0 || ev.board.NumStones() != 0 {
		t.Fatalf("calls %d, tracker board\n%s", ev.calls, ev.board.Diagram())
	}
	if out.Evals <= out.Nodes {
		t.Errorf("1-ply ordering should evaluate more than once per node: %d evals, %d nodes", out.Evals, out.Nodes)
	}
}

func TestKBestLimitsNodes(t *testing.T) {
	b := hex.MustBoard(5, 5)
	ev := resistance(t)
	small, err := newSearcher(t, ev, search.Params{Depth: 2, K: 3}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	// depth 1 then depth 2 with k=3: (1+3) + (1+3+9) nodes at most.
	if small.Nodes > 17 {
		t.Errorf("k=3 depth 2 visited %d nodes", small.Nodes)
	}
	full, err := newSearcher(t, ev, search.Params{Depth: 2}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if full.Nodes <= small.Nodes {
		t.Errorf("full width %d nodes <= k-best %d", full.Nodes, small.Nodes)
	}
}

func TestTimeLimit(t *testing.T) {
	b := hex.MustBoard(9, 9)
	s := newSearcher(t, resistance(t), search.Params{Depth: 8, Time: 50 * time.Millisecond})
	start := time.Now()
	out, err := s.Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("search took %v with a 50ms limit", el)
	}
	if !out.TimedOut || out.Move == hex.NoCell || b.NumStones() != 0 {
		t.Errorf("timed out %v move %d stones %d", out.TimedOut, out.Move, b.NumStones())
	}
}

// mustplayEval reports a fixed mustplay region at the root.
type mustplayEval struct {
	inner search.Evaluator
	root  uint64
	set   hex.Bitset
}

func (e *mustplayEval) Evaluate(b *hex.Board) search.Result {
	r := e.inner.Evaluate(b)
	if b.Hash() == e.root {
		r.HasMustplay, r.Mustplay = true, e.set
	}
	return r
}

func TestMustplay(t *testing.T) {
	b := hex.MustBoard(5, 5)
	var set hex.Bitset
	a1, _ := b.Geometry().ParseCell("a1")
	e5, _ := b.Geometry().ParseCell("e5")
	set.Set(a1)
	set.Set(e5)
	ev := &mustplayEval{inner: resistance(t), root: b.Hash(), set: set}
	out, err := newSearcher(t, ev, search.Params{Depth: 2, K: 10}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Move != a1 && out.Move != e5 {
		t.Fatalf("move %s outside the mustplay", b.Geometry().CellName(out.Move))
	}
	// An empty mustplay means the side to move has lost.
	ev.set = hex.Bitset{}
	out, err = newSearcher(t, ev, search.Params{Depth: 2}).Search(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if out.Winner != hex.White {
		t.Fatalf("empty mustplay: winner %v", out.Winner)
	}
}

func TestErrors(t *testing.T) {
	for _, p := range []search.Params{{Depth: 0}, {Depth: 99}, {Depth: 2, K: -1}, {Depth: 2, Time: -1}, {Depth: 2, TTBits: 40}} {
		if _, err := search.New(resistance(t), p); !errors.Is(err, search.ErrParams) {
			t.Errorf("%+v: %v", p, err)
		}
	}
	if _, err := search.New(nil, search.DefaultParams()); !errors.Is(err, search.ErrParams) {
		t.Errorf("nil evaluator: %v", err)
	}
	b, _ := hex.ParsePosition(1, 1, "a1")
	s := newSearcher(t, resistance(t), search.DefaultParams())
	if _, err := s.Search(context.Background(), b); !errors.Is(err, search.ErrNoMove) {
		t.Errorf("finished game: %v", err)
	}
}

func TestNoAllocs(t *testing.T) {
	b := hex.MustBoard(6, 6)
	s := newSearcher(t, resistance(t), search.Params{Depth: 2, K: 5})
	ctx := context.Background()
	s.Search(ctx, b)
	if a := testing.AllocsPerRun(5, func() { s.ClearTT(); s.Search(ctx, b) }); a > 0 {
		t.Errorf("%v allocations per search", a)
	}
}

// TestBeatsRandomExact: the same with the exact evaluator (H-search + circuit), whose
// winning VCs end the lines.
func TestBeatsRandomExact(t *testing.T) {
	if testing.Short() {
		t.Skip("exact evaluator games take a few seconds")
	}
	x, err := circuit.NewExact(circuit.SearchExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	s := newSearcher(t, x, search.Params{Depth: 1, K: 4})
	for seed := 0; seed < 3; seed++ {
		rng := rand.New(rand.NewPCG(uint64(seed), 7))
		b := hex.MustBoard(6, 6)
		for b.Winner() == hex.Empty {
			var p hex.Cell
			if b.ToMove() == hex.Black {
				out, err := s.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				p = out.Move
			} else {
				em := b.EmptyCells()
				cells := em.AppendCells(nil)
				p = cells[rng.IntN(len(cells))]
			}
			if err := b.Play(hex.Move{Color: b.ToMove(), Cell: p}); err != nil {
				t.Fatal(err)
			}
		}
		if b.Winner() != hex.Black {
			t.Fatalf("seed %d: the engine lost:\n%s", seed, b.Diagram())
		}
	}
}

// TestProvesEmpty6x6AtDepth3 is Kahl et al.'s result (section 6): a depth-3 search
// from the empty 6x6 board, every move searched, classifies it as a first-player win
// (Black d3; for every White reply Black has a third stone after which H-search finds
// a winning VC). With ProofExactConfig (MaxSemi 30: the VC after d3 d4 needs an OR over
// SCs that a 20-SC list drops) it takes about 500 nodes. Depth 2 must not prove it: no
// two-stone position gives Black a winning connection, so the depth-3 result is the
// search's doing, not a leaf evaluation that calls everything won.
func TestProvesEmpty6x6AtDepth3(t *testing.T) {
	if testing.Short() {
		t.Skip("a few hundred H-searches")
	}
	x, err := circuit.NewExact(circuit.ProofExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, depth := range []int{2, 3} {
		b := hex.MustBoard(6, 6)
		out, err := newSearcher(t, x, search.Params{Depth: depth}).Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("depth %d: move %s winner %v nodes %d evals %d time %v", depth, b.Geometry().CellName(out.Move), out.Winner, out.Nodes, out.Evals, out.Time)
		if want := map[int]hex.Color{2: hex.Empty, 3: hex.Black}[depth]; out.Winner != want {
			t.Fatalf("depth %d: winner %v, want %v (%+v)", depth, out.Winner, want, out)
		}
	}
}

// plainEval hides the Orderer of an evaluator, so the search orders by 1-ply lookahead.
type plainEval struct{ inner search.Evaluator }

func (p plainEval) Evaluate(b *hex.Board) search.Result { return p.inner.Evaluate(b) }

// kbest is the oracle for the k-best search: plain negamax over the k best moves by the
// same ordering (Orderer scores, else the 1-ply values; ties to the lower cell), without
// pruning, table or iterative deepening.
func kbest(b *hex.Board, ev search.Evaluator, depth, ply, k int) float64 {
	return kbestLook(b, ev, depth, ply, k, 0)
}

// kbestLook is kbest with Params.LookaheadDepth look: the nodes with at least look
// plies left order by the 1-ply values even when ev is an Orderer.
func kbestLook(b *hex.Board, ev search.Evaluator, depth, ply, k, look int) float64 {
	me := b.ToMove()
	win := func(w hex.Color, ply int) float64 {
		if w == me {
			return search.WinScore - float64(ply)
		}
		return -(search.WinScore - float64(ply))
	}
	if w := b.Winner(); w != hex.Empty {
		return win(w, ply)
	}
	proved := func(w hex.Color, ply int) float64 { // a proof, the game not finished
		if w == me {
			return search.WinScore - float64(ply) - search.ProvedMargin
		}
		return -(search.WinScore - float64(ply) - search.ProvedMargin)
	}
	r := ev.Evaluate(b)
	if r.Winner != hex.Empty && ply > 0 {
		return proved(r.Winner, ply)
	}
	sign := 1.0
	if me == hex.White {
		sign = -1
	}
	if depth == 0 {
		return sign * r.Value
	}
	em := b.EmptyCells()
	moves := em.AppendCells(nil)
	scores := make([]float64, hex.NumPoints)
	if o, ok := ev.(search.Orderer); ok && (look == 0 || depth < look) {
		o.MoveScores(b, scores)
	} else {
		for _, m := range moves {
			b.PlayStone(me, m)
			if w := b.Winner(); w != hex.Empty {
				scores[m] = win(w, ply+1)
			} else if cr := ev.Evaluate(b); cr.Winner != hex.Empty {
				scores[m] = proved(cr.Winner, ply+1)
			} else {
				scores[m] = sign * cr.Value
			}
			b.Undo()
		}
	}
	sort.SliceStable(moves, func(i, j int) bool { return scores[moves[i]] > scores[moves[j]] })
	if k > 0 && len(moves) > k {
		moves = moves[:k]
	}
	best := math.Inf(-1)
	for _, m := range moves {
		b.PlayStone(me, m)
		best = math.Max(best, -kbestLook(b, ev, depth-1, ply+1, k, look))
		b.Undo()
	}
	return best
}

// randomPosition plays a random number of random moves (fewer than 8) on an empty 5x5
// board.
func randomPosition(rng *rand.Rand) *hex.Board {
	b := hex.MustBoard(5, 5)
	for j := 0; j < rng.IntN(8); j++ {
		em := b.EmptyCells()
		cells := em.AppendCells(nil)
		b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
	}
	return b
}

// TestAgainstKBestOracle: with the k-best limit, the transposition table, its
// evaluation/ordering cache, iterative deepening and both orderings, the search's score
// equals the plain k-best negamax.
func TestAgainstKBestOracle(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 10; i++ {
		b := randomPosition(rng)
		if b.Winner() != hex.Empty {
			continue
		}
		for _, ev := range []search.Evaluator{resistance(t), plainEval{resistance(t)}} {
			for _, k := range []int{2, 4} {
				s := newSearcher(t, ev, search.Params{Depth: 3, K: k})
				out, err := s.Search(context.Background(), b)
				if err != nil {
					t.Fatal(err)
				}
				want := kbest(b, ev, 3, 0, k)
				if math.Abs(out.Score-want) > 1e-9 {
					t.Fatalf("%T k=%d: score %v, oracle %v on\n%s", ev, k, out.Score, want, b.Diagram())
				}
				if out.CacheHits == 0 {
					t.Errorf("%T k=%d: the evaluation cache was never used", ev, k)
				}
			}
		}
	}
}

// countingOrderer counts the Orderer calls of an evaluator.
type countingOrderer struct {
	search.Evaluator
	o     search.Orderer
	calls int
}

func (c *countingOrderer) MoveScores(b *hex.Board, scores []float64) {
	c.calls++
	c.o.MoveScores(b, scores)
}

// TestLookaheadDepth: with Params.LookaheadDepth the nodes with at least that many
// plies left order by the 1-ply lookahead and the others by the Orderer: the search's
// score equals the k-best oracle with the same split, and the Orderer is not consulted
// when every inner node has that many plies left.
func TestLookaheadDepth(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 8; i++ {
		b := randomPosition(rng)
		if b.Winner() != hex.Empty {
			continue
		}
		r := resistance(t)
		for _, look := range []int{0, 1, 2, 3, 4} {
			ev := &countingOrderer{Evaluator: r, o: r}
			s := newSearcher(t, ev, search.Params{Depth: 3, K: 3, LookaheadDepth: look})
			out, err := s.Search(context.Background(), b)
			if err != nil {
				t.Fatal(err)
			}
			if want := kbestLook(b, r, 3, 0, 3, look); math.Abs(out.Score-want) > 1e-9 {
				t.Fatalf("lookahead depth %d: score %v, oracle %v on\n%s", look, out.Score, want, b.Diagram())
			}
			// Depth 1 nodes order by the Orderer unless look is 1 (every node with a
			// ply left looks ahead, evaluating more than once per node); look 4
			// exceeds every depth of the search, so it orders like look 0.
			if used := ev.calls > 0; used != (look != 1) || look == 1 && out.Evals <= out.Nodes {
				t.Errorf("lookahead depth %d: %d Orderer calls, %d evals, %d nodes", look, ev.calls, out.Evals, out.Nodes)
			}
		}
	}
}

// budgetEval cancels the search's context after a fixed number of evaluations, so that
// an iteration is interrupted at a reproducible point.
type budgetEval struct {
	inner  search.Evaluator
	left   int
	cancel context.CancelFunc
}

func (e *budgetEval) Evaluate(b *hex.Board) search.Result {
	if e.left--; e.left == 0 {
		e.cancel()
	}
	return e.inner.Evaluate(b)
}

// TestInterruptedIterationMove: when an iteration is interrupted, the move returned is
// either the last completed iteration's move or one that scores at least as well at
// the interrupted depth (brute-force minimax); and such moves occur.
func TestInterruptedIterationMove(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	ev := resistance(t)
	changed, checked := 0, 0
	for i := 0; i < 60 && (checked < 40 || changed == 0); i++ {
		b := hex.MustBoard(4, 4)
		for j := 0; j < rng.IntN(5); j++ {
			em := b.EmptyCells()
			cells := em.AppendCells(nil)
			b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
		}
		if b.Winner() != hex.Empty {
			continue
		}
		ctx, cancel := context.WithCancel(context.Background())
		be := &budgetEval{inner: ev, left: 20 + rng.IntN(400), cancel: cancel}
		out, err := newSearcher(t, be, search.Params{Depth: 4}).Search(ctx, b)
		cancel()
		if err != nil || !out.Stats.TimedOut || out.Stats.Depth == 0 || math.Abs(out.Score) >= search.WinScore/2 {
			continue
		}
		d := out.Stats.Depth
		prev, err := newSearcher(t, ev, search.Params{Depth: d}).Search(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		if out.Move == prev.Move {
			if out.Stats.PartialMove {
				t.Fatal("PartialMove set for the previous iteration's move")
			}
			continue
		}
		if !out.Stats.PartialMove {
			t.Fatalf("move %s differs from depth %d's %s without PartialMove", b.Geometry().CellName(out.Move), d, b.Geometry().CellName(prev.Move))
		}
		changed++
		score := func(m hex.Cell) float64 {
			b.PlayStone(b.ToMove(), m)
			defer b.Undo()
			return -minimax(b, ev, d, 1)
		}
		if got, old := score(out.Move), score(prev.Move); got < old-1e-9 {
			t.Fatalf("interrupted depth %d: move %s scores %v, below the previous move %s's %v on\n%s",
				d+1, b.Geometry().CellName(out.Move), got, b.Geometry().CellName(prev.Move), old, b.Diagram())
		}
	}
	if checked < 10 || changed == 0 {
		t.Fatalf("%d interrupted searches checked, %d changed their move: the test needs other budgets", checked, changed)
	}
	t.Logf("%d interrupted searches, %d took a move of the unfinished iteration", checked, changed)
}
