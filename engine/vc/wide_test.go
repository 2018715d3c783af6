package vc

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// dumpConns lists every connection of the last build in query order.
func dumpConns(bl *Builder) string {
	var sb strings.Builder
	write := func(kind string) func(x, y hex.Cell, c *Conn) bool {
		return func(x, y hex.Cell, c *Conn) bool {
			fmt.Fprintf(&sb, "%s %d %d %x %x %d %v\n", kind, x, y, [6]uint64(c.Carrier), [6]uint64(c.Stones), c.Key, c.Rule)
			return true
		}
	}
	bl.EachFull(write("F"))
	bl.EachSemi(write("S"))
	return sb.String()
}

// TestTwoWordPathsEqualWide checks the engine instances for boards of at most 64 and
// 128 cells (one- and two-word carriers: hsearch_w1.go on the 8x8 positions,
// hsearch_w2.go on the 11x11 ones) against the general instance (hsearch_wn.go, forced
// with Builder.wide) on the benchmark positions:
// every connection, its carrier, stepping stones, key and rule, in the same order,
// for H-search, H-search with M = 20 and XH-search.
func TestTwoWordPathsEqualWide(t *testing.T) {
	runs := []struct {
		size int
		cfg  Config
	}{{8, DefaultConfig()}, {11, DefaultConfig()}, {8, AnshelevichConfig()}, {8, XHConfig()}, {11, XHConfig()}}
	for _, run := range runs {
		boards, err := BenchPositions(run.size)
		if err != nil {
			t.Fatal(err)
		}
		n := len(boards)
		if run.cfg.XH && run.size == 11 || testing.Short() {
			n = 3
		}
		small, wide := NewBuilder(run.cfg), NewBuilder(run.cfg)
		wide.wide = true
		for pi, bd := range boards[:n] {
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := small.Build(bd, c); err != nil {
					t.Fatal(err)
				}
				if err := wide.Build(bd, c); err != nil {
					t.Fatal(err)
				}
				if small.nw > 2 || wide.nw != len(hex.Bitset{}) {
					t.Fatalf("words: small %d, wide %d", small.nw, wide.nw)
				}
				if a, b := dumpConns(small), dumpConns(wide); a != b {
					t.Fatalf("%dx%d %+v position %d %v: narrow and general instances differ", run.size, run.size, run.cfg, pi, c)
				}
				if small.Truncated() != wide.Truncated() {
					t.Fatalf("%dx%d position %d %v: Truncated differs", run.size, run.size, pi, c)
				}
			}
		}
	}
}
