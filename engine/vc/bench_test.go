package vc

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

var updateBench = flag.Bool("update-bench", false, "rewrite testdata/bench*.txt")

// TestBenchPositions checks the checked-in benchmark positions equal a fresh
// generation with seed 1 (rewrite them with -update-bench).
func TestBenchPositions(t *testing.T) {
	for _, sz := range []struct{ size, n, lo, hi int }{{11, 40, 30, 50}, {8, 40, 16, 28}} {
		lines, err := GenerateBenchPositions(sz.size, sz.n, sz.lo, sz.hi, 1)
		if err != nil {
			t.Fatal(err)
		}
		text := "# vc benchmark positions: GenerateBenchPositions(" + itoa(sz.size) + ", " + itoa(sz.n) + ", " +
			itoa(sz.lo) + ", " + itoa(sz.hi) + ", seed 1)\n" + strings.Join(lines, "\n") + "\n"
		name := "testdata/bench" + itoa(sz.size) + ".txt"
		if *updateBench {
			if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if string(data) != text {
			t.Errorf("%s differs from a fresh generation (run with -update-bench)", name)
		}
		bs, err := BenchPositions(sz.size)
		if err != nil || len(bs) != sz.n {
			t.Fatalf("BenchPositions(%d): %d positions, %v", sz.size, len(bs), err)
		}
	}
	if _, err := BenchPositions(9); err == nil {
		t.Error("size 9 accepted")
	}
	if _, err := ParseBenchPositions(5, "a1 zz"); err == nil {
		t.Error("bad move accepted")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// hEdge is XHConfig with the crossing rules off: H-search with AND over edges, the
// fair baseline for XH-search.
func hEdge() Config {
	c := XHConfig()
	c.XH = false
	return c
}

// HEdgeConfig is hEdge for the external test package (measure_test.go).
var HEdgeConfig = hEdge

func benchBuild(b *testing.B, size int, cfg Config) {
	boards, err := BenchPositions(size)
	if err != nil {
		b.Fatal(err)
	}
	bl := NewBuilder(cfg)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bd := boards[i%len(boards)]
		bl.Build(bd, hex.Black)
		bl.Build(bd, hex.White)
	}
}

// BenchmarkH11 builds both colours' connections with H-search on the 11x11 set.
func BenchmarkH11(b *testing.B) { benchBuild(b, 11, DefaultConfig()) }

// BenchmarkHEdge11 is BenchmarkH11 with AND over edges (XH-search's baseline).
func BenchmarkHEdge11(b *testing.B) { benchBuild(b, 11, hEdge()) }

// BenchmarkXH11 is BenchmarkH11 with XH-search.
func BenchmarkXH11(b *testing.B) { benchBuild(b, 11, XHConfig()) }

// BenchmarkH8 builds both colours with H-search on the 8x8 set.
func BenchmarkH8(b *testing.B) { benchBuild(b, 8, DefaultConfig()) }

// BenchmarkXH8 is BenchmarkH8 with XH-search.
func BenchmarkXH8(b *testing.B) { benchBuild(b, 8, XHConfig()) }

// BenchmarkDecomposition8 looks for combinatorial decompositions of both colours on
// the 8x8 set, the connections built beforehand (Compact's limits): the cost the
// solver adds to a node.
func BenchmarkDecomposition8(b *testing.B) {
	boards, err := BenchPositions(8)
	if err != nil {
		b.Fatal(err)
	}
	h := NewCompact()
	bls := make([][3]*Builder, len(boards))
	for i, bd := range boards {
		for _, c := range []hex.Color{hex.Black, hex.White} {
			bl := NewBuilder(h.config())
			if err := bl.Build(bd, c); err != nil {
				b.Fatal(err)
			}
			bls[i][c] = bl
		}
	}
	found := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := i % len(boards)
		for _, c := range []hex.Color{hex.Black, hex.White} {
			if _, _, ok := bls[k][c].Decomposition(boards[k]); ok {
				found++
			}
		}
	}
	b.ReportMetric(float64(found)/float64(b.N), "found/op")
}
