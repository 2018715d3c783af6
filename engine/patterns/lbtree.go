package patterns

import (
	"errors"
	"fmt"
	"math/bits"
)

// Elem is an element of the universe {0, ..., U-1} the sets of a Tree are drawn from.
type Elem = uint16

// MaxUniverse is the largest universe a Tree accepts (so a set, and thus a trie label,
// has at most 32767 elements and its length fits in 15 bits).
const MaxUniverse = 1<<15 - 1

// ErrBadSet is returned when a set given to a Tree is not strictly increasing or has an
// element outside the universe.
var ErrBadSet = errors.New("patterns: bad set")

// Bits is a query set over a Tree's universe: bit e of word e/64 is set when e is in
// the set. Make it with NewBits (or any []uint64 of at least Words(U) words); reuse it
// between queries so lookups allocate nothing.
type Bits []uint64

// Words returns the number of 64-bit words a Bits over a universe of u elements needs.
func Words(u int) int { return (u + 63) / 64 }

// NewBits returns an empty query set over a universe of u elements.
func NewBits(u int) Bits { return make(Bits, Words(u)) }

// Add puts e into the set; e must lie in the universe the set was made for.
func (s Bits) Add(e Elem) { s[e>>6] |= 1 << (e & 63) }

// Has reports whether e is in the set.
func (s Bits) Has(e Elem) bool { return s[e>>6]&(1<<(e&63)) != 0 }

// Clear empties the set.
func (s Bits) Clear() { clear(s) }

// SetAll replaces the contents of s with the elements of the sorted or unsorted set p.
func (s Bits) SetAll(p []Elem) {
	clear(s)
	for _, e := range p {
		s.Add(e)
	}
}

// node is one node of a path-compressed trie, stored in a flat array. Its edge label is
// pool[start : start+n]: a run of consecutive set elements (at least one). Children are
// a singly linked sibling list, kept in increasing order of their first label element.
type node struct {
	start uint32 // first label element in Tree.pool
	child int32  // first child, or -1
	sib   int32  // next sibling, or -1
	first Elem   // pool[start], kept here so sibling scans stay in the node array
	nt    uint16 // label length (>= 1) in bits 0..14; bit 15: a stored set ends here
}

const termBit = 1 << 15

func (nd *node) len() uint32 { return uint32(nd.nt &^ termBit) }
func (nd *node) term() bool  { return nd.nt&termBit != 0 }
func (nd *node) setTerm()    { nd.nt |= termBit }
func (nd *node) end() uint32 { return nd.start + nd.len() }

// Tree is a limited branching tree (LB-tree, Kahl et al. 2007, section 5.2): a subset
// dictionary holding sorted sets over a small universe, organised as one trie per
// distinct first element (the paper's ordered list of tries, here an array indexed by
// the first element plus a bitset of the first elements present, so Algorithm 2's scan
// of the root list becomes a word-wise AND with the query).
//
// Each trie is path-compressed and lives in flat arrays (nodes and a label pool): there
// are no pointers and a lookup allocates nothing. A Tree is safe for concurrent lookups;
// Insert must not run concurrently with anything else.
type Tree struct {
	u        int
	nodes    []node
	pool     []Elem
	root     []int32  // root[e]: the trie whose sets start with e, or -1
	rootBits []uint64 // bit e set when root[e] >= 0
	hasEmpty bool     // the empty set is stored
	count    int
}

// NewTree returns an empty Tree over the universe {0, ..., u-1}, 1 <= u <= MaxUniverse.
func NewTree(u int) (*Tree, error) {
	if u < 1 || u > MaxUniverse {
		return nil, fmt.Errorf("patterns: universe size %d out of range 1..%d", u, MaxUniverse)
	}
	t := &Tree{u: u, root: make([]int32, u), rootBits: make([]uint64, Words(u))}
	for i := range t.root {
		t.root[i] = -1
	}
	return t, nil
}

// Universe returns the universe size U.
func (t *Tree) Universe() int { return t.u }

// Len returns the number of distinct sets stored.
func (t *Tree) Len() int { return t.count }

// Nodes returns the number of trie nodes (after path compression).
func (t *Tree) Nodes() int { return len(t.nodes) }

// Bytes returns the memory the tree's arrays use, in bytes (capacity, not length, so it
// is what the process really holds).
func (t *Tree) Bytes() int {
	const nodeSize = 16
	return cap(t.nodes)*nodeSize + cap(t.pool)*2 + cap(t.root)*4 + cap(t.rootBits)*8
}

// check validates a set: strictly increasing, every element below U.
func (t *Tree) check(p []Elem) error {
	for i, e := range p {
		if int(e) >= t.u {
			return fmt.Errorf("%w: element %d outside universe of %d", ErrBadSet, e, t.u)
		}
		if i > 0 && e <= p[i-1] {
			return fmt.Errorf("%w: elements not strictly increasing at position %d (%d after %d)", ErrBadSet, i, e, p[i-1])
		}
	}
	return nil
}

