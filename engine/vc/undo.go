package vc

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrUndo is returned by Undo when no PlayUndoable is left to take back.
var ErrUndo = errors.New("vc: nothing to undo")

// snapshot is the state of a Builder that Play can change, saved by PlayUndoable.
// The scratch buffers (pending deductions, OR suffixes, Play's remapping) are empty or
// unused between calls and are not saved; neither are the edge-bridge carriers of
// XH-search, which every Build recomputes before they are read.
type snapshot struct {
	g                *hex.Geometry
	color            hex.Color
	empty, own       hex.Bitset
	np               int
	pt               []hex.Cell
	chain, edgeGrp   []bool
	cellPoint        [hex.NumPoints]int32
	edgeA, edgeB     int32
	connected, won   bool
	truncated        bool
	builtCfg         Config
	touched          []int32     // slot -> pair index
	full, semi       []Conn      // the lists of every slot, one after the other
	fullEnd, semiEnd []int32     // per slot: end of its lists in full and semi
	doneAnd          [][2]uint64 // per slot: doneAnd[0] and doneAnd[1] of its pair
	nbrFull, nbrSemi []hex.Bitset
	queue            []int32 // the unprocessed part of the work queue
	cross            []pending
}

// PlayUndoable is Play (same arguments, same result) that first saves the Builder's
// state, so that Undo can restore it exactly: every connection, its carrier, key,
// rule, stepping stones and processed flag, in the same order, and everything a later
// Play or Build reads. Saving copies the lists once (about 170 KB per colour on an 8x8
// board at the default limits), which is far cheaper than the Build an Undo replaces.
// The saved states form a stack (PlayUndoable may be nested); Build empties it. On an
// error nothing is saved and the Builder is unchanged (as with Play).
func (b *Builder) PlayUndoable(board *hex.Board, p hex.Cell) error {
	b.save()
	if err := b.Play(board, p); err != nil {
		b.journal = b.journal[:len(b.journal)-1]
		return err
	}
	return nil
}

// Undo restores the state saved by the last PlayUndoable not yet undone: the
// connections of the position before that move. The caller takes the stone back on
// its own board. It returns an error wrapping ErrUndo when there is nothing to undo.
func (b *Builder) Undo() error {
	if len(b.journal) == 0 {
		return fmt.Errorf("%w", ErrUndo)
	}
	sn := &b.journal[len(b.journal)-1]
	b.journal = b.journal[:len(b.journal)-1]
	b.restore(sn)
	return nil
}

// UndoDepth returns how many PlayUndoable calls Undo can take back.
func (b *Builder) UndoDepth() int { return len(b.journal) }

// save pushes the current state onto the journal, reusing the buffers of an earlier
// snapshot at that depth.
func (b *Builder) save() {
	b.unpack()
	if len(b.journal) < cap(b.journal) {
		b.journal = b.journal[:len(b.journal)+1]
	} else {
		b.journal = append(b.journal, snapshot{})
	}
	sn := &b.journal[len(b.journal)-1]
	sn.g, sn.color, sn.empty, sn.own, sn.np = b.g, b.color, b.empty, b.own, b.np
	sn.pt = append(sn.pt[:0], b.pt...)
	sn.chain = append(sn.chain[:0], b.chain...)
	sn.edgeGrp = append(sn.edgeGrp[:0], b.edgeGrp...)
	sn.cellPoint = b.cellPoint
	sn.edgeA, sn.edgeB, sn.connected, sn.won = b.edgeA, b.edgeB, b.connected, b.won
	sn.truncated, sn.builtCfg = b.truncated, b.builtCfg
	sn.touched = append(sn.touched[:0], b.touched...)
	sn.full, sn.semi = sn.full[:0], sn.semi[:0]
	sn.fullEnd, sn.semiEnd, sn.doneAnd = sn.fullEnd[:0], sn.semiEnd[:0], sn.doneAnd[:0]
	for s, idx := range b.touched {
		sn.full = append(sn.full, b.full[s]...)
		sn.semi = append(sn.semi, b.semi[s]...)
		sn.fullEnd = append(sn.fullEnd, int32(len(sn.full)))
		sn.semiEnd = append(sn.semiEnd, int32(len(sn.semi)))
		sn.doneAnd = append(sn.doneAnd, b.doneAnd[0][idx], b.doneAnd[1][idx])
	}
	sn.nbrFull = append(sn.nbrFull[:0], b.nbrFull[:b.np]...)
	sn.nbrSemi = append(sn.nbrSemi[:0], b.nbrSemi[:b.np]...)
	sn.queue = append(sn.queue[:0], b.queue[b.qhead:]...)
	sn.cross = append(sn.cross[:0], b.cross...)
}

// restore puts the state of sn back.
func (b *Builder) restore(sn *snapshot) {
	// forget the slots and queue entries of the current state
	for _, idx := range b.touched {
		b.setSlot(idx, -1, int32(b.np))
	}
	for _, idx := range b.queue[b.qhead:] {
		b.inQ[idx] = false
	}
	b.g, b.color, b.empty, b.own, b.np = sn.g, sn.color, sn.empty, sn.own, sn.np
	b.pt = append(b.pt[:0], sn.pt...)
	b.chain = append(b.chain[:0], sn.chain...)
	b.edgeGrp = append(b.edgeGrp[:0], sn.edgeGrp...)
	b.cellPoint = sn.cellPoint
	b.edgeA, b.edgeB, b.connected, b.won = sn.edgeA, sn.edgeB, sn.connected, sn.won
	b.truncated, b.builtCfg = sn.truncated, sn.builtCfg
	np := int32(b.np)
	b.touched = append(b.touched[:0], sn.touched...)
	var f0, s0 int32
	for s, idx := range b.touched {
		b.full[s] = append(b.full[s][:0], sn.full[f0:sn.fullEnd[s]]...)
		b.semi[s] = append(b.semi[s][:0], sn.semi[s0:sn.semiEnd[s]]...)
		f0, s0 = sn.fullEnd[s], sn.semiEnd[s]
		b.setSlot(idx, int32(s), np)
		b.setDoneAnd(0, idx, sn.doneAnd[2*s])
		b.setDoneAnd(1, idx, sn.doneAnd[2*s+1])
	}
	copy(b.nbrFull, sn.nbrFull)
	copy(b.nbrSemi, sn.nbrSemi)
	b.queue = append(b.queue[:0], sn.queue...)
	b.qhead = 0
	for _, idx := range b.queue {
		b.inQ[idx] = true
	}
	b.cross = append(b.cross[:0], sn.cross...)
	b.pend = b.pend[:0]
	// the saved lists are Conn lists (save unpacks; a Play in between may have rebuilt
	// with the packed one-word lists)
	b.packed = false
}
