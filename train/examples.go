// Package train fits the learned Hex evaluators of Kahl, Edelkamp & Hildebrand,
// "Learning How to Play Hex" (KI 2007), section 3: one-hidden-layer feed-forward
// networks (one input per cell, tanh hidden units, one output) trained with gorgonia
// on positions labelled by the exact evaluator, by the game-theoretic winner or the
// game's result, or by random playouts (playouts.go: the learned MCTS's own), one
// network per board size and optionally per ply range (the paper's layered partition),
// with the structure (hidden units, epochs) chosen by k-fold cross-validation (the
// paper's rule: minimum mean validation error, ties broken by the smaller standard deviation).
//
// It is the only package that imports gorgonia. It produces model.Model values; the
// pure-Go inference in package model reproduces the gorgonia forward pass to 1e-5.
package train

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// Examples is a training set for one board size, one row per position.
type Examples struct {
	W, H int
	// X holds the network inputs row by row (Rows()·W·H values): +1 White stone,
	// 0 empty, −1 Black stone (model.Encode).
	X []float32
	// Value is the exact evaluator's value per row, from Black's point of view
	// (positive = good for Black). ±Inf marks decided positions.
	Value []float32
	// Ply is the number of stones on the board per row.
	Ply []int
	// Winner is the game-theoretic winner per row when known: +1 Black wins, −1 White
	// wins, 0 unknown. Nil when the data has no solver labels.
	Winner []int8
	// Outcome is the label of the outcome target per row: the winner when known (Winner,
	// else a winning connection: Value ±Inf), else the result of the game the row was
	// recorded in; +1 Black, −1 White, 0 unknown. Nil when the data has no game results.
	Outcome []int8
	// Playout is the label of the playouts target per row: the fraction of random
	// playouts from the row's position that Black wins (LabelPlayouts). Nil until
	// labelled.
	Playout []float32
	// Search is the value the player's own search backed up at each row's position
	// (dataset.SearchTargets.Value: Black's point of view, in [−1, 1]; NaN where no
	// search ran), the search target's q. Nil when no row has one.
	Search []float32
	// Policy holds row by row (Rows()·W·H values) the share of the player's search's
	// root visits each cell received (dataset.SearchTargets.Policy: 0 on the stones,
	// summing to 1 over the empty cells), the policy head's target; NaN throughout a
	// row without one. Nil when no row has one.
	Policy []float32
}

// ErrNoData means a training set (or a partition of it) has no usable rows.
var ErrNoData = errors.New("train: no training examples")

// Rows returns the number of examples.
func (e *Examples) Rows() int { return len(e.Value) }

// Cells returns the number of inputs per row.
func (e *Examples) Cells() int { return e.W * e.H }

// Validate checks that the arrays agree in length and hold valid values.
func (e *Examples) Validate() error {
	if e.W < 1 || e.H < 1 || e.W > 19 || e.H > 19 {
		return fmt.Errorf("train: board size %dx%d out of range", e.W, e.H)
	}
	n, c := e.Rows(), e.Cells()
	if n == 0 {
		return ErrNoData
	}
	if len(e.X) != n*c || len(e.Ply) != n || (e.Winner != nil && len(e.Winner) != n) || (e.Outcome != nil && len(e.Outcome) != n) || (e.Playout != nil && len(e.Playout) != n) {
		return fmt.Errorf("train: examples have inconsistent lengths (X %d, Value %d, Ply %d, Winner %d, Outcome %d for %d cells)",
			len(e.X), n, len(e.Ply), len(e.Winner), len(e.Outcome), c)
	}
	for i, v := range e.X {
		if v != 1 && v != 0 && v != -1 {
			return fmt.Errorf("train: row %d cell %d has input %g (want +1, 0 or −1)", i/c, i%c, v)
		}
	}
	for i, v := range e.Value {
		if math.IsNaN(float64(v)) {
			return fmt.Errorf("train: row %d has a NaN value", i)
		}
		if e.Ply[i] < 0 || e.Ply[i] > c {
			return fmt.Errorf("train: row %d has ply %d on %d cells", i, e.Ply[i], c)
		}
	}
	for i, w := range e.Winner {
		if w < -1 || w > 1 {
			return fmt.Errorf("train: row %d has winner %d (want +1, −1 or 0)", i, w)
		}
	}
	for i, w := range e.Outcome {
		if w < -1 || w > 1 {
			return fmt.Errorf("train: row %d has outcome %d (want +1, −1 or 0)", i, w)
		}
	}
	for i, p := range e.Playout {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("train: row %d has playouts label %g (want 0..1)", i, p)
		}
	}
	if e.Search != nil && len(e.Search) != n {
		return fmt.Errorf("train: %d search values for %d rows", len(e.Search), n)
	}
	for i, q := range e.Search {
		if !math.IsNaN(float64(q)) && !(q >= -1 && q <= 1) {
			return fmt.Errorf("train: row %d has search value %g (want -1..1)", i, q)
		}
	}
	if e.Policy != nil && len(e.Policy) != n*c {
		return fmt.Errorf("train: %d visit shares for %d rows of %d cells", len(e.Policy), n, c)
	}
	for i := 0; e.Policy != nil && i < n; i++ {
		if err := checkPolicy(e.X[i*c:(i+1)*c], e.Policy[i*c:(i+1)*c]); err != nil {
			return fmt.Errorf("train: row %d: %w", i, err)
		}
	}
	return nil
}

