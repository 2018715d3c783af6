package model

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/twodist"
)

// Features names a model's input layer, recorded in the model file.
type Features string

// Feature sets.
const (
	// FeaturesCells is the paper's input layer: one input per cell, +1 White stone, 0
	// empty, −1 Black stone (Encoding). Evaluated incrementally. Model.Features ""
	// means this set (model files written before the field existed).
	FeaturesCells Features = "cells"
	// FeaturesTwoDist adds connectivity: per cell TwoDistPerCell inputs (the stones,
	// and for an empty cell Queenbee's two-distance potentials of both colours,
	// engine/twodist) and TwoDistGlobals board-wide inputs (smallest potentials,
	// mobilities, stone balance, fill). Evaluated from scratch, about 3 µs on 8x8 with a
	// 64-hidden network (the potentials about 1 µs of it).
	FeaturesTwoDist Features = "twodist"
)

// ParseFeatures parses a feature-set name ("" is cells); the error names the accepted ones.
func ParseFeatures(s string) (Features, error) {
	switch f := Features(s); f {
	case "", FeaturesCells:
		return FeaturesCells, nil
	case FeaturesTwoDist:
		return f, nil
	}
	return "", fmt.Errorf("model: unknown feature set %q (want cells or twodist)", s)
}

// The layout of FeaturesTwoDist.
const (
	// TwoDistPerCell inputs per cell, in this order: Black stone (1/0), White stone
	// (1/0), then for an empty cell (0 on a stone): Black's and White's closeness to
	// their smallest potential, max(0, 1 − (potential − min)/6), and Black's and
	// White's potential divided by W+H+2 (at most 2).
	TwoDistPerCell = 6
	// TwoDistGlobals inputs after the cells: (White's min − Black's min)/4 in [−2, 2],
	// Black's and White's min/(W+H+2) (at most 2), Black's and White's mobility/16,
	// Black stones − White stones (in [−1, 1]: +1 when White is to move in alternate
	// play), stones/cells.
	TwoDistGlobals = 7
)

// Inputs returns the number of network inputs of the model's feature set.
func (m *Model) Inputs() int { return InputsOf(m.Features, m.Cells()) }

// InputsOf returns the number of inputs of feature set f on a board of the given number
// of cells (0 for an unknown set).
func InputsOf(f Features, cells int) int {
	switch f {
	case "", FeaturesCells:
		return cells
	case FeaturesTwoDist:
		return cells*TwoDistPerCell + TwoDistGlobals
	}
	return 0
}

// Encoder writes a model's network inputs for boards of its size. It keeps the scratch
// space of the feature computation, so Encode allocates nothing once dst is large
// enough. It is not safe for concurrent use.
type Encoder struct {
	m   *Model
	pot *twodist.Potentials
}

// NewEncoder returns an encoder for m's feature set and board size.
func NewEncoder(m *Model) (*Encoder, error) {
	e := &Encoder{m: m}
	switch m.Features {
	case "", FeaturesCells:
	case FeaturesTwoDist:
		g, err := hex.NewGeometry(m.W, m.H)
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		e.pot = twodist.New(g)
	default:
		return nil, fmt.Errorf("%w: unknown feature set %q", ErrFormat, m.Features)
	}
	return e, nil
}

// Encode writes the network input of board b (of the model's size) into dst, resized
// to Model.Inputs, and returns it.
func (e *Encoder) Encode(b *hex.Board, dst []float32) []float32 {
	if e.pot == nil {
		return e.m.encodeCells(b, dst)
	}
	n := e.m.Cells()
	if cap(dst) < e.m.Inputs() {
		dst = make([]float32, e.m.Inputs())
	}
	dst = dst[:e.m.Inputs()]
	t := e.pot
	t.Compute(b)
	scale := float32(e.m.W + e.m.H + 2)
	minB, minW := t.Min(hex.Black), t.Min(hex.White)
	nb, nw := 0, 0
	for i := 0; i < n; i++ {
		o := dst[i*TwoDistPerCell : i*TwoDistPerCell+TwoDistPerCell]
		clear(o)
		p := hex.Cell(i)
		switch b.At(p) {
		case hex.Black:
			o[0] = 1
			nb++
		case hex.White:
			o[1] = 1
			nw++
		default:
			pb, pw := t.Potential(hex.Black, p), t.Potential(hex.White, p)
			o[2] = max(0, 1-float32(pb-minB)/6)
			o[3] = max(0, 1-float32(pw-minW)/6)
			o[4] = min(float32(pb)/scale, 2)
			o[5] = min(float32(pw)/scale, 2)
		}
	}
	g := dst[n*TwoDistPerCell:]
	g[0] = max(-2, min(2, float32(minW-minB)/4))
	g[1] = min(float32(minB)/scale, 2)
	g[2] = min(float32(minW)/scale, 2)
	g[3] = float32(t.Mobility(hex.Black)) / 16
	g[4] = float32(t.Mobility(hex.White)) / 16
	g[5] = float32(max(-1, min(1, nb-nw)))
	g[6] = float32(nb+nw) / float32(n)
	return dst
}
