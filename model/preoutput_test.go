package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// preOutputOneByOne is the first PreOutput: each non-zero input added to the hidden
// pre-activations in its own pass. The grouped PreOutput must give the same float32.
func preOutputOneByOne(m *Model, net int, x []float32) float32 {
	n := &m.Nets[net]
	acc := append([]float32(nil), n.B1...)
	for i, xi := range x {
		if xi == 0 {
			continue
		}
		col := n.W1[i*n.Hidden : (i+1)*n.Hidden]
		for j, w := range col {
			acc[j] += xi * w
		}
	}
	return outputFromAcc(n, acc)
}

// TestPreOutputBitIdentical compares PreOutput with the one-input-at-a-time sum
// bit for bit: dense and sparse random inputs (every remainder of the groups of four),
// and twodist inputs of random 8x8 and 11x11 boards.
func TestPreOutputBitIdentical(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	check := func(name string, m *Model, net int, x []float32) {
		t.Helper()
		got, want := m.PreOutput(net, x, nil), preOutputOneByOne(m, net, x)
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Fatalf("%s: PreOutput %g (%08x), one by one %g (%08x)", name, got, math.Float32bits(got),
				want, math.Float32bits(want))
		}
	}
	for _, hidden := range []int{1, 7, 64} {
		m := randomModel(5, 5, hidden, 2, OutputTanh, uint64(hidden))
		for n := 0; n < 300; n++ {
			x := make([]float32, m.Inputs())
			density := r.Float64()
			for i := range x {
				if r.Float64() < density {
					x[i] = float32(r.NormFloat64())
				}
			}
			check("cells", m, n%2, x)
		}
	}
	for _, size := range []int{8, 11} {
		m := twoDistModel(size, size, 64, 1, 3)
		enc, err := NewEncoder(m)
		if err != nil {
			t.Fatal(err)
		}
		for n := 0; n < 300; n++ {
			b := hex.MustBoard(size, size)
			for _, c := range r.Perm(size * size)[:r.IntN(size*size)] {
				if b.Winner() != hex.Empty {
					break
				}
				b.PlayStone(b.ToMove(), hex.Cell(c))
			}
			check("twodist", m, 0, enc.Encode(b, nil))
		}
	}
}
