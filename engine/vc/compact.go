package vc

import (
	"math/bits"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Compact is the one-word fast path of this package's H-search, specialised for
// solvers: boards of at most 64 cells, so that a carrier is one machine word, and only
// the connections between a colour's two edges are answered (WinningVC, WinningSC,
// Mustplay; the methods of engine/solver's Connector interface). Its rules are the
// Builder's with AndOverEdge off and XH off: base VCs between adjacent points, AND
// through chains (a VC through an empty midpoint gives an SC keyed there), OR over at
// most MaxOr SCs, and with SemiAnd the SC-and-VC AND through a chain; only minimal
// carriers are kept, at most MaxFull VCs and MaxSemi SCs per pair, and it stops at the
// first winning VC (as Config.StopAtWin). TestCompactMatchesBuilder checks that with
// unlimited lists it finds a winning VC exactly when Builder does. On larger boards it
// reports no connection. The last result of each colour is kept (keyed by the board's
// Zobrist hash), so asking several questions about one position builds once. It is
// not safe for concurrent use.
type Compact struct {
	MaxFull int // VCs kept per point pair (default 16)
	MaxSemi int // SCs kept per point pair (default 24)
	MaxOr   int // most SCs one OR deduction combines (default 4)
	// MaxWork bounds the deductions processed per build (default 20000); the answer
	// stays sound when the bound cuts the search short, only weaker.
	MaxWork int
	// SemiAnd also chains an SC and a VC through a stone group into an SC.
	SemiAnd bool

	np      int
	cellPt  [64]int16     // cell -> point (-1: opponent stone)
	ptCell  [66]int8      // point -> cell (-1 for a group)
	isGroup [66]bool      // point is a stone group or edge group
	nbr     [66]uint64    // cells adjacent to each point (empty cells only)
	grpNbr  [66][2]bool   // point touches edge group A / B (only for empty cells)
	ea, eb  int           // the edge group points
	ptBit   [66]uint64    // carrier bit of each point (0 for groups)
	fullTo  [66][2]uint64 // points with at least one VC to each point
	semiTo  [66][2]uint64 // points with at least one SC to each point

	fullN []uint8
	fullC []uint64
	semiN []uint8
	semiC []uint64
	semiK []int8
	queue []compactEvent
	// suffix holds the running intersections of one OR step
	suffix [256]uint64

	won   bool
	color hex.Color
	// one saved result per colour, so that both colours' answers stay available
	saved [3]compactSaved
}

type compactEvent struct {
	i, j int16
	semi bool
	key  int8
	c    uint64
}

type compactSaved struct {
	hash  uint64
	g     *hex.Geometry
	ok    bool
	won   bool
	full  uint64   // smallest edge-to-edge VC carrier
	semis []uint64 // edge-to-edge SC carriers, keys included
	keys  []int8
}

// NewCompact returns a compact H-search with the solver's limits: 16 VCs and 24 SCs
// per pair, OR over up to 4 SCs, 20,000 deductions per build, SemiAnd off.
func NewCompact() *Compact {
	return &Compact{MaxFull: 16, MaxSemi: 24, MaxOr: 4, MaxWork: 20000}
}

func (h *Compact) pair(i, j int) int {
	if i > j {
		i, j = j, i
	}
	return i*h.np + j
}

// result runs H-search for colour c (unless the last build for c was of the same
// position) and saves the edge-to-edge answers.
func (h *Compact) result(b *hex.Board, c hex.Color) *compactSaved {
	sv := &h.saved[c]
	hash := b.Hash()
	g := b.Geometry()
	if sv.ok && sv.hash == hash && sv.g == g {
		return sv
	}
	sv.ok = false
	sv.won = false
	sv.semis = sv.semis[:0]
	sv.keys = sv.keys[:0]
	if g.N > 64 {
		return sv
	}
	h.run(b, c)
	sv.hash, sv.g, sv.ok, sv.won = hash, g, true, h.won
	if h.won && h.ea == h.eb { // the edges are joined by stones already
		sv.full = 0
		return sv
	}
	if h.won {
		base := h.pair(h.ea, h.eb) * h.MaxFull
		best := ^uint64(0)
		bestN := 65
		for k := 0; k < int(h.fullN[h.pair(h.ea, h.eb)]); k++ {
			if n := bits.OnesCount64(h.fullC[base+k]); n < bestN {
				best, bestN = h.fullC[base+k], n
			}
		}
		sv.full = best
		return sv
	}
	p := h.pair(h.ea, h.eb)
	for k := 0; k < int(h.semiN[p]); k++ {
		sv.semis = append(sv.semis, h.semiC[p*h.MaxSemi+k])
		sv.keys = append(sv.keys, h.semiK[p*h.MaxSemi+k])
	}
	return sv
}

func (h *Compact) run(b *hex.Board, c hex.Color) {
	g := b.Geometry()
	if h.MaxFull <= 0 || h.MaxFull > 255 {
		h.MaxFull = 16
	}
	if h.MaxSemi <= 0 || h.MaxSemi > 255 {
		h.MaxSemi = 24
	}
	if h.MaxOr < 2 {
		h.MaxOr = 4
	}
	if h.MaxWork <= 0 {
		h.MaxWork = 20000
	}
	h.won = false
	h.color = c
	// points: empty cells, then groups (edge groups first)
	var rootPt [hex.NumPoints]int16 // only roots are read
	e1, e2 := hex.EdgesOf(c)
	r1, r2 := b.Find(e1), b.Find(e2)
	np := 0
	h.ea = np
	h.isGroup[np], h.ptCell[np] = true, -1
	rootPt[r1] = int16(np)
	np++
	if r1 == r2 {
		h.won = true
		h.np = np
		h.eb = h.ea
		return
	}
	h.eb = np
	h.isGroup[np], h.ptCell[np] = true, -1
	rootPt[r2] = int16(np)
	np++
	st := b.Stones(c)
	var seenRoot hex.Bitset
	for p := st.First(); p != hex.NoCell; p = st.Next(p + 1) {
		r := b.Find(p)
		if r == r1 || r == r2 || seenRoot.Has(r) {
			continue
		}
		seenRoot.Set(r)
		h.isGroup[np], h.ptCell[np] = true, -1
		rootPt[r] = int16(np)
		np++
	}
	for p := hex.Cell(0); int(p) < g.N; p++ {
		switch b.At(p) {
		case hex.Empty:
			h.cellPt[p] = int16(np)
			h.isGroup[np], h.ptCell[np] = false, int8(p)
			np++
		case c:
			h.cellPt[p] = rootPt[b.Find(p)]
		default:
			h.cellPt[p] = -1
		}
	}
	h.np = np
	for i := 0; i < np; i++ {
		h.fullTo[i] = [2]uint64{}
		h.semiTo[i] = [2]uint64{}
		h.ptBit[i] = 0
		if !h.isGroup[i] {
			h.ptBit[i] = 1 << uint(h.ptCell[i])
		}
	}
	pairs := np * np
	if cap(h.fullN) < pairs {
		h.fullN = make([]uint8, pairs)
		h.semiN = make([]uint8, pairs)
	}
	h.fullN = h.fullN[:pairs]
	h.semiN = h.semiN[:pairs]
	clear(h.fullN)
	clear(h.semiN)
	if cap(h.fullC) < pairs*h.MaxFull {
		h.fullC = make([]uint64, pairs*h.MaxFull)
	}
	h.fullC = h.fullC[:pairs*h.MaxFull]
	if cap(h.semiC) < pairs*h.MaxSemi {
		h.semiC = make([]uint64, pairs*h.MaxSemi)
		h.semiK = make([]int8, pairs*h.MaxSemi)
	}
	h.semiC = h.semiC[:pairs*h.MaxSemi]
	h.semiK = h.semiK[:pairs*h.MaxSemi]
	h.queue = h.queue[:0]
	// base: adjacent points
	for p := hex.Cell(0); int(p) < g.N; p++ {
		ip := int(h.cellPt[p])
		if ip < 0 || h.isGroup[ip] {
			continue
		}
		for _, q := range g.Neighbours(p) {
			var iq int
			switch {
			case q.IsEdge():
				if q != e1 && q != e2 {
					continue
				}
				iq = int(rootPt[b.Find(q)])
			default:
				iq = int(h.cellPt[q])
				if iq < 0 || (!h.isGroup[iq] && q < p) {
					continue
				}
			}
			h.addFull(ip, iq, 0)
		}
	}
	work := 0
	for head := 0; head < len(h.queue) && !h.won; head++ {
		work++
		if work > h.MaxWork {
			break
		}
		ev := h.queue[head]
		if ev.semi {
			h.orRule(int(ev.i), int(ev.j), ev.c)
			if !h.won && h.SemiAnd {
				h.semiAnd(int(ev.i), int(ev.j), ev.c, ev.key)
				h.semiAnd(int(ev.j), int(ev.i), ev.c, ev.key)
			}
		} else {
			h.andRule(int(ev.i), int(ev.j), ev.c)
			h.andRule(int(ev.j), int(ev.i), ev.c)
		}
	}
}

// andRule combines the new VC (x, y) with every VC (y, z) through midpoint y.
func (h *Compact) andRule(x, y int, c uint64) {
	if y == h.ea || y == h.eb {
		return
	}
	xb := h.ptBit[x]
	yb := h.ptBit[y]
	grp := h.isGroup[y]
	for w := 0; w < 2; w++ {
		zs := h.fullTo[y][w]
		for zs != 0 {
			z := w*64 + bits.TrailingZeros64(zs)
			zs &= zs - 1
			if z == x || c&h.ptBit[z] != 0 {
				continue
			}
			p := h.pair(y, z)
			base := p * h.MaxFull
			for _, d := range h.fullC[base : base+int(h.fullN[p])] {
				if d&c != 0 || d&xb != 0 {
					continue
				}
				if grp {
					h.addFull(x, z, c|d)
				} else {
					h.addSemi(x, z, c|d|yb, int8(h.ptCell[y]))
				}
				if h.won {
					return
				}
			}
		}
	}
	if !grp || !h.SemiAnd {
		return
	}
	// an SC (y, z) after the VC (x, y) through the group y is an SC (x, z)
	for w := 0; w < 2; w++ {
		zs := h.semiTo[y][w]
		for zs != 0 {
			z := w*64 + bits.TrailingZeros64(zs)
			zs &= zs - 1
			if z == x || c&h.ptBit[z] != 0 {
				continue
			}
			p := h.pair(y, z)
			n := int(h.semiN[p])
			for k := 0; k < n; k++ {
				d := h.semiC[p*h.MaxSemi+k]
				if d&c != 0 || d&xb != 0 {
					continue
				}
				h.addSemi(x, z, c|d, h.semiK[p*h.MaxSemi+k])
			}
		}
	}
}

// semiAnd combines the new SC (x, y) with every VC (y, z) through the group y into
// an SC (x, z) with the same key.
func (h *Compact) semiAnd(x, y int, c uint64, key int8) {
	if y == h.ea || y == h.eb || !h.isGroup[y] {
		return
	}
	xb := h.ptBit[x]
	for w := 0; w < 2; w++ {
		zs := h.fullTo[y][w]
		for zs != 0 {
			z := w*64 + bits.TrailingZeros64(zs)
			zs &= zs - 1
			if z == x || c&h.ptBit[z] != 0 {
				continue
			}
			p := h.pair(y, z)
			n := int(h.fullN[p])
			for k := 0; k < n; k++ {
				d := h.fullC[p*h.MaxFull+k]
				if d&c != 0 || d&xb != 0 {
					continue
				}
				h.addSemi(x, z, c|d, key)
			}
		}
	}
}

// orRule combines the new SC s of (x, y) with other SCs of the pair whose carriers
// intersect to nothing. suffix[k] is the intersection of the pair's SCs k..n-1: a
// combination whose running intersection meets it can never reach the empty set, so
// the search is cut there.
func (h *Compact) orRule(x, y int, s uint64) {
	p := h.pair(x, y)
	base, n := p*h.MaxSemi, int(h.semiN[p])
	acc := ^uint64(0)
	for k := n - 1; k >= 0; k-- {
		acc &= h.semiC[base+k]
		h.suffix[k] = acc
	}
	if n == 0 || s&h.suffix[0] != 0 {
		return
	}
	h.orRec(x, y, base, n, s, 0, s, s, 1)
}

func (h *Compact) orRec(x, y, base, n int, s uint64, start int, union, inter uint64, depth int) {
	for k := start; k < n && !h.won; k++ {
		if inter&h.suffix[k] != 0 {
			return
		}
		sc := h.semiC[base+k]
		if sc == s {
			continue
		}
		ni := inter & sc
		if ni == inter {
			continue
		}
		if ni == 0 {
			h.addFull(x, y, union|sc)
			continue
		}
		if depth+1 < h.MaxOr && k+1 < n && ni&h.suffix[k+1] == 0 {
			h.orRec(x, y, base, n, s, k+1, union|sc, ni, depth+1)
		}
	}
}

func (h *Compact) addFull(i, j int, c uint64) {
	p := h.pair(i, j)
	base := p * h.MaxFull
	n := int(h.fullN[p])
	for k := 0; k < n; k++ {
		if h.fullC[base+k]&^c == 0 {
			return // an existing VC is a subset
		}
	}
	// drop supersets
	w := 0
	for k := 0; k < n; k++ {
		if d := h.fullC[base+k]; c&^d != 0 {
			h.fullC[base+w] = d
			w++
		}
	}
	n = w
	if n == h.MaxFull {
		// replace the largest if the new one is smaller
		big := largerThan(h.fullC[base:base+n], c)
		if big < 0 {
			h.fullN[p] = uint8(n)
			return
		}
		h.fullC[base+big] = c
	} else {
		h.fullC[base+n] = c
		n++
	}
	h.fullN[p] = uint8(n)
	h.fullTo[i][j>>6] |= 1 << uint(j&63)
	h.fullTo[j][i>>6] |= 1 << uint(i&63)
	if (i == h.ea && j == h.eb) || (i == h.eb && j == h.ea) {
		h.won = true
		return
	}
	h.queue = append(h.queue, compactEvent{i: int16(i), j: int16(j), c: c})
}

func (h *Compact) addSemi(i, j int, c uint64, key int8) {
	p := h.pair(i, j)
	fb := p * h.MaxFull
	for _, f := range h.fullC[fb : fb+int(h.fullN[p])] {
		if f&^c == 0 {
			return // a VC with a smaller carrier exists
		}
	}
	base := p * h.MaxSemi
	n := int(h.semiN[p])
	for _, d := range h.semiC[base : base+n] {
		if d&^c == 0 {
			return
		}
	}
	w := 0
	for k := 0; k < n; k++ {
		if d := h.semiC[base+k]; c&^d != 0 {
			h.semiC[base+w] = d
			h.semiK[base+w] = h.semiK[base+k]
			w++
		}
	}
	n = w
	if n == h.MaxSemi {
		big := largerThan(h.semiC[base:base+n], c)
		if big < 0 {
			h.semiN[p] = uint8(n)
			return
		}
		h.semiC[base+big] = c
		h.semiK[base+big] = key
	} else {
		h.semiC[base+n] = c
		h.semiK[base+n] = key
		n++
	}
	h.semiN[p] = uint8(n)
	h.semiTo[i][j>>6] |= 1 << uint(j&63)
	h.semiTo[j][i>>6] |= 1 << uint(i&63)
	h.queue = append(h.queue, compactEvent{i: int16(i), j: int16(j), semi: true, key: key, c: c})
}

func compactBits(c uint64) hex.Bitset {
	var s hex.Bitset
	s[0] = c
	return s
}

// WinningVC reports whether colour c connects its edges even with the opponent to
// move, with the smallest such carrier found.
func (h *Compact) WinningVC(b *hex.Board, c hex.Color) (hex.Bitset, bool) {
	sv := h.result(b, c)
	if !sv.ok || !sv.won {
		return hex.Bitset{}, false
	}
	return compactBits(sv.full), true
}

// WinningSC reports whether colour c, moving first, connects its edges (and has
// no winning VC), with the key and the carrier (key included) of the smallest such SC.
func (h *Compact) WinningSC(b *hex.Board, c hex.Color) (hex.Cell, hex.Bitset, bool) {
	sv := h.result(b, c)
	if !sv.ok || sv.won || len(sv.semis) == 0 {
		return hex.NoCell, hex.Bitset{}, false
	}
	best := 0
	for k := range sv.semis {
		if bits.OnesCount64(sv.semis[k]) < bits.OnesCount64(sv.semis[best]) {
			best = k
		}
	}
	return hex.Cell(sv.keys[best]), compactBits(sv.semis[best]), true
}

// Mustplay returns, for the side x to move, the intersection of the opponent's
// edge-to-edge SC carriers (keys included): outside it every x-move leaves the
// opponent a winning connection. proof is their union. ok is false when the opponent
// has no such SC or already a winning VC.
func (h *Compact) Mustplay(b *hex.Board, x hex.Color) (must, proof hex.Bitset, ok bool) {
	sv := h.result(b, x.Opp())
	if !sv.ok || sv.won || len(sv.semis) == 0 {
		return must, proof, false
	}
	m := ^uint64(0)
	var u uint64
	for _, s := range sv.semis {
		m &= s
		u |= s
	}
	return compactBits(m), compactBits(u), true
}

// largerThan returns the index of the largest carrier in list that has more cells than
// c (the first of equal ones), or -1 when none has: the one a full list gives up for c.
func largerThan(list []uint64, c uint64) int {
	big, bigN := -1, bits.OnesCount64(c)
	for k, d := range list {
		if m := bits.OnesCount64(d); m > bigN {
			big, bigN = k, m
		}
	}
	return big
}
