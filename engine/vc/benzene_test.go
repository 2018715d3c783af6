package vc

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// benzeneSets are the parameters of GenerateBenchPositions behind each reference file
// (the files' headers say the same).
var benzeneSets = []struct {
	size, n, lo, hi int
	set             string
	seed            uint64
}{
	{8, 200, 15, 40, BenzeneTuning, 5801}, {8, 200, 15, 40, BenzeneHeldOut, 5802},
	{11, 400, 15, 60, BenzeneTuning, 5801}, {11, 400, 15, 60, BenzeneHeldOut, 5802},
	{13, 800, 15, 60, BenzeneTuning, 5801}, {13, 800, 15, 60, BenzeneHeldOut, 5802},
}

// TestBenzeneReferenceFiles: every reference file holds, for each position of a fresh
// generation with its seed, a black and then a white line, and the tuning and held-out
// sets share no position.
func TestBenzeneReferenceFiles(t *testing.T) {
	seen := map[string]string{}
	for _, s := range benzeneSets {
		es, err := BenzeneReference(s.size, s.set)
		if err != nil {
			t.Fatal(err)
		}
		pos, err := GenerateBenchPositions(s.size, s.n, s.lo, s.hi, s.seed)
		if err != nil {
			t.Fatal(err)
		}
		if len(es) != 2*len(pos) {
			t.Fatalf("%dx%d %s: %d lines, want %d", s.size, s.size, s.set, len(es), 2*len(pos))
		}
		for i, p := range pos {
			for k, c := range []hex.Color{hex.Black, hex.White} {
				e := es[2*i+k]
				if e.Moves != p || e.Color != c {
					t.Fatalf("%dx%d %s line %d: %s %q, want %s %q", s.size, s.size, s.set, e.Line, e.Color, e.Moves, c, p)
				}
			}
			if other, ok := seen[p]; ok && other != s.set {
				t.Errorf("%dx%d: position %q in both sets", s.size, s.size, p)
			}
			seen[p] = s.set
		}
	}
	if _, err := BenzeneReference(9, BenzeneHeldOut); !errors.Is(err, ErrNoReference) {
		t.Errorf("size 9: %v", err)
	}
	if _, err := BenzeneReference(11, "training"); !errors.Is(err, ErrNoReference) {
		t.Errorf("set training: %v", err)
	}
}

// TestParseBenzeneReferenceRejects: every kind of bad line is reported with its number.
func TestParseBenzeneReferenceRejects(t *testing.T) {
	const good = "# header\n\nblack yes 4 1.500 2.000 b2\n"
	if es, err := ParseBenzeneReference(3, good); err != nil || len(es) != 1 || es[0].Line != 3 ||
		es[0].Carrier != 4 || es[0].CPU != 1500*time.Microsecond || es[0].Wall != 2*time.Millisecond {
		t.Fatalf("good text: %+v, %v", es, err)
	}
	for _, c := range []struct{ line, want string }{
		{"black yes 4 1.5 2.0", "5 fields"},
		{"blue yes 4 1.5 2.0 b2", `colour "blue"`},
		{"black maybe 4 1.5 2.0 b2", `wins "maybe"`},
		{"black no 4 1.5 2.0 b2", `carrier "4" without`},
		{"black yes - 1.5 2.0 b2", `carrier "-"`},
		{"black yes 9 1.5 2.0 b2", `carrier "9": want a cell count 0..8`},
		{"black yes 4 -1 2.0 b2", `cpu-ms "-1"`},
		{"black yes 4 1.5 NaN b2", `wall-ms "NaN"`},
		{"black yes 4 1.5 2.0 b2 z9", "z9"},
		{"black yes 4 1.5 2.0 b2 b2", "b2"},
		{"black yes 0 1.5 2.0 b1 a1 b2 a2 b3", "already won by black"},
	} {
		_, err := ParseBenzeneReference(3, good+c.line+"\n")
		if err == nil || !strings.Contains(err.Error(), "line 4:") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want line 4 and %q", c.line, err, c.want)
		}
	}
}

// TestCompareBenzene: on a tiny hand-made reference the comparison counts what is
// known. On 3x3 a black stone at b2 is joined to both of Black's edges by two
// adjacent cells each (a winning VC with a 4-cell carrier) and White has none; two
// lone corner stones on 8x8 win for nobody.
func TestCompareBenzene(t *testing.T) {
	ref3, err := ParseBenzeneReference(3, "black yes 4 0 0 b2\nwhite yes 3 0 0 b2\nwhite no - 0 0 b2 a1\n")
	if err != nil {
		t.Fatal(err)
	}
	ref8, err := ParseBenzeneReference(8, "black no - 0 0 a1 h8\n")
	if err != nil {
		t.Fatal(err)
	}
	got, err := CompareBenzene(append(ref3, ref8...), DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	// Benzene "wins" black b2 (found) and white b2 (missed: White has no VC); the
	// third entry is a black stone at b2 and a white one at a1: White still has
	// nothing, Benzene says no; a1 h8 on 8x8: nothing on either side.
	want := BenzeneComparison{Entries: 4, Benzene: 2, Found: 1, Missed: []int{1}}
	if got.Entries != want.Entries || got.Benzene != want.Benzene || got.Found != want.Found ||
		len(got.Missed) != 1 || got.Missed[0] != 1 || len(got.Extra) != 0 || got.Coverage() != 50 {
		t.Errorf("got %+v, want %+v", got, want)
	}
	// Benzene says no where Black does win: an extra claim.
	extra, err := ParseBenzeneReference(3, "black no - 0 0 b2\n")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := CompareBenzene(extra, DefaultConfig()); err != nil || len(got.Extra) != 1 || got.Benzene != 0 || got.Coverage() != 100 {
		t.Errorf("extra: %+v, %v", got, err)
	}
	if _, err := CompareBenzene([]BenzeneEntry{{Color: hex.Black}}, DefaultConfig()); !errors.Is(err, ErrNoBoard) {
		t.Errorf("entry without a board: %v", err)
	}
}

// FuzzParseBenzeneReference: the parser never panics, and what it accepts prints
// (BenzeneEntry.String) as lines it reads back to the same text.
func FuzzParseBenzeneReference(f *testing.F) {
	f.Add(5, "black yes 4 1.5 2.0 c3\nwhite no - 0.25 0.5 c3 a1\n")
	f.Add(3, "# x\nwhite yes 0 1 1 a2 b2 b1 c2 c1\n")
	f.Add(4, "black yes 4 1e3 inf a1")
	f.Fuzz(func(t *testing.T, size int, text string) {
		if size < 1 || size > 19 {
			return
		}
		es, err := ParseBenzeneReference(size, text)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "vc: Benzene reference line ") {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		var lines []string
		for _, e := range es {
			lines = append(lines, e.String())
		}
		again, err := ParseBenzeneReference(size, strings.Join(lines, "\n"))
		if err != nil || len(again) != len(es) {
			t.Fatalf("reparse of %q: %v", lines, err)
		}
		for i := range again {
			if again[i].String() != lines[i] {
				t.Fatalf("line %d: %q became %q", i, lines[i], again[i].String())
			}
		}
	})
}
