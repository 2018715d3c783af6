package circuit

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// anchorState is the position Exact.Anchor evaluated, kept so that its children can
// be evaluated by updating its connections (Exact.EvaluateLine).
type anchorState struct {
	ok           bool
	toMove       hex.Color
	w, h         int
	black, white hex.Bitset // the position as given
	res          search.Result
	// filled is the position after fill-in (the position itself without FillIn),
	// fillSet the cells fill-in filled; vb and vw hold filled's connections.
	filled  hex.Board
	fillSet hex.Bitset
	vb, vw  *vc.Builder
	child   hex.Board // the filled position EvaluateLine last analysed (MoveScores)
	// truncated reports that a list limit dropped a connection in the anchor's or
	// the last line's connections (vc.Builder.Truncated; tests)
	truncated bool
}

// Anchor evaluates b as Evaluate does (the same decision; both colours' connections
// are always built, and the circuits solved unless the position is decided) and keeps
// its connections: EvaluateLine then evaluates the positions a few stones after b from
// them, at about a third of an evaluation per stone on 11x11. MoveScores after Anchor
// gives b's energies. It implements search.ChildEvaluator. b is only read.
func (x *Exact) Anchor(b *hex.Board) search.Result {
	st := &x.anchor
	if st.vb == nil {
		st.vb, st.vw = vc.NewBuilder(x.cfg.VC), vc.NewBuilder(x.cfg.VC)
	}
	st.ok = false
	x.complete = false
	if w := b.Winner(); w != hex.Empty {
		return search.Result{Value: WinValue(w), Winner: w}
	}
	st.filled.CopyFrom(b)
	st.fillSet = hex.Bitset{}
	if x.fd != nil {
		st.filled.CopyFrom(x.fd.Fill(b))
		st.fillSet = x.fd.FilledCells()
	}
	if w := st.filled.Winner(); w != hex.Empty {
		return search.Result{Value: WinValue(w), Winner: w}
	}
	if st.vb.Build(&st.filled, hex.Black) != nil || st.vw.Build(&st.filled, hex.White) != nil {
		return x.Evaluate(b) // only for an invalid board, which Evaluate reports as well
	}
	r, open := decideBuilt(&st.filled, st.vb, st.vw)
	if open {
		var err error
		if r, err = x.circuits(&st.filled, st.vb, st.vw); err != nil {
			return search.Result{}
		}
		x.lastHash, x.filled = b.Hash(), st.fillSet
	}
	st.ok, st.toMove, st.w, st.h = true, b.ToMove(), b.Width(), b.Height()
	st.black, st.white, st.res = b.Stones(hex.Black), b.Stones(hex.White), r
	return r
}

// EvaluateChild is EvaluateLine for a single stone: b is the position of the last
// Anchor with one more stone, of its side to move, at p.
func (x *Exact) EvaluateChild(b *hex.Board, p hex.Cell) (search.Result, bool) {
	return x.EvaluateLine(b, []hex.Cell{p})
}

// EvaluateLine evaluates b, the position of the last Anchor after the stones of line
// (played in turn from the anchor's side to move), from the anchor's connections
// (vc.Builder.PlayUndoable: the stones are added to the anchor's filled position and
// its connections updated, then taken back). Fill-in is not computed again: the
// connections are those of the anchor's filled position plus the stones, so it may
// decide less than Evaluate would, never wrongly. Each stone costs about a third of
// an evaluation on 11x11. It reports false, and evaluates nothing, when b is not
// such a position or a stone of line was filled at the anchor; the caller then calls
// Evaluate. MoveScores after it gives b's energies.
func (x *Exact) EvaluateLine(b *hex.Board, line []hex.Cell) (search.Result, bool) {
	st := &x.anchor
	if !st.ok || len(line) == 0 || b.Width() != st.w || b.Height() != st.h {
		return search.Result{}, false
	}
	bl, wh := b.Stones(hex.Black), b.Stones(hex.White)
	c := st.toMove
	for _, p := range line {
		if b.At(p) != c || st.filled.At(p) != hex.Empty {
			return search.Result{}, false
		}
		if c == hex.Black {
			bl.Clear(p)
		} else {
			wh.Clear(p)
		}
		c = c.Opp()
	}
	if b.ToMove() != c || bl != st.black || wh != st.white {
		return search.Result{}, false
	}
	x.complete = false
	f := &st.filled
	c = st.toMove
	played := 0
	defer func() {
		for ; played > 0; played-- {
			st.vw.Undo()
			st.vb.Undo()
			f.Undo()
		}
	}()
	for _, p := range line {
		f.PlayStone(c, p)
		c = c.Opp()
		if w := f.Winner(); w != hex.Empty {
			f.Undo()
			return search.Result{Value: WinValue(w), Winner: w}, true
		}
		if st.vb.PlayUndoable(f, p) != nil {
			f.Undo()
			return search.Result{}, false
		}
		if st.vw.PlayUndoable(f, p) != nil {
			st.vb.Undo()
			f.Undo()
			return search.Result{}, false
		}
		played++
	}
	st.truncated = st.vb.Truncated() || st.vw.Truncated()
	r, open := decideBuilt(f, st.vb, st.vw)
	if !open {
		return r, true
	}
	st.child.CopyFrom(f)
	r, err := x.circuits(&st.child, st.vb, st.vw)
	if err != nil {
		return search.Result{}, false
	}
	x.lastHash, x.filled = b.Hash(), st.fillSet
	return r, true
}

// decideBuilt is vc.Decide's decision on b from builders that already hold both
// colours' connections: the side to move wins with a winning VC or SC, the opponent
// with a winning VC; otherwise the opponent's winning SCs give the mustplay (empty:
// the side to move has lost). open reports an undecided position.
func decideBuilt(b *hex.Board, vb, vw *vc.Builder) (r search.Result, open bool) {
	me := b.ToMove()
	mine, theirs := vb, vw
	if me == hex.White {
		mine, theirs = vw, vb
	}
	if won, _ := mine.WinningVC(); won || len(mine.WinningSemis()) > 0 {
		return search.Result{Value: WinValue(me), Winner: me}, false
	}
	if won, _ := theirs.WinningVC(); won {
		return search.Result{Value: WinValue(me.Opp()), Winner: me.Opp()}, false
	}
	if must, threatened := theirs.Mustplay(); threatened {
		if must.IsEmpty() {
			return search.Result{Value: WinValue(me.Opp()), Winner: me.Opp()}, false
		}
		return search.Result{HasMustplay: true, Mustplay: must}, true
	}
	return search.Result{}, true
}

var _ search.ChildEvaluator = (*Exact)(nil)
