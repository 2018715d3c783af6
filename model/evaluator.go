package model

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// Evaluator is the learned evaluator for engine/search. It implements search.Evaluator
// and search.Tracker: between Reset and the matching Play/Undo calls it keeps one
// hidden-layer accumulator per network, updated lazily (a network's accumulator catches
// up with the moves played since it was last used, so a search pays O(hidden) per move
// for the networks it actually consults). Evaluate checks that the board it is given
// has exactly the tracked stones and otherwise computes the value from scratch, so it
// is always correct, with or without tracking.
//
// Models whose feature set is not cells (FeaturesTwoDist) are evaluated from scratch
// at every call (the tracking calls are accepted and ignored); Evaluate allocates
// nothing either way.
//
// The network is chosen by the number of stones on the board (Model.NetFor). Value is
// from Black's point of view, positive good for Black (see Model.ValueOf). An Evaluator
// is not safe for concurrent use; give each search goroutine its own.
type Evaluator struct {
	m      *Model
	accs   []Accumulator
	synced []int      // how many stack entries each accumulator has applied
	stack  []hex.Move // root stones then played stones
	black  hex.Bitset // tracked stones
	white  hex.Bitset
	valid  bool // tracking state describes a real position
	tmp    Accumulator
	act    []float32 // hidden activations (the policy head's input)
	netOf  []int     // network index per number of stones, 0..W·H
	enc    *Encoder  // feature sets other than cells: the input encoder
	x      []float32 // and its input buffer
}

// NewEvaluator returns a learned evaluator for w x h boards; the error wraps
// ErrWrongSize when the model was trained for another size.
func NewEvaluator(m *Model, w, h int) (e *Evaluator, err error) {
	if err := m.CheckSize(w, h); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	e = &Evaluator{m: m, synced: make([]int, len(m.Nets)), stack: make([]hex.Move, 0, m.Cells())}
	maxH := 0
	for i := range m.Nets {
		e.accs = append(e.accs, *m.NewAccumulator(i))
		maxH = max(maxH, m.Nets[i].Hidden)
	}
	e.tmp.acc = make([]float32, maxH)
	e.act = make([]float32, maxH)
	e.netOf = make([]int, m.Cells()+1)
	for ply := range e.netOf {
		e.netOf[ply] = m.NetFor(ply)
	}
	if m.Features != "" && m.Features != FeaturesCells {
		if e.enc, err = NewEncoder(m); err != nil {
			return nil, err
		}
		e.x = make([]float32, m.Inputs())
	}
	return e, nil
}

// Model returns the evaluator's model.
func (e *Evaluator) Model() *Model { return e.m }

// LogOdds implements search.WinProbability: a logistic model's value is the
// log-odds that Black wins.
func (e *Evaluator) LogOdds() bool { return e.m.Target.Logistic() }

// PlayoutEstimate implements search.WinProbability: a model of the playouts target
// estimates the random playouts' result.
func (e *Evaluator) PlayoutEstimate() bool { return e.m.Target == TargetPlayouts }

// Reset starts tracking from position b.
func (e *Evaluator) Reset(b *hex.Board) {
	e.checkBoard(b)
	if e.enc != nil {
		return
	}
	e.stack = e.stack[:0]
	e.black, e.white = hex.Bitset{}, hex.Bitset{}
	for _, c := range [2]hex.Color{hex.Black, hex.White} {
		s := b.Stones(c)
		for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
			if !p.IsEdge() {
				e.push(c, p)
			}
		}
	}
	for i := range e.accs {
		e.accs[i].Clear()
		e.synced[i] = 0
	}
	e.valid = true
}

func (e *Evaluator) push(c hex.Color, p hex.Cell) {
	e.stack = append(e.stack, hex.Move{Color: c, Cell: p})
	if c == hex.White {
		e.white.Set(p)
	} else {
		e.black.Set(p)
	}
}

// Play records that a stone of colour c was placed on p.
func (e *Evaluator) Play(c hex.Color, p hex.Cell) {
	if !e.valid || int(p) < 0 || int(p) >= e.m.Cells() || (c != hex.Black && c != hex.White) ||
		e.black.Has(p) || e.white.Has(p) {
		e.valid = false
		return
	}
	e.push(c, p)
}

// Undo records that the stone of colour c on p (the last one played) was removed.
func (e *Evaluator) Undo(c hex.Color, p hex.Cell) {
	n := len(e.stack)
	if !e.valid || n == 0 || e.stack[n-1] != (hex.Move{Color: c, Cell: p}) {
		e.valid = false
		return
	}
	for i := range e.accs {
		if e.synced[i] == n {
			e.accs[i].Remove(c, p)
			e.synced[i] = n - 1
		}
	}
	e.stack = e.stack[:n-1]
	if c == hex.White {
		e.white.Clear(p)
	} else {
		e.black.Clear(p)
	}
}

// Evaluate scores b with the network for its number of stones.
func (e *Evaluator) Evaluate(b *hex.Board) search.Result {
	z := e.PreOutput(b)
	return search.Result{Value: e.m.ValueOf(z), Winner: b.Winner()}
}

// PreOutput returns the chosen network's output pre-activation for b, incrementally
// when b is the tracked position and from scratch otherwise.
func (e *Evaluator) PreOutput(b *hex.Board) float32 {
	e.checkBoard(b)
	if e.enc != nil {
		e.x = e.enc.Encode(b, e.x)
		return e.m.PreOutput(e.netOf[b.NumStones()], e.x, e.tmp.acc)
	}
	if e.valid && b.Stones(hex.Black) == e.black && b.Stones(hex.White) == e.white {
		k := e.netOf[len(e.stack)]
		a := &e.accs[k]
		n := len(e.stack)
		if e.synced[k] == n {
			return a.PreOutput()
		}
		// Catch up to the last move and fuse that one into the output pass: the
		// accumulator stays one move behind, so the Undo that usually follows a leaf
		// evaluation costs nothing.
		for _, mv := range e.stack[e.synced[k] : n-1] {
			a.Add(mv.Color, mv.Cell)
		}
		e.synced[k] = n - 1
		last := e.stack[n-1]
		return a.PreOutputWith(last.Color, last.Cell)
	}
	k := e.netOf[b.NumStones()]
	e.tmp.net = &e.m.Nets[k]
	e.tmp.acc = e.tmp.acc[:e.tmp.net.Hidden]
	e.tmp.SetBoard(b)
	return e.tmp.PreOutput()
}

func (e *Evaluator) checkBoard(b *hex.Board) {
	if b.Width() != e.m.W || b.Height() != e.m.H {
		// A programming error: NewEvaluator already checked the size the caller uses.
		panic(fmt.Sprintf("model: evaluator for %dx%d given a %dx%d board", e.m.W, e.m.H, b.Width(), b.Height()))
	}
}

var (
	_ search.Evaluator      = (*Evaluator)(nil)
	_ search.Tracker        = (*Evaluator)(nil)
	_ search.WinProbability = (*Evaluator)(nil)
)
