package model

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestEvaluatorIncrementalMatchesScratch walks random play/undo sequences (a search's
// access pattern) and checks every incremental evaluation against the float64
// reference on the encoded board, for single-net and per-ply-range models.
func TestEvaluatorIncrementalMatchesScratch(t *testing.T) {
	for _, tc := range []struct {
		w, h, hidden, nets int
		out                Output
	}{
		{5, 5, 8, 1, OutputTanh},
		{6, 6, 30, 4, OutputLinear},
		{4, 7, 5, 29, OutputLogistic},
	} {
		m := randomModel(tc.w, tc.h, tc.hidden, tc.nets, tc.out, 11)
		e, err := NewEvaluator(m, tc.w, tc.h)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		b := hex.MustBoard(tc.w, tc.h)
		b.PlayStone(hex.Black, 3)
		e.Reset(b)
		var x []float32
		check := func() {
			t.Helper()
			x = m.Encode(b, x)
			k := m.NetFor(b.NumStones())
			want := m.ForwardReference(k, x)
			z := e.PreOutput(b)
			got := float64(m.Activate(z))
			if math.Abs(got-want) > 1e-5 {
				t.Fatalf("%dx%d: incremental %g, reference %g at\n%s", tc.w, tc.h, got, want, b.Diagram())
			}
			res := e.Evaluate(b)
			if math.Abs(res.Value-m.ValueOf(z)) > 1e-9 {
				t.Fatalf("Evaluate value %g, want %g", res.Value, m.ValueOf(z))
			}
		}
		randomWalk(r, b, e, 3000, 0, check)
		// An untracked board (tracking not told about a stone) is evaluated from scratch.
		empty := b.EmptyCells()
		if p := empty.First(); p != hex.NoCell {
			b.PlayStone(b.ToMove(), p)
			check()
		}
	}
}

func BenchmarkEvaluate(b *testing.B) {
	for _, tc := range []struct {
		name       string
		n, hidden  int
		increments bool
	}{
		{"6x6-36-30-1/scratch", 6, 30, false},
		{"6x6-36-30-1/incremental", 6, 30, true},
		{"11x11-121-50-1/scratch", 11, 50, false},
		{"11x11-121-50-1/incremental", 11, 50, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := randomModel(tc.n, tc.n, tc.hidden, 1, OutputTanh, 1)
			e, _ := NewEvaluator(m, tc.n, tc.n)
			bd := hex.MustBoard(tc.n, tc.n)
			r := rand.New(rand.NewPCG(1, 1))
			empty := bd.EmptyCells()
			cells := empty.AppendCells(nil)
			r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			for _, p := range cells[:tc.n*tc.n/3] { // a middle-game position
				bd.PlayStone(bd.ToMove(), p)
			}
			rest := cells[tc.n*tc.n/3:]
			e.Reset(bd)
			x := m.Encode(bd, nil)
			hid := make([]float32, tc.hidden)
			b.ReportAllocs()
			ct := startCPU(b)
			var sink float32
			for i := 0; i < b.N; i++ {
				if tc.increments {
					// One search step: place a stone, evaluate, remove it.
					p := rest[i%len(rest)]
					c := bd.ToMove()
					bd.PlayStone(c, p)
					e.Play(c, p)
					sink += e.PreOutput(bd)
					bd.Undo()
					e.Undo(c, p)
				} else {
					sink += m.PreOutput(0, x, hid)
				}
			}
			ct.stop(b)
			_ = sink
		})
	}
}

// BenchmarkAccumulator measures the incremental inference alone: add one stone's
// column, compute the output, remove the column (no board bookkeeping).
func BenchmarkAccumulator(b *testing.B) {
	for _, tc := range []struct {
		name      string
		n, hidden int
	}{{"6x6-36-30-1", 6, 30}, {"11x11-121-50-1", 11, 50}} {
		b.Run(tc.name, func(b *testing.B) {
			m := randomModel(tc.n, tc.n, tc.hidden, 1, OutputTanh, 1)
			a := m.NewAccumulator(0)
			cells := tc.n * tc.n
			for p := 0; p < cells/3; p++ {
				a.Add(hex.Color(1+p%2), hex.Cell(p*3%cells))
			}
			b.ReportAllocs()
			ct := startCPU(b)
			var sink float32
			for i := 0; i < b.N; i++ {
				p := hex.Cell(i % cells)
				a.Add(hex.White, p)
				sink += a.PreOutput()
				a.Remove(hex.White, p)
			}
			ct.stop(b)
			_ = sink
		})
	}
}

// BenchmarkAccumulatorFused measures the fused leaf evaluation (PreOutputWith: one
// pass adding a stone's column, applying tanh and the output weights); the 64-hidden
// sizes are those of BenchmarkPolicyLogits.
func BenchmarkAccumulatorFused(b *testing.B) {
	for _, tc := range []struct {
		name      string
		n, hidden int
	}{{"6x6-36-30-1", 6, 30}, {"11x11-121-50-1", 11, 50}, {"8x8-64-64-1", 8, 64}, {"11x11-121-64-1", 11, 64}} {
		b.Run(tc.name, func(b *testing.B) {
			m := randomModel(tc.n, tc.n, tc.hidden, 1, OutputTanh, 1)
			a := m.NewAccumulator(0)
			cells := tc.n * tc.n
			for p := 0; p < cells/3; p++ {
				a.Add(hex.Color(1+p%2), hex.Cell(p*3%cells))
			}
			b.ReportAllocs()
			ct := startCPU(b)
			var sink float32
			for i := 0; i < b.N; i++ {
				sink += a.PreOutputWith(hex.White, hex.Cell(i%cells))
			}
			ct.stop(b)
			_ = sink
		})
	}
}

func TestPreOutputWith(t *testing.T) {
	m := randomModel(4, 4, 7, 1, OutputTanh, 8)
	a := m.NewAccumulator(0)
	a.Add(hex.Black, 3)
	a.Add(hex.White, 9)
	for _, c := range []hex.Color{hex.Black, hex.White} {
		for p := hex.Cell(0); p < 16; p++ {
			got := a.PreOutputWith(c, p)
			a.Add(c, p)
			want := a.PreOutput()
			a.Remove(c, p)
			if d := got - want; d > 1e-6 || d < -1e-6 {
				t.Fatalf("PreOutputWith(%v, %d) = %g, Add+PreOutput = %g", c, p, got, want)
			}
		}
	}
}

// randomWalk plays random stones on b and takes them back, telling the tracker t of
// each (two plays in three while more than minEmpty cells are empty, else a take-back),
// for steps steps, and calls check after about half of them.
func randomWalk(r *rand.Rand, b *hex.Board, t interface {
	Play(hex.Color, hex.Cell)
	Undo(hex.Color, hex.Cell)
}, steps, minEmpty int, check func()) {
	played := 0
	for step := 0; step < steps; step++ {
		cells := b.EmptyCells().AppendCells(nil)
		if len(cells) > minEmpty && (played == 0 || r.IntN(3) > 0) {
			c := b.ToMove()
			p := cells[r.IntN(len(cells))]
			b.PlayStone(c, p)
			t.Play(c, p)
			played++
		} else if played > 0 {
			mv := b.LastMove()
			b.Undo()
			t.Undo(mv.Color, mv.Cell)
			played--
		}
		if r.IntN(2) == 0 {
			check()
		}
	}
}
