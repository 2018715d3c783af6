package twodist

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// refPotentials is the first implementation of Potentials, kept as the reference the
// bitset one is tested against: chains labelled by breadth-first search, neighbour
// // lists, and a queue-driven two-distance search with counters. Get one from newRef.
type refPotentials struct {
	g      *hex.Geometry
	dist   [4][hex.MaxCells]int8 // Black to North, South; White to West, East
	pot    [2][hex.MaxCells]int8 // Black, White; 2·Inf on stones
	min    [2]int
	mob    [2]int
	adj    [hex.MaxCells][]int16 // neighbours of an empty cell, chains collapsed
	near   [2][hex.MaxCells]bool // the cell touches the first, second edge
	buf    []int16
	libBuf []int16
	libs   [hex.MaxCells][]int16 // empty neighbours of each chain
	chain  [hex.MaxCells]int16   // chain number of each stone of the colour
	touch  [2][hex.MaxCells]bool // the chain touches the first, second edge
	mark   [hex.MaxCells]uint32
	seen   [hex.MaxCells]uint32 // stamp of the last cell that added each chain's liberties
	stamp  uint32
	cnt    [hex.MaxCells]int8
	queue  [hex.MaxCells]int16
	empty  []int16
}

// newRef returns a refPotentials for boards of geometry g.
func newRef(g *hex.Geometry) *refPotentials {
	return &refPotentials{g: g, buf: make([]int16, 0, g.N*g.N), libBuf: make([]int16, 0, 7*g.N),
		empty: make([]int16, 0, g.N)}
}

// Compute computes the two-distances and potentials of every empty cell of b, whose
// geometry must be the one given to newRef.
func (t *refPotentials) Compute(b *hex.Board) {
	if t.stamp > 1<<31 { // long before the stamps wrap around
		clear(t.mark[:])
		clear(t.seen[:])
		t.stamp = 0
	}
	t.empty = t.empty[:0]
	for p := 0; p < t.g.N; p++ {
		if b.At(hex.Cell(p)) == hex.Empty {
			t.empty = append(t.empty, int16(p))
		}
	}
	for ci, col := range [2]hex.Color{hex.Black, hex.White} {
		t.graph(b, col)
		t.bfs(&t.dist[2*ci], &t.near[0])
		t.bfs(&t.dist[2*ci+1], &t.near[1])
		pot := &t.pot[ci]
		for p := 0; p < t.g.N; p++ {
			pot[p] = 2 * Inf
		}
		mn, mob := 2*Inf, 0
		for _, p := range t.empty {
			v := int(t.dist[2*ci][p]) + int(t.dist[2*ci+1][p])
			pot[p] = int8(v)
			switch {
			case v < mn:
				mn, mob = v, 1
			case v == mn:
				mob++
			}
		}
		if mn == 2*Inf {
			mob = 0
		}
		t.min[ci], t.mob[ci] = mn, mob
	}
}

