package patterns

import (
	"bytes"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

func mustBoard(t testing.TB, diagram string) *hex.Board {
	t.Helper()
	b, err := hex.ParseDiagram(diagram)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bridgeDB is a 5x5 database holding one chain: stone c2, bridges to North (c1, d1)
// and to b4 (b3, c3); b4 touches a5 on the South edge.
func bridgeDB(t testing.TB) *DB {
	t.Helper()
	g, p := mustPattern(t, `
. . + + .
 . . B . .
  . + + . .
   . B . . .
    B . . . .`)
	d, err := New(g.W, g.H)
	if err != nil {
		t.Fatal(err)
	}
	n, err := d.Add(p)
	if err != nil {
		t.Fatal(err)
	}
	// The pattern spans columns a..d: translations d = 0, +1; its rotation spans b..e:
	// d = -1, 0, and is no translation of it (only the rotation has a stone on row 1),
	// so four entries.
	if n != 4 || d.Len() != 4 {
		t.Fatalf("Add inserted %d entries (Len %d), want 4", n, d.Len())
	}
	return d
}

func TestDecided(t *testing.T) {
	d := bridgeDB(t)
	tests := []struct {
		name    string
		diagram string
		want    hex.Color
	}{
		{"the pattern itself", `
. . . . .
 . . B . .
  . . . . .
   . B . . .
    B . . . .`, hex.Black},
		{"shifted right by one, with extra stones", `
W . . . .
 . . . B .
  . . . . W
   . . B . .
    . B . . W`, hex.Black},
		{"rotated 180 degrees", `
. . . . B
 . . . B .
  . . . . .
   . . B . .
    . . . . .`, hex.Black},
		{"rotated and shifted left", `
. . . B .
 . . B . .
  . . . . .
   . B . . .
    . . . . .`, hex.Black},
		{"carrier cell taken by White", `
. . W . .
 . . B . .
  . . . . .
   . B . . .
    B . . . .`, hex.Empty},
		{"carrier cells taken by Black still match", `
. . B . .
 . . B . .
  . B . . .
   . B . . .
    B . . . .`, hex.Black},
		{"the reflected pattern for White", `
. . . . W
 . . . W .
  . W . . .
   . . . . .
    . . . . .`, hex.White},
		{"left-right mirror is no symmetry", `
. . . . .
 . . B . .
  . . . . .
   . . . B .
    . . . . B`, hex.Empty},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustBoard(t, tc.diagram)
			if got := d.Decided(b); got != tc.want {
				t.Errorf("Decided = %v, want %v", got, tc.want)
			}
		})
	}
	if d.Decided(hex.MustBoard(4, 4)) != hex.Empty {
		t.Error("a board of another size is decided")
	}
}

// TestDecidedAgainstLinearScan: for random positions Decided agrees with matching
// every entry (and the reflected position for White) one by one.
func TestDecidedAgainstLinearScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, size := range []int{4, 6, 8} {
		g := hex.MustGeometry(size, size)
		d, _ := New(size, size)
		for i := 0; i < 300; i++ {
			if _, err := d.Add(randomConnected(r, g, 0.35, r.IntN(4))); err != nil {
				t.Fatal(err)
			}
		}
		for i := 0; i < 2000; i++ {
			b := hex.NewBoardGeometry(g)
			for _, c := range r.Perm(g.N)[:r.IntN(g.N)] {
				b.PlayStone(hex.Color(1+r.IntN(2)), hex.Cell(c))
			}
			black, white := b.Stones(hex.Black), b.Stones(hex.White)
			rb, rw := transpose(g, white), transpose(g, black)
			wantB, wantW := false, false
			for _, e := range d.Entries() {
				wantB = wantB || e.Matches(&black, &white)
				wantW = wantW || e.Matches(&rb, &rw)
			}
			if d.MatchBlack(b) != wantB || d.MatchWhite(b) != wantW {
				t.Fatalf("size %d: MatchBlack/White = %v/%v, linear scan %v/%v\n%s", size, d.MatchBlack(b), d.MatchWhite(b), wantB, wantW, b.Diagram())
			}
			// Win: the same answers, with the carrier of an entry that matches
			for _, c := range []hex.Color{hex.Black, hex.White} {
				car, ok := d.Win(b, c)
				if want := map[hex.Color]bool{hex.Black: wantB, hex.White: wantW}[c]; ok != want {
					t.Fatalf("size %d: Win(%v) = %v, linear scan %v\n%s", size, c, ok, want, b.Diagram())
				}
				if !ok {
					continue
				}
				own, opp := b.Stones(c), b.Stones(c.Opp())
				if car.Intersects(&opp) {
					t.Fatalf("size %d: Win(%v) carrier %v holds an opponent stone\n%s", size, c, car, b.Diagram())
				}
				if c == hex.White {
					own, car = transpose(g, own), transpose(g, car)
				}
				hit := false
				for _, e := range d.Entries() {
					if e.Carrier == car && e.Stones.SubsetOf(&own) {
						hit = true
						break
					}
				}
				if !hit {
					t.Fatalf("size %d: Win(%v) carrier is no matching entry's\n%s", size, c, b.Diagram())
				}
			}
			if _, ok := d.Match(b, hex.Black); ok != wantB {
				t.Fatal("Match disagrees with MatchBlack")
			}
			// White through hex.Board.Reflected: the reflected board's Black match.
			if got := d.MatchBlack(b.Reflected()); got != wantW {
				t.Fatalf("MatchBlack(Reflected) = %v, MatchWhite = %v", got, wantW)
			}
		}
	}
}

