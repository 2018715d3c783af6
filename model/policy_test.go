package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/positions"
)

// withPolicy gives every network of m a policy head with seeded random weights and
// returns m.
func withPolicy(m *Model, seed uint64) *Model {
	r := rand.New(rand.NewPCG(seed, 13))
	for i := range m.Nets {
		n := &m.Nets[i]
		n.WP = make([]float32, m.Cells()*n.Hidden)
		n.BP = make([]float32, m.Cells())
		for j := range n.WP {
			n.WP[j] = float32(r.NormFloat64() * 0.5)
		}
		for j := range n.BP {
			n.BP[j] = float32(r.NormFloat64() * 0.3)
		}
	}
	return m
}

// TestPolicyFile: a model with a policy head is written in format version 2 with the
// head named in its header and read back weight for weight, its bytes stable; the
// same model without the head is written in version 1, as before version 2 existed
// (TestGoldenFile holds those bytes); a golden version-2 file keeps the layout fixed.
func TestPolicyFile(t *testing.T) {
	for _, m := range []*Model{withPolicy(randomModel(5, 4, 7, 3, OutputTanh, 1), 2), withPolicy(twoDistModel(4, 4, 5, 2, 3), 4)} {
		data, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(data[8:12]); v != FormatVersion || FormatVersion != 2 {
			t.Fatalf("a model with a policy head written in version %d", v)
		}
		if !bytes.Contains(data, []byte(`"policy":"cells"`)) {
			t.Fatal("the header does not name the policy head")
		}
		got, err := Load(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if !got.HasPolicy() || len(got.Nets) != len(m.Nets) {
			t.Fatalf("read back without its policy head: %+v", got)
		}
		for i := range m.Nets {
			a, b := &m.Nets[i], &got.Nets[i]
			if !slices.Equal(a.WP, b.WP) || !slices.Equal(a.BP, b.BP) || !slices.Equal(a.W1, b.W1) || a.B2 != b.B2 {
				t.Fatalf("network %d's weights changed in the round trip", i)
			}
		}
		again, _ := got.MarshalBinary()
		if !bytes.Equal(again, data) {
			t.Fatal("load+save changed the bytes")
		}
		// Without the head: version 1, and smaller by exactly the head's weights.
		plain := *m
		plain.Nets = slices.Clone(m.Nets)
		head := 0
		for i := range plain.Nets {
			head += len(plain.Nets[i].WP) + len(plain.Nets[i].BP)
			plain.Nets[i].WP, plain.Nets[i].BP = nil, nil
		}
		pd, err := plain.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if v := binary.LittleEndian.Uint32(pd[8:12]); v != FormatVersionValueOnly || bytes.Contains(pd, []byte(`"policy"`)) {
			t.Fatalf("a model without a policy head written in version %d", v)
		}
		if len(data)-len(pd) != 4*head+len(`,"policy":"cells"`) {
			t.Fatalf("version 2 file is %d bytes, version 1 %d: not the head's %d weights more", len(data), len(pd), head)
		}
	}
	checkGolden(t, withPolicy(randomModel(3, 3, 2, 2, OutputTanh, 42), 43), filepath.Join("testdata", "tiny_policy.model"))
}

// TestPolicyFileDamage: every truncation and single-byte change of a version-2 file is
// refused, and so are a version-2 header without the head, a version-1 header naming
// one and an unknown head.
func TestPolicyFileDamage(t *testing.T) {
	good, err := withPolicy(randomModel(3, 4, 3, 2, OutputLogistic, 5), 6).MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	for n := 0; n < len(good); n++ {
		if _, err := Load(bytes.NewReader(good[:n])); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncated to %d bytes: err %v, want ErrFormat", n, err)
		}
	}
	for i := 0; i < len(good); i++ {
		bad := bytes.Clone(good)
		bad[i] ^= 0x41
		if _, err := Load(bytes.NewReader(bad)); err == nil {
			t.Fatalf("flipping byte %d was not detected", i)
		}
	}
	// Rewrite the version or the header and fix the checksum, so only the mismatch
	// between them is wrong.
	reseal := func(version uint32, from, to string) []byte {
		hn := binary.LittleEndian.Uint32(good[12:16])
		hj := strings.Replace(string(good[16:16+hn]), from, to, 1)
		var b bytes.Buffer
		b.WriteString(Magic)
		b.Write(binary.LittleEndian.AppendUint32(nil, version))
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hj))))
		b.WriteString(hj)
		b.Write(good[16+hn : len(good)-4])
		return binary.LittleEndian.AppendUint32(b.Bytes(), crc32.ChecksumIEEE(b.Bytes()))
	}
	if _, err := Load(bytes.NewReader(reseal(2, "", ""))); err != nil {
		t.Fatalf("resealing the file unchanged broke it: %v", err)
	}
	for name, data := range map[string][]byte{
		"version 1 with a head":   reseal(1, "", ""),
		"version 2 without one":   reseal(2, `"policy":"cells",`, ""),
		"unknown head":            reseal(2, `"policy":"cells"`, `"policy":"edges"`),
		"version 3":               reseal(3, "", ""),
		"version 1, head weights": reseal(1, `"policy":"cells",`, ""), // the head's weights are trailing bytes
	} {
		_, err := Load(bytes.NewReader(data))
		want := ErrFormat
		if name == "version 3" {
			want = ErrVersion
		}
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", name, err, want)
		}
	}
}

