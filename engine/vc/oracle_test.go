package vc

import (
	"math/bits"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// oracle decides connections by brute-force game-tree search restricted to a carrier:
// the colour's stones and edges stay, both endpoints count as the colour's stones,
// every empty cell outside the carrier is unavailable. Nodes 0..n-1 are the carrier
// cells, the others the fixed groups of own stones (endpoints and edges included).
type oracle struct {
	n     int
	adj   []uint64 // adjacency masks over nodes
	fixed uint64   // mask of fixed group nodes
	xn    int      // node of x
	yn    int      // node of y
	memo  map[uint64]bool
}

func newOracle(board *hex.Board, c hex.Color, x, y hex.Cell, carrier hex.Bitset) *oracle {
	g := board.Geometry()
	own := board.Stones(c)
	ea, eb := hex.EdgesOf(c)
	own.Set(ea)
	own.Set(eb)
	own.Set(x)
	own.Set(y)
	cells := carrier.AppendCells(nil)
	o := &oracle{n: len(cells), memo: map[uint64]bool{}}
	var comps []hex.Bitset
	var seen hex.Bitset
	for p := own.First(); p != hex.NoCell; p = own.Next(p + 1) {
		if seen.Has(p) {
			continue
		}
		var comp, frontier hex.Bitset
		comp.Set(p)
		frontier.Set(p)
		for !frontier.IsEmpty() {
			var next hex.Bitset
			for q := frontier.First(); q != hex.NoCell; q = frontier.Next(q + 1) {
				next = next.Or(*g.NeighbourSet(q))
			}
			next = next.And(own).AndNot(comp)
			comp = comp.Or(next)
			frontier = next
		}
		seen = seen.Or(comp)
		comps = append(comps, comp)
	}
	total := len(cells) + len(comps)
	if total > 64 {
		panic("oracle: too many nodes")
	}
	o.adj = make([]uint64, total)
	nb := func(p hex.Cell) hex.Bitset { return *g.NeighbourSet(p) }
	for i, a := range cells {
		na := nb(a)
		for j, b := range cells {
			if i != j && na.Has(b) {
				o.adj[i] |= 1 << j
			}
		}
		for k, comp := range comps {
			if na.Intersects(&comp) {
				o.adj[i] |= 1 << (len(cells) + k)
				o.adj[len(cells)+k] |= 1 << i
			}
		}
	}
	for k, comp := range comps {
		o.fixed |= 1 << (len(cells) + k)
		if comp.Has(x) {
			o.xn = len(cells) + k
		}
		if comp.Has(y) {
			o.yn = len(cells) + k
		}
	}
	return o
}

// connected reports whether x and y are joined through own groups plus the carrier
// cells in mask bm.
func (o *oracle) connected(bm uint64) bool {
	if o.xn == o.yn {
		return true
	}
	allowed := o.fixed | bm
	reach := uint64(1) << o.xn
	for {
		next := reach
		for r := reach; r != 0; r &= r - 1 {
			next |= o.adj[bits.TrailingZeros64(r)]
		}
		next &= allowed
		if next&(1<<o.yn) != 0 {
			return true
		}
		if next == reach {
			return false
		}
		reach = next
	}
}

// win reports whether the colour connects with the given masks, toMove = own (true)
// or opponent (false).
func (o *oracle) win(bm, wm uint32, ownMove bool) bool {
	if o.connected(uint64(bm)) {
		return true
	}
	all := uint32(1)<<o.n - 1
	free := all &^ (bm | wm)
	if free == 0 || !o.connected(uint64(bm|free)) {
		return false
	}
	key := uint64(bm) | uint64(wm)<<24
	if ownMove {
		key |= 1 << 60
	}
	if v, ok := o.memo[key]; ok {
		return v
	}
	res := !ownMove
	for i := 0; i < o.n; i++ {
		m := uint32(1) << i
		if free&m == 0 {
			continue
		}
		if ownMove {
			if o.win(bm|m, wm, false) {
				res = true
				break
			}
		} else if !o.win(bm, wm|m, true) {
			res = false
			break
		}
	}
	o.memo[key] = res
	return res
}

// isVC reports whether (x, carrier, y) is a second-player connection.
func isVC(board *hex.Board, c hex.Color, x, y hex.Cell, carrier hex.Bitset) bool {
	o := newOracle(board, c, x, y, carrier)
	return o.win(0, 0, false)
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
	return o.win(1<<i, 0, false)
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
	cfgs = append(cfgs, big)
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
