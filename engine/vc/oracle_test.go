package vc

import (
	"math/rand/v2"
	"os"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// oracle decides connections by brute-force game-tree search restricted to a carrier
// (internal/brute's Carrier game): the colour's stones and edges stay, both endpoints
// count as the colour's stones, every empty cell outside the carrier is unavailable.
type oracle struct{ *brute.Carrier }

func newOracle(board *hex.Board, c hex.Color, x, y hex.Cell, carrier hex.Bitset) *oracle {
	own := board.Stones(c)
	ea, eb := hex.EdgesOf(c)
	own.Set(ea)
	own.Set(eb)
	cg, err := brute.NewCarrier(board.Geometry(), own, x, y, carrier)
	if err != nil {
		panic(err) // the tests keep carriers small
	}
	return &oracle{cg}
}

// isVC reports whether (x, carrier, y) is a second-player connection.
func isVC(board *hex.Board, c hex.Color, x, y hex.Cell, carrier hex.Bitset) bool {
	o := newOracle(board, c, x, y, carrier)
	return o.Wins(0, 0, false)
}

// isSC reports whether (x, carrier, y) is a first-player connection starting at key.
func isSC(board *hex.Board, c hex.Color, x, y hex.Cell, carrier hex.Bitset, key hex.Cell) bool {
	if !carrier.Has(key) {
		return false
	}
	o := newOracle(board, c, x, y, carrier)
	i := 0
	for p := carrier.First(); p != key; p = carrier.Next(p + 1) {
		i++
	}
	return o.Wins(1<<i, 0, false)
}

// randomPosition plays n random stones of each colour alternately (no winner check).
func randomPosition(r *rand.Rand, w, h, n int) *hex.Board {
	b := hex.MustBoard(w, h)
	cells := make([]hex.Cell, w*h)
	for i := range cells {
		cells[i] = hex.Cell(i)
	}
	r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	col := hex.Black
	for k := 0; k < n && k < len(cells); k++ {
		b.PlayStone(col, cells[k])
		col = col.Opp()
	}
	return b
}

// checkSound verifies connections of bl (built for colour c on board) with the
// oracle: every crossing-rule SC and up to sample others chosen with r (all of them
// when sample < 0), for carriers of at most maxCarrier cells. It returns the numbers
// checked and skipped.
func checkSound(t *testing.T, r *rand.Rand, board *hex.Board, c hex.Color, bl *Builder, maxCarrier, sample int) (checked, skipped int) {
	t.Helper()
	g := board.Geometry()
	type item struct {
		x, y hex.Cell
		c    Conn
		semi bool
	}
	var items []item
	bl.EachFull(func(x, y hex.Cell, cn *Conn) bool {
		items = append(items, item{x, y, *cn, false})
		return true
	})
	bl.EachSemi(func(x, y hex.Cell, cn *Conn) bool {
		items = append(items, item{x, y, *cn, true})
		return true
	})
	r.Shuffle(len(items), func(i, j int) { items[i], items[j] = items[j], items[i] })
	bad := 0
	n := 0
	for _, it := range items {
		if it.c.Carrier.Count() > maxCarrier {
			skipped++
			continue
		}
		if sample >= 0 && n >= sample && it.c.Rule != RuleCross {
			continue
		}
		n++
		checked++
		var ok bool
		kind := "VC"
		if it.semi {
			kind = "SC"
			ok = isSC(board, c, it.x, it.y, it.c.Carrier, it.c.Key)
		} else {
			ok = isVC(board, c, it.x, it.y, it.c.Carrier)
		}
		if !ok {
			bad++
			if bad < 5 {
				t.Errorf("unsound %s %v %s-%s key %s carrier %s rule %v\n%s", kind, c, g.CellName(it.x), g.CellName(it.y),
					g.CellName(it.c.Key), cellList(g, it.c.Carrier), it.c.Rule, board.Diagram())
			}
		}
	}
	return checked, skipped
}

func cellList(g *hex.Geometry, s hex.Bitset) string {
	if s.IsEmpty() {
		return "[ ]"
	}
	return "[ " + g.FormatCells(s) + " ]"
}

// TestSoundnessOracle checks every VC and SC found on random small positions by
// brute force, for H-search and XH-search.
func TestSoundnessOracle(t *testing.T) {
	// The default run checks a sample of every position's connections; set
	// HEXLEARN_VC_ORACLE=all to check every connection with a carrier of up to 12 cells
	// on 500 positions (slow: run it with -timeout 60m).
	positions, maxCarrier, sample := 2000, 12, 8
	if testing.Short() {
		positions = 400
	}
	if os.Getenv("HEXLEARN_VC_ORACLE") == "all" {
		positions, maxCarrier, sample = 500, 12, -1
	}
	r := rand.New(rand.NewPCG(7, 11))
	cfgs := []Config{DefaultConfig(), XHConfig()}
	small := DefaultConfig()
	small.MaxFull, small.MaxSemi, small.MaxOr = 3, 3, 2
	cfgs = append(cfgs, small)
	noEdge := XHConfig()
	noEdge.AndOverEdge = false
	noEdge.SemiAnd = false
	cfgs = append(cfgs, noEdge)
	big := DefaultConfig() // Benzene's soft limits as hard limits: long OR lists
	big.MaxFull, big.MaxSemi = 25, 50
	cfgs = append(cfgs, big, FastVCConfig())
	builders := make([]*Builder, len(cfgs))
	for i, c := range cfgs {
		builders[i] = NewBuilder(c)
	}
	total, skippedAll := 0, 0
	cross := 0
	for n := 0; n < positions; n++ {
		w := 3 + r.IntN(4)
		h := 3 + r.IntN(4)
		if r.IntN(2) == 0 {
			h = w
		}
		board := randomPosition(r, w, h, r.IntN(w*h*2/3+1))
		col := hex.Black
		if r.IntN(2) == 0 {
			col = hex.White
		}
		bl := builders[n%len(builders)]
		if err := bl.Build(board, col); err != nil {
			t.Fatal(err)
		}
		bl.EachSemi(func(x, y hex.Cell, c *Conn) bool {
			if c.Rule == RuleCross {
				cross++
			}
			return true
		})
		ck, sk := checkSound(t, r, board, col, bl, maxCarrier, sample)
		total += ck
		skippedAll += sk
		if t.Failed() {
			return
		}
	}
	t.Logf("checked %d connections (%d crossing-rule SCs seen), skipped %d with larger carriers", total, cross, skippedAll)
}