// graph builds the neighbour lists of the empty cells for col, chains collapsed.
func (t *refPotentials) graph(b *hex.Board, col hex.Color) {
	g := t.g
	e1, e2 := hex.EdgesOf(col)
	st := b.Stones(col)
	t.libBuf = t.libBuf[:0]
	for s := st.First(); s != hex.NoCell; s = st.Next(s + 1) {
		t.chain[s] = -1
	}
	n := int16(0)
	for s := st.First(); s != hex.NoCell; s = st.Next(s + 1) {
		if t.chain[s] >= 0 {
			continue
		}
		id := n
		n++
		t.stamp++
		start := len(t.libBuf)
		t.touch[0][id], t.touch[1][id] = false, false
		t.chain[s] = id
		t.queue[0] = int16(s)
		for head, tail := 0, 1; head < tail; head++ {
			for _, q := range g.Neighbours(hex.Cell(t.queue[head])) {
				switch {
				case q == e1:
					t.touch[0][id] = true
				case q == e2:
					t.touch[1][id] = true
				case q.IsEdge():
				case b.At(q) == hex.Empty:
					if t.mark[q] != t.stamp {
						t.mark[q] = t.stamp
						t.libBuf = append(t.libBuf, int16(q))
					}
				case b.At(q) == col && t.chain[q] < 0:
					t.chain[q] = id
					t.queue[tail] = int16(q)
					tail++
				}
			}
		}
		t.libs[id] = t.libBuf[start:len(t.libBuf):len(t.libBuf)]
	}
	t.buf = t.buf[:0]
	for _, p16 := range t.empty {
		p := hex.Cell(p16)
		t.stamp++
		t.mark[p] = t.stamp
		n1, n2 := false, false
		start := len(t.buf)
		for _, q := range g.Neighbours(p) {
			switch {
			case q == e1:
				n1 = true
			case q == e2:
				n2 = true
			case q.IsEdge():
			case b.At(q) == hex.Empty:
				if t.mark[q] != t.stamp {
					t.mark[q] = t.stamp
					t.buf = append(t.buf, int16(q))
				}
			case b.At(q) == col:
				id := t.chain[q]
				if t.seen[id] == t.stamp {
					continue // a chain touching p twice adds its liberties once
				}
				t.seen[id] = t.stamp
				n1 = n1 || t.touch[0][id]
				n2 = n2 || t.touch[1][id]
				for _, l := range t.libs[id] {
					if t.mark[l] != t.stamp {
						t.mark[l] = t.stamp
						t.buf = append(t.buf, l)
					}
				}
			}
		}
		t.adj[p] = t.buf[start:len(t.buf):len(t.buf)]
		t.near[0][p], t.near[1][p] = n1, n2
	}
}

// bfs computes the two-distances to the edge the near flags name: cells touching it
// are at 1, and a cell is reached at k+1 when its second neighbour at most k away is
// taken from the queue (the queue holds cells in order of distance).
func (t *refPotentials) bfs(d *[hex.MaxCells]int8, near *[hex.MaxCells]bool) {
	tail := 0
	clear(d[:t.g.N])
	for _, p := range t.empty {
		t.cnt[p] = 0
		d[p] = Inf
		if near[p] {
			d[p] = 1
			t.queue[tail] = p
			tail++
		}
	}
	for head := 0; head < tail; head++ {
		q := t.queue[head]
		k := d[q] + 1
		for _, p := range t.adj[q] {
			if d[p] != Inf {
				continue
			}
			if t.cnt[p]++; t.cnt[p] == 2 && k < Inf {
				d[p] = k
				t.queue[tail] = p
				tail++
			}
		}
	}
}

// randomBoard returns a w x h board: with probability 1/2 a random game cut at a random
// ply (so groups are built by alternate play), else setup stones of random colours on
// a random subset of the cells.
func randomBoard(r *rand.Rand, w, h int) *hex.Board {
	b := hex.MustBoard(w, h)
	cells := r.Perm(w * h)[:r.IntN(w*h+1)]
	game := r.IntN(2) == 0
	for _, c := range cells {
		if game {
			b.PlayStone(b.ToMove(), hex.Cell(c))
		} else if err := b.PlaySetup([2]hex.Color{hex.Black, hex.White}[r.IntN(2)], hex.Cell(c)); err != nil {
			panic(err)
		}
	}
	return b
}