// checkPolicy checks one row's visit shares p against its inputs x: NaN throughout,
// or shares in [0, 1], 0 on the stones, summing to 1 (within 1e-3).
func checkPolicy(x, p []float32) error {
	if math.IsNaN(float64(p[0])) {
		for k, v := range p {
			if !math.IsNaN(float64(v)) {
				return fmt.Errorf("visit share %g of cell %d in a row without a policy (NaN)", v, k)
			}
		}
		return nil
	}
	var sum float64
	for k, v := range p {
		if !(v >= 0 && v <= 1) || x[k] != 0 && v != 0 {
			return fmt.Errorf("cell %d has visit share %g (want 0..1, and 0 on a stone)", k, v)
		}
		sum += float64(v)
	}
	if math.Abs(sum-1) > 1e-3 {
		return fmt.Errorf("visit shares sum to %g, not 1", sum)
	}
	return nil
}

// policyRows returns the number of rows with a policy target.
func (e *Examples) policyRows() int {
	n := 0
	for i := 0; e.Policy != nil && i < e.Rows(); i++ {
		if e.hasPolicy(i) {
			n++
		}
	}
	return n
}

// hasPolicy reports whether row i has a policy target.
func (e *Examples) hasPolicy(i int) bool {
	c := e.Cells()
	return e.Policy != nil && !math.IsNaN(float64(e.Policy[i*c]))
}

// HasWinners reports whether every row has a known winner.
func (e *Examples) HasWinners() bool {
	if e.Winner == nil {
		return false
	}
	for _, w := range e.Winner {
		if w == 0 {
			return false
		}
	}
	return true
}

// Subset returns the rows idx, in that order (copies).
func (e *Examples) Subset(idx []int) *Examples {
	c := e.Cells()
	s := &Examples{W: e.W, H: e.H, X: make([]float32, 0, len(idx)*c), Value: make([]float32, len(idx)), Ply: make([]int, len(idx))}
	if e.Winner != nil {
		s.Winner = make([]int8, len(idx))
	}
	if e.Outcome != nil {
		s.Outcome = make([]int8, len(idx))
	}
	if e.Playout != nil {
		s.Playout = make([]float32, len(idx))
	}
	if e.Search != nil {
		s.Search = make([]float32, len(idx))
	}
	if e.Policy != nil {
		s.Policy = make([]float32, 0, len(idx)*c)
	}
	for k, i := range idx {
		s.X = append(s.X, e.X[i*c:(i+1)*c]...)
		s.Value[k] = e.Value[i]
		s.Ply[k] = e.Ply[i]
		if e.Winner != nil {
			s.Winner[k] = e.Winner[i]
		}
		if e.Outcome != nil {
			s.Outcome[k] = e.Outcome[i]
		}
		if e.Playout != nil {
			s.Playout[k] = e.Playout[i]
		}
		if e.Search != nil {
			s.Search[k] = e.Search[i]
		}
		if e.Policy != nil {
			s.Policy = append(s.Policy, e.Policy[i*c:(i+1)*c]...)
		}
	}
	return s
}

