package hex

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// sameGame reports whether two boards hold the same position (stones, side to move,
// hash) reached by the same moves: the game moves in order and the setup stones of
// each run between them as a set.
func sameGame(a, b *Board) bool {
	if a.g != b.g || a.stones != b.stones || a.toMove != b.toMove || a.hash != b.hash || len(a.hist) != len(b.hist) {
		return false
	}
	for i := range a.hist {
		ra, rb := a.hist[i], b.hist[i]
		if ra.setup != rb.setup || (!ra.setup && ra.move != rb.move) {
			return false
		}
	}
	return true
}

func writeSGF(t testing.TB, b *Board, props SGFProps) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteSGF(&buf, b, props); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestSGFGolden(t *testing.T) {
	b := mustParse(t, 11, 11, "f6 swap-pieces e7 c8 d8 c9 d9 c10 d10 c11 d11 resign")
	got := writeSGF(t, b, SGFProps{"PB": "alice", "PW": "bob", "C": "a [bracketed] \\ comment", "AP": "hexlearn"})
	path := filepath.Join("testdata", "game.sgf")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("WriteSGF:\n%s\nwant (%s):\n%s", got, path, want)
	}
	back, props, err := ReadSGFProps(strings.NewReader(got))
	if err != nil {
		t.Fatal(err)
	}
	if !sameGame(back, b) {
		t.Fatalf("golden game does not read back:\n%s", back)
	}
	if props["PB"] != "alice" || props["C"] != "a [bracketed] \\ comment" || props["RE"] != "B+R" {
		t.Fatalf("props %v", props)
	}
}

// TestSGFHexGui reads a file as HexGui writes it (AP, wrapped lines, setup stones in
// a later node, a variation) and files in other dialects.
func TestSGFReadFiles(t *testing.T) {
	for _, tc := range []struct {
		file, moves, black, white string
		w, h                      int
		toMove                    Color
	}{
		{"hexgui.sgf", "B:a1 W:swap-pieces B:c3 W:d4 B:b4", "c3 b4 e5", "a1 d4", 9, 9, White},
		{"littlegolem.sgf", "B:a2 W:swap-pieces B:e5 W:d6", "e5", "b1 d6", 13, 13, Black},
		{"setup.sgf", "W:b2", "a1 c1", "a3 b2", 3, 4, Black},
	} {
		t.Run(tc.file, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			b, err := ReadSGF(f)
			if err != nil {
				t.Fatal(err)
			}
			if b.Width() != tc.w || b.Height() != tc.h {
				t.Fatalf("size %dx%d", b.Width(), b.Height())
			}
			var moves []string
			for _, r := range b.hist {
				if !r.setup {
					moves = append(moves, r.move.Color.Letter()+":"+b.g.CellName(r.move.Cell))
				}
			}
			if got := strings.Join(moves, " "); got != tc.moves {
				t.Fatalf("moves %q, want %q", got, tc.moves)
			}
			for c, list := range map[Color]string{Black: tc.black, White: tc.white} {
				var want Bitset
				for _, n := range strings.Fields(list) {
					p, _ := b.g.ParseCell(n)
					want.Set(p)
				}
				if b.Stones(c) != want {
					t.Fatalf("%v stones wrong:\n%s", c, b)
				}
			}
			if b.ToMove() != tc.toMove {
				t.Fatalf("to move %v", b.ToMove())
			}
			checkInvariants(t, b)
			back, err := ReadSGF(strings.NewReader(writeSGF(t, b, nil)))
			if err != nil || !sameGame(back, b) {
				t.Fatalf("does not round-trip: %v", err)
			}
		})
	}
}

func TestSGFErrors(t *testing.T) {
	for _, tc := range []struct{ in, mention string }{
		{"", "no game tree"},
		{"(;GM[1]SZ[19])", "GM[1]"},
		{"(;FF[9]GM[11])", "FF[9]"},
		{"(;GM[11]SZ[20])", "SZ[20]"},
		{"(;GM[11]SZ[5:0])", "SZ[5:0]"},
		{"(;GM[11]SZ[x])", "SZ[x]"},
		{"(;GM[11]SZ[5];B[f1])", "f1"},
		{"(;GM[11]SZ[5];B[a1];W[a1])", "a1"},
		{"(;GM[11]SZ[5];B[a1]W[b1])", "both B and W"},
		{"(;GM[11]SZ[5];B[a1][b2])", "2 values"},
		{"(;GM[11]SZ[5];B[])", "empty move"},
		{"(;GM[11]SZ[5];B[a1];B[swap-pieces])", "swap"},
		{"(;GM[11]SZ[5]AB[zz])", "zz"},
		{"(;GM[11]SZ[5];SZ[7])", "SZ outside the root"},
		{"(;GM[11]SZ[5];PL[x])", "PL"},
		{"(;GM[11]SZ[5];B[a1]", "not closed"},
		{"(;GM[11]SZ[5];B[a1", "not closed"},
		{"(;GM[11]SZ[5];B)", "no value"},
		{"(;GM[11]SZ[5];B[a1]B[b2])", "twice"},
		{"(;GM[11]SZ[5]\n\n;B[a1]x)", "line 3"},
		{"(;GM[11](;B[a1]);B[b2])", "after a variation"},
		{"(" + strings.Repeat("(", 2000), "nested"},
	} {
		_, err := ReadSGF(strings.NewReader(tc.in))
		if !errors.Is(err, ErrSGF) || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ReadSGF(%.40q) = %v, want ErrSGF mentioning %q", tc.in, err, tc.mention)
		}
	}
	if err := WriteSGF(&bytes.Buffer{}, MustBoard(3, 3), SGFProps{"pb": "x"}); err == nil {
		t.Error("lower-case property identifier accepted")
	}
}

