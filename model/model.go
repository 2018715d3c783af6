// Package model holds learned Hex evaluators: the versioned model file and fast pure-Go
// float32 inference, from scratch and incremental.
//
// It implements the networks of Kahl, Edelkamp & Hildebrand, "Learning How to Play Hex"
// (KI 2007), section 3 ("Learning the Evaluation Function"): feed-forward networks with
// one input per cell (+1 White stone, 0 empty, −1 Black stone), one hidden layer of tanh
// units and one output, optionally one network per ply range (the paper's layered
// partition of the example set). Training lives in package train; this package has no
// gorgonia dependency and is what a search links.
//
// The side to move needs no input of its own: the inputs sum to nw − nb (White minus
// Black stones), which is 0 when Black is to move and −1 when White is in a game
// played alternately from the empty board, so the first layer sees it (train's
// TestKnowsSideToMove). Whether a network uses it depends on its target: the exact
// evaluator's value does not depend on the side to move, the winner and outcome targets do.
//
// Incremental inference keeps the hidden-layer pre-activations as accumulators: placing or
// removing a stone adds or subtracts one weight column, so a search pays O(hidden) per
// move instead of O(hidden × cells); see Accumulator and Evaluator.
//
// A model may instead use another input layer (Model.Features): FeaturesTwoDist adds
// connectivity, Queenbee's two-distance potentials of every empty cell for both
// colours (engine/twodist), which a network over the cells alone cannot represent;
// such models are evaluated from scratch (features.go).
package model

import (
	"errors"
	"fmt"
	"math"
)

// Input encoding of a cell, as in the paper.
const (
	InputWhite float32 = 1  // a White stone
	InputEmpty float32 = 0  // an empty cell
	InputBlack float32 = -1 // a Black stone
)

// Encoding is the name of the input encoding recorded in every model file.
const Encoding = "cell:white=+1,empty=0,black=-1"

// Target says what a network was trained to predict.
type Target string

// Targets.
const (
	// TargetValue is the exact evaluator's value (regression), Black's point of view.
	TargetValue Target = "value"
	// TargetWinner is the game-theoretic winner (1 = Black wins), a logistic output
	// trained with cross-entropy.
	TargetWinner Target = "winner"
	// TargetOutcome is the result of the self-play game the position was recorded in,
	// replaced by the proved winner where one is known (a winning connection found by
	// H-search, or the solver's label): a logistic output trained with cross-entropy,
	// like TargetWinner, but available for every row of a self-play corpus. Unlike the
	// exact evaluator's value it depends on whose move it is.
	TargetOutcome Target = "outcome"
	// TargetPlayouts is the probability that Black wins a random playout from the
	// position (engine/search.Playouts, as the learned MCTS runs them), estimated from
	// many playouts per row: a logistic output trained with cross-entropy on that
	// probability. Like the outcome target it depends on whose move it is; a network
	// trained on it stands in for the playouts at a fraction of their cost.
	TargetPlayouts Target = "playouts"
	// TargetSearch is what the player's own self-play says of a position (Expert
	// Iteration: the network learns from the search it guides): the probability that
	// Black wins, λ·z + (1−λ)·q mapped from [−1, 1] to [0, 1], where z is the
	// self-play game's result, q the value the player's search backed up at the
	// position (dataset.SearchTargets) and λ the mix (train.Config.SearchMix); the
	// proved winner where one is known. A logistic output trained with cross-entropy.
	TargetSearch Target = "search"
)

// Targets lists every target, in the order the command line names them.
var Targets = []Target{TargetValue, TargetWinner, TargetOutcome, TargetPlayouts, TargetSearch}

// Logistic reports whether t is predicted as the probability that Black wins (a
// logistic output whose pre-activation is the log-odds): the winner, outcome,
// playouts and search targets.
func (t Target) Logistic() bool {
	return t == TargetWinner || t == TargetOutcome || t == TargetPlayouts || t == TargetSearch
}