// WithRotations returns e with, after each row, its image under the 180° rotation
// (cell i becomes cell W·H−1−i), the board symmetry that keeps the colours, the side to
// move and every label (a cell's visit share moves with it); a row equal to its own
// image (stones and visit shares) is kept once. Unlike
// dataset.Table.Augment it leaves out the colour-exchanging reflections, whose images
// (White one stone ahead, Black to move) alternate play never reaches: with them a
// winner network on 8x8 random positions named fewer winners (docs/history.md, "A winner network on solved random
// positions").
func (e *Examples) WithRotations() *Examples {
	c := e.Cells()
	n := e.Rows()
	idx := make([]int, 0, 2*n)
	img := make([]bool, 0, 2*n)
	for i := 0; i < n; i++ {
		idx, img = append(idx, i), append(img, false)
		same := symmetric(e.X[i*c : (i+1)*c])
		if same && e.hasPolicy(i) {
			same = symmetric(e.Policy[i*c : (i+1)*c])
		}
		if !same {
			idx, img = append(idx, i), append(img, true)
		}
	}
	s := e.Subset(idx)
	for k, rot := range img {
		if rot {
			slices.Reverse(s.X[k*c : (k+1)*c])
			if s.Policy != nil {
				slices.Reverse(s.Policy[k*c : (k+1)*c])
			}
		}
	}
	return s
}

// symmetric reports whether row equals its image under the 180° rotation.
func symmetric(row []float32) bool {
	c := len(row)
	for k := range row {
		if row[k] != row[c-1-k] {
			return false
		}
	}
	return true
}

// PlyRange selects the rows with MinPly ≤ ply ≤ MaxPly.
type PlyRange struct{ MinPly, MaxPly int }

// Partition returns the rows of e in plies r.
func (e *Examples) Partition(r PlyRange) *Examples {
	var idx []int
	for i, p := range e.Ply {
		if p >= r.MinPly && p <= r.MaxPly {
			idx = append(idx, i)
		}
	}
	return e.Subset(idx)
}

// PlyRanges splits plies 0..W·H into consecutive ranges of width plies each (the last
// may be shorter), keeping only ranges that hold at least one row.
func (e *Examples) PlyRanges(width int) []PlyRange {
	if width < 1 {
		width = 1
	}
	c := e.Cells()
	count := make([]int, c+1)
	for _, p := range e.Ply {
		if p >= 0 && p <= c {
			count[p]++
		}
	}
	var rs []PlyRange
	for lo := 0; lo <= c; lo += width {
		hi := min(lo+width-1, c)
		n := 0
		for p := lo; p <= hi; p++ {
			n += count[p]
		}
		if n > 0 {
			rs = append(rs, PlyRange{lo, hi})
		}
	}
	return rs
}

// Hash returns a content hash of the examples ("sha256:" + hex), recorded in models.
func (e *Examples) Hash() string {
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	put(uint64(e.W))
	put(uint64(e.H))
	put(uint64(e.Rows()))
	for _, v := range e.X {
		put(uint64(math.Float32bits(v)))
	}
	for i := range e.Value {
		put(uint64(math.Float32bits(e.Value[i])))
		put(uint64(e.Ply[i]))
	}
	for _, w := range e.Winner {
		put(uint64(int64(w)))
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}

// HashFor returns the content hash of what a model of target t learns from: Hash, and
// for the outcome, playouts and search targets their labels too (so the hashes of
// value and winner models do not change when a dataset gains game results).
func (e *Examples) HashFor(t model.Target) string { return e.HashOf(t, false) }

// HashOf is HashFor, and with policy the visit shares too (what a model with a policy
// head learns besides target t).
func (e *Examples) HashOf(t model.Target, policy bool) string {
	if policy {
		h := sha256.New()
		h.Write([]byte(e.HashFor(t)))
		h.Write([]byte("policy"))
		var b [4]byte
		for _, p := range e.Policy {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(p))
			h.Write(b[:])
		}
		return fmt.Sprintf("sha256:%x", h.Sum(nil))
	}
	if t != model.TargetOutcome && t != model.TargetPlayouts && t != model.TargetSearch {
		return e.Hash()
	}
	h := sha256.New()
	h.Write([]byte(e.Hash()))
	for _, w := range e.Outcome {
		if t == model.TargetOutcome || t == model.TargetSearch {
			h.Write([]byte{byte(w)})
		}
	}
	if t == model.TargetSearch {
		var b [4]byte
		for _, q := range e.Search {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(q))
			h.Write(b[:])
		}
	}
	if t == model.TargetPlayouts {
		var b [4]byte
		for _, p := range e.Playout {
			binary.LittleEndian.PutUint32(b[:], math.Float32bits(p))
			h.Write(b[:])
		}
	}
	return fmt.Sprintf("sha256:%x", h.Sum(nil))
}