// newNode appends a leaf holding label p (non-empty) and returns its index.
func (t *Tree) newNode(p []Elem) int32 {
	// Labels fit in uint16: sets are strictly increasing over at most MaxUniverse
	// elements.
	start := len(t.pool)
	t.pool = append(t.pool, p...)
	t.nodes = append(t.nodes, node{start: uint32(start), first: p[0], nt: uint16(len(p)) | termBit, child: -1, sib: -1})
	return int32(len(t.nodes) - 1)
}

// Insert adds the strictly increasing set p (Algorithm 1). It reports whether p was new;
// it returns an error wrapping ErrBadSet when p is not a valid set.
func (t *Tree) Insert(p []Elem) (bool, error) {
	if err := t.check(p); err != nil {
		return false, err
	}
	if len(p) == 0 {
		if t.hasEmpty {
			return false, nil
		}
		t.hasEmpty = true
		t.count++
		return true, nil
	}
	r := t.root[p[0]]
	if r < 0 {
		t.root[p[0]] = t.newNode(p)
		t.rootBits[p[0]>>6] |= 1 << (p[0] & 63)
		t.count++
		return true, nil
	}
	cur, i := r, 0
	for {
		nd := &t.nodes[cur]
		lab := t.pool[nd.start:nd.end()]
		j := 0
		for j < len(lab) && i < len(p) && lab[j] == p[i] {
			i++
			j++
		}
		if j < len(lab) {
			// Split cur after j label elements: the suffix becomes its only child.
			suffix := node{start: nd.start + uint32(j), first: lab[j], nt: nd.nt&termBit | uint16(len(lab)-j), child: nd.child, sib: -1}
			t.nodes = append(t.nodes, suffix)
			si := int32(len(t.nodes) - 1)
			nd = &t.nodes[cur]
			nd.nt = uint16(j)
			nd.child = si
			if i == len(p) {
				nd.setTerm()
				t.count++
				return true, nil
			}
			t.addChild(cur, p[i:])
			t.count++
			return true, nil
		}
		if i == len(p) {
			if nd.term() {
				return false, nil
			}
			nd.setTerm()
			t.count++
			return true, nil
		}
		// Find the child starting with p[i], or the place to add one.
		next := int32(-1)
		for c := nd.child; c >= 0; c = t.nodes[c].sib {
			f := t.nodes[c].first
			if f == p[i] {
				next = c
				break
			}
			if f > p[i] {
				break
			}
		}
		if next < 0 {
			t.addChild(cur, p[i:])
			t.count++
			return true, nil
		}
		cur = next
	}
}

// addChild adds a new leaf labelled rest under parent, keeping siblings sorted.
func (t *Tree) addChild(parent int32, rest []Elem) {
	leaf := t.newNode(rest)
	f := rest[0]
	prev := int32(-1)
	c := t.nodes[parent].child
	for c >= 0 && t.nodes[c].first < f {
		prev, c = c, t.nodes[c].sib
	}
	t.nodes[leaf].sib = c
	if prev < 0 {
		t.nodes[parent].child = leaf
	} else {
		t.nodes[prev].sib = leaf
	}
}

// ContainsSubsetOf answers the containment query (Algorithm 2): it reports whether some
// stored set p satisfies p ⊆ q. q should have Words(U) words (missing words count as
// empty; extra words are ignored). It allocates nothing.
func (t *Tree) ContainsSubsetOf(q Bits) bool {
	if t.hasEmpty {
		return true
	}
	if len(q) < len(t.rootBits) {
		var buf [(MaxUniverse + 63) / 64]uint64 // only for a short query
		copy(buf[:], q)
		q = buf[:len(t.rootBits)]
	}
	for w, rw := range t.rootBits {
		m := rw & q[w]
		for m != 0 {
			e := w<<6 | bits.TrailingZeros64(m)
			m &= m - 1
			if t.matchSub(t.root[e], q) {
				return true
			}
		}
	}
	return false
}

// matchSub reports whether some set stored at or below node n lies inside q, given that
// the path above n lies inside q.
func (t *Tree) matchSub(n int32, q Bits) bool {
	for {
		nd := &t.nodes[n]
		// The first label element was checked by the caller.
		for k, end := nd.start+1, nd.end(); k < end; k++ {
			e := t.pool[k]
			if q[e>>6]&(1<<(e&63)) == 0 {
				return false
			}
		}
		if nd.term() {
			return true
		}
		// Recurse into all children but the last; loop on the last (saves stack).
		last := int32(-1)
		for c := nd.child; c >= 0; c = t.nodes[c].sib {
			e := t.nodes[c].first
			if q[e>>6]&(1<<(e&63)) == 0 {
				continue
			}
			if last >= 0 && t.matchSub(last, q) {
				return true
			}
			last = c
		}
		if last < 0 {
			return false
		}
		n = last
	}
}

// FindSubsetOf is ContainsSubsetOf that also names a stored set lying inside q: its
// elements, in increasing order, are appended to dst. It allocates only when dst is
// too short.
func (t *Tree) FindSubsetOf(q Bits, dst []Elem) ([]Elem, bool) {
	if t.hasEmpty {
		return dst, true
	}
	if len(q) < len(t.rootBits) {
		var buf [(MaxUniverse + 63) / 64]uint64 // only for a short query
		copy(buf[:], q)
		q = buf[:len(t.rootBits)]
	}
	for w, rw := range t.rootBits {
		m := rw & q[w]
		for m != 0 {
			e := w<<6 | bits.TrailingZeros64(m)
			m &= m - 1
			if out, ok := t.findSub(t.root[e], q, dst); ok {
				return out, true
			}
		}
	}
	return dst, false
}