func TestAddSkipsContainingPatternsAndCompact(t *testing.T) {
	d := bridgeDB(t)
	g := d.Geometry()
	// The same chain with an extra carrier cell contains a stored entry: nothing new
	// for it or any of its variants.
	_, big := mustPattern(t, `
. . + + +
 . . B . .
  . + + . .
   . B . . .
    B . . . .`)
	n, err := d.Add(big)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Errorf("a pattern containing a stored one inserted %d entries", n)
	}
	// A smaller pattern inserted later: the earlier, larger entries stay until Compact.
	d2, _ := New(g.W, g.H)
	if _, err := d2.Add(big); err != nil {
		t.Fatal(err)
	}
	before := d2.Len()
	_, small := mustPattern(t, `
. . + + .
 . . B . .
  . + + . .
   . B . . .
    B . . . .`)
	if _, err := d2.Add(small); err != nil {
		t.Fatal(err)
	}
	dropped := d2.Compact()
	if dropped == 0 || d2.Len() != before+4-dropped {
		t.Errorf("Compact dropped %d of %d entries", dropped, before+4)
	}
	es := d2.Entries()
	for i := range es {
		for j := range es {
			if i != j {
				ci, cj := es[i].Cells(), es[j].Cells()
				if es[i].Stones.SubsetOf(&es[j].Stones) && ci.SubsetOf(&cj) {
					t.Fatalf("after Compact entry %d is contained in entry %d", i, j)
				}
			}
		}
	}
}

func TestAddErrors(t *testing.T) {
	d, _ := New(3, 3)
	_, p := mustPattern(t, `
. + .
 . B .
  . + .`)
	if _, err := d.Add(p); err != nil {
		t.Errorf("connected pattern refused: %v", err)
	}
	_, p = mustPattern(t, `
. + .
 . . .
  . + .`)
	if _, err := d.Add(p); !errors.Is(err, ErrNotConnected) {
		t.Errorf("disconnected pattern: %v, want ErrNotConnected", err)
	}
	var q Pattern
	q.Stones.Set(9) // off a 3x3 board
	if _, err := d.Add(q); !errors.Is(err, ErrBadPattern) {
		t.Errorf("off-board pattern: %v, want ErrBadPattern", err)
	}
	if _, err := d.AddWin(hex.MustBoard(4, 4), hex.Black, hex.Bitset{}); !errors.Is(err, ErrBadPattern) {
		t.Errorf("board of another size: %v, want ErrBadPattern", err)
	}
	if _, err := New(0, 3); err == nil {
		t.Error("New(0, 3) succeeded")
	}
	r, _ := New(3, 4)
	if _, err := r.AddWin(hex.MustBoard(3, 4), hex.White, hex.Bitset{}); !errors.Is(err, ErrNotSquare) {
		t.Errorf("White win on a 3x4 board: %v, want ErrNotSquare", err)
	}
}

// TestAddWinWhite: a White winning connection (b2 and c3 joined by bridges to West,
// to each other and to East) is stored reflected and then decides positions for White.
func TestAddWinWhite(t *testing.T) {
	b := mustBoard(t, `
. . . .
 . W . .
  . . W .
   . . . .`)
	g := b.Geometry()
	var carrier hex.Bitset
	for _, s := range []string{"a2", "a3", "c2", "b3", "d2", "d3"} {
		c, _ := g.ParseCell(s)
		carrier.Set(c)
	}
	d, _ := New(4, 4)
	n, err := d.AddWin(b, hex.White, carrier)
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("nothing inserted")
	}
	for _, e := range d.Entries() {
		if ok, err := Verify(g, e, 12); !ok || err != nil {
			t.Fatalf("stored entry does not verify (%v):\n%s", err, e.Diagram(g))
		}
	}
	if got := d.Decided(b); got != hex.White {
		t.Errorf("Decided = %v, want White", got)
	}
	blocked := mustBoard(t, `
. . . .
 B W . .
  . . W .
   . . . .`)
	if got := d.Decided(blocked); got != hex.Empty {
		t.Errorf("carrier cell a2 Black: Decided = %v, want Empty", got)
	}
}

