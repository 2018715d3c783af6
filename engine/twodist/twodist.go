// Package twodist computes the two-distance potentials of Queenbee (van Rijswijck,
// "Computer Hex: Are Bees Better than Fruitflies?", 2000): cheap connectivity measures
// for learned evaluators, a few microseconds on 8x8.
//
// The two-distance of an empty cell p to an edge E, for a colour c, is 1 when p touches
// E and otherwise 1 + the second-smallest two-distance among p's neighbours: the
// opponent can always take the best neighbour, so the second best is what c can count
// on. Stones of c are free: a chain of c's stones makes all its empty neighbours
// neighbours of each other, and a cell touching a chain that touches E touches E.
// Stones of the opponent are walls. A cell with no such path has distance Inf. The
// potential of an empty cell for c is the sum of its two-distances to c's two edges
// (North and South for Black, West and East for White); the smallest potential over
// the board measures how far c is from joining its edges, and the number of cells at
// that minimum (the mobility) how many ways it has.
package twodist

import "github.com/hexlearn/hexlearn/engine/hex"

// Inf is the two-distance of a cell with no path to the edge. A potential is at most
// 2·Inf.
const Inf = 60

// Potentials computes two-distances and potentials. The zero value is not usable; get
// one from New. After the first call Compute allocates nothing. A Potentials is not
// safe for concurrent use.
type Potentials struct {
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

// New returns a Potentials for boards of geometry g.
func New(g *hex.Geometry) *Potentials {
	return &Potentials{g: g, buf: make([]int16, 0, g.N*g.N), libBuf: make([]int16, 0, 7*g.N),
		empty: make([]int16, 0, g.N)}
}

func colorIndex(c hex.Color) int {
	if c == hex.White {
		return 1
	}
	return 0
}

// Compute computes the two-distances and potentials of every empty cell of b, whose
// geometry must be the one given to New.
func (t *Potentials) Compute(b *hex.Board) {
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
func (t *Potentials) graph(b *hex.Board, col hex.Color) {
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
func (t *Potentials) bfs(d *[hex.MaxCells]int8, near *[hex.MaxCells]bool) {
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

// Distance returns the two-distance of cell p to edge e (one of hex.North, South, West,
// East) for e's colour: Inf when there is no path, 0 on a stone.
func (t *Potentials) Distance(e, p hex.Cell) int {
	i := int(e - hex.North)
	if i < 0 || i > 3 || !t.g.IsCell(p) {
		return 0
	}
	return int(t.dist[i][p])
}

// Potential returns the potential of cell p for colour c (2·Inf on a stone).
func (t *Potentials) Potential(c hex.Color, p hex.Cell) int { return int(t.pot[colorIndex(c)][p]) }

// Min returns the smallest potential of c over the empty cells (2·Inf if none has a
// path).
func (t *Potentials) Min(c hex.Color) int { return t.min[colorIndex(c)] }

// Mobility returns the number of empty cells at c's smallest potential (0 if none has
// a path).
func (t *Potentials) Mobility(c hex.Color) int { return t.mob[colorIndex(c)] }

// Value is Queenbee's evaluation from Black's point of view (positive good for Black):
// White's smallest potential minus Black's, plus a twentieth of Black's mobility minus
// White's to break ties.
func (t *Potentials) Value() float64 {
	return float64(t.min[1]-t.min[0]) + float64(t.mob[0]-t.mob[1])/20
}
