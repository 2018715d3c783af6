package patterns

import (
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// genChain returns a realistic random Black north–south winning pattern of the kind
// H-search finds: a chain of stones joined by adjacency or bridges (each bridge adds its
// two carrier cells), joined to the edges directly or by a bridge to the edge, plus up
// to extra further carrier cells next to the chain (larger VC carriers). ok is false
// when the walk ran off the board.
func genChain(r *rand.Rand, g *hex.Geometry, extra int) (p Pattern, ok bool) {
	in := func(x, y int) bool { return x >= 0 && x < g.W && y >= 0 && y < g.H }
	x := r.IntN(g.W)
	y := 0
	if g.H > 2 && x+1 < g.W && r.IntN(2) == 0 { // bridge to North from row 2
		y = 1
		p.Carrier.Set(g.At(x, 0))
		p.Carrier.Set(g.At(x+1, 0))
	}
	p.Stones.Set(g.At(x, y))
	for y < g.H-1 {
		if y == g.H-2 && x >= 1 && r.IntN(2) == 0 { // bridge to South
			p.Carrier.Set(g.At(x, y+1))
			p.Carrier.Set(g.At(x-1, y+1))
			break
		}
		type step struct{ dx, dy, c1x, c1y, c2x, c2y int }
		steps := []step{
			{0, 1, -9, 0, 0, 0}, {-1, 1, -9, 0, 0, 0}, // adjacent
			{-1, 2, 0, 1, -1, 1}, {1, 1, 1, 0, 0, 1}, {-2, 1, -1, 0, -1, 1}, // bridges
		}
		s := steps[r.IntN(len(steps))]
		nx, ny := x+s.dx, y+s.dy
		if !in(nx, ny) {
			continue
		}
		if s.c1x != -9 {
			a, b := g.At(x+s.c1x, y+s.c1y), g.At(x+s.c2x, y+s.c2y)
			if p.Stones.Has(a) || p.Stones.Has(b) || p.Carrier.Has(a) || p.Carrier.Has(b) {
				return p, false
			}
			p.Carrier.Set(a)
			p.Carrier.Set(b)
		}
		x, y = nx, ny
		c := g.At(x, y)
		if p.Carrier.Has(c) || p.Stones.Has(c) {
			return p, false // would break an earlier bridge, or a loop
		}
		p.Stones.Set(c)
	}
	cells := g.Cells()
	for i := 0; i < extra; i++ {
		all := p.Cells()
		var nb hex.Bitset
		for c := all.First(); c != hex.NoCell; c = all.Next(c + 1) {
			nb = nb.Or(*g.NeighbourSet(c))
		}
		nb = nb.And(cells).AndNot(all)
		cs := nb.AppendCells(nil)
		if len(cs) == 0 {
			break
		}
		p.Carrier.Set(cs[r.IntN(len(cs))])
	}
	return p, p.Validate(g) == nil
}

// genPatterns returns n distinct realistic patterns (fewer if the board has too few).
func genPatterns(g *hex.Geometry, n int, seed uint64) []Pattern {
	r := rand.New(rand.NewPCG(seed, 99))
	seen := make(map[Pattern]struct{}, n)
	out := make([]Pattern, 0, n)
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		p, ok := genChain(r, g, r.IntN(7))
		if !ok {
			continue
		}
		if _, dup := seen[p]; dup {
			continue
		}
		seen[p] = struct{}{}
		out = append(out, p)
	}
	return out
}

// genPositions returns random positions of random games, ply uniform in [0, N/2].
func genPositions(g *hex.Geometry, n int, seed uint64) []*hex.Board {
	r := rand.New(rand.NewPCG(seed, 7))
	out := make([]*hex.Board, n)
	for i := range out {
		b := hex.NewBoardGeometry(g)
		ply := r.IntN(g.N/2 + 1)
		for j, c := range r.Perm(g.N)[:ply] {
			b.PlayStone(hex.Color(1+j%2), hex.Cell(c))
		}
		out[i] = b
	}
	return out
}

