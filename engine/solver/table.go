package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
)

// pnTable is DFPN's transposition table: 2^bits entries, two-way set-associative
// (a key's bucket is the pair of slots i and i^1, i = key & mask). On boards of up
// to 64 cells the entries are stored in pnSmall form (each set one 64-bit word:
// 72 bytes against about 340), so the same memory holds almost five times the
// entries; larger boards store pnEntry as it is. The table is made for a geometry
// on first use (reset) and cleared when the geometry changes.
type pnTable struct {
	bits  int
	mask  uint64
	big   []pnEntry
	small []pnSmall
}

// pnSmall is a pnEntry of a board of at most 64 cells: every set is its first word
// (cells 0..63), the only one such a board's cells use.
type pnSmall struct {
	key              uint64
	must, kids, loss uint64
	dead             uint64
	capt             [2]uint64
	pn, dn           uint32
	work             uint32
	best             hex.Cell
	used             bool
}

// newPNTable returns an empty table of 2^bits entries (allocated by reset).
func newPNTable(bits int) *pnTable {
	return &pnTable{bits: bits, mask: 1<<bits - 1}
}

// reset prepares the table for boards of n cells: the right entry form, emptied.
func (t *pnTable) reset(n int) {
	switch {
	case n <= 64 && t.small == nil:
		t.big = nil
		t.small = make([]pnSmall, 1<<t.bits)
	case n > 64 && t.big == nil:
		t.small = nil
		t.big = make([]pnEntry, 1<<t.bits)
	default:
		t.clear()
	}
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

// slot returns the index of the entry of key k, or -1.
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

// load copies entry i into e.
func (t *pnTable) load(i int, e *pnEntry) {
	if t.small == nil {
		*e = t.big[i]
		return
	}
	s := &t.small[i]
	*e = pnEntry{key: s.key, pn: s.pn, dn: s.dn, must: set(s.must), kids: set(s.kids), loss: set(s.loss),
		dead: set(s.dead), capt: [2]hex.Bitset{set(s.capt[0]), set(s.capt[1])}, best: s.best, work: s.work, used: s.used}
}

// values returns the proof and disproof numbers of entry i.
func (t *pnTable) values(i int) (pn, dn uint32) {
	if t.small != nil {
		return t.small[i].pn, t.small[i].dn
	}
	return t.big[i].pn, t.big[i].dn
}

// kids returns the children set (the proof set once solved) of entry i, and its key.
func (t *pnTable) kids(i int) (hex.Bitset, uint64) {
	if t.small != nil {
		return set(t.small[i].kids), t.small[i].key
	}
	return t.big[i].kids, t.big[i].key
}

// store writes e (used set) into its bucket: over the entry of the same key or an
// unused slot, else over the slot whose entry cost less work.
func (t *pnTable) store(e *pnEntry) {
	e.used = true
	i := e.key & t.mask
	if t.small != nil {
		a, b := &t.small[i], &t.small[i^1]
		switch {
		case a.used && a.key == e.key, !a.used:
		case b.used && b.key == e.key, !b.used:
			a = b
		case b.work < a.work:
			a = b
		}
		*a = pnSmall{key: e.key, pn: e.pn, dn: e.dn, must: word(e.must), kids: word(e.kids), loss: word(e.loss),
			dead: word(e.dead), capt: [2]uint64{word(e.capt[0]), word(e.capt[1])}, best: e.best, work: e.work, used: true}
		return
	}
	a, b := &t.big[i], &t.big[i^1]
	switch {
	case a.used && a.key == e.key, !a.used:
	case b.used && b.key == e.key, !b.used:
		a = b
	case b.work < a.work: // replace the entry that cost less to compute
		a = b
	}
	*a = *e
}
