package model

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// randomModel returns a model with nets ply ranges covering the board and weights drawn
// from a seeded generator.
func randomModel(w, h, hidden, nets int, out Output, seed uint64) *Model {
	r := rand.New(rand.NewPCG(seed, 7))
	cells := w * h
	m := &Model{W: w, H: h, Target: TargetValue, Output: out, Scaling: Scaling{Offset: 0.25, Scale: 3}}
	if out == OutputLogistic {
		m.Target = TargetWinner
		m.Scaling = Scaling{Scale: 1}
	}
	per := (cells + 1 + nets - 1) / nets
	for k := 0; k < nets; k++ {
		n := Net{MinPly: k * per, MaxPly: min((k+1)*per-1, cells), Hidden: hidden}
		if n.MinPly > n.MaxPly {
			break
		}
		n.W1 = make([]float32, cells*hidden)
		n.B1 = make([]float32, hidden)
		n.W2 = make([]float32, hidden)
		for i := range n.W1 {
			n.W1[i] = float32(r.NormFloat64() * 0.4)
		}
		for i := range n.B1 {
			n.B1[i] = float32(r.NormFloat64() * 0.2)
			n.W2[i] = float32(r.NormFloat64() * 0.5)
		}
		n.B2 = float32(r.NormFloat64() * 0.1)
		m.Nets = append(m.Nets, n)
	}
	m.Provenance = Provenance{DatasetHash: "sha256:test", Seed: int64(seed), CodeVersion: "test", Config: "hidden=" + string(rune('0'+hidden%10))}
	return m
}

func TestRoundTripAndDeterministicBytes(t *testing.T) {
	for _, out := range []Output{OutputTanh, OutputLinear, OutputLogistic} {
		m := randomModel(5, 4, 7, 3, out, 1)
		b1, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		b2, _ := randomModel(5, 4, 7, 3, out, 1).MarshalBinary()
		if !bytes.Equal(b1, b2) {
			t.Fatalf("%s: same model gave different bytes", out)
		}
		got, err := Load(bytes.NewReader(b1))
		if err != nil {
			t.Fatalf("%s: load: %v", out, err)
		}
		b3, _ := got.MarshalBinary()
		if !bytes.Equal(b1, b3) {
			t.Fatalf("%s: load+save changed the bytes", out)
		}
		if got.Provenance != m.Provenance || got.Scaling != m.Scaling || len(got.Nets) != 3 {
			t.Fatalf("%s: header not preserved: %+v", out, got)
		}
	}
}

func TestGoldenFile(t *testing.T) {
	golden := filepath.Join("testdata", "tiny.model")
	checkGolden(t, randomModel(3, 3, 2, 2, OutputTanh, 42), golden)
	if _, err := ReadFile(golden); err != nil {
		t.Fatal(err)
	}
}

func TestLoadRejectsDamage(t *testing.T) {
	good, _ := randomModel(4, 4, 5, 2, OutputTanh, 3).MarshalBinary()
	// Every truncation fails with ErrFormat.
	for n := 0; n < len(good); n++ {
		if _, err := Load(bytes.NewReader(good[:n])); !errors.Is(err, ErrFormat) {
			t.Fatalf("truncated to %d bytes: err %v, want ErrFormat", n, err)
		}
	}
	// Every single-byte flip fails (the checksum covers everything).
	for i := 0; i < len(good); i++ {
		bad := bytes.Clone(good)
		bad[i] ^= 0x41
		if _, err := Load(bytes.NewReader(bad)); err == nil {
			t.Fatalf("flipping byte %d was not detected", i)
		}
	}
	if _, err := Load(bytes.NewReader(append(bytes.Clone(good), 0))); !errors.Is(err, ErrFormat) {
		t.Fatalf("trailing byte: %v", err)
	}
	v3 := bytes.Clone(good)
	v3[8] = 3
	if _, err := Load(bytes.NewReader(v3)); !errors.Is(err, ErrVersion) {
		t.Fatalf("version 3: %v, want ErrVersion", err)
	}
}

func TestValidate(t *testing.T) {
	cases := map[string]func(m *Model){
		"size":          func(m *Model) { m.W = 20 },
		"target":        func(m *Model) { m.Target = "moves" },
		"output":        func(m *Model) { m.Output = OutputLogistic },
		"scale":         func(m *Model) { m.Scaling.Scale = 0 },
		"nan weight":    func(m *Model) { m.Nets[0].W1[3] = float32(math.NaN()) },
		"inf bias":      func(m *Model) { m.Nets[1].B2 = float32(math.Inf(1)) },
		"short w1":      func(m *Model) { m.Nets[0].W1 = m.Nets[0].W1[:5] },
		"overlap":       func(m *Model) { m.Nets[1].MinPly = m.Nets[0].MaxPly },
		"range":         func(m *Model) { m.Nets[1].MaxPly = 100 },
		"no nets":       func(m *Model) { m.Nets = nil },
		"hidden zero":   func(m *Model) { m.Nets[0].Hidden = 0 },
		"winner+tanh":   func(m *Model) { m.Target = TargetWinner },
		"outcome+tanh":  func(m *Model) { m.Target = TargetOutcome },
		"playouts+tanh": func(m *Model) { m.Target = TargetPlayouts },
		"ply negative":  func(m *Model) { m.Nets[0].MinPly = -1 },
	}
	for name, f := range cases {
		m := randomModel(4, 4, 3, 2, OutputTanh, 9)
		f(m)
		if err := m.Validate(); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: Validate = %v, want ErrFormat", name, err)
		}
		if _, err := m.MarshalBinary(); err == nil {
			t.Errorf("%s: MarshalBinary accepted an invalid model", name)
		}
	}
}