// genNear returns positions built around stored patterns (the situation near the end
// of a game, where the terminal test matters): a random pattern's stones are Black,
// each carrier cell is White with probability 1/8 (a miss), Black 1/4 or empty, and
// every other cell holds a random stone with probability 1/3.
func genNear(g *hex.Geometry, pats []Pattern, n int, seed uint64) []*hex.Board {
	r := rand.New(rand.NewPCG(seed, 8))
	out := make([]*hex.Board, n)
	for i := range out {
		p := &pats[r.IntN(len(pats))]
		b := hex.NewBoardGeometry(g)
		for c := hex.Cell(0); int(c) < g.N; c++ {
			switch {
			case p.Stones.Has(c):
				b.PlayStone(hex.Black, c)
			case p.Carrier.Has(c):
				if k := r.IntN(8); k == 0 {
					b.PlayStone(hex.White, c)
				} else if k <= 2 {
					b.PlayStone(hex.Black, c)
				}
			case r.IntN(3) == 0:
				b.PlayStone(hex.Color(1+r.IntN(2)), c)
			}
		}
		out[i] = b
	}
	return out
}

// plainTrie is the baseline "plain trie": one heap node per element, children in a
// sorted slice of pointers (an unlimited branching tree without the root list and
// without path compression).
type plainTrie struct {
	children []*plainTrie
	elem     Elem
	term     bool
}

func (t *plainTrie) insert(p []Elem) {
	n := t
	for _, e := range p {
		i, found := slices.BinarySearchFunc(n.children, e, func(c *plainTrie, e Elem) int { return int(c.elem) - int(e) })
		if !found {
			n.children = slices.Insert(n.children, i, &plainTrie{elem: e})
		}
		n = n.children[i]
	}
	n.term = true
}

func (t *plainTrie) containsSubsetOf(q Bits) bool {
	if t.term {
		return true
	}
	for _, c := range t.children {
		if q.Has(c.elem) && c.containsSubsetOf(q) {
			return true
		}
	}
	return false
}

// benchSet is one benchmark configuration's data, built once per process.
type benchSet struct {
	g     *hex.Geometry
	pats  []Pattern
	tree  *Tree
	trie  *plainTrie
	trieB float64
	qs    map[string]*querySet // "random", "near"
}

// querySet is a list of positions as queries and as bitsets.
type querySet struct {
	queries  []Bits
	black    []hex.Bitset
	white    []hex.Bitset
	hitShare float64
}

var (
	benchMu    sync.Mutex
	benchCache = map[string]*benchSet{}
)

func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

func getBenchSet(b *testing.B, size, n int) *benchSet {
	key := fmt.Sprint(size, "/", n)
	benchMu.Lock()
	defer benchMu.Unlock()
	if s, ok := benchCache[key]; ok {
		return s
	}
	for k := range benchCache { // keep one configuration in memory at a time
		delete(benchCache, k)
	}
	b.StopTimer()
	defer b.StartTimer()
	g := hex.MustGeometry(size, size)
	s := &benchSet{g: g, pats: genPatterns(g, n, uint64(size*1000003+n))}
	s.tree, _ = NewTree(universe)
	var buf []Elem
	for i := range s.pats {
		buf = encode(buf[:0], &s.pats[i])
		s.tree.Insert(buf)
	}
	s.tree.Optimize()
	before := heapInUse()
	s.trie = &plainTrie{}
	for i := range s.pats {
		buf = encode(buf[:0], &s.pats[i])
		s.trie.insert(buf)
	}
	s.trieB = float64(heapInUse()-before) / float64(len(s.pats))
	s.qs = map[string]*querySet{
		"random": s.querySet(genPositions(g, 4096, uint64(size))),
		"near":   s.querySet(genNear(g, s.pats, 4096, uint64(size))),
	}
	benchCache[key] = s
	return s
}

func (s *benchSet) querySet(pos []*hex.Board) *querySet {
	qs := &querySet{}
	hits := 0
	for _, b := range pos {
		q := NewBits(universe)
		black, white := b.Stones(hex.Black), b.Stones(hex.White)
		open := s.g.Cells().AndNot(white)
		copy(q[:6], black[:])
		copy(q[6:], open[:])
		qs.queries = append(qs.queries, q)
		qs.black = append(qs.black, black)
		qs.white = append(qs.white, white)
		if s.tree.ContainsSubsetOf(q) {
			hits++
		}
	}
	qs.hitShare = float64(hits) / float64(len(pos))
	return qs
}

