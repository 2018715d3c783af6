package vc

import (
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite testdata/golden_builds.txt")

// buildFingerprints returns one line per benchmark position and colour: the counts and
// an FNV-1a hash of every connection (endpoints, carrier and stepping-stone words, key,
// rule) in the order the queries return them.
func buildFingerprints(t *testing.T) string {
	var sb strings.Builder
	for _, run := range []struct {
		name string
		size int
		cfg  Config
	}{{"H", 8, DefaultConfig()}, {"H", 11, DefaultConfig()}, {"H-M20", 8, AnshelevichConfig()}, {"XH", 8, XHConfig()}} {
		boards, err := BenchPositions(run.size)
		if err != nil {
			t.Fatal(err)
		}
		bl := NewBuilder(run.cfg)
		for pi, bd := range boards {
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := bl.Build(bd, c); err != nil {
					t.Fatal(err)
				}
				h := fnv.New64a()
				write := func(kind string) func(x, y hex.Cell, cn *Conn) bool {
					return func(x, y hex.Cell, cn *Conn) bool {
						fmt.Fprintf(h, "%s %d %d %x %x %d %d;", kind, x, y, [6]uint64(cn.Carrier), [6]uint64(cn.Stones), cn.Key, cn.Rule)
						return true
					}
				}
				bl.EachFull(write("F"))
				bl.EachSemi(write("S"))
				nf, ns := bl.Counts()
				fmt.Fprintf(&sb, "%s %dx%d #%d %v: %d VCs %d SCs %016x\n", run.name, run.size, run.size, pi, c, nf, ns, h.Sum64())
			}
		}
	}
	return sb.String()
}

// TestBuildGolden checks that the connections built on the benchmark positions (H-search,
// H-search with M = 20, XH-search) are exactly those recorded in
// testdata/golden_builds.txt, so pure speed-ups can be shown to change nothing (rewrite
// the file with -update-golden after an intended change, and check the soundness oracle).
func TestBuildGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	got := buildFingerprints(t)
	name := "testdata/golden_builds.txt"
	if *updateGolden {
		if err := os.WriteFile(name, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < len(gl) && i < len(wl); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs from the builds, first at line %d:\n got %s\nwant %s", name, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs from the builds (%d lines, want %d)", name, len(gl), len(wl))
	}
}
