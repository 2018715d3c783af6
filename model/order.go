package model

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/twodist"
)

// OrderMode names a cheap move ordering of the learned evaluator (Ordering).
type OrderMode string

// Move orderings.
const (
	// OrderPotential ranks a cell by the sum of both colours' two-distance potentials,
	// smallest first: the cells on both players' shortest two-distance paths come first
	// (Queenbee's move choice, van Rijswijck 2000). It needs no network pass.
	OrderPotential OrderMode = "potential"
	// OrderNetwork ranks a cell by the network's output for the position with the
	// mover's stone on it, where only the cell's own inputs change (the stone appears,
	// its potentials vanish) and every other cell keeps the potentials of the position
	// evaluated: one first-layer update of five columns and one output pass per cell.
	OrderNetwork OrderMode = "network"
	// OrderMix is OrderNetwork with OrderPotential breaking near-ties: the network's
	// output pre-activation minus MixWeight times the potential sum.
	OrderMix OrderMode = "mix"
	// OrderPolicy ranks a cell by the network's policy head (Net.WP): its logit, the
	// move prior before the softmax over the empty cells. It needs a model with a
	// policy head, and is the natural ordering of one (NaturalOrder).
	OrderPolicy OrderMode = "policy"
)

// MixWeight is the weight of the potential sum in OrderMix, in units of the network's
// output pre-activation per potential step.
const MixWeight = 0.05

// ErrOrder reports an ordering the model cannot provide (an unknown mode, the network
// ordering of a model whose feature set is not FeaturesTwoDist, or the policy ordering
// of a model without a policy head).
var ErrOrder = errors.New("model: unsupported move ordering")

// ParseOrderMode parses an ordering name; the error names the accepted ones.
func ParseOrderMode(s string) (OrderMode, error) {
	switch m := OrderMode(s); m {
	case OrderPotential, OrderNetwork, OrderMix, OrderPolicy:
		return m, nil
	}
	return "", fmt.Errorf("%w %q (want potential, network, mix or policy)", ErrOrder, s)
}

// NaturalOrder returns the best move ordering m provides: its policy head's
// (OrderPolicy) when it has one, else the network ordering mixed with the potentials
// (OrderMix) for a FeaturesTwoDist model, else the potentials (OrderPotential).
func (m *Model) NaturalOrder() OrderMode {
	switch {
	case m.HasPolicy():
		return OrderPolicy
	case m.Features == FeaturesTwoDist:
		return OrderMix
	}
	return OrderPotential
}

// Ordering is a learned evaluator with a cheap move ordering: it implements
// search.Evaluator and search.Tracker (those of the embedded Evaluator) and
// search.Orderer, so a search can rank the moves of a node without evaluating every
// child (see search.Params.LookaheadDepth). MoveScores ranks the moves of the position
// evaluated last, as search.Orderer requires, and allocates nothing. Like the
// Evaluator it is not safe for concurrent use.
type Ordering struct {
	*Evaluator
	mode   OrderMode
	pot    *twodist.Potentials // potentials of a cells-feature model's positions
	zacc   []float32           // scratch hidden pre-activations (OrderNetwork, OrderMix)
	logits []float32           // scratch policy logits (OrderPolicy)
}

// NewOrdering returns e with the move ordering mode (Model.NaturalOrder names the
// best one a model provides). The network orderings need a FeaturesTwoDist model (their inputs are the
// potentials), the policy ordering a model with a policy head; the potential ordering
// works for every model. The error wraps ErrOrder.
func NewOrdering(e *Evaluator, mode OrderMode) (*Ordering, error) {
	if _, err := ParseOrderMode(string(mode)); err != nil {
		return nil, err
	}
	o := &Ordering{Evaluator: e, mode: mode}
	if mode == OrderPolicy {
		if !e.m.HasPolicy() {
			return nil, fmt.Errorf("%w: the policy ordering needs a model with a policy head", ErrOrder)
		}
		o.logits = make([]float32, e.m.Cells())
		return o, nil
	}
	if e.enc == nil {
		if mode != OrderPotential {
			return nil, fmt.Errorf("%w: %s ordering needs a %s model, not %s", ErrOrder, mode, FeaturesTwoDist, FeaturesCells)
		}
		g, err := hex.NewGeometry(e.m.W, e.m.H)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrOrder, err)
		}
		o.pot = twodist.New(g)
	}
	maxH := 0
	for i := range e.m.Nets {
		maxH = max(maxH, e.m.Nets[i].Hidden)
	}
	o.zacc = make([]float32, maxH)
	return o, nil
}

// Mode returns the ordering's mode.
func (o *Ordering) Mode() OrderMode { return o.mode }

// MoveScores implements search.Orderer: scores[p] for every empty cell p of b, the
// position evaluated last (higher is searched first).
func (o *Ordering) MoveScores(b *hex.Board, scores []float64) {
	e := o.Evaluator
	e.checkBoard(b)
	if o.mode == OrderPolicy {
		o.policyScores(b, scores)
		return
	}
	t := o.pot
	if t == nil {
		t = e.enc.pot // Evaluate computed b's potentials
	} else {
		t.Compute(b)
	}
	empty := b.EmptyCells()
	if o.mode == OrderPotential {
		for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
			scores[p] = -float64(t.Potential(hex.Black, p) + t.Potential(hex.White, p))
		}
		return
	}
	// The hidden pre-activations of b are in e.tmp.acc (Evaluate's from-scratch pass).
	net := &e.m.Nets[e.netOf[b.NumStones()]]
	h := net.Hidden
	base := e.tmp.acc[:h]
	acc := o.zacc[:h]
	x := e.x
	stone := 0 // the input of a Black stone
	sign := float64(1)
	if b.ToMove() == hex.White {
		stone, sign = 1, -1
	}
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		i := int(p) * TwoDistPerCell
		copy(acc, base)
		// The stone appears (input 1) and the cell's potential inputs vanish.
		addCol(acc, 1, net.W1[(i+stone)*h:(i+stone+1)*h])
		for k := 2; k < TwoDistPerCell; k++ {
			if v := x[i+k]; v != 0 {
				addCol(acc, -v, net.W1[(i+k)*h:(i+k+1)*h])
			}
		}
		s := sign * float64(outputFromAcc(net, acc))
		if o.mode == OrderMix {
			s -= MixWeight * float64(t.Potential(hex.Black, p)+t.Potential(hex.White, p))
		}
		scores[p] = s
	}
}

// policyScores writes the policy logit of every empty cell p of b into scores[p].
func (o *Ordering) policyScores(b *hex.Board, scores []float64) {
	e := o.Evaluator
	var n *Net
	if e.enc != nil {
		// Evaluate(b) computed b's hidden pre-activations from scratch into e.tmp.acc.
		n = &e.m.Nets[e.netOf[b.NumStones()]]
		tanhInto(e.act, e.tmp.acc[:n.Hidden])
	} else {
		n = e.activations(b)
	}
	e.logitsOf(n, b, o.logits)
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		scores[p] = float64(o.logits[p])
	}
}

// PolicyLogits implements search.PolicyOrderer: with the policy ordering the move
// scores are the policy head's logits, whose softmax the MCTS takes as its priors.
func (o *Ordering) PolicyLogits() bool { return o.mode == OrderPolicy }

var (
	_ search.PolicyOrderer  = (*Ordering)(nil)
	_ search.Evaluator      = (*Ordering)(nil)
	_ search.Tracker        = (*Ordering)(nil)
	_ search.WinProbability = (*Ordering)(nil)
	_ search.Orderer        = (*Ordering)(nil)
)