// Board rebuilds row i as a board: its stones, and the side to move implied by the
// stone counts (Black when both colours have as many stones, else White).
func (e *Examples) Board(i int) (*hex.Board, error) {
	if i < 0 || i >= e.Rows() {
		return nil, fmt.Errorf("train: row %d out of range 0..%d", i, e.Rows()-1)
	}
	b, err := hex.NewBoard(e.W, e.H)
	if err != nil {
		return nil, fmt.Errorf("train: %w", err)
	}
	c := e.Cells()
	nb, nw := 0, 0
	for p, v := range e.X[i*c : (i+1)*c] {
		switch v {
		case model.InputBlack:
			b.PlayStone(hex.Black, hex.Cell(p))
			nb++
		case model.InputWhite:
			b.PlayStone(hex.White, hex.Cell(p))
			nw++
		}
	}
	if nb == nw {
		b.SetToMove(hex.Black)
	} else {
		b.SetToMove(hex.White)
	}
	return b, nil
}

// WithWinners returns the rows whose winner is known (all of e if every row has one).
// It returns ErrNoData if no row has a known winner.
func (e *Examples) WithWinners() (*Examples, error) {
	if e.HasWinners() {
		return e, nil
	}
	var idx []int
	for i, w := range e.Winner {
		if w != 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("%w: no row has a known winner (the winner target needs solver labels)", ErrNoData)
	}
	return e.Subset(idx), nil
}

// Labelled returns the rows that have a label for target t: every row for the value
// target, the rows with a known winner (WithWinners) or a known outcome. The error
// wraps ErrNoData when there are none.
func (e *Examples) Labelled(t model.Target) (*Examples, error) {
	var labels []int8
	switch t {
	case model.TargetWinner:
		return e.WithWinners()
	case model.TargetOutcome:
		labels = e.Outcome
	case model.TargetSearch:
		labels = make([]int8, e.Rows()) // a row is labelled by its result or its search
		for i := range labels {
			if e.Outcome != nil && e.Outcome[i] != 0 || e.Search != nil && !math.IsNaN(float64(e.Search[i])) {
				labels[i] = 1
			}
		}
	default:
		return e, nil
	}
	idx := make([]int, 0, len(labels))
	for i, w := range labels {
		if w != 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return nil, fmt.Errorf("%w: no row has a game result (the %s target needs a self-play corpus)", ErrNoData, t)
	}
	if len(idx) == e.Rows() {
		return e, nil
	}
	return e.Subset(idx), nil
}

// Open returns the rows whose value magnitude is below limit. The exact evaluator gives
// decided positions (a finished chain or a winning connection) clamped values of
// magnitude at least circuit.LogClamp (20), so Open(20) keeps the positions a search
// actually needs a learned evaluator for: decided ones are found by winning-VC
// detection and the goal-pattern database. Without this filter the squared error is
// dominated by the decided rows (about 70% of a 6x6 self-play corpus) and the network
// fits the open positions poorly.
func (e *Examples) Open(limit float32) *Examples {
	idx := make([]int, 0, len(e.Value))
	for i, v := range e.Value {
		if v < limit && v > -limit {
			idx = append(idx, i)
		}
	}
	return e.Subset(idx)
}
