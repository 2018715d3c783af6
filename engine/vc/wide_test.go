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
// for H-search, H-search with M = 20, XH-search and FastVCConfig.
func TestTwoWordPathsEqualWide(t *testing.T) {
	runs := []struct {
		size int
		cfg  Config
	}{{8, DefaultConfig()}, {11, DefaultConfig()}, {8, AnshelevichConfig()}, {8, XHConfig()}, {11, XHConfig()},
		{8, FastVCConfig()}, {11, FastVCConfig()}}
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

// dumpDone lists the processed flags of every connection in query order (the AND rule
// of a later Play reads them).
func dumpDone(bl *Builder) string {
	var sb strings.Builder
	write := func(x, y hex.Cell, c *Conn) bool {
		fmt.Fprintf(&sb, "%d %d %v\n", x, y, c.done)
		return true
	}
	bl.EachFull(write)
	bl.EachSemi(write)
	return sb.String()
}

// TestPackedEqualsWide checks the packed one-word instance (hsearch_w1.go, lists of
// conn1 records) through every way its lists leave it, against the general instance
// on the 8x8 benchmark positions: the edge queries and Counts read before anything is
// converted, the whole lists (with their processed flags) after the conversion, a Play
// of each colour (the one-word instance on Conn lists goes on from the converted
// lists), and Undo of a PlayUndoable.
func TestPackedEqualsWide(t *testing.T) {
	boards, err := BenchPositions(8)
	if err != nil {
		t.Fatal(err)
	}
	n := len(boards)
	if testing.Short() {
		n = 3
	}
	type state struct {
		won        bool
		car        hex.Bitset
		full, semi int
		fulls      string
		semis      string
	}
	edges := func(bl *Builder) state {
		var s state
		s.won, s.car = bl.WinningVC()
		s.full, s.semi = bl.Counts()
		s.fulls = fmt.Sprint(bl.WinningFulls())
		s.semis = fmt.Sprint(bl.WinningSemis())
		return s
	}
	for _, cfg := range []Config{DefaultConfig(), AnshelevichConfig(), FastVCConfig()} {
		small, wide := NewBuilder(cfg), NewBuilder(cfg)
		wide.wide = true
		for pi, bd := range boards[:n] {
			empty := bd.EmptyCells()
			p := empty.First()
			for _, c := range []hex.Color{hex.Black, hex.White} {
				for _, bl := range []*Builder{small, wide} {
					if err := bl.Build(bd, c); err != nil {
						t.Fatal(err)
					}
				}
				if !small.packed || small.nw != 1 {
					t.Fatalf("position %d %v: small board not built packed (nw %d)", pi, c, small.nw)
				}
				if a, b := edges(small), edges(wide); a != b {
					t.Fatalf("%+v position %d %v: edge queries differ:\n%+v\n%+v", cfg, pi, c, a, b)
				}
				if !small.packed {
					t.Fatalf("position %d %v: edge queries converted every list", pi, c)
				}
				if a, b := dumpConns(small)+dumpDone(small), dumpConns(wide)+dumpDone(wide); a != b {
					t.Fatalf("%+v position %d %v: lists differ", cfg, pi, c)
				}
				for _, mover := range []hex.Color{c, c.Opp()} {
					for _, bl := range []*Builder{small, wide} {
						if err := bl.Build(bd, c); err != nil {
							t.Fatal(err)
						}
					}
					before := dumpConns(wide)
					next := bd.Clone()
					next.PlayStone(mover, p)
					for _, bl := range []*Builder{small, wide} {
						if err := bl.PlayUndoable(next, p); err != nil {
							t.Fatal(err)
						}
					}
					if a, b := dumpConns(small)+dumpDone(small), dumpConns(wide)+dumpDone(wide); a != b {
						t.Fatalf("%+v position %d %v: lists differ after %v plays %s", cfg, pi, c, mover, bd.Geometry().CellName(p))
					}
					for _, bl := range []*Builder{small, wide} {
						if err := bl.Undo(); err != nil {
							t.Fatal(err)
						}
					}
					if a, b := dumpConns(small), dumpConns(wide); a != b || a != before {
						t.Fatalf("%+v position %d %v: lists differ after Undo", cfg, pi, c)
					}
				}
			}
		}
	}
}