// BenchmarkLookup measures one containment query (is some stored pattern matched by
// this position, for Black) against n stored realistic patterns on 6x6 and 11x11, for
// the LB-tree, a linear scan of bitsets and a plain pointer trie, in the same run.
// Queries are positions of random games (ply uniform in 0..N/2). 10^6 patterns only
// with HEXLEARN_BENCH_1M=1 (it needs a few GB for the plain trie).
func BenchmarkLookup(b *testing.B) {
	ns := []int{10_000, 100_000}
	if os.Getenv("HEXLEARN_BENCH_1M") != "" {
		ns = append(ns, 1_000_000)
	}
	for _, size := range []int{6, 11} {
		for _, n := range ns {
			for _, kind := range []string{"random", "near"} {
				prefix := fmt.Sprintf("%dx%d/n=%d/q=%s", size, size, n, kind)
				b.Run(prefix+"/lbtree", func(b *testing.B) {
					s := getBenchSet(b, size, n)
					qs := s.qs[kind]
					runtime.GC() // no collection of the build's garbage during timing
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						s.tree.ContainsSubsetOf(qs.queries[i%len(qs.queries)])
					}
					b.ReportMetric(float64(s.tree.Bytes())/float64(len(s.pats)), "B/pattern")
					b.ReportMetric(float64(len(s.pats)), "patterns")
					b.ReportMetric(qs.hitShare, "hit-share")
				})
				b.Run(prefix+"/linear", func(b *testing.B) {
					s := getBenchSet(b, size, n)
					qs := s.qs[kind]
					runtime.GC() // no collection of the build's garbage during timing
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						k := i % len(qs.queries)
						for j := range s.pats {
							if s.pats[j].Matches(&qs.black[k], &qs.white[k]) {
								break
							}
						}
					}
					b.ReportMetric(2*48, "B/pattern")
				})
				b.Run(prefix+"/trie", func(b *testing.B) {
					s := getBenchSet(b, size, n)
					qs := s.qs[kind]
					runtime.GC() // no collection of the build's garbage during timing
					b.ResetTimer()
					for i := 0; i < b.N; i++ {
						s.trie.containsSubsetOf(qs.queries[i%len(qs.queries)])
					}
					b.ReportMetric(s.trieB, "B/pattern")
				})
			}
		}
	}
}

// TestBenchStructuresAgree: the three structures of the benchmark answer alike (on a
// small configuration), so the benchmark compares equal work.
func TestBenchStructuresAgree(t *testing.T) {
	for _, size := range []int{6, 11} {
		g := hex.MustGeometry(size, size)
		pats := genPatterns(g, 2000, 1)
		if len(pats) < 1000 {
			t.Fatalf("%dx%d: only %d patterns generated", size, size, len(pats))
		}
		tree, _ := NewTree(universe)
		trie := &plainTrie{}
		for i := range pats {
			tree.Insert(encode(nil, &pats[i]))
			trie.insert(encode(nil, &pats[i]))
		}
		hits := 0
		for _, pos := range append(genPositions(g, 500, 3), genNear(g, pats, 500, 4)...) {
			q := NewBits(universe)
			black, white := pos.Stones(hex.Black), pos.Stones(hex.White)
			open := g.Cells().AndNot(white)
			copy(q[:6], black[:])
			copy(q[6:], open[:])
			lin := false
			for j := range pats {
				if pats[j].Matches(&black, &white) {
					lin = true
					break
				}
			}
			if tree.ContainsSubsetOf(q) != lin || trie.containsSubsetOf(q) != lin {
				t.Fatalf("%dx%d: tree %v trie %v linear %v", size, size, tree.ContainsSubsetOf(q), trie.containsSubsetOf(q), lin)
			}
			if lin {
				hits++
			}
		}
		if hits == 0 || hits == 1000 {
			t.Errorf("%dx%d: %d of 1000 random positions hit: test too weak", size, size, hits)
		}
	}
}

// BenchmarkDecided measures the full terminal test (query built from the board, Black
// then White through the reflection) on a database of 10^5 realistic patterns.
func BenchmarkDecided(b *testing.B) {
	for _, size := range []int{6, 11} {
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			s := getBenchSet(b, size, 100_000)
			d, _ := New(size, size)
			d.tree = s.tree
			pos := append(genPositions(s.g, 512, 5), genNear(s.g, s.pats, 512, 6)...)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				d.Decided(pos[i%len(pos)])
			}
		})
	}
}

// TestGeneratedPatternsWin: the benchmark's generated chains are real winning
// connections (exhaustive check on small carriers).
func TestGeneratedPatternsWin(t *testing.T) {
	g := hex.MustGeometry(6, 6)
	checked := 0
	for _, p := range genPatterns(g, 300, 2) {
		if p.Carrier.Count() > 14 {
			continue
		}
		ok, err := Verify(g, p, 14)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			t.Fatalf("generated pattern loses:\n%s", p.Diagram(g))
		}
		checked++
	}
	if checked < 50 {
		t.Fatalf("only %d generated patterns checked", checked)
	}
}
