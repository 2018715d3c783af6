package brute

import (
	"math/rand"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ShoulderPosition returns a random w x h position (no winner yet, random side to
// move) built around engine/ice's edge-shoulder inferior patterns, so that oracle
// tests of the fill-in and of its users meet them often: a first-row cell T of one
// colour's edge (either colour, either of its edges, the edge stone on either side) is
// left empty with its neighbour along the edge and its inner second-row neighbour (and,
// mostly, its other second-row neighbour), the edge stone beside T and that stone's
// outer second-row neighbour are the colour's, and the other cells hold random stones
// until empty cells are left (at least the pattern's). It returns nil when the board
// is too small for the pattern or every try was already won.
func ShoulderPosition(rng *rand.Rand, w, h, empty int) *hex.Board {
	g, err := hex.NewGeometry(w, h)
	if err != nil {
		return nil
	}
	// the pattern as written for Black on the north edge, relative to T: the cells
	// kept empty, the two Black stones, and T's other second-row neighbour (also kept
	// empty mostly: with a stone there the target is dead or captured)
	shapes := [2][6][2]int{
		{{0, 0}, {-1, 0}, {0, 1}, {1, 0}, {1, 1}, {-1, 1}},  // edge stone right of T
		{{0, 0}, {1, 0}, {-1, 1}, {-1, 0}, {-2, 1}, {0, 1}}, // edge stone left of T
	}
	for try := 0; try < 100; try++ {
		shape := shapes[rng.Intn(2)]
		rot, refl := rng.Intn(2) == 1, rng.Intn(2) == 1
		owner := hex.Black
		if refl {
			owner = hex.White
		}
		// T's place on the edge
		var tx, ty int
		switch {
		case !refl && !rot:
			tx, ty = rng.Intn(w), 0
		case !refl && rot:
			tx, ty = rng.Intn(w), h-1
		case refl && !rot:
			tx, ty = 0, rng.Intn(h)
		default:
			tx, ty = w-1, rng.Intn(h)
		}
		var cells [6]hex.Cell
		ok := true
		for i, d := range shape {
			dx, dy := d[0], d[1]
			if rot {
				dx, dy = -dx, -dy
			}
			if refl {
				dx, dy = dy, dx
			}
			x, y := tx+dx, ty+dy
			if x < 0 || y < 0 || x >= w || y >= h {
				ok = i == 5 // the sixth cell may lie off the board
				cells[i] = hex.NoCell
				break
			}
			cells[i] = g.At(x, y)
		}
		if !ok {
			continue
		}
		b := hex.NewBoardGeometry(g)
		b.PlayStone(owner, cells[3])
		b.PlayStone(owner, cells[4])
		var keep hex.Bitset
		for _, c := range cells[:3] {
			keep.Set(c)
		}
		if cells[5] != hex.NoCell && rng.Intn(5) != 0 {
			keep.Set(cells[5])
		}
		free := b.EmptyCells().AndNot(keep).AppendCells(nil)
		rng.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
		n := len(free) - max(0, empty-keep.Count())
		pb := 0.3 + 0.4*rng.Float64()
		for _, c := range free[:max(0, n)] {
			col := hex.White
			if rng.Float64() < pb {
				col = hex.Black
			}
			b.PlayStone(col, c)
		}
		if b.Winner() != hex.Empty {
			continue
		}
		if rng.Intn(2) == 0 {
			b.SetToMove(hex.White)
		} else {
			b.SetToMove(hex.Black)
		}
		return b
	}
	return nil
}
