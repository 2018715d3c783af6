package hex

import (
	"errors"
	"strings"
	"testing"
)

func TestCellNames(t *testing.T) {
	for _, s := range sizes() {
		g := MustGeometry(s[0], s[1])
		for p := Cell(0); int(p) < g.N; p++ {
			name := g.CellName(p)
			q, err := g.ParseCell(name)
			if err != nil || q != p {
				t.Fatalf("%dx%d: %s parsed as %d, %v", g.W, g.H, name, q, err)
			}
			if q, err := g.ParseCell(strings.ToUpper(name)); err != nil || q != p {
				t.Fatalf("upper-case %s: %v", name, err)
			}
		}
		for _, e := range []Cell{North, South, West, East} {
			if q, err := g.ParsePoint(g.CellName(e)); err != nil || q != e {
				t.Fatalf("edge %s: %v", g.CellName(e), err)
			}
		}
	}
	g := MustGeometry(19, 19)
	for name, want := range map[string][2]int{"a1": {0, 0}, "s19": {18, 18}, "c3": {2, 2}, "i9": {8, 8}, "j10": {9, 9}, " k11 ": {10, 10}} {
		p, err := g.ParseCell(name)
		if x, y := g.XY(p); err != nil || x != want[0] || y != want[1] {
			t.Errorf("%q: got (%d,%d) %v", name, x, y, err)
		}
	}
	for _, bad := range []string{"", "a", "1", "a0", "a01", "t1", "a20", "1a", "aa1", "a-1", "a+1", "a1x", "é1", "a 1", "north"} {
		if _, err := g.ParseCell(bad); !errors.Is(err, ErrBadCell) {
			t.Errorf("ParseCell(%q) = %v, want ErrBadCell", bad, err)
		}
	}
	small := MustGeometry(3, 2)
	for _, bad := range []string{"d1", "a3", "c3"} {
		if _, err := small.ParseCell(bad); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("3x2 ParseCell(%q) = %v, want an error naming it", bad, err)
		}
	}
	for s, want := range map[string]Cell{"swap-pieces": Swap, "swap": Swap, "resign": Resign, "RESIGN": Resign, "b2": 4} {
		if p, err := small.ParseMoveCell(s); err != nil || p != want {
			t.Errorf("ParseMoveCell(%q) = %d, %v", s, p, err)
		}
	}
	for _, p := range []Cell{Swap, Resign, NoCell, 6} {
		if name := small.CellName(p); name != map[Cell]string{Swap: "swap-pieces", Resign: "resign", NoCell: "none", 6: "none"}[p] {
			t.Errorf("CellName(%d) = %q", p, name)
		}
	}
}

func TestParseColor(t *testing.T) {
	for s, want := range map[string]Color{"b": Black, "black": Black, "B": Black, "BLACK": Black, "w": White, "White": White} {
		if c, err := ParseColor(s); err != nil || c != want {
			t.Errorf("ParseColor(%q) = %v, %v", s, c, err)
		}
	}
	for _, bad := range []string{"", "x", "e", "empty", "blackk"} {
		if _, err := ParseColor(bad); !errors.Is(err, ErrBadColor) {
			t.Errorf("ParseColor(%q) accepted", bad)
		}
	}
	if Black.Opp() != White || White.Opp() != Black || Empty.Opp() != Empty {
		t.Error("Opp")
	}
}

