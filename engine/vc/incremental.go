package vc

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// ErrPlay is returned by Play when the board is not the position last built plus one
// stone at the given cell.
var ErrPlay = errors.New("vc: board is not the built position plus the stone played")

// Rebuilds returns how many Play calls so far rebuilt from scratch instead of
// updating incrementally (see Play).
func (b *Builder) Rebuilds() int { return b.rebuilds }

// Play updates the connections of the colour built after a stone (of either colour) was
// played at p: board must be the position of the last Build or Play with exactly one
// more stone, at p. The Builder keeps its lists across moves, as Hexy does, and updates
// them instead of rebuilding:
//
//   - an opponent stone at p removes p from the points; exactly the connections with p
//     in their carrier or as an endpoint are dropped (a connection ending at the empty
//     cell p contributes to others only through an AND rule at midpoint p, which puts p
//     into their carriers), and nothing new is deduced;
//   - an own stone at p merges p and its adjacent chains (and edge groups) into one
//     chain: every connection stays valid with p taken out of its carrier (an SC keyed
//     at p becomes a VC), the lists of merged endpoint pairs are united keeping only
//     minimal carriers, and the rules are rerun (the work queue) on every connection that
//     changed and on every pair with the new chain as an endpoint.
//
// With no list limits (MaxFull and MaxSemi larger than any list) the connections kept
// are the minimal elements of the least fixed point of the rules, which does not depend
// on the order of deduction, and Play gives exactly the connections (endpoints, carriers,
// keys) of a Build of the new position; TestPlayEqualsBuild checks this on random games.
// With finite limits, Config.ReduceFull or Config.GreedyOr the lists kept depend on the order of deduction and on which
// connections an earlier limit dropped, so Play and Build may keep different (equally
// sound) connections: an opponent stone cannot bring back a connection a full list
// dropped earlier. Every connection Play keeps is sound (checked with the brute-force
// oracle).
//
// Play rebuilds from scratch with Config.XH (stepping stones are not updated
// incrementally), with Config.StopAtWin or Config.MaxWork (a search stopped early has
// incomplete lists), after SetConfig changed the configuration, and, without Config.AndOverEdge,
// when an own stone joins an edge group (the chains merged into the edge are no longer
// AND midpoints, so connections deduced through them may no longer be deducible, and
// nothing records which those are). PlayUndoable and Undo take a move back exactly
// (undo.go); without them, undoing is a Build of the earlier position. On an
// error the Builder is unchanged and Play can be retried, or Build called.
func (b *Builder) Play(board *hex.Board, p hex.Cell) error {
	if board == nil {
		return ErrNoBoard
	}
	if b.g == nil {
		return fmt.Errorf("%w: nothing built yet", ErrPlay)
	}
	g := board.Geometry()
	if g.W != b.g.W || g.H != b.g.H {
		return fmt.Errorf("%w: board is %dx%d, built %dx%d", ErrPlay, g.W, g.H, b.g.W, b.g.H)
	}
	if !g.IsCell(p) {
		return fmt.Errorf("%w: %d is not a cell", ErrPlay, p)
	}
	col := board.At(p)
	if col == hex.Empty {
		return fmt.Errorf("%w: %s is empty", ErrPlay, g.CellName(p))
	}
	if !b.empty.Has(p) {
		return fmt.Errorf("%w: %s was not empty", ErrPlay, g.CellName(p))
	}
	wantEmpty := b.empty
	wantEmpty.Clear(p)
	wantOwn := b.own
	if col == b.color {
		wantOwn.Set(p)
	}
	if board.EmptyCells() != wantEmpty || board.Stones(b.color) != wantOwn {
		return fmt.Errorf("%w (at %s)", ErrPlay, g.CellName(p))
	}
	if b.cfg.XH || b.cfg.StopAtWin || b.cfg.MaxWork > 0 || b.cfg != b.builtCfg {
		b.rebuilds++
		return b.build(board, b.color)
	}
	if col == b.color && !b.cfg.AndOverEdge {
		// Without AND over edges, a chain that joins an edge group stops being an
		// AND midpoint: connections deduced through it (or through p) may no longer
		// be deducible, and nothing records which those are.
		ea, eb := hex.EdgesOf(b.color)
		if r := board.Find(p); r == board.Find(ea) || r == board.Find(eb) {
			b.rebuilds++
			return b.build(board, b.color)
		}
	}
	b.g = g
	b.empty = wantEmpty
	b.own = wantOwn
	b.update(board, p, col == b.color)
	return nil
}

