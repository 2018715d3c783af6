package vc

import "github.com/hexlearn/hexlearn/engine/hex"

// The one-word engine instance (hsearch_w1.go, boards of at most 64 cells without
// XH-search) keeps its lists as conn1 records, 16 bytes instead of a Conn's 104, so
// that the AND scans and the minimality tests read an eighth of the memory (the
// solver's Compact runs on it). The Builder's Conn lists are then stale until a query
// or a move needs them: unpack converts every list (and hands the Builder to the
// one-word instance on Conn lists, hsearch_w1c.go, which gives the same deductions),
// unpackSlot one pair's lists for the queries about the edges.

// conn1 is a connection with a one-word carrier (see Conn; no stepping stones).
type conn1 struct {
	Key     hex.Cell // the key of an SC; hex.NoCell for a VC
	Rule    Rule     // the rule that produced it
	done    bool     // already combined by the AND rule
	size    int16    // number of carrier cells
	ored    bool     // an SC already seen by the greedy OR rule (Config.GreedyOr)
	Carrier [1]uint64
}

// pending1 is a deduction waiting to be added by the one-word instance (see pending).
type pending1 struct {
	i, j int32
	semi bool
	c    conn1
}

// pack1 returns c as a one-word record (c's carrier lies in the first word).
func pack1(c *Conn) conn1 {
	return conn1{Key: c.Key, Rule: c.Rule, done: c.done, size: c.size, ored: c.ored, Carrier: [1]uint64{c.Carrier[0]}}
}

// conn returns c as a Conn.
func (c *conn1) conn() Conn {
	return Conn{Key: c.Key, Rule: c.Rule, done: c.done, size: c.size, ored: c.ored, Carrier: hex.Bitset{c.Carrier[0]}}
}

// fullOf1 returns the one-word VC list of pair idx (nil when it has none).
func (b *Builder) fullOf1(idx int32) []conn1 {
	if s := b.slot[idx]; s >= 0 {
		return b.full1[s]
	}
	return nil
}

// semiOf1 returns the one-word SC list of pair idx (nil when it has none).
func (b *Builder) semiOf1(idx int32) []conn1 {
	if s := b.slot[idx]; s >= 0 {
		return b.semi1[s]
	}
	return nil
}

// doneAndOf1 is doneAndOf for one-word records.
func doneAndOf1(list []conn1) [2]uint64 {
	d := allOnes2
	for k := range list {
		if c := &list[k]; c.done {
			d[0] &= c.Carrier[0]
			d[1] = 0 // the second word of a one-word carrier
		}
	}
	return d
}

// insertAt1 is insertAt for one-word records.
func insertAt1(list []conn1, pos int, c *conn1, size int16) []conn1 {
	n := len(list)
	list = append(list, conn1{})
	copy(list[pos+1:], list[pos:n])
	list[pos] = *c
	list[pos].size = size
	list[pos].done = false
	list[pos].ored = false
	return list
}

// replaces1 is replaces for one-word records (no XH-search, so no stepping stones to
// merge).
func (b *Builder) replaces1(e, c *conn1, size int16, keyed bool) bool {
	return keyed && e.size == size && c.Key < e.Key
}

// unpackSlot writes the Conn lists of slot s from its one-word lists.
func (b *Builder) unpackSlot(s int32) {
	fl, sl := b.full[s][:0], b.semi[s][:0]
	for k := range b.full1[s] {
		fl = append(fl, b.full1[s][k].conn())
	}
	for k := range b.semi1[s] {
		sl = append(sl, b.semi1[s][k].conn())
	}
	b.full[s], b.semi[s] = fl, sl
}

// unpack converts every one-word list to a Conn list and hands the Builder to the
// one-word instance on Conn lists (same deductions) until the next Build.
func (b *Builder) unpack() {
	if !b.packed {
		return
	}
	for s := range b.touched {
		b.unpackSlot(int32(s))
		b.full1[s], b.semi1[s] = b.full1[s][:0], b.semi1[s][:0]
	}
	b.packed = false
}

// edgeSlot returns the slot of the pair of the colour's two edges (-1: no
// connection), its Conn lists made current.
func (b *Builder) edgeSlot() int32 {
	s := b.slot[b.pairIdx(b.edgeA, b.edgeB)]
	if s >= 0 && b.packed {
		b.unpackSlot(s)
	}
	return s
}