func TestFileRoundTripAndGolden(t *testing.T) {
	d := bridgeDB(t)
	d.Source = "test: bridge chain"
	var buf bytes.Buffer
	if _, err := d.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	d2, h, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	if h.Width != 5 || h.Height != 5 || h.Count != 4 || h.Source != d.Source || h.Version != FormatVersion {
		t.Errorf("header %+v", h)
	}
	if d2.Len() != d.Len() {
		t.Fatalf("read %d entries, wrote %d", d2.Len(), d.Len())
	}
	for i, e := range d.Entries() {
		if d2.Entries()[i] != e {
			t.Fatalf("entry %d differs after round trip", i)
		}
	}
	// Golden file: the entries part is stable (the code version in the header varies
	// between builds, so the golden file is compared after re-reading).
	path := filepath.Join("testdata", "bridge5.db")
	if *update {
		if err := d.Save(path); err != nil {
			t.Fatal(err)
		}
	}
	g, _, err := Load(path)
	if err != nil {
		t.Fatalf("golden file: %v (run go test -update)", err)
	}
	if g.Len() != d.Len() {
		t.Fatalf("golden file has %d entries, want %d", g.Len(), d.Len())
	}
	for i, e := range d.Entries() {
		if g.Entries()[i] != e {
			t.Fatalf("golden entry %d differs", i)
		}
	}
	// Save writes atomically and Load reads it back.
	tmp := filepath.Join(t.TempDir(), "x.db")
	if err := d.Save(tmp); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(tmp); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Load(filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

func TestDecodeRejectsDamage(t *testing.T) {
	d := bridgeDB(t)
	var buf bytes.Buffer
	d.WriteTo(&buf)
	good := buf.Bytes()
	mod := func(f func(b []byte) []byte) []byte {
		c := append([]byte(nil), good...)
		return f(c)
	}
	cases := map[string][]byte{
		"empty":       nil,
		"bad magic":   mod(func(b []byte) []byte { b[0] = 'X'; return b }),
		"truncated":   good[:len(good)-7],
		"flipped bit": mod(func(b []byte) []byte { b[len(b)/2] ^= 4; return b }),
		"version 99":  mod(func(b []byte) []byte { b[8] = 99; return b }),
		"trailing":    append(append([]byte(nil), good...), 0),
	}
	for name, data := range cases {
		if _, _, err := Decode(data); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: error %v, want ErrFormat", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	if data, err := os.ReadFile(filepath.Join("testdata", "bridge5.db")); err == nil {
		f.Add(data)
	}
	f.Add([]byte(Magic))
	f.Add([]byte("HEXPATDB\x01\x00\x05\x05\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, _, err := Decode(data)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v does not wrap ErrFormat", err)
			}
			return
		}
		// Whatever decodes must encode and decode to the same entries.
		var buf bytes.Buffer
		if _, err := d.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		d2, _, err := Decode(buf.Bytes())
		if err != nil || d2.Len() != d.Len() {
			t.Fatalf("re-decode: %v", err)
		}
	})
}

// TestAddOne: AddOne stores the pattern alone (no variants), skips one that contains a
// stored entry, and refuses an invalid pattern.
func TestAddOne(t *testing.T) {
	_, small := mustPattern(t, `
. . + + .
 . . B . .
  . + + . .
   . B . . .
    B . . . .`)
	_, big := mustPattern(t, `
. . + + +
 . . B . .
  . + + . .
   . B . . .
    B . . . .`)
	d, _ := New(5, 5)
	if ok, err := d.AddOne(small); !ok || err != nil || d.Len() != 1 {
		t.Fatalf("AddOne(small) = %v, %v; %d entries, want 1", ok, err, d.Len())
	}
	if ok, err := d.AddOne(big); ok || err != nil || d.Len() != 1 {
		t.Errorf("AddOne of a containing pattern = %v, %v; %d entries, want 1", ok, err, d.Len())
	}
	if ok, _ := d.AddOne(small); ok {
		t.Error("the same pattern was added twice")
	}
	if _, err := d.AddOne(Pattern{}); err == nil {
		t.Error("an empty pattern was accepted")
	}
}
