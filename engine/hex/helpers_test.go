package hex

import (
	"math/rand/v2"
	"testing"
)

// Test oracles that share nothing with the union-find code: flood fill for groups
// and winners, and a from-scratch hash.

// floodGroups labels every point of the board (cells and the four edges) with the
// smallest point of its group: same-coloured stones joined through neighbours, the
// edges joined to their owner's adjacent stones. Empty cells are alone.
func floodGroups(b *Board) [NumPoints]Cell {
	var label [NumPoints]Cell
	for i := range label {
		label[i] = NoCell
	}
	g := b.g
	points := make([]Cell, 0, g.N+4)
	for p := Cell(0); int(p) < g.N; p++ {
		points = append(points, p)
	}
	points = append(points, North, South, West, East)
	var stack []Cell
	var seen [NumPoints]bool
	buf := make([]Cell, 0, MaxSize)
	for _, p := range points {
		if label[p] != NoCell {
			continue
		}
		c := b.color[p]
		if c == Empty {
			label[p] = p
			continue
		}
		// collect the component, then label it with its smallest member
		comp := []Cell{p}
		seen[p] = true
		stack = append(stack[:0], p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			var nbrs []Cell
			if q.IsEdge() {
				nbrs = g.NeighbourSet(q).AppendCells(buf[:0])
			} else {
				nbrs = g.Neighbours(q)
			}
			for _, r := range nbrs {
				if !seen[r] && b.color[r] == c {
					seen[r] = true
					comp = append(comp, r)
					stack = append(stack, r)
				}
			}
		}
		m := comp[0]
		for _, q := range comp {
			m = min(m, q)
		}
		for _, q := range comp {
			label[q] = m
		}
	}
	return label
}

// floodWinner is the winner by flood fill.
func floodWinner(b *Board) (black, white bool) {
	l := floodGroups(b)
	return l[North] == l[South], l[West] == l[East]
}

// scratchHash recomputes the Zobrist hash from the stones and the side to move.
func scratchHash(b *Board) uint64 {
	var h uint64
	for c := Black; c <= White; c++ {
		st := b.stones[c]
		for p := st.First(); p != NoCell; p = st.Next(p + 1) {
			h ^= zobrist.stone[c][p]
		}
	}
	if b.toMove == White {
		h ^= zobrist.whiteMove
	}
	return h
}

// checkInvariants checks b's incremental state against the oracles: colour array and
// bitsets agree, the hash equals a from-scratch hash, and Find partitions the points
// exactly as a flood fill does.
func checkInvariants(t testing.TB, b *Board) {
	t.Helper()
	g := b.g
	for p := Cell(0); int(p) < NumPoints; p++ {
		c := b.color[p]
		if p.IsEdge() {
			if c != EdgeColor(p) {
				t.Fatalf("edge %s has colour %v", g.CellName(p), c)
			}
			continue
		}
		if !g.IsCell(p) {
			if c != Empty || b.stones[Black].Has(p) || b.stones[White].Has(p) {
				t.Fatalf("point %d off the board holds a stone", p)
			}
			continue
		}
		if b.stones[Black].Has(p) != (c == Black) || b.stones[White].Has(p) != (c == White) {
			t.Fatalf("bitsets disagree with colour at %s\n%s", g.CellName(p), b)
		}
	}
	if h := scratchHash(b); h != b.hash {
		t.Fatalf("hash %x, from scratch %x\n%s", b.hash, h, b)
	}
	label := floodGroups(b)
	// Same group under Find iff same flood label. Compare via the smallest member of
	// each Find root.
	var rootMin [NumPoints]Cell
	for i := range rootMin {
		rootMin[i] = NoCell
	}
	pts := make([]Cell, 0, g.N+4)
	for p := Cell(0); int(p) < g.N; p++ {
		pts = append(pts, p)
	}
	pts = append(pts, North, South, West, East)
	for _, p := range pts {
		r := b.Find(p)
		if rootMin[r] == NoCell || p < rootMin[r] {
			rootMin[r] = p
		}
	}
	for _, p := range pts {
		if got := rootMin[b.Find(p)]; got != label[p] {
			t.Fatalf("group of %s: union-find says %s, flood fill %s\n%s",
				g.CellName(p), g.CellName(got), g.CellName(label[p]), b)
		}
	}
	bw, ww := label[North] == label[South], label[West] == label[East]
	want := Empty
	if bw {
		want = Black
	} else if ww {
		want = White
	}
	if b.Winner() != want {
		t.Fatalf("Winner %v, flood fill %v\n%s", b.Winner(), want, b)
	}
}

// snapshot is the complete observable and internal state of a board.
type snapshot struct {
	color  [NumPoints]Color
	stones [3]Bitset
	parent [NumPoints]Cell
	size   [NumPoints]int16
	hash   uint64
	toMove Color
	ply    int
	moves  []Move
}

func snap(b *Board) snapshot {
	return snapshot{b.color, b.stones, b.parent, b.size, b.hash, b.toMove, len(b.hist), b.Moves()}
}

func (s snapshot) equal(o snapshot) bool {
	if s.color != o.color || s.stones != o.stones || s.parent != o.parent || s.size != o.size ||
		s.hash != o.hash || s.toMove != o.toMove || s.ply != o.ply || len(s.moves) != len(o.moves) {
		return false
	}
	for i := range s.moves {
		if s.moves[i] != o.moves[i] {
			return false
		}
	}
	return true
}

// randomFill fills every cell of b with a random colour (as setup stones).
func randomFill(b *Board, rng *rand.Rand) {
	for p := Cell(0); int(p) < b.g.N; p++ {
		c := Black
		if rng.IntN(2) == 1 {
			c = White
		}
		b.play(Move{Color: c, Cell: p}, true)
	}
}

// randomLegalMove picks a legal move for the side to move: usually an empty cell,
// sometimes the swap when it is legal.
func randomLegalMove(b *Board, rng *rand.Rand) (Move, bool) {
	c := b.toMove
	if b.Legal(Move{Color: c, Cell: Swap}) == nil && rng.IntN(2) == 0 {
		return Move{Color: c, Cell: Swap}, true
	}
	empty := b.EmptyCells()
	n := empty.Count()
	if n == 0 {
		return Move{}, false
	}
	k := rng.IntN(n)
	for p := empty.First(); p != NoCell; p = empty.Next(p + 1) {
		if k == 0 {
			return Move{Color: c, Cell: p}, true
		}
		k--
	}
	panic("unreachable")
}

// sizes lists the board shapes the property tests use: every square size and a few
// rectangles.
func sizes() [][2]int {
	var s [][2]int
	for n := 1; n <= MaxSize; n++ {
		s = append(s, [2]int{n, n})
	}
	return append(s, [2]int{1, 5}, [2]int{5, 1}, [2]int{2, 7}, [2]int{7, 3}, [2]int{11, 9}, [2]int{13, 19}, [2]int{19, 4})
}

// mustParse returns the board after moves on a w x h board.
func mustParse(t testing.TB, w, h int, moves string) *Board {
	t.Helper()
	b, err := ParsePosition(w, h, moves)
	if err != nil {
		t.Fatalf("ParsePosition(%d, %d, %q): %v", w, h, moves, err)
	}
	return b
}