func TestSGFDetails(t *testing.T) {
	// Missing SZ means 11x11; FF[3] lower-case identifier letters are ignored; the
	// main line is the first variation; AE removes stones; PL sets the side to move.
	b, err := ReadSGF(strings.NewReader(`junk before (;GaMe[11]
		;B[c3](;W[d4];B[e5])(;W[k11]))(;SZ[3])`))
	if err != nil {
		t.Fatal(err)
	}
	if b.Width() != 11 || b.g.FormatMoves(b.Moves()) != "c3 d4 e5" {
		t.Fatalf("got %dx%d %q", b.Width(), b.Height(), b.g.FormatMoves(b.Moves()))
	}
	b, err = ReadSGF(strings.NewReader("(;GM[11]SZ[4]AB[a1][b2]AW[c3];AE[a1][c3]PL[W])"))
	if err != nil {
		t.Fatal(err)
	}
	if b.NumStones() != 1 || b.At(b.g.At(1, 1)) != Black || b.ToMove() != White {
		t.Fatalf("AE/PL wrong:\n%s", b)
	}
	checkInvariants(t, b)
	// Rectangular sizes are written w:h; PL appears when the side to move is not
	// the one the moves imply; escaped values survive.
	r := mustParse(t, 4, 7, "a1 b2")
	r.SetToMove(White)
	s := writeSGF(t, r, SGFProps{"GN": `x]y\z`})
	if !strings.Contains(s, "SZ[4:7]") || !strings.Contains(s, "PL[W]") || !strings.Contains(s, `GN[x\]y\\z]`) {
		t.Fatalf("WriteSGF:\n%s", s)
	}
	back, props, err := ReadSGFProps(strings.NewReader(s))
	if err != nil || !sameGame(back, r) || props["GN"] != `x]y\z` {
		t.Fatalf("round trip: %v %v", err, props)
	}
	// A board set up from a diagram, White to move, round-trips.
	d, _ := ParseDiagram("B . .\n . W .\n  . . B\n")
	back, err = ReadSGF(strings.NewReader(writeSGF(t, d, nil)))
	if err != nil || !sameGame(back, d) {
		t.Fatalf("diagram board round trip: %v\n%s", err, writeSGF(t, d, nil))
	}
}

// TestSGFRoundTripRandom writes and reads back random games with swaps, setup
// stones, resignations and odd sides to move on every size.
func TestSGFRoundTripRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, s := range sizes() {
		for i := 0; i < 10; i++ {
			b := MustBoard(s[0], s[1])
			for k := rng.IntN(b.g.N + 2); k > 0; k-- {
				m, ok := randomLegalMove(b, rng)
				if !ok {
					break
				}
				switch rng.IntN(12) {
				case 0:
					if m.Cell >= 0 {
						b.PlaySetup(Color(1+rng.IntN(2)), m.Cell)
					}
				case 1:
					b.Play(Move{b.toMove, Resign})
				default:
					b.Play(m)
				}
			}
			if rng.IntN(4) == 0 {
				b.SetToMove(b.toMove.Opp())
			}
			text := writeSGF(t, b, SGFProps{"PB": "x"})
			back, err := ReadSGF(strings.NewReader(text))
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if !sameGame(back, b) {
				t.Fatalf("round trip differs\n%s\n%s\n%s", text, b, back)
			}
		}
	}
}

// FuzzReadSGF: no input panics; a file that reads gives a consistent board that
// writes and reads back to the same game.
func FuzzReadSGF(f *testing.F) {
	for _, name := range []string{"game.sgf", "hexgui.sgf", "littlegolem.sgf", "setup.sgf"} {
		data, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(data))
	}
	f.Add("(;GM[11]SZ[3:4]AB[a1]AE[a1]PL[W];W[b2](;B[c3])(;B[a3]))")
	f.Add("(;SZ[1];B[a1];W[swap])")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := ReadSGF(strings.NewReader(s))
		if err != nil {
			return
		}
		checkInvariants(t, b)
		text := writeSGF(t, b, nil)
		back, err := ReadSGF(strings.NewReader(text))
		if err != nil || !sameGame(back, b) {
			t.Fatalf("does not round-trip (%v):\n%s", err, text)
		}
	})
}