// TestAgainstReference compares the bitset computation with the reference on thousands
// of random boards of every word count (1 to 6 words of 64 cells): every distance,
// potential, minimum and mobility must be identical.
func TestAgainstReference(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	sizes := []struct{ w, h, boards int }{
		{1, 1, 50}, {1, 7, 200}, {7, 1, 200}, {2, 3, 200}, {2, 19, 100}, {19, 2, 100}, {5, 5, 500}, {6, 6, 500}, {7, 9, 300}, {8, 8, 2000},
		{9, 9, 500}, {11, 11, 2000}, {8, 16, 200}, {13, 13, 200}, {11, 19, 100}, {16, 16, 100},
		{17, 17, 100}, {19, 19, 200},
	}
	if testing.Short() {
		for i := range sizes {
			sizes[i].boards = max(1, sizes[i].boards/10)
		}
	}
	for _, sz := range sizes {
		g := hex.MustGeometry(sz.w, sz.h)
		got, want := New(g), newRef(g)
		for n := 0; n < sz.boards; n++ {
			b := randomBoard(r, sz.w, sz.h)
			got.Compute(b)
			want.Compute(b)
			for ci, col := range []hex.Color{hex.Black, hex.White} {
				e1, e2 := hex.EdgesOf(col)
				for _, e := range []hex.Cell{e1, e2} {
					if got.dist[e-hex.North] != want.dist[e-hex.North] {
						t.Fatalf("%dx%d board %d: distances to %v differ\ngot  %s\nwant %s\n%s", sz.w, sz.h, n, e,
							grid(got, b, e), refGrid(want, b, e), b)
					}
				}
				if got.pot[ci] != want.pot[ci] || got.min[ci] != want.min[ci] || got.mob[ci] != want.mob[ci] {
					t.Fatalf("%dx%d board %d: %v potentials, min %d/%d, mobility %d/%d differ\n%s", sz.w, sz.h, n, col,
						got.min[ci], want.min[ci], got.mob[ci], want.mob[ci], b)
				}
			}
		}
	}
}

// refGrid is grid for the reference.
func refGrid(t *refPotentials, b *hex.Board, e hex.Cell) string {
	p := &Potentials{g: t.g, dist: t.dist}
	return grid(p, b, e)
}

// snake returns a 19x19 board whose empty cells form, for Black from the North, one
// corridor two cells wide winding down between White walls: every third row is White
// but for a two-cell gap at alternate ends. The two-distance grows by about one per
// step along it, so it reaches the cap at Inf.
func snake() *hex.Board {
	b := hex.MustBoard(19, 19)
	g := b.Geometry()
	for y := 2; y < 19; y += 3 {
		gap := 0
		if (y/3)%2 == 0 {
			gap = 17
		}
		for x := 0; x < 19; x++ {
			if x != gap && x != gap+1 {
				if err := b.PlaySetup(hex.White, g.At(x, y)); err != nil {
					panic(err)
				}
			}
		}
	}
	return b
}

// TestInfCap checks the cap at Inf where it matters: on the snake board Black's
// distances from the North run up to Inf−1 and beyond that stay Inf, as in the
// reference and the definition.
func TestInfCap(t *testing.T) {
	b := snake()
	got, want := New(b.Geometry()), newRef(b.Geometry())
	got.Compute(b)
	want.Compute(b)
	if got.dist != want.dist || got.pot != want.pot || got.min != want.min || got.mob != want.mob {
		t.Fatalf("the snake board differs from the reference:\ngot  %s\nwant %s", grid(got, b, hex.North), refGrid(want, b, hex.North))
	}
	top, inf := 0, 0
	for c, v := range oracle(b, hex.North) {
		d := got.Distance(hex.North, c)
		if d != v {
			t.Fatalf("%s: %d, oracle %d", b.Geometry().CellName(c), d, v)
		}
		if d == Inf {
			inf++
		} else {
			top = max(top, d)
		}
	}
	if top != Inf-1 || inf == 0 {
		t.Errorf("largest finite distance %d, %d cells at Inf; want %d and some", top, inf, Inf-1)
	}
}

// BenchmarkReference is BenchmarkCompute for the reference implementation, for the
// speed-up in one run.
func BenchmarkReference(b *testing.B) {
	benchCompute(b, func(g *hex.Geometry) interface{ Compute(*hex.Board) } { return newRef(g) })
}