func TestParseMoves(t *testing.T) {
	g := MustGeometry(5, 5)
	for _, tc := range []struct {
		in, want string // want: colour letter and cell per move
	}{
		{"", ""},
		{"a1 b2 c3", "B:a1 W:b2 B:c3"},
		{"a1,b2, c3", "B:a1 W:b2 B:c3"},
		{"c3 swap-pieces d4", "B:c3 W:swap-pieces B:d4"},
		{"c3 swap d4 e5", "B:c3 W:swap-pieces B:d4 W:e5"},
		{"w:c3 d4", "W:c3 B:d4"},
		{"b:c3 b:d4 e5", "B:c3 B:d4 W:e5"},
		{"B[c3];W[d4];B[resign]", "B:c3 W:d4 B:resign"},
		{"  E5\tA1\n", "B:e5 W:a1"},
	} {
		ms, err := g.ParseMoves(tc.in)
		if err != nil {
			t.Errorf("ParseMoves(%q): %v", tc.in, err)
			continue
		}
		var got []string
		for _, m := range ms {
			got = append(got, m.Color.Letter()+":"+g.CellName(m.Cell))
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ParseMoves(%q) = %q, want %q", tc.in, strings.Join(got, " "), tc.want)
		}
	}
	for _, tc := range []struct{ in, mention string }{
		{"a1 z9", "z9"},
		{"a1 b2 f1", "f1"},
		{"x:a1", "x"},
		{"a1 b", `"b"`},
	} {
		_, err := g.ParseMoves(tc.in)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseMoves(%q) error %v should mention %s", tc.in, err, tc.mention)
		}
	}
	// Playing: errors name the move.
	if _, err := ParsePosition(5, 5, "a1 b2 a1"); err == nil || !strings.Contains(err.Error(), "move 3") || !strings.Contains(err.Error(), "a1") {
		t.Errorf("replay error %v should name move 3 (a1)", err)
	}
	b := mustParse(t, 5, 5, "c3 swap-pieces a1 resign")
	if got := g.FormatMoves(b.Moves()); got != "c3 swap-pieces a1 resign" {
		t.Errorf("FormatMoves = %q", got)
	}
}

// TestDiagrams reads boards written as text diagrams and checks stones, side to move
// and winner; every diagram printed by Diagram reads back to the same position.
func TestDiagrams(t *testing.T) {
	for _, tc := range []struct {
		name    string
		diagram string
		w, h    int
		black   string // cells of Black stones
		white   string
		toMove  Color
		winner  Color
	}{
		{"empty 3x3", `
   a b c
1  . . .  1
 2  . . .  2
  3  . . .  3
`, 3, 3, "", "", Black, Empty},
		{"black column wins", `
   a b c
1  . B .  1
 2  . B W  2
  3  W B .  3
`, 3, 3, "b1 b2 b3", "c2 a3", White, Black},
		{"white row wins", `
1  . . B  1
 2  W W W  2
  3  B . .  3
`, 3, 3, "c1 a3", "a2 b2 c2", Black, White},
		{"zigzag black (a2-b1 adjacency)", `
  a b
1  . B
 2  B .
`, 2, 2, "b1 a2", "", White, Black},
		{"X and O, no numbers; a1 and b2 are not adjacent", `
x . o
 . x o
  o x .
`, 3, 3, "a1 b2 b3", "c1 c2 a3", Black, Empty},
		{"rectangle 4x2", `
    a b c d
 1  . . . W  1
  2  W W W .  2
`, 4, 2, "", "d1 a2 b2 c2", Black, White},
		{"1x1 black", "1  B  1\n", 1, 1, "a1", "", White, Black},
		{"b1 and c2 are not adjacent", `
   a b c
1  . B .  1
 2  . . B  2
  3  . B .  3
`, 3, 3, "b1 c2 b3", "", White, Empty},
		{"white blocked", `
   a b c
1  W . .  1
 2  . W .  2
  3  . . W  3
`, 3, 3, "", "a1 b2 c3", Black, Empty},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ParseDiagram(tc.diagram)
			if err != nil {
				t.Fatal(err)
			}
			if b.Width() != tc.w || b.Height() != tc.h {
				t.Fatalf("size %dx%d, want %dx%d", b.Width(), b.Height(), tc.w, tc.h)
			}
			for c, list := range map[Color]string{Black: tc.black, White: tc.white} {
				var want Bitset
				for _, n := range strings.Fields(list) {
					p, err := b.g.ParseCell(n)
					if err != nil {
						t.Fatal(err)
					}
					want.Set(p)
				}
				if b.Stones(c) != want {
					t.Fatalf("%v stones differ\n%s", c, b)
				}
			}
			if b.ToMove() != tc.toMove || b.Winner() != tc.winner {
				t.Fatalf("to move %v winner %v, want %v %v\n%s", b.ToMove(), b.Winner(), tc.toMove, tc.winner, b)
			}
			checkInvariants(t, b)
			back, err := ParseDiagram(b.Diagram())
			if err != nil || !snap(back).equal(snap(b)) {
				t.Fatalf("diagram does not read back (%v):\n%s", err, b.Diagram())
			}
		})
	}
	for _, bad := range []string{"", "hello\n", "1 . . 1\n 2 . . . 2\n", strings.Repeat(". ", 20) + "\n"} {
		if _, err := ParseDiagram(bad); err == nil {
			t.Errorf("ParseDiagram(%q) accepted", bad)
		}
	}
}

