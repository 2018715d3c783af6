package model

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/twodist"
	"github.com/hexlearn/hexlearn/internal/positions"
)

// twoDistModel is randomModel with the twodist feature set (weights for every input).
func twoDistModel(w, h, hidden, nets int, seed uint64) *Model {
	m := randomModel(w, h, hidden, nets, OutputTanh, seed)
	m.Features = FeaturesTwoDist
	r := rand.New(rand.NewPCG(seed, 11))
	for i := range m.Nets {
		n := &m.Nets[i]
		n.W1 = make([]float32, m.Inputs()*hidden)
		for j := range n.W1 {
			n.W1[j] = float32(r.NormFloat64() * 0.3)
		}
	}
	return m
}

func TestParseFeatures(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Features
		ok   bool
	}{{"", FeaturesCells, true}, {"cells", FeaturesCells, true}, {"twodist", FeaturesTwoDist, true},
		{"TwoDist", "", false}, {"resistance", "", false}} {
		got, err := ParseFeatures(tc.in)
		if got != tc.want || (err == nil) != tc.ok {
			t.Errorf("ParseFeatures(%q) = %q, %v", tc.in, got, err)
		}
	}
	if InputsOf(FeaturesTwoDist, 64) != 64*TwoDistPerCell+TwoDistGlobals || InputsOf("x", 64) != 0 ||
		InputsOf("", 64) != 64 {
		t.Error("InputsOf")
	}
}