func TestParseTarget(t *testing.T) {
	for _, tc := range []struct {
		in       string
		want     Target
		logistic bool
	}{{"value", TargetValue, false}, {"winner", TargetWinner, true}, {"outcome", TargetOutcome, true}, {"playouts", TargetPlayouts, true}} {
		got, err := ParseTarget(tc.in)
		if err != nil || got != tc.want || got.Logistic() != tc.logistic {
			t.Errorf("ParseTarget(%q) = %q, %v (logistic %v)", tc.in, got, err, got.Logistic())
		}
	}
	for _, bad := range []string{"", "Value", "moves"} {
		if _, err := ParseTarget(bad); err == nil {
			t.Errorf("ParseTarget(%q) accepted", bad)
		}
	}
	// An outcome model round-trips through the file format with its target.
	m := randomModel(3, 3, 4, 1, OutputLogistic, 5)
	m.Target = TargetOutcome
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Load(bytes.NewReader(data))
	if err != nil || back.Target != TargetOutcome {
		t.Fatalf("outcome model read back as %v (%v)", back, err)
	}
}

func TestWrongSize(t *testing.T) {
	m := randomModel(5, 5, 4, 1, OutputTanh, 2)
	path := filepath.Join(t.TempDir(), "m.model")
	if err := m.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFor(path, 5, 5); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFor(path, 7, 7); !errors.Is(err, ErrWrongSize) {
		t.Fatalf("LoadFor 7x7: %v, want ErrWrongSize", err)
	}
	if _, err := NewEvaluator(m, 5, 6); !errors.Is(err, ErrWrongSize) {
		t.Fatalf("NewEvaluator 5x6: %v, want ErrWrongSize", err)
	}
}

func TestNetFor(t *testing.T) {
	m := &Model{Nets: []Net{{MinPly: 2, MaxPly: 4}, {MinPly: 5, MaxPly: 5}, {MinPly: 9, MaxPly: 12}}}
	for ply, want := range map[int]int{0: 0, 2: 0, 4: 0, 5: 1, 6: 1, 8: 2, 9: 2, 12: 2, 30: 2} {
		if got := m.NetFor(ply); got != want {
			t.Errorf("NetFor(%d) = %d, want %d", ply, got, want)
		}
	}
}

func TestTanh(t *testing.T) {
	worst := 0.0
	for x := -10.0; x <= 10; x += 0.000731 {
		d := math.Abs(float64(Tanh(float32(x))) - math.Tanh(float64(float32(x))))
		worst = max(worst, d)
	}
	if worst > 1e-6 {
		t.Fatalf("fast tanh error %g > 1e-6", worst)
	}
	if Tanh(float32(math.NaN())) != -1 || Tanh(float32(math.Inf(1))) != 1 {
		t.Fatal("fast tanh mishandles NaN or Inf")
	}
}

// TestForwardMatchesReference checks the from-scratch fast path against the float64
// reference on random positions.
func TestForwardMatchesReference(t *testing.T) {
	for _, out := range []Output{OutputTanh, OutputLinear, OutputLogistic} {
		m := randomModel(6, 6, 30, 1, out, 5)
		r := rand.New(rand.NewPCG(1, 2))
		x := make([]float32, 36)
		for trial := 0; trial < 300; trial++ {
			for i := range x {
				x[i] = float32(r.IntN(3) - 1)
			}
			got, want := float64(m.Forward(0, x)), m.ForwardReference(0, x)
			if math.Abs(got-want) > 1e-5 {
				t.Fatalf("%s: forward %g, reference %g", out, got, want)
			}
		}
	}
}

func TestEncode(t *testing.T) {
	b, err := hex.ParsePosition(3, 2, "a1 b2 c1")
	if err != nil {
		t.Fatal(err)
	}
	m := &Model{W: 3, H: 2}
	got := m.Encode(b, nil)
	want := []float32{-1, 0, -1, 0, 1, 0}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Encode = %v, want %v", got, want)
		}
	}
}

// checkGolden compares m's bytes with the golden file (rewritten first with
// UPDATE_GOLDEN=1).
func checkGolden(t *testing.T, m *Model, golden string) {
	t.Helper()
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("UPDATE_GOLDEN") != "" {
		if err := m.WriteFile(golden); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, want) {
		t.Fatalf("model bytes differ from %s (format changed? bump FormatVersion, then UPDATE_GOLDEN=1)", golden)
	}
}