func TestDiagramFormat(t *testing.T) {
	b := mustParse(t, 3, 3, "b2 c3")
	want := "   a b c\n1  . . .  1\n 2  . B .  2\n  3  . . W  3\n"
	if got := b.Diagram(); got != want {
		t.Errorf("Diagram:\n%s\nwant:\n%s", got, want)
	}
	if b.String() != want {
		t.Error("String differs from Diagram")
	}
	// Two-digit rows stay aligned.
	d := MustBoard(2, 10).Diagram()
	lines := strings.Split(d, "\n")
	if !strings.HasPrefix(lines[1], " 1  . .") || !strings.HasPrefix(lines[10], "         10  . .") {
		t.Errorf("10-row diagram misaligned:\n%s", d)
	}
}

// FuzzParseMoves: no input panics; a parsed list prints and parses back to the same
// cells (and the same colours when the input named none).
func FuzzParseMoves(f *testing.F) {
	for _, s := range []string{"a1 b2 c3", "c3 swap-pieces d4", "b:c3 w:d4", "B[c3];W[resign]", "z99", "a1,,b2", "s19 a19", ""} {
		f.Add(uint8(11), s)
	}
	f.Fuzz(func(t *testing.T, n uint8, s string) {
		g := MustGeometry(int(n)%MaxSize+1, int(n)%MaxSize+1)
		ms, err := g.ParseMoves(s)
		if err != nil {
			return
		}
		back, err := g.ParseMoves(g.FormatMoves(ms))
		if err != nil || len(back) != len(ms) {
			t.Fatalf("%q -> %q does not parse back: %v", s, g.FormatMoves(ms), err)
		}
		explicit := strings.ContainsAny(s, ":[")
		for i := range ms {
			if back[i].Cell != ms[i].Cell || (!explicit && back[i].Color != ms[i].Color) {
				t.Fatalf("move %d differs after round trip: %v vs %v", i, ms[i], back[i])
			}
		}
		// Playing the list never panics and leaves a consistent board.
		b := NewBoardGeometry(g)
		_ = b.PlayMoves(ms)
		checkInvariants(t, b)
	})
}

// FuzzParseDiagram: no input panics; a parsed board is consistent and its diagram
// reads back to the same position.
func FuzzParseDiagram(f *testing.F) {
	f.Add("   a b c\n1  . B .  1\n 2  . B W  2\n  3  W B .  3\n")
	f.Add("x . o\n . x o\n  o x .\n")
	f.Add("1  B  1\n")
	f.Add("1 . . 1\n 2 . . . 2\n")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ParseDiagram(s)
		if err != nil {
			return
		}
		checkInvariants(t, b)
		back, err := ParseDiagram(b.Diagram())
		if err != nil || !snap(back).equal(snap(b)) {
			t.Fatalf("diagram does not read back (%v):\n%s", err, b.Diagram())
		}
	})
}

func TestCellNamesOfSet(t *testing.T) {
	g := MustGeometry(4, 3)
	tests := []struct {
		cells []Cell
		want  string
	}{
		{nil, ""},
		{[]Cell{g.At(2, 1)}, "c2"},
		{[]Cell{g.At(3, 2), g.At(0, 0), g.At(1, 0)}, "a1 b1 d3"},
		{[]Cell{North, g.At(0, 1)}, "a2 north"},
	}
	for _, tc := range tests {
		var s Bitset
		for _, c := range tc.cells {
			s.Set(c)
		}
		if got := g.FormatCells(s); got != tc.want {
			t.Errorf("FormatCells(%v) = %q, want %q", tc.cells, got, tc.want)
		}
		names := g.CellNames(s)
		if names == nil || strings.Join(names, " ") != tc.want {
			t.Errorf("CellNames(%v) = %#v, want %q", tc.cells, names, tc.want)
		}
	}
}