func TestTwoDistRoundTrip(t *testing.T) {
	m := twoDistModel(4, 3, 5, 2, 1)
	data, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"features":"twodist"`)) {
		t.Error("header does not record the feature set")
	}
	got, err := Load(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if got.Features != FeaturesTwoDist || got.Inputs() != 12*TwoDistPerCell+TwoDistGlobals {
		t.Fatalf("loaded features %q, %d inputs", got.Features, got.Inputs())
	}
	again, _ := got.MarshalBinary()
	if !bytes.Equal(again, data) {
		t.Error("round trip changed the bytes")
	}
	// A cells model has no features field: its bytes are those of older files.
	cells, _ := randomModel(4, 3, 5, 2, OutputTanh, 1).MarshalBinary()
	if bytes.Contains(cells, []byte("features")) {
		t.Error("a cells model writes a features field")
	}
}

// withHeader rewrites the JSON header of a model file (fixing sizes and checksum).
func withHeader(t *testing.T, data []byte, edit func(string) string) []byte {
	t.Helper()
	n := binary.LittleEndian.Uint32(data[12:16])
	h := edit(string(data[16 : 16+n]))
	var out []byte
	out = append(out, data[:12]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(len(h)))
	out = append(out, h...)
	out = append(out, data[16+n:len(data)-4]...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

func TestFeaturesBadInput(t *testing.T) {
	good, _ := twoDistModel(3, 3, 4, 1, 2).MarshalBinary()
	cases := map[string]func(string) string{
		"unknown feature set": func(h string) string {
			return strings.Replace(h, `"features":"twodist"`, `"features":"pagerank"`, 1)
		},
		"cells header on twodist weights": func(h string) string {
			return strings.Replace(h, `"features":"twodist"`, `"features":"cells"`, 1)
		},
	}
	for name, edit := range cases {
		if _, err := Load(bytes.NewReader(withHeader(t, good, edit))); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", name, err)
		}
	}
	m := twoDistModel(3, 3, 4, 1, 2)
	m.Features = "pagerank"
	if err := m.Validate(); !errors.Is(err, ErrFormat) {
		t.Errorf("Validate with an unknown feature set: %v", err)
	}
	m = twoDistModel(3, 3, 4, 1, 2)
	m.Nets[0].W1 = m.Nets[0].W1[:9*4] // the size of a cells network
	if err := m.Validate(); !errors.Is(err, ErrFormat) {
		t.Errorf("Validate with cells-sized weights: %v", err)
	}
}

func TestTwoDistEncode(t *testing.T) {
	b, err := hex.ParseDiagram(`
		1 . . .
		2  . B .
		3   . W .`)
	if err != nil {
		t.Fatal(err)
	}
	m := twoDistModel(3, 3, 2, 1, 3)
	x := m.Encode(b, nil)
	if len(x) != m.Inputs() {
		t.Fatalf("%d inputs, want %d", len(x), m.Inputs())
	}
	p := twodist.New(b.Geometry())
	p.Compute(b)
	g := b.Geometry()
	cell := func(name string) []float32 {
		c, _ := g.ParseCell(name)
		return x[int(c)*TwoDistPerCell : int(c)*TwoDistPerCell+TwoDistPerCell]
	}
	if got := cell("b2"); got[0] != 1 || got[1] != 0 || got[2]+got[3]+got[4]+got[5] != 0 {
		t.Errorf("Black stone b2: %v", got)
	}
	if got := cell("b3"); got[0] != 0 || got[1] != 1 {
		t.Errorf("White stone b3: %v", got)
	}
	a1, _ := g.ParseCell("a1")
	pb, pw := p.Potential(hex.Black, a1), p.Potential(hex.White, a1)
	want := []float32{0, 0, max(0, 1-float32(pb-p.Min(hex.Black))/6), max(0, 1-float32(pw-p.Min(hex.White))/6),
		min(float32(pb)/8, 2), min(float32(pw)/8, 2)}
	for i, v := range cell("a1") {
		if v != want[i] {
			t.Errorf("a1 input %d = %g, want %g (potentials %d, %d)", i, v, want[i], pb, pw)
		}
	}
	gl := x[9*TwoDistPerCell:]
	if gl[0] != float32(p.Min(hex.White)-p.Min(hex.Black))/4 || gl[5] != 0 || gl[6] != float32(2)/9 ||
		gl[3] != float32(p.Mobility(hex.Black))/16 {
		t.Errorf("globals %v (min B %d W %d)", gl, p.Min(hex.Black), p.Min(hex.White))
	}
}

func TestTwoDistEvaluator(t *testing.T) {
	m := twoDistModel(4, 4, 6, 2, 4)
	e, err := NewEvaluator(m, 4, 4)
	if err != nil {
		t.Fatal(err)
	}
	b := hex.MustBoard(4, 4)
	e.Reset(b)
	r := rand.New(rand.NewPCG(5, 6))
	for _, c := range r.Perm(16)[:10] {
		p := hex.Cell(c)
		col := b.ToMove()
		b.PlayStone(col, p)
		e.Play(col, p) // ignored: a twodist model is evaluated from scratch
		want := m.ValueOf(m.PreOutput(m.NetFor(b.NumStones()), m.Encode(b, nil), nil))
		if got := e.Evaluate(b).Value; got != want {
			t.Fatalf("after %d stones: %g, want %g", b.NumStones(), got, want)
		}
	}
	if n := testing.AllocsPerRun(20, func() { e.Evaluate(b) }); n != 0 {
		t.Errorf("Evaluate allocates %g times", n)
	}
}

// BenchmarkTwoDistEvaluate is one search leaf of a 64-hidden twodist model on 8x8 and
// on 11x11: the potentials, the inputs and the network from scratch, on positions with
// about a third of the cells filled.
func BenchmarkTwoDistEvaluate(b *testing.B) {
	for _, tc := range []struct {
		name   string
		n      int
		stones int
	}{{"8x8", 8, 20}, {"11x11", 11, 40}} {
		b.Run(tc.name, func(b *testing.B) {
			m := twoDistModel(tc.n, tc.n, 64, 1, 7)
			e, err := NewEvaluator(m, tc.n, tc.n)
			if err != nil {
				b.Fatal(err)
			}
			boards := positions.Sampled(tc.n, 64, tc.stones, 1, rand.NewPCG(8, 9))
			for i := 0; b.Loop(); i++ {
				e.Evaluate(boards[i%len(boards)])
			}
		})
	}
}