// update renumbers the points for board (the built position plus a stone at p), moves
// the lists to the new endpoint pairs, drops or rewrites the connections that involve p,
// and (own stone) reruns the rules from everything that changed.
func (b *Builder) update(board *hex.Board, p hex.Cell, own bool) {
	b.unpack() // the one-word instance on Conn lists goes on from them
	oldNp := int32(b.np)
	b.queue = b.queue[:0]
	b.qhead = 0
	b.clearOrQueue()
	b.oldPt = append(b.oldPt[:0], b.pt...)
	b.assignPoints(board)
	np := int32(b.np)
	b.remap = b.remap[:0]
	for _, c := range b.oldPt {
		b.remap = append(b.remap, b.cellPoint[c]) // -1 for an opponent stone at p
	}
	P := int32(-1) // the merged chain
	if own {
		P = b.cellPoint[p]
	}
	for _, idx := range b.touched {
		b.setSlot(idx, -1, oldNp)
	}
	// The slots are compacted in place: slot s moves to nt <= s. A connection with p
	// in its carrier (own stone) and every connection of a second old pair landing on
	// an already moved pair are taken out of their list and added again (minimality,
	// smallest key, OR rule); those additions only touch the lists of their own pair,
	// which is already moved.
	nt := 0
	for s := range b.touched {
		idx := b.touched[s]
		ni, nj := b.remap[idx/oldNp], b.remap[idx%oldNp]
		fl, sl := b.full[s], b.semi[s]
		if ni < 0 || nj < 0 || ni == nj {
			b.full[s], b.semi[s] = fl[:0], sl[:0]
			continue
		}
		nidx := pairIndex(ni, nj, np)
		moved := b.moved[:0]
		if t := b.slot[nidx]; t >= 0 {
			// a second old pair lands on this new pair (own stone only)
			for k := range fl {
				moved = appendRewritten(moved, ni, nj, &fl[k], false, p)
			}
			for k := range sl {
				moved = appendRewritten(moved, ni, nj, &sl[k], true, p)
			}
			b.full[s], b.semi[s] = fl[:0], sl[:0]
			b.readd(moved)
			continue
		}
		m := 0
		for k := range fl {
			if !fl[k].Carrier.Has(p) {
				fl[m] = fl[k]
				m++
			} else if own {
				moved = appendRewritten(moved, ni, nj, &fl[k], false, p)
			}
		}
		fl = fl[:m]
		m = 0
		for k := range sl {
			if !sl[k].Carrier.Has(p) {
				sl[m] = sl[k]
				m++
			} else if own {
				moved = appendRewritten(moved, ni, nj, &sl[k], true, p)
			}
		}
		sl = sl[:m]
		if len(fl) == 0 && len(sl) == 0 && len(moved) == 0 {
			b.full[s], b.semi[s] = fl, sl
			continue
		}
		// move the lists to slot nt (nt <= s), keeping the freed capacity at s
		b.full[s], b.full[nt] = b.full[nt], fl
		b.semi[s], b.semi[nt] = b.semi[nt], sl
		b.touched[nt] = nidx
		b.setSlot(nidx, int32(nt), np)
		nt++
		b.readd(moved)
	}
	b.touched = b.touched[:nt]
	for s := range b.touched {
		b.resetDoneAnd(int32(s))
	}
	for i := int32(0); i < np; i++ {
		b.nbrFull[i] = hex.Bitset{}
		b.nbrSemi[i] = hex.Bitset{}
	}
	for s, idx := range b.touched {
		i, j := idx/np, idx%np
		if len(b.full[s]) > 0 {
			b.nbrFull[i].Set(hex.Cell(j))
			b.nbrFull[j].Set(hex.Cell(i))
		}
		if len(b.semi[s]) > 0 {
			b.nbrSemi[i].Set(hex.Cell(j))
			b.nbrSemi[j].Set(hex.Cell(i))
		}
	}
	b.won = b.connected
	if !b.connected {
		if s := b.slot[pairIndex(b.edgeA, b.edgeB, np)]; s >= 0 && len(b.full[s]) > 0 {
			b.won = true
		}
	}
	if !own {
		b.queue = b.queue[:0]
		b.clearOrQueue()
		return
	}
	// Every AND through the new chain may combine connections that came from different
	// old points: process all of the chain's connections again.
	for s, idx := range b.touched {
		if i, j := idx/np, idx%np; i != P && j != P {
			continue
		}
		for k := range b.full[s] {
			b.full[s][k].done = false
		}
		for k := range b.semi[s] {
			b.semi[s][k].done = false
		}
		b.enqueue(idx)
	}
	base := Conn{Key: hex.NoCell, Rule: RuleBase}
	for _, q := range b.g.Neighbours(p) {
		if iq := b.cellPoint[q]; iq >= 0 && iq != P {
			b.addFull(P, iq, &base)
		}
	}
	if b.cfg.EdgeTemplates {
		b.addTemplates(board, p)
	}
	b.run()
}

// readd adds the rewritten connections again (all of one endpoint pair, whose slot
// exists).
func (b *Builder) readd(moved []pending) {
	for k := range moved {
		r := &moved[k]
		if r.semi {
			b.addSemi(r.i, r.j, &r.c)
		} else {
			b.addFull(r.i, r.j, &r.c)
		}
	}
	b.moved = moved[:0]
}

// appendRewritten appends connection c, now between the new points i and j, with the
// own stone p taken out of its carrier (an SC keyed at p becomes a VC); semi tells
// which list it came from.
func appendRewritten(list []pending, i, j int32, c *Conn, semi bool, p hex.Cell) []pending {
	r := pending{i: i, j: j, semi: semi, c: *c}
	r.c.Carrier.Clear(p)
	if r.c.Key == p {
		r.c.Key = hex.NoCell
		r.semi = false
	}
	return append(list, r)
}

// BuildByPlays computes colour c's connections on board the way an engine following a
// game keeps them: a Build of the empty board of the same size, then one Play per move
// of board.Moves(). Without list limits the result equals Build(board, c); with limits
// it may keep other (equally sound) connections (see Play). A swap or resignation among
// the moves gives an error wrapping ErrPlay. It allocates a scratch board.
func (b *Builder) BuildByPlays(board *hex.Board, c hex.Color) error {
	if board == nil {
		return ErrNoBoard
	}
	g := board.Geometry()
	scratch := hex.NewBoardGeometry(g)
	if err := b.Build(scratch, c); err != nil {
		return err
	}
	for i, m := range board.Moves() {
		if !g.IsCell(m.Cell) {
			return fmt.Errorf("%w: move %d is not a stone on a cell", ErrPlay, i+1)
		}
		if err := scratch.Play(m); err != nil {
			return fmt.Errorf("%w: move %d: %v", ErrPlay, i+1, err)
		}
		if err := b.Play(scratch, m.Cell); err != nil {
			return err
		}
	}
	return nil
}
