package hex

import (
	"math/rand/v2"
	"testing"
)

// TestPointMaps: the 180° rotation and the diagonal reflection are involutions that
// map neighbours to neighbours, edges included (the reflection onto the H x W board).
func TestPointMaps(t *testing.T) {
	for _, s := range sizes() {
		g := MustGeometry(s[0], s[1])
		gt := MustGeometry(s[1], s[0])
		pts := []Cell{North, South, West, East}
		for p := Cell(0); int(p) < g.N; p++ {
			pts = append(pts, p)
		}
		for _, p := range pts {
			r := g.Rotate180(p)
			if !g.OnBoard(r) || g.Rotate180(r) != p {
				t.Fatalf("%dx%d: Rotate180 not an involution at %s", g.W, g.H, g.CellName(p))
			}
			tr := g.Transpose(p)
			if !gt.OnBoard(tr) || gt.Transpose(tr) != p {
				t.Fatalf("%dx%d: Transpose not an involution at %s", g.W, g.H, g.CellName(p))
			}
			if !p.IsEdge() {
				x, y := g.XY(p)
				if tx, ty := gt.XY(tr); tx != y || ty != x {
					t.Fatalf("Transpose(%s) = %s", g.CellName(p), gt.CellName(tr))
				}
				if rx, ry := g.XY(r); rx != g.W-1-x || ry != g.H-1-y {
					t.Fatalf("Rotate180(%s) = %s", g.CellName(p), g.CellName(r))
				}
			}
			ns := g.NeighbourSet(p)
			for q := ns.First(); q != NoCell; q = ns.Next(q + 1) {
				if !g.NeighbourSet(g.Rotate180(p)).Has(g.Rotate180(q)) {
					t.Fatalf("rotation breaks adjacency of %s and %s", g.CellName(p), g.CellName(q))
				}
				if !gt.NeighbourSet(g.Transpose(p)).Has(g.Transpose(q)) {
					t.Fatalf("reflection breaks adjacency of %s and %s", g.CellName(p), g.CellName(q))
				}
			}
		}
		// The left-right mirror is not a symmetry (docs/design.md): on 3x3 and larger it
		// breaks an adjacency.
		if g.W >= 2 && g.H >= 2 {
			mirror := func(p Cell) Cell { x, y := g.XY(p); return g.At(g.W-1-x, y) }
			a, b := g.At(1, 0), g.At(0, 1) // adjacent: (x+1, y-1)
			if g.NeighbourSet(mirror(a)).Has(mirror(b)) {
				t.Fatalf("%dx%d: the left-right mirror kept an adjacency it must break", g.W, g.H)
			}
		}
	}
}

// TestBoardSymmetries: Rotated and Reflected are involutions on whole positions
// (stones, side to move, hash), the rotation keeps the winner and the reflection
// exchanges the winner's colour.
func TestBoardSymmetries(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	n := 100
	if testing.Short() {
		n = 20
	}
	for _, s := range sizes() {
		for i := 0; i < n; i++ {
			b := MustBoard(s[0], s[1])
			if i%2 == 0 {
				randomFill(b, rng)
			} else {
				for k := rng.IntN(b.g.N + 1); k > 0; k-- {
					m, ok := randomLegalMove(b, rng)
					if !ok {
						break
					}
					b.Play(m)
				}
			}
			if rng.IntN(3) == 0 {
				b.SetToMove(b.ToMove().Opp())
			}
			r := b.Rotated()
			checkInvariants(t, r)
			if r.Winner() != b.Winner() || r.ToMove() != b.ToMove() || r.NumStones() != b.NumStones() {
				t.Fatalf("rotation changed winner or side to move\n%s\n%s", b, r)
			}
			rr := r.Rotated()
			if rr.stones != b.stones || rr.Hash() != b.Hash() || rr.ToMove() != b.ToMove() {
				t.Fatalf("rotating twice is not the identity\n%s\n%s", b, rr)
			}
			f := b.Reflected()
			checkInvariants(t, f)
			if f.Width() != b.Height() || f.Height() != b.Width() {
				t.Fatal("reflection did not exchange width and height")
			}
			if f.Winner() != b.Winner().Opp() || f.ToMove() != b.ToMove().Opp() {
				t.Fatalf("reflection: winner %v -> %v, to move %v -> %v\n%s\n%s",
					b.Winner(), f.Winner(), b.ToMove(), f.ToMove(), b, f)
			}
			if f.StonesPtr(Black).Count() != b.StonesPtr(White).Count() {
				t.Fatal("reflection did not exchange the colours")
			}
			ff := f.Reflected()
			if ff.g != b.g || ff.stones != b.stones || ff.Hash() != b.Hash() || ff.ToMove() != b.ToMove() {
				t.Fatalf("reflecting twice is not the identity\n%s\n%s", b, ff)
			}
			// The two symmetries commute.
			if a, c := b.Rotated().Reflected(), b.Reflected().Rotated(); a.stones != c.stones || a.Hash() != c.Hash() {
				t.Fatal("rotation and reflection do not commute")
			}
		}
	}
}

// TestSwapIsReflection: the board after "x swap-pieces" is the Reflected() board after
// "x": Black's stone becomes White's on the mirrored cell, and Black is to move.
func TestSwapIsReflection(t *testing.T) {
	for n := 1; n <= 7; n++ {
		g := MustGeometry(n, n)
		for p := Cell(0); int(p) < g.N; p++ {
			b := NewBoardGeometry(g)
			b.Play(Move{Black, p})
			want := b.Reflected()
			b.Play(Move{White, Swap})
			if b.stones != want.stones || b.Hash() != want.Hash() || b.ToMove() != want.ToMove() {
				t.Fatalf("%dx%d %s swap-pieces:\n%s\nwant\n%s", n, n, g.CellName(p), b, want)
			}
		}
	}
}
