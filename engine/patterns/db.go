package patterns

import (
	"fmt"
	"sort"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// The Hex encoding (Theorem 3's reduction of partial match to a subset query with
// (cell, state) pairs). A Black pattern becomes the set
//
//	{ c : c ∈ Stones } ∪ { carrierBase + c : c ∈ Carrier }
//
// and a position becomes the query
//
//	{ c : c Black } ∪ { carrierBase + c : c empty or Black },
//
// so the pattern matches exactly when its set lies inside the query: element c is the
// pair (c, "Black") and element carrierBase+c the pair (c, "not White"). Both halves
// are hex.Bitset-shaped, so a Black query is copied word by word from the board.
// Stone elements sort before carrier elements, so each trie starts with the rarely
// present stone pairs and the root scan of Algorithm 2 only visits tries whose first
// stone is on the board.
const (
	bitsetBits  = 6 * 64 // bits in a hex.Bitset
	carrierBase = bitsetBits
	universe    = 2 * bitsetBits
	queryWords  = universe / 64
)

// DB is a goal-pattern database (Kahl et al. 2007, section 5.3) for one board size: an
// LB-tree of Black north–south patterns in the (cell, state) encoding, each inserted
// with its symmetric variants. White positions are looked up through the
// colour-exchanging diagonal reflection (square boards only).
//
// What it keeps: Add inserts a variant only when it does not contain an entry already
// stored (a containing pattern matches only positions the stored one matches already).
// An entry stored earlier that contains a later one stays until Compact, which rebuilds
// the database from its entries, smallest first, keeping exactly the minimal ones (no
// kept entry contains another).
//
// Lookups are safe for concurrent use; Add and Compact are not.
type DB struct {
	g       *hex.Geometry
	tree    *Tree
	entries []Pattern
	// Source describes what the database was built from (recorded in the file).
	Source string
}

// New returns an empty database for W x H boards.
func New(w, h int) (*DB, error) {
	g, err := hex.NewGeometry(w, h)
	if err != nil {
		return nil, fmt.Errorf("patterns: %v", err)
	}
	t, _ := NewTree(universe)
	return &DB{g: g, tree: t}, nil
}

// Geometry returns the board geometry of the database.
func (d *DB) Geometry() *hex.Geometry { return d.g }

// Len returns the number of stored entries (patterns and their variants).
func (d *DB) Len() int { return len(d.entries) }

// Entries returns the stored entries in insertion order. The slice must not be changed.
func (d *DB) Entries() []Pattern { return d.entries }

// Tree returns the underlying LB-tree (for statistics).
func (d *DB) Tree() *Tree { return d.tree }

// Bytes returns the memory used by the LB-tree and the entry list.
func (d *DB) Bytes() int { return d.tree.Bytes() + cap(d.entries)*2*bitsetBits/8 }

// Size describes the database's size the one way hexlearn reports it: the number of
// entries (patterns with their symmetric variants) and the memory of the LB-tree with
// the entry list, e.g. "1204 patterns, 61.3 KiB".
func (d *DB) Size() string {
	noun := "patterns"
	if d.Len() == 1 {
		noun = "pattern"
	}
	b := float64(d.Bytes())
	mem := fmt.Sprintf("%d bytes", d.Bytes())
	switch {
	case b >= 1<<20:
		mem = fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		mem = fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%d %s, %s", d.Len(), noun, mem)
}

// encode appends the element set of p (sorted) to dst.
func encode(dst []Elem, p *Pattern) []Elem {
	for c := p.Stones.First(); c != hex.NoCell; c = p.Stones.Next(c + 1) {
		dst = append(dst, Elem(c))
	}
	for c := p.Carrier.First(); c != hex.NoCell; c = p.Carrier.Next(c + 1) {
		dst = append(dst, Elem(carrierBase+int(c)))
	}
	return dst
}

// patternQuery fills q with the query of the position "p's stones Black, p's carrier
// empty, all else White": a stored pattern lies inside it iff it is contained in p.
func patternQuery(q Bits, p *Pattern) {
	cells := p.Cells()
	copy(q[:6], p.Stones[:])
	copy(q[6:12], cells[:])
}

// covered reports whether some stored entry is contained in p.
func (d *DB) covered(p *Pattern) bool {
	var buf [queryWords]uint64
	patternQuery(buf[:], p)
	return d.tree.ContainsSubsetOf(buf[:])
}

// Add validates the Black pattern p (on the board, stones and carrier disjoint and
// joining North to South) and inserts p and each of its symmetric variants (Variants)
// that does not contain a stored entry. It returns the number of entries inserted.
func (d *DB) Add(p Pattern) (int, error) {
	if err := p.Validate(d.g); err != nil {
		return 0, err
	}
	n := 0
	var buf [64]Elem
	for _, v := range Variants(d.g, p) {
		if d.covered(&v) {
			continue
		}
		if _, err := d.tree.Insert(encode(buf[:0], &v)); err != nil {
			return n, err // cannot happen: encode yields valid sets
		}
		d.entries = append(d.entries, v)
		n++
	}
	return n, nil
}

// AddWin adds the winning connection of colour c on b with the given carrier (a winning
// virtual connection between c's edges, such as H-search reports): the pattern of
// FromBoard and its variants. White connections are stored reflected.
func (d *DB) AddWin(b *hex.Board, c hex.Color, carrier hex.Bitset) (int, error) {
	if b.Width() != d.g.W || b.Height() != d.g.H {
		return 0, fmt.Errorf("%w: board is %dx%d, database %dx%d", ErrBadPattern, b.Width(), b.Height(), d.g.W, d.g.H)
	}
	p, err := FromBoard(b, c, carrier)
	if err != nil {
		return 0, err
	}
	return d.Add(p)
}

// Compact rebuilds the database keeping only its minimal entries: entries are
// reinserted smallest first and an entry containing one already kept is dropped; the
// tree is then laid out for lookup speed (Tree.Optimize). It returns the number of
// entries dropped.
func (d *DB) Compact() int {
	es := append([]Pattern(nil), d.entries...)
	sort.SliceStable(es, func(i, j int) bool { return es[i].Size() < es[j].Size() })
	t, _ := NewTree(universe)
	d.tree = t
	old := len(d.entries)
	d.entries = d.entries[:0]
	var buf [64]Elem
	for i := range es {
		if d.covered(&es[i]) {
			continue
		}
		if ok, _ := d.tree.Insert(encode(buf[:0], &es[i])); ok {
			d.entries = append(d.entries, es[i])
		}
	}
	d.tree.Optimize()
	return old - len(d.entries)
}

// insertRaw inserts an entry without variants or the containment test (file reading).
func (d *DB) insertRaw(p Pattern) error {
	var buf [64]Elem
	ok, err := d.tree.Insert(encode(buf[:0], &p))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("%w: duplicate entry", ErrBadPattern)
	}
	d.entries = append(d.entries, p)
	return nil
}

// AddOne validates the Black pattern p and inserts it alone, without its symmetric
// variants, unless it contains a stored entry; it reports whether it was inserted. A
// solver storing its own proofs as they are found uses it (the variants cost more
// than they find there).
func (d *DB) AddOne(p Pattern) (bool, error) {
	if err := p.Validate(d.g); err != nil {
		return false, err
	}
	if d.covered(&p) {
		return false, nil
	}
	var buf [64]Elem
	if _, err := d.tree.Insert(encode(buf[:0], &p)); err != nil {
		return false, err // cannot happen: encode yields valid sets
	}
	d.entries = append(d.entries, p)
	return true, nil
}

// Win reports whether a stored pattern matches b for colour c (MatchBlack or
// MatchWhite) and returns the matched pattern's carrier in b's cells: colour c wins
// on b even when every empty cell outside the carrier is the opponent's, whoever
// moves first. It allocates nothing.
func (d *DB) Win(b *hex.Board, c hex.Color) (carrier hex.Bitset, ok bool) {
	g := d.g
	if b.Width() != g.W || b.Height() != g.H || (c == hex.White && g.W != g.H) || (c != hex.Black && c != hex.White) {
		return carrier, false
	}
	var q [queryWords]uint64
	black, white := b.StonesPtr(hex.Black), b.StonesPtr(hex.White)
	if c == hex.Black {
		cells := g.Cells()
		for i := 0; i < 6; i++ {
			q[i] = black[i]
			q[6+i] = cells[i] &^ white[i]
		}
	} else {
		open := g.Cells().AndNot(*black) // empty or White
		for p := white.First(); p != hex.NoCell; p = white.Next(p + 1) {
			t := g.Transpose(p)
			q[t>>6] |= 1 << (uint(t) & 63)
		}
		for p := open.First(); p != hex.NoCell; p = open.Next(p + 1) {
			t := int(g.Transpose(p)) + carrierBase
			q[t>>6] |= 1 << (uint(t) & 63)
		}
	}
	var buf [2 * bitsetBits]Elem
	set, found := d.tree.FindSubsetOf(q[:], buf[:0])
	if !found {
		return carrier, false
	}
	for _, e := range set {
		if int(e) < carrierBase {
			continue
		}
		p := hex.Cell(int(e) - carrierBase)
		if c == hex.White {
			p = g.Transpose(p)
		}
		carrier.Set(p)
	}
	return carrier, true
}

// MatchBlack reports whether a stored pattern matches b for Black.
func (d *DB) MatchBlack(b *hex.Board) bool {
	if b.Width() != d.g.W || b.Height() != d.g.H {
		return false
	}
	var q [queryWords]uint64
	black, white := b.StonesPtr(hex.Black), b.StonesPtr(hex.White)
	cells := d.g.Cells()
	for i := 0; i < 6; i++ {
		q[i] = black[i]
		q[6+i] = cells[i] &^ white[i]
	}
	return d.tree.ContainsSubsetOf(q[:])
}

// MatchWhite reports whether a stored pattern matches the colour-exchanged diagonal
// reflection of b, that is, whether White has a stored winning connection on b. It is
// always false on non-square boards.
func (d *DB) MatchWhite(b *hex.Board) bool {
	if b.Width() != d.g.W || b.Height() != d.g.H || d.g.W != d.g.H {
		return false
	}
	var q [queryWords]uint64
	white := b.StonesPtr(hex.White)
	black := b.StonesPtr(hex.Black)
	open := d.g.Cells().AndNot(*black) // empty or White
	for c := white.First(); c != hex.NoCell; c = white.Next(c + 1) {
		t := d.g.Transpose(c)
		q[t>>6] |= 1 << (uint(t) & 63)
	}
	for c := open.First(); c != hex.NoCell; c = open.Next(c + 1) {
		t := int(d.g.Transpose(c)) + carrierBase
		q[t>>6] |= 1 << (uint(t) & 63)
	}
	return d.tree.ContainsSubsetOf(q[:])
}

// Decided is the terminal test for a search: it returns the colour that has a stored
// winning connection on b (Black or White, whoever is to move), or hex.Empty when no
// pattern matches or b has another size. A finished game (b.Winner()) is not
// considered; callers test that first.
func (d *DB) Decided(b *hex.Board) hex.Color {
	if d.MatchBlack(b) {
		return hex.Black
	}
	if d.MatchWhite(b) {
		return hex.White
	}
	return hex.Empty
}

// Match returns a stored entry that matches b for colour c (in Black's frame: for
// White, on the reflected board), by linear scan; for explanations, not for search.
func (d *DB) Match(b *hex.Board, c hex.Color) (Pattern, bool) {
	black, white := b.Stones(hex.Black), b.Stones(hex.White)
	if c == hex.White {
		if d.g.W != d.g.H {
			return Pattern{}, false
		}
		black, white = transpose(d.g, white), transpose(d.g, black)
	}
	for i := range d.entries {
		if d.entries[i].Matches(&black, &white) {
			return d.entries[i], true
		}
	}
	return Pattern{}, false
}