// findSub is matchSub that appends the labels of the path to the stored set it finds
// to dst (dst's length is kept when it finds none).
func (t *Tree) findSub(n int32, q Bits, dst []Elem) ([]Elem, bool) {
	nd := &t.nodes[n]
	for k, end := nd.start+1, nd.end(); k < end; k++ {
		e := t.pool[k]
		if q[e>>6]&(1<<(e&63)) == 0 {
			return dst, false
		}
	}
	out := append(dst, t.pool[nd.start:nd.end()]...)
	if nd.term() {
		return out, true
	}
	for c := nd.child; c >= 0; c = t.nodes[c].sib {
		e := t.nodes[c].first
		if q[e>>6]&(1<<(e&63)) == 0 {
			continue
		}
		if found, ok := t.findSub(c, q, out); ok {
			return found, true
		}
	}
	return dst, false
}

// ContainsSuperset answers the subset query: it reports whether some stored set p
// satisfies q ⊆ p, for a strictly increasing q. It returns an error wrapping ErrBadSet
// when q is not a valid set. It allocates nothing.
func (t *Tree) ContainsSuperset(q []Elem) (bool, error) {
	if err := t.check(q); err != nil {
		return false, err
	}
	if len(q) == 0 {
		return t.count > 0, nil
	}
	for w, rw := range t.rootBits {
		for m := rw; m != 0; m &= m - 1 {
			e := Elem(w<<6 | bits.TrailingZeros64(m))
			if e > q[0] {
				return false, nil
			}
			if t.matchSuper(t.root[e], q) {
				return true, nil
			}
		}
	}
	return false, nil
}

// matchSuper reports whether some set stored at or below node n contains the elements
// of q not yet matched on the path above n.
func (t *Tree) matchSuper(n int32, q []Elem) bool {
	nd := &t.nodes[n]
	for k, end := nd.start, nd.end(); k < end; k++ {
		e := t.pool[k]
		if e == q[0] {
			q = q[1:]
			if len(q) == 0 {
				return true // every node has a stored set at or below it
			}
		} else if e > q[0] {
			return false
		}
	}
	for c := nd.child; c >= 0; c = t.nodes[c].sib {
		if t.nodes[c].first > q[0] {
			return false
		}
		if t.matchSuper(c, q) {
			return true
		}
	}
	return false
}

// Walk calls fn with every stored set in increasing lexicographic order, until fn
// returns false. The slice passed to fn is reused; copy it to keep it.
func (t *Tree) Walk(fn func(p []Elem) bool) {
	if t.hasEmpty && !fn(nil) {
		return
	}
	buf := make([]Elem, 0, 64)
	for _, r := range t.root {
		if r >= 0 && !t.walk(r, buf, fn) {
			return
		}
	}
}

func (t *Tree) walk(n int32, buf []Elem, fn func([]Elem) bool) bool {
	nd := t.nodes[n]
	buf = append(buf, t.pool[nd.start:nd.end()]...)
	if nd.term() && !fn(buf) {
		return false
	}
	for c := nd.child; c >= 0; c = t.nodes[c].sib {
		if !t.walk(c, buf, fn) {
			return false
		}
	}
	return true
}

// Optimize lays the tree out again for lookup speed: nodes in breadth-first order, so
// that the children of a node are adjacent in memory and a sibling scan reads
// consecutive nodes, labels in the same order, and the arrays trimmed to their length.
// The stored sets do not change; Insert keeps working afterwards.
func (t *Tree) Optimize() {
	nodes := make([]node, 0, len(t.nodes))
	pool := make([]Elem, 0, len(t.pool))
	old := make([]int32, 0, len(t.nodes)) // old index of each new node
	// place appends the sibling list starting at old node c and links it; it returns
	// the new index of its first node.
	place := func(c int32) int32 {
		first := int32(len(nodes))
		for ; c >= 0; c = t.nodes[c].sib {
			nd := t.nodes[c]
			nd.sib = -1
			if len(nodes) > int(first) {
				nodes[len(nodes)-1].sib = int32(len(nodes))
			}
			nodes = append(nodes, nd)
			old = append(old, c)
		}
		return first
	}
	for e, r := range t.root {
		if r >= 0 {
			t.root[e] = int32(len(nodes))
			nd := t.nodes[r]
			nd.sib = -1
			nodes = append(nodes, nd)
			old = append(old, r)
		}
	}
	for i := 0; i < len(nodes); i++ {
		if c := t.nodes[old[i]].child; c >= 0 {
			nodes[i].child = place(c)
		}
	}
	for i := range nodes {
		nd := &nodes[i]
		start := uint32(len(pool))
		pool = append(pool, t.pool[nd.start:nd.end()]...)
		nd.start = start
	}
	t.nodes, t.pool = nodes, pool
}