// ParseTarget parses a target name; the error names the accepted ones.
func ParseTarget(s string) (Target, error) {
	for _, t := range Targets {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("model: unknown target %q (want value, winner, outcome, playouts or search)", s)
}

// Output is the activation of the output unit.
type Output string

// Output activations.
const (
	OutputTanh     Output = "tanh"     // regression into [−1, 1]
	OutputLinear   Output = "linear"   // unbounded regression
	OutputLogistic Output = "logistic" // probability that Black wins
)

// Scaling maps the evaluator's value v to the training target y and back:
// y = (v − Offset) / Scale, clipped to [−1, 1] for a tanh output; v = y·Scale + Offset.
// Winner models use Offset 0 and Scale 1 and report the log-odds that Black wins.
type Scaling struct {
	Offset float32 `json:"offset"`
	Scale  float32 `json:"scale"`
}

// ToTarget maps an evaluator value to the scaled training target for output o.
// Infinite values (decided positions) map to the end of the range.
func (s Scaling) ToTarget(v float64, o Output) float32 {
	y := (v - float64(s.Offset)) / float64(s.Scale)
	lim := 1.0
	if o == OutputLinear {
		lim = 5
	}
	if math.IsNaN(y) {
		return 0
	}
	if y > lim {
		y = lim
	} else if y < -lim {
		y = -lim
	}
	return float32(y)
}

// FromTarget maps a network output back to evaluator units.
func (s Scaling) FromTarget(y float32) float64 {
	return float64(y)*float64(s.Scale) + float64(s.Offset)
}

// Net is one fully connected 1-hidden-layer network for plies MinPly..MaxPly
// (inclusive; ply = number of stones on the board).
type Net struct {
	MinPly, MaxPly int
	Hidden         int
	// W1 holds the input-to-hidden weights column by column: the Hidden weights that
	// input (cell) i feeds are W1[i*Hidden : (i+1)*Hidden]. This is the layout the
	// incremental accumulator adds and subtracts.
	W1 []float32
	B1 []float32 // hidden biases, len Hidden
	W2 []float32 // hidden-to-output weights, len Hidden
	B2 float32   // output bias
	// WP and BP are the optional policy head on the same hidden layer: one logit per
	// cell, logit[c] = BP[c] + Σ_j tanh(hidden_j)·WP[c·Hidden+j], whose softmax over
	// the empty cells is the network's move priors (trained on the visit shares of the
	// player's search). WP holds the weights cell by cell: the Hidden weights feeding
	// cell c's logit are WP[c*Hidden : (c+1)*Hidden]; len W·H·Hidden, and BP len W·H.
	// Both nil: no policy head (every network of a model has one or none).
	WP []float32
	BP []float32
}

// HasPolicy reports whether the network has a policy head.
func (n *Net) HasPolicy() bool { return n.WP != nil || n.BP != nil }

// Provenance records what produced a model.
type Provenance struct {
	DatasetHash string `json:"dataset_hash"` // content hash of the training data
	Seed        int64  `json:"seed"`         // seed for initialisation and shuffling
	CodeVersion string `json:"code_version"` // internal/version.String() of the trainer
	Config      string `json:"config"`       // trainer configuration (flags), free text
	Sweep       string `json:"sweep"`        // the cross-validation result that chose the structure
	TrainError  string `json:"train_error"`  // final training/held-out errors, free text
	// Loop, for a network of the self-improving loop (hexlearn loop), records its
	// generation: nil for any other model (and absent from its file).
	Loop *LoopProvenance `json:"loop,omitempty"`
}

// LoopProvenance is what a network of the self-improving loop records about where it
// came from: its generation, its parent (the network whose self-play it learned
// from), what it learned and how it passed the gate.
type LoopProvenance struct {
	Generation int    `json:"generation"`
	Parent     int    `json:"parent"`      // the parent's generation (-1: none)
	ParentHash string `json:"parent_hash"` // sha256 of the parent's model file
	Iteration  int    `json:"iteration"`   // the loop's iteration that made it
	Data       string `json:"data"`        // the self-play it learned from (rows, games, iterations)
	Gate       string `json:"gate"`        // the gate's result against the parent
}

// Model is a learned evaluator for one board size.
type Model struct {
	W, H    int
	Target  Target
	Output  Output
	Scaling Scaling
	// Features is the input layer ("" or FeaturesCells: one input per cell).
	Features   Features
	Nets       []Net // sorted by MinPly, ranges disjoint
	Provenance Provenance
}

// Errors returned by Load and Validate; callers can branch on them with errors.Is.
var (
	// ErrFormat means the bytes are not a model file this version can read.
	ErrFormat = errors.New("model: not a valid model file")
	// ErrVersion means the file has a format version this code does not know.
	ErrVersion = errors.New("model: unsupported model format version")
	// ErrWrongSize means the model was trained for another board size.
	ErrWrongSize = errors.New("model: model is for another board size")
)

// Cells returns W·H, the number of cells (the number of inputs of the cells feature
// set; see Inputs).
func (m *Model) Cells() int { return m.W * m.H }

// CheckSize returns an error wrapping ErrWrongSize unless the model is for a w x h board.
func (m *Model) CheckSize(w, h int) error {
	if m.W != w || m.H != h {
		return fmt.Errorf("%w: trained on %dx%d, board is %dx%d", ErrWrongSize, m.W, m.H, w, h)
	}
	return nil
}

// NetFor returns the index of the network for a position with the given number of
// stones: the one whose range holds it, else the nearest range.
func (m *Model) NetFor(ply int) int {
	best, bestd := 0, math.MaxInt
	for i := range m.Nets {
		n := &m.Nets[i]
		if ply >= n.MinPly && ply <= n.MaxPly {
			return i
		}
		d := n.MinPly - ply
		if ply > n.MaxPly {
			d = ply - n.MaxPly
		}
		if d < bestd {
			best, bestd = i, d
		}
	}
	return best
}

// HasPolicy reports whether the model's networks have a policy head (Net.WP): move
// priors besides the value. Validate checks that all of them have one or none.
func (m *Model) HasPolicy() bool { return len(m.Nets) > 0 && m.Nets[0].HasPolicy() }

// Validate checks the model's internal consistency: board size, output and target,
// scaling, network shapes (the policy heads' included), disjoint sorted ply ranges
// and finite weights.
func (m *Model) Validate() error {
	if m.W < 1 || m.H < 1 || m.W > 19 || m.H > 19 {
		return fmt.Errorf("%w: board size %dx%d out of range 1..19", ErrFormat, m.W, m.H)
	}
	switch m.Target {
	case TargetValue:
		if m.Output != OutputTanh && m.Output != OutputLinear {
			return fmt.Errorf("%w: value target needs a tanh or linear output, not %q", ErrFormat, m.Output)
		}
	case TargetWinner, TargetOutcome, TargetPlayouts, TargetSearch:
		if m.Output != OutputLogistic {
			return fmt.Errorf("%w: %s target needs a logistic output, not %q", ErrFormat, m.Target, m.Output)
		}
	default:
		return fmt.Errorf("%w: unknown target %q", ErrFormat, m.Target)
	}
	if !finite32(m.Scaling.Scale) || !finite32(m.Scaling.Offset) || m.Scaling.Scale <= 0 {
		return fmt.Errorf("%w: bad target scaling %+v", ErrFormat, m.Scaling)
	}
	if len(m.Nets) == 0 || len(m.Nets) > maxNets {
		return fmt.Errorf("%w: %d networks (want 1..%d)", ErrFormat, len(m.Nets), maxNets)
	}
	cells, inputs := m.Cells(), m.Inputs()
	if inputs == 0 {
		return fmt.Errorf("%w: unknown feature set %q", ErrFormat, m.Features)
	}
	for i := range m.Nets {
		n := &m.Nets[i]
		if n.Hidden < 1 || n.Hidden > maxHidden {
			return fmt.Errorf("%w: network %d has %d hidden units (want 1..%d)", ErrFormat, i, n.Hidden, maxHidden)
		}
		if n.MinPly < 0 || n.MaxPly < n.MinPly || n.MaxPly > cells {
			return fmt.Errorf("%w: network %d has ply range %d..%d on %d cells", ErrFormat, i, n.MinPly, n.MaxPly, cells)
		}
		if i > 0 && n.MinPly <= m.Nets[i-1].MaxPly {
			return fmt.Errorf("%w: ply ranges of networks %d and %d overlap or are unsorted", ErrFormat, i-1, i)
		}
		if len(n.W1) != inputs*n.Hidden || len(n.B1) != n.Hidden || len(n.W2) != n.Hidden {
			return fmt.Errorf("%w: network %d has weight arrays of the wrong length", ErrFormat, i)
		}
		if n.HasPolicy() != m.HasPolicy() {
			return fmt.Errorf("%w: networks 0 and %d differ in having a policy head", ErrFormat, i)
		}
		if n.HasPolicy() && (len(n.WP) != cells*n.Hidden || len(n.BP) != cells) {
			return fmt.Errorf("%w: network %d has policy weight arrays of the wrong length", ErrFormat, i)
		}
		for _, s := range [][]float32{n.W1, n.B1, n.W2, {n.B2}, n.WP, n.BP} {
			for _, v := range s {
				if !finite32(v) {
					return fmt.Errorf("%w: network %d has a non-finite weight", ErrFormat, i)
				}
			}
		}
	}
	return nil
}

const (
	maxNets   = 400
	maxHidden = 4096
)

func finite32(v float32) bool {
	f := float64(v)
	return !math.IsNaN(f) && !math.IsInf(f, 0)
}