// TestPolicyValidate: the policy heads' shapes and values are checked.
func TestPolicyValidate(t *testing.T) {
	cases := map[string]func(m *Model){
		"short wp":     func(m *Model) { m.Nets[0].WP = m.Nets[0].WP[:5] },
		"short bp":     func(m *Model) { m.Nets[1].BP = m.Nets[1].BP[1:] },
		"wp only":      func(m *Model) { m.Nets[0].BP = nil },
		"one net only": func(m *Model) { m.Nets[1].WP, m.Nets[1].BP = nil, nil },
		"nan wp":       func(m *Model) { m.Nets[1].WP[7] = float32(math.NaN()) },
		"inf bp":       func(m *Model) { m.Nets[0].BP[2] = float32(math.Inf(-1)) },
	}
	for name, f := range cases {
		m := withPolicy(randomModel(4, 4, 3, 2, OutputTanh, 9), 1)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		f(m)
		if err := m.Validate(); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Validate = %v, want ErrFormat", name, err)
		}
	}
}

// TestPolicyMatchesReference walks random play/undo sequences (a search's access
// pattern) on cells and twodist models and checks the policy logits of every empty
// cell three ways: the evaluator's (incremental for cells models, from scratch on an
// untracked board), Model.PolicyLogits on the encoded board, and the float64 reference,
// all within 1e-5.
func TestPolicyMatchesReference(t *testing.T) {
	for _, m := range []*Model{
		withPolicy(randomModel(5, 5, 8, 1, OutputTanh, 11), 1),
		withPolicy(randomModel(4, 7, 5, 29, OutputLogistic, 12), 2),
		withPolicy(randomModel(6, 6, 30, 4, OutputLinear, 13), 3),
		withPolicy(twoDistModel(5, 5, 6, 2, 14), 4),
	} {
		e, err := NewEvaluator(m, m.W, m.H)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := NewEncoder(m)
		if err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		b := hex.MustBoard(m.W, m.H)
		b.PlayStone(hex.Black, 2)
		e.Reset(b)
		inc := make([]float32, m.Cells())
		var x, scratch, dense []float32
		checks := 0
		check := func(fresh bool) {
			t.Helper()
			if fresh {
				e.Evaluate(b) // as a search evaluates a leaf before its priors
			}
			if err := e.PolicyLogits(b, inc); err != nil {
				t.Fatal(err)
			}
			x = enc.Encode(b, x)
			k := m.NetFor(b.NumStones())
			if dense, err = m.PolicyLogits(k, x, scratch, dense); err != nil {
				t.Fatal(err)
			}
			want := m.PolicyReference(k, x)
			em := b.EmptyCells()
			for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
				if d1, d2 := math.Abs(float64(inc[p])-want[p]), math.Abs(float64(dense[p])-want[p]); d1 > 1e-5 || d2 > 1e-5 {
					t.Fatalf("%s %dx%d cell %d: evaluator %g, from scratch %g, reference %g at\n%s",
						m.Features, m.W, m.H, p, inc[p], dense[p], want[p], b.Diagram())
				}
			}
			checks++
		}
		randomWalk(r, b, e, 2000, 1, func() { check(r.IntN(2) == 0) })
		// An untracked board (tracking not told about a stone) is computed from scratch.
		em := b.EmptyCells()
		if p := em.First(); p != hex.NoCell {
			b.PlayStone(b.ToMove(), p)
			check(false)
		}
		if checks < 500 {
			t.Fatalf("only %d checks", checks)
		}
	}
	// A model without a head has no policy.
	plain := randomModel(3, 3, 2, 1, OutputTanh, 1)
	e, _ := NewEvaluator(plain, 3, 3)
	if err := e.PolicyLogits(hex.MustBoard(3, 3), make([]float32, 9)); !errors.Is(err, ErrNoPolicy) {
		t.Errorf("PolicyLogits of a model without a head: %v", err)
	}
	if _, err := plain.PolicyLogits(0, make([]float32, 9), nil, nil); !errors.Is(err, ErrNoPolicy) || plain.PolicyReference(0, nil) != nil {
		t.Errorf("Model.PolicyLogits of a model without a head: %v", err)
	}
}

