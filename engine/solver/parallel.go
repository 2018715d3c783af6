package solver

import (
	"context"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// splitBudget is the node budget of a root move's first search in SolveParallel; it
// doubles with each further search of the same move.
const splitBudget = 2000

// SolveParallel solves b for the side to move with workers solvers running in
// parallel, each made by New(mk()) (mk must give each its own Connector), by splitting
// the root: the root is evaluated once (fill-in, connections, mustplay, inferior-cell
// pruning), then the workers search the root's candidate moves. Each search of a move
// has a node budget that doubles with every search of that move (2,000 nodes first),
// and a worker always takes the move whose position has the smallest disproof number
// after its last search (DFPN's choice at the root; then the move searched fewest
// times, preferring the moves it searched before). The DFPN workers share one
// transposition table of 2^TTBits entries per worker (rounded up to a power of two;
// SolveParallelSeparate gives each its own), so a worker taking up a move another
// searched before goes on with that tree. A move after which the
// side to move wins decides the root; a refuted move shrinks the remaining moves to
// its refutation's proof set (proof-set pruning across the workers). The Config's
// Timeout bounds the whole call, MaxNodes the nodes of all workers together (checked
// between searches). With workers 1 it is New(mk()).Solve. Node counts add up the
// workers' and depend on scheduling, the winner does not.
func SolveParallel(ctx context.Context, b *hex.Board, workers int, mk func() Config) (Result, error) {
	return solveParallel(ctx, b, workers, mk, false, false)
}

// SolveParallelSeparate is SolveParallel with a transposition table per worker.
func SolveParallelSeparate(ctx context.Context, b *hex.Board, workers int, mk func() Config) (Result, error) {
	return solveParallel(ctx, b, workers, mk, true, false)
}

// SolveShared solves b for the side to move with workers solvers running in parallel,
// each made by New(mk()) (mk must give each its own Connector), all searching the
// whole tree from the root (solveShared: one shared transposition table of 2^TTBits
// entries per worker, rounded up to a power of two, and virtual proof numbers that
// spread the workers over a node's best children) instead of splitting the root's
// moves between them as SolveParallel does. The first worker to decide b stops the
// others. The Config's Timeout bounds the call, MaxNodes each worker's nodes (a
// workers-th of it). With workers 1 it is New(mk()).Solve. Node counts add up the
// workers' and depend on scheduling, the winner does not.
func SolveShared(ctx context.Context, b *hex.Board, workers int, mk func() Config) (Result, error) {
	return solveParallel(ctx, b, workers, mk, false, true)
}

// solveParallel is SolveParallel (shared false; separate: a table per worker) and
// SolveShared (shared true).
func solveParallel(ctx context.Context, b *hex.Board, workers int, mk func() Config, separate, shared bool) (Result, error) {
	if workers < 1 {
		return Result{ToMove: b.ToMove(), Move: hex.NoCell}, fmt.Errorf("%w: workers must be at least 1, got %d", ErrBadConfig, workers)
	}
	if workers == 1 {
		return New(mk()).Solve(ctx, b)
	}
	cfg := mk()
	if err := cfg.Validate(); err != nil {
		return Result{ToMove: b.ToMove(), Move: hex.NoCell}, err
	}
	solvers := newWorkers(workers, mk, separate && !shared, b.Geometry())
	if shared {
		return solveShared(ctx, b, solvers, cfg)
	}
	return solveSplit(ctx, b, solvers, cfg)
}

// newWorkers makes n solvers New(mk()); unless separate, the DFPN solvers share one
// table of 2^TTBits entries per solver (rounded up to a power of two, at most
// 2^26), prepared for g's board before any of them starts.
func newWorkers(n int, mk func() Config, separate bool, g *hex.Geometry) []*Solver {
	solvers := make([]*Solver, n)
	for i := range solvers {
		solvers[i] = New(mk())
	}
	if n > 0 && solvers[0].cfg.Table != nil && solvers[0].pn == solvers[0].cfg.Table.t {
		t := solvers[0].cfg.Table
		t.t.reset(g) // before the workers start: they find it ready
		return solvers
	}
	if n > 1 && !separate && solvers[0].pn != nil {
		shared := newSharedPNTable(min(solvers[0].cfg.ttBits()+bits.Len(uint(n-1)), maxTTBits))
		shared.reset(g) // before the workers start: they find it ready
		for _, s := range solvers {
			s.pn = shared
		}
	}
	return solvers
}

// solveSplit is the root split of SolveParallel with the solvers given (one per
// worker, at least two) and cfg their configuration (validated): the solvers keep
// their tables and killers for the next call (the history starts again at each
// Solve).
func solveSplit(ctx context.Context, b *hex.Board, solvers []*Solver, cfg Config) (Result, error) {
	res := Result{ToMove: b.ToMove(), Move: hex.NoCell}
	start := time.Now()
	if done, err := checkPosition(b, &res); done || err != nil {
		return res, err
	}
	x := b.ToMove()
	parent := ctx
	var cancel context.CancelFunc
	if cfg.Timeout > 0 {
		ctx, cancel = context.WithTimeout(ctx, cfg.Timeout)
	} else {
		ctx, cancel = context.WithCancel(ctx)
	}
	defer cancel()

	// the root: fill-in and evaluation, as a node of the search
	o := x.Opp()
	rc := cfg
	rc.NoTT = true // the root needs no table
	root := New(rc)
	root.setup(b.Geometry())
	root.b = b.Clone()
	root.ctx = ctx
	pb := &root.plies[0]
	fr := &pb.result
	if !cfg.NoICE {
		root.an.FillIn(root.b, o, fr)
	}
	ev := root.evaluate(0, x, o)
	st := root.stats
	st.Nodes, st.Expanded = 1, 1
	finish := func(win bool, proof hex.Bitset, move hex.Cell) (Result, error) {
		w := o
		if win {
			w = x
		}
		res.Winner, res.Proof = w, proof.Or(fr.Captured[w]).Or(fr.Support[w])
		if win {
			res.Move = move
		}
		st.Elapsed = time.Since(start)
		st.StoredProofs = storedProofs(solvers)
		res.Stats = st
		return res, nil
	}
	if ev.solved {
		return finish(ev.win, ev.proof, ev.best)
	}
	moves := append([]hex.Cell(nil), root.orderMoves(root.b, x, ev.cand, pb, false)...)
	type job struct {
		level int    // searches so far
		last  int    // worker that searched it last (-1: none)
		dn    uint32 // the move's position's disproof number after its last search
		busy  bool
		nodes int64 // nodes of all its searches (Config.RootProgress)
	}
	jobs := make([]job, len(moves))
	for i := range jobs {
		jobs[i].last, jobs[i].dn = -1, 1
	}
	var (
		mu       sync.Mutex
		kids     = ev.cand
		loss     = ev.loss
		won      bool
		winMove  hex.Cell
		winProof hex.Bitset
		firstErr error
		limitHit bool
		wg       sync.WaitGroup
	)
	// wide marks the moves admitted to the root's progressive-widening window
	// (Config.WideningBase and WideningFactor, as at a DFPN node): the first
	// window(n) unrefuted moves in move order, kept once admitted.
	wide := make([]bool, len(moves))
	widen := func() {
		n, have := 0, 0
		for i, m := range moves {
			if kids.Has(m) {
				n++
				if wide[i] {
					have++
				}
			}
		}
		k := cfg.window(n + root.plies[0].localPruned)
		for i, m := range moves {
			if have >= k {
				break
			}
			if kids.Has(m) && !wide[i] {
				wide[i], have = true, have+1
			}
		}
	}
	// next picks the move worker w searches next, or -1 when none is left (or the
	// root is decided): among the moves of the widening window, as DFPN's root
	// would, the move whose position has the smallest disproof number (the least
	// work left to show that its side to move loses, so that the root wins), then
	// the one searched fewest times, then one w searched before, then the first in
	// move order. With Config.RootRank (DFPN) the disproof number is first weighted
	// by the move's rank in the move order, an unsearched move taking the smallest
	// disproof number of the searched ones (rootPriority). When every move of the
	// window is being searched, the first move after it is admitted, so that no
	// worker idles.
	rank := cfg.RootRank > 0 && cfg.Algorithm == DFPN
	next := func(w int) int {
		widen()
		best := -1
		minDN := uint32(0) // the smallest disproof number of a searched move (RootRank)
		for i := range jobs {
			if jobs[i].level > 0 && kids.Has(moves[i]) && (minDN == 0 || jobs[i].dn < minDN) {
				minDN = jobs[i].dn
			}
		}
		minDN = max(minDN, 1)
		for i := range jobs {
			j := &jobs[i]
			if j.busy || !kids.Has(moves[i]) || !wide[i] {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			b := &jobs[best]
			if rank {
				pi := rootPriority(j.dn, j.level > 0, minDN, i, cfg.RootRank)
				pb := rootPriority(b.dn, b.level > 0, minDN, best, cfg.RootRank)
				if pi != pb {
					if pi < pb {
						best = i
					}
					continue
				}
			}
			switch {
			case j.dn != b.dn:
				if j.dn < b.dn {
					best = i
				}
			case j.level != b.level:
				if j.level < b.level {
					best = i
				}
			case j.last == w && b.last != w:
				best = i
			}
		}
		if best < 0 {
			for i, m := range moves {
				if !jobs[i].busy && kids.Has(m) && !wide[i] {
					wide[i] = true
					return i
				}
			}
		}
		return best
	}
	report := func(i int, wins bool) {
		if cfg.RootProgress != nil {
			cfg.RootProgress(RootMove{Move: moves[i], Wins: wins, Nodes: jobs[i].nodes, Elapsed: time.Since(start)})
		}
	}
	for w, s := range solvers {
		s.cfg.Timeout = 0        // ctx carries the deadline of the whole call
		s.cfg.RootProgress = nil // the workers' roots are the root's children
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := -1
				if !won && firstErr == nil && !limitHit {
					i = next(w)
				}
				if i < 0 {
					mu.Unlock()
					return
				}
				j := &jobs[i]
				j.busy = true
				budget := int64(splitBudget) << min(j.level, 40)
				if cfg.MaxNodes > 0 {
					if budget = min(budget, cfg.MaxNodes-st.Nodes); budget < 1 {
						limitHit = true
						mu.Unlock()
						return
					}
				}
				mu.Unlock()
				m := moves[i]
				c := root.b.Clone()
				c.PlayStone(x, m)
				s.cfg.MaxNodes = budget
				r, err := s.Solve(ctx, c)
				mu.Lock()
				j.busy, j.last = false, w
				j.level++
				j.dn = s.rootDN
				j.nodes += r.Stats.Nodes
				st.add(r.Stats, 1)
				switch {
				case err != nil && errors.Is(err, ErrLimit) && ctx.Err() == nil:
					// the budget ran out: searched again later with a larger one
					if cfg.MaxNodes > 0 && st.Nodes >= cfg.MaxNodes {
						limitHit = true
					}
				case err != nil:
					if firstErr == nil && !won {
						firstErr = err
					}
					cancel()
				case r.Winner == x:
					if !won {
						won, winMove, winProof = true, m, r.Proof
						report(i, true)
					}
					cancel()
				default: // m loses: so does every move outside the refutation's proof
					if !won {
						report(i, false)
					}
					kids.Clear(m)
					kids = kids.And(r.Proof)
					loss = loss.Or(r.Proof)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	switch {
	case won:
		return finish(true, root.winProof(0, winProof, winMove), winMove)
	case firstErr == nil && !limitHit && kids.IsEmpty():
		return finish(false, root.lossProof(0, x, loss), hex.NoCell)
	}
	st.Elapsed = time.Since(start)
	st.StoredProofs = storedProofs(solvers)
	res.Stats = st
	if err := parent.Err(); err != nil {
		return res, fmt.Errorf("%w after %d nodes (%v): %w", ErrLimit, st.Nodes, st.Elapsed.Round(time.Millisecond), err)
	}
	if limitHit || errors.Is(firstErr, ErrLimit) {
		return res, fmt.Errorf("%w after %d nodes (%v)", ErrLimit, st.Nodes, st.Elapsed.Round(time.Millisecond))
	}
	return res, firstErr
}

// rootPriority is the key by which the root split picks a worker's next root move
// under Config.RootRank k > 0, smallest first: the disproof number dn of the move's
// position after its last search, or minDN (the smallest of the searched moves') for
// a move not yet searched, times 1 + rank/k, rank being the move's index in the
// root's move order.
func rootPriority(dn uint32, searched bool, minDN uint32, rank int, k float64) float64 {
	if !searched {
		dn = minDN
	}
	return float64(dn) * (1 + float64(rank)/k)
}

// storedProofs sums the proofs stored by the solvers (Stats.StoredProofs).
func storedProofs(solvers []*Solver) int {
	n := 0
	for _, s := range solvers {
		if s.proofs != nil {
			n += s.proofs.Len()
		}
	}
	return n
}

// busyTable counts, per position (by Zobrist key, hashed into a fixed array; two
// positions may share a counter, which only makes a worker avoid a child it need not),
// the workers searching below it. It is safe for concurrent use.
type busyTable struct {
	n    []atomic.Int32
	mask uint64
}

// busyBits is log2 of the counters of a busyTable.
const busyBits = 16

func newBusyTable() *busyTable {
	return &busyTable{n: make([]atomic.Int32, 1<<busyBits), mask: 1<<busyBits - 1}
}

func (t *busyTable) idx(key uint64) uint64 { return (key ^ key>>busyBits ^ key>>40) & t.mask }

func (t *busyTable) enter(key uint64)    { t.n[t.idx(key)].Add(1) }
func (t *busyTable) leave(key uint64)    { t.n[t.idx(key)].Add(-1) }
func (t *busyTable) has(key uint64) bool { return t.n[t.idx(key)].Load() > 0 }

// solveShared solves b with the solvers given (at least two, sharing one DFPN table)
// all searching from the root at once: each runs its own DFPN on the shared table, so
// each finds the others' results there, and a worker choosing a child another worker
// is in counts that child's disproof number as twice its value plus one (a virtual
// proof number), so the workers spread over the best few children instead of searching the
// same one. The first worker to decide the root stops the others. cfg is their
// configuration (validated); its Timeout bounds the call.
func solveShared(ctx context.Context, b *hex.Board, solvers []*Solver, cfg Config) (Result, error) {
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	busy := newBusyTable()
	type outcome struct {
		r   Result
		err error
	}
	outs := make([]outcome, len(solvers))
	first := -1
	var mu sync.Mutex
	var wg sync.WaitGroup
	// root moves reported by any worker (Config.RootProgress); nothing after a win
	var reported hex.Bitset
	reportedWin := false
	winReported := hex.NoCell
	for i, s := range solvers {
		if cfg.RootProgress != nil {
			s.cfg.RootProgress = func(rm RootMove) {
				mu.Lock()
				defer mu.Unlock()
				if !reported.Has(rm.Move) && !reportedWin {
					reported.Set(rm.Move)
					if reportedWin = rm.Wins; rm.Wins {
						winReported = rm.Move
					}
					cfg.RootProgress(rm)
				}
			}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.busy = busy
			s.cfg.MaxNodes = 0
			if cfg.MaxNodes > 0 {
				s.cfg.MaxNodes = max(1, cfg.MaxNodes/int64(len(solvers)))
			}
			r, err := s.Solve(ctx, b.Clone())
			s.busy = nil
			mu.Lock()
			outs[i] = outcome{r, err}
			switch {
			case err == nil && first < 0:
				first = i
				cancel()
			case err != nil && !errors.Is(err, ErrLimit):
				cancel() // the others would fail the same way
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	var st Stats
	for _, o := range outs {
		st.add(o.r.Stats, 0)
	}
	st.StoredProofs = storedProofs(solvers)
	st.Elapsed = time.Since(start)
	if first >= 0 {
		r := outs[first].r
		for _, o := range outs { // the winning move reported, if a worker found it too
			if o.err == nil && winReported != hex.NoCell && o.r.Move == winReported {
				r = o.r
			}
		}
		r.Stats = st
		return r, nil
	}
	r := Result{ToMove: b.ToMove(), Move: hex.NoCell, Stats: st}
	for _, o := range outs {
		if !errors.Is(o.err, ErrLimit) {
			return r, o.err // an error other than a limit comes first
		}
	}
	return r, outs[0].err
}
