package solver

import (
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// pnTable is DFPN's transposition table: 2^bits entries, two-way set-associative
// (a key's bucket is the pair of slots i and i^1, i = key & mask). On boards of up
// to 64 cells the entries are stored in pnSmall form (each set one 64-bit word:
// 88 bytes against 368), so the same memory holds more than four times the
// entries; larger boards store pnEntry as it is. The table is made for a geometry
// on first use (reset) and cleared when the geometry changes. A table made by
// newSharedPNTable serves several solvers at once (SolveOpeningsWith's workers): each
// operation locks its bucket's stripe. A bucket that is full replaces the entry of
// an earlier generation (nextGen, called between the openings of a whole-board run)
// before one of the current search, then the entry that cost less work: the
// entries of earlier searches stay until the current one needs their room, and
// the current search's costly entries are not pushed out by them.
type pnTable struct {
	bits  int
	mask  uint64
	w, h  int // the board shape the entries are for (0: none yet)
	big   []pnEntry
	small []pnSmall
	locks []sync.Mutex // nil: not shared
	// gen is the current search's generation (nextGen): entries stored by an
	// earlier search are replaced first.
	gen uint8
	// shapeMu guards w, h and the allocation of the entries (reset), which a
	// Table's writer reads while solvers may be starting on the table
	shapeMu sync.Mutex
}

// pnSmall is a pnEntry of a board of at most 64 cells: every set is its first word
// (cells 0..63), the only one such a board's cells use. The fields a lookup reads
// (key, used, the numbers) come first, in the entry's first cache line.
type pnSmall struct {
	key              uint64
	pn, dn           uint32
	work             uint32
	best             hex.Cell
	used             bool
	dominated        uint8
	gen              uint8
	must, kids, loss uint64
	wide             uint64
	dead             uint64
	capt             [2]uint64
}

// newPNTable returns an empty table of 2^bits entries (allocated by reset).
func newPNTable(bits int) *pnTable {
	return &pnTable{bits: bits, mask: 1<<bits - 1}
}

// lockStripes is the number of locks of a shared table.
const lockStripes = 1 << 12

// newSharedPNTable returns an empty table of 2^bits entries that several solvers
// may use at once.
func newSharedPNTable(bits int) *pnTable {
	t := newPNTable(bits)
	t.locks = make([]sync.Mutex, lockStripes)
	return t
}

// reset prepares the table for g's board: the right entry form, emptied when it held
// entries of another board shape (the keys of one shape are the same in every
// solver, so a shared table is kept when a second solver starts on it).
func (t *pnTable) reset(g *hex.Geometry) {
	t.shapeMu.Lock()
	defer t.shapeMu.Unlock()
	if t.w == g.W && t.h == g.H {
		return
	}
	t.w, t.h = g.W, g.H
	switch {
	case g.N <= 64 && t.small == nil:
		t.big = nil
		t.small = make([]pnSmall, 1<<t.bits)
		adviseHugePages(t.small)
	case g.N > 64 && t.big == nil:
		t.small = nil
		t.big = make([]pnEntry, 1<<t.bits)
		adviseHugePages(t.big)
	default:
		t.clear()
	}
}

// shape returns the board shape of the entries and the entries themselves (one of
// the slices is nil), as reset last made them.
func (t *pnTable) shape() (w, h int, small []pnSmall, big []pnEntry) {
	t.shapeMu.Lock()
	defer t.shapeMu.Unlock()
	return t.w, t.h, t.small, t.big
}

// clear forgets every entry.
func (t *pnTable) clear() {
	clear(t.big)
	clear(t.small)
}

// word returns the first word of s (a set of a board of at most 64 cells).
func word(s hex.Bitset) uint64 { return s[0] }

// set returns the set whose first word is w.
func set(w uint64) hex.Bitset {
	var s hex.Bitset
	s[0] = w
	return s
}

// lock takes the lock of the bucket of key k and returns it when the table is
// shared; else it returns nil.
func (t *pnTable) lock(k uint64) *sync.Mutex {
	return t.lockSlot(k & t.mask)
}

// lockSlot takes the lock of the bucket of slot i (the slots i and i^1) and returns
// it when the table is shared; else it returns nil. The stripe is taken from the
// bucket's index, so every key of a bucket has the same lock, whatever the table's
// size (taken from the key's bits above the index, two keys of one bucket could hold
// different locks and write its slots at once).
func (t *pnTable) lockSlot(i uint64) *sync.Mutex {
	if t.locks == nil {
		return nil
	}
	m := &t.locks[(i>>1)&uint64(len(t.locks)-1)]
	m.Lock()
	return m
}

// slot returns the index of the entry of key k, or -1 (the caller holds the lock).
func (t *pnTable) slot(k uint64) int {
	i := k & t.mask
	if t.small != nil {
		if e := &t.small[i]; e.used && e.key == k {
			return int(i)
		}
		if e := &t.small[i^1]; e.used && e.key == k {
			return int(i ^ 1)
		}
		return -1
	}
	if e := &t.big[i]; e.used && e.key == k {
		return int(i)
	}
	if e := &t.big[i^1]; e.used && e.key == k {
		return int(i ^ 1)
	}
	return -1
}

// probe copies the entry of key k into e and reports whether there is one.
func (t *pnTable) probe(k uint64, e *pnEntry) bool {
	if m := t.lock(k); m != nil {
		defer m.Unlock()
	}
	i := t.slot(k)
	if i < 0 {
		return false
	}
	if t.small == nil {
		*e = t.big[i]
		return true
	}
	t.entryAt(int(i), e)
	return true
}

// entryAt copies the small-form entry at slot i into e.
func (t *pnTable) entryAt(i int, e *pnEntry) { smallEntry(&t.small[i], e) }

// smallEntry copies the small-form entry s into e.
func smallEntry(s *pnSmall, e *pnEntry) {
	*e = pnEntry{key: s.key, pn: s.pn, dn: s.dn, must: set(s.must), kids: set(s.kids), loss: set(s.loss), wide: set(s.wide),
		dead: set(s.dead), capt: [2]hex.Bitset{set(s.capt[0]), set(s.capt[1])}, best: s.best, work: s.work, used: s.used,
		dominated: s.dominated, gen: s.gen}
}

// values returns the proof and disproof numbers of the entry of key k, and its
// proof set when it is solved (pn or dn 0); ok is false when there is no entry.
func (t *pnTable) values(k uint64) (pn, dn uint32, proof hex.Bitset, ok bool) {
	if m := t.lock(k); m != nil {
		defer m.Unlock()
	}
	i := t.slot(k)
	if i < 0 {
		return 1, 1, proof, false
	}
	if t.small != nil {
		e := &t.small[i]
		if e.pn == 0 || e.dn == 0 {
			proof[0] = e.kids
		}
		return e.pn, e.dn, proof, true
	}
	e := &t.big[i]
	if e.pn == 0 || e.dn == 0 {
		proof = e.kids
	}
	return e.pn, e.dn, proof, true
}

// store writes e (used set) into its bucket: over the entry of the same key or an
// unused slot, else over the slot whose entry cost less work.
func (t *pnTable) store(e *pnEntry) {
	e.used = true
	if m := t.lock(e.key); m != nil {
		defer m.Unlock()
	}
	i := e.key & t.mask
	if t.small != nil {
		a, b := &t.small[i], &t.small[i^1]
		switch {
		case a.used && a.key == e.key, !a.used:
		case b.used && b.key == e.key, !b.used:
			a = b
		case t.victim(a.gen, b.gen, a.work, b.work):
			a = b
		}
		*a = pnSmall{key: e.key, pn: e.pn, dn: e.dn, must: word(e.must), kids: word(e.kids), loss: word(e.loss), wide: word(e.wide),
			dead: word(e.dead), capt: [2]uint64{word(e.capt[0]), word(e.capt[1])}, best: e.best, work: e.work, used: true,
			dominated: e.dominated, gen: t.gen}
		return
	}
	a, b := &t.big[i], &t.big[i^1]
	switch {
	case a.used && a.key == e.key, !a.used:
	case b.used && b.key == e.key, !b.used:
		a = b
	case t.victim(a.gen, b.gen, a.work, b.work):
		a = b
	}
	*a = *e
	a.gen = t.gen
}

// victim reports whether the second entry of a full bucket (generation gb, work
// wb) is the one to replace rather than the first (ga, wa): an entry of an earlier
// search (nextGen) goes before one of the current search, then the entry that cost
// less work to compute.
func (t *pnTable) victim(ga, gb uint8, wa, wb uint32) bool {
	if oa, ob := ga != t.gen, gb != t.gen; oa != ob {
		return ob
	}
	return wb < wa
}

// nextGen starts a new generation: the entries stored so far stay and are found
// as before, but a full bucket replaces them before the entries of the new search.
// It must be called while no solver uses the table (between searches).
func (t *pnTable) nextGen() { t.gen++ }