// TestOrderingPolicy: the policy ordering scores every empty cell by its logit, for
// cells and twodist models, after Evaluate as a search calls it; it allocates nothing;
// it is refused for a model without a head and is the natural ordering of one with a
// head.
func TestOrderingPolicy(t *testing.T) {
	for _, m := range []*Model{withPolicy(randomModel(5, 5, 6, 3, OutputTanh, 1), 2), withPolicy(twoDistModel(5, 5, 6, 2, 3), 4)} {
		if m.NaturalOrder() != OrderPolicy {
			t.Fatalf("%s: natural order %s", m.Features, m.NaturalOrder())
		}
		o := newOrdering(t, m, OrderPolicy)
		enc, _ := NewEncoder(m)
		scores := make([]float64, hex.NumPoints)
		for _, b := range positions.Sampled(5, 30, 2, 20, rand.NewPCG(6, 7)) {
			o.Reset(b)
			o.Evaluate(b)
			o.MoveScores(b, scores)
			x := enc.Encode(b, nil)
			want := m.PolicyReference(m.NetFor(b.NumStones()), x)
			em := b.EmptyCells()
			for p := em.First(); p != hex.NoCell; p = em.Next(p + 1) {
				if math.Abs(scores[p]-want[p]) > 1e-5 {
					t.Fatalf("%s: cell %d scores %g, logit %g on\n%s", m.Features, p, scores[p], want[p], b.Diagram())
				}
			}
		}
		b := positions.Random(5, 1, 5)[0]
		if n := testing.AllocsPerRun(20, func() {
			o.Evaluate(b)
			o.MoveScores(b, scores)
		}); n != 0 {
			t.Errorf("%s: %v allocations per Evaluate and MoveScores", m.Features, n)
		}
	}
	for _, tc := range []struct {
		m    *Model
		want OrderMode
	}{{randomModel(3, 3, 2, 1, OutputTanh, 1), OrderPotential}, {twoDistModel(3, 3, 2, 1, 1), OrderMix}} {
		if got := tc.m.NaturalOrder(); got != tc.want {
			t.Errorf("%s model without a head: natural order %s, want %s", tc.m.Features, got, tc.want)
		}
		e, _ := NewEvaluator(tc.m, 3, 3)
		if _, err := NewOrdering(e, OrderPolicy); !errors.Is(err, ErrOrder) {
			t.Errorf("%s model without a head: policy ordering %v, want ErrOrder", tc.m.Features, err)
		}
	}
	if m, err := ParseOrderMode("policy"); m != OrderPolicy || err != nil {
		t.Errorf("ParseOrderMode(policy) = %q, %v", m, err)
	}
}

// BenchmarkPolicyLogits measures the policy logits of a search's leaf: a stone is
// played, the position evaluated (the fused leaf update) and its logits computed
// from the accumulator (one tanh per hidden unit, one dot product per empty cell), a
// third of the board filled; "value" is the evaluation alone for comparison.
func BenchmarkPolicyLogits(b *testing.B) {
	for _, tc := range []struct {
		name      string
		n, hidden int
		policy    bool
	}{
		{"8x8-64/value", 8, 64, false}, {"8x8-64/value+policy", 8, 64, true},
		{"11x11-64/value", 11, 64, false}, {"11x11-64/value+policy", 11, 64, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := withPolicy(randomModel(tc.n, tc.n, tc.hidden, 1, OutputTanh, 1), 2)
			e, _ := NewEvaluator(m, tc.n, tc.n)
			bd := hex.MustBoard(tc.n, tc.n)
			r := rand.New(rand.NewPCG(1, 1))
			em := bd.EmptyCells()
			cells := em.AppendCells(nil)
			r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
			for _, p := range cells[:tc.n*tc.n/3] {
				bd.PlayStone(bd.ToMove(), p)
			}
			rest := cells[tc.n*tc.n/3:]
			e.Reset(bd)
			logits := make([]float32, tc.n*tc.n)
			b.ReportAllocs()
			ct := startCPU(b)
			var sink float32
			for i := 0; i < b.N; i++ {
				p := rest[i%len(rest)]
				c := bd.ToMove()
				bd.PlayStone(c, p)
				e.Play(c, p)
				sink += e.PreOutput(bd)
				if tc.policy {
					_ = e.PolicyLogits(bd, logits)
				}
				bd.Undo()
				e.Undo(c, p)
			}
			ct.stop(b)
			_ = sink
		})
	}
}
