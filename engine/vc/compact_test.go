package vc

import (
	"math/rand"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// TestCompactTable checks Compact's answers on positions given as diagrams.
func TestCompactTable(t *testing.T) {
	tests := []struct {
		name    string
		board   string
		c       hex.Color
		vc, sc  bool   // a winning VC; a winning SC (and no VC)
		key     string // the key of the SC, when sc
		mustFor string // Mustplay(c.Opp()) when sc: the expected set, cells in order
	}{
		{"empty 2x2: black wins moving first only", `
. .
 . .`, hex.Black, false, true, "", "b1 a2"},
		{"bridge between the edges", `
. B
 B .`, hex.Black, true, false, "", ""},
		{"a stone in the 3x3 centre is a winning VC", `
. . .
 . B .
  . . .`, hex.Black, true, false, "", ""},
		{"white cut: black needs the key", `
. B .
 W . .
  . . .`, hex.Black, false, true, "", ""},
		{"no connection for white on a blocked board", `
B . .
 B . .
  B . .`, hex.White, false, false, "", ""},
	}
	for _, tc := range tests {
		b, err := hex.ParseDiagram(tc.board)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		h := NewCompact()
		_, vcOK := h.WinningVC(b, tc.c)
		key, _, scOK := h.WinningSC(b, tc.c)
		if vcOK != tc.vc || scOK != tc.sc {
			t.Errorf("%s: VC %v SC %v, want %v %v\n%s", tc.name, vcOK, scOK, tc.vc, tc.sc, b.Diagram())
			continue
		}
		if tc.key != "" && b.Geometry().CellName(key) != tc.key {
			t.Errorf("%s: key %s, want %s", tc.name, b.Geometry().CellName(key), tc.key)
		}
		if tc.mustFor != "" {
			must, _, ok := h.Mustplay(b, tc.c.Opp())
			got := b.Geometry().FormatCells(must)
			if !ok || got != tc.mustFor {
				t.Errorf("%s: mustplay %q (ok %v), want %q", tc.name, got, ok, tc.mustFor)
			}
		}
	}
}

// TestCompactLargeBoard checks Compact on a board of more than 64 cells (the general
// engine instance): nothing on the empty 9x9 board, a winning VC along a bridge
// ladder, and the mustplay it gives the opponent.
func TestCompactLargeBoard(t *testing.T) {
	h := NewCompact()
	empty := hex.MustBoard(9, 9)
	if _, ok := h.WinningVC(empty, hex.Black); ok {
		t.Fatal("empty 9x9: a winning VC reported")
	}
	if _, _, ok := h.Mustplay(empty, hex.White); ok {
		t.Fatal("empty 9x9: a mustplay reported")
	}
	// a bridge ladder of Black stones down the board: bridges join them, and the
	// stones on rows 2 and 8 reach their edges by edge bridges
	b, err := hex.ParsePosition(9, 9, "e2 a1 d4 a2 c6 a3 b8")
	if err != nil {
		t.Fatal(err)
	}
	car, ok := h.WinningVC(b, hex.Black)
	if !ok {
		t.Fatalf("no winning VC for Black:\n%s", b)
	}
	if car.Count() != 10 {
		t.Errorf("carrier of %d cells %v, want the 10 cells of five bridges", car.Count(), b.Geometry().CellNames(car))
	}
	if _, _, ok := h.Mustplay(b, hex.White); ok {
		t.Error("a mustplay reported against a winning VC")
	}
	// White takes d5 from the bridge d4-c6: Black, to move, still connects with c5
	b.PlayStone(hex.White, mustCell(t, b, "d5"))
	_, sc, ok := h.WinningSC(b, hex.Black)
	if !ok {
		t.Fatalf("no winning SC for Black:\n%s", b)
	}
	// White, to move, must play inside every such SC
	b.SetToMove(hex.White)
	must, _, ok := h.Mustplay(b, hex.White)
	if !ok || must.IsEmpty() || !must.SubsetOf(&sc) {
		t.Errorf("White's mustplay %v (%v), want a non-empty part of the SC %v", b.Geometry().CellNames(must), ok, b.Geometry().CellNames(sc))
	}
}

func mustCell(t *testing.T, b *hex.Board, name string) hex.Cell {
	t.Helper()
	c, err := b.Geometry().ParseCell(name)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCompactMatchesBuilder cross-checks Compact with Builder under the same rules
// (no AND over edges, no XH, the same MaxOr, SemiAnd and edge templates) and lists large enough that
// neither drops a connection: on random 3x3..6x6 positions both find a winning VC for
// the same colours, and when there is none, the same edge-to-edge SC carriers'
// intersection (the mustplay) and whether one exists.
func TestCompactMatchesBuilder(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	positions := 600
	if testing.Short() {
		positions = 150
	}
	checked, won, withSC := 0, 0, 0
	for k := 0; k < 3; k++ {
		semiAnd, tmpl := k == 1, k == 2 // SemiAnd off and on, and the edge templates
		cfg := Config{MaxFull: 10000, MaxSemi: 10000, MaxOr: 4, SemiAnd: semiAnd, EdgeTemplates: tmpl}
		bl := NewBuilder(cfg)
		h := &Compact{MaxFull: 255, MaxSemi: 255, MaxOr: 4, MaxWork: 1 << 30, SemiAnd: semiAnd, EdgeTemplates: tmpl}
		for i := 0; i < positions; i++ {
			n := 3 + rng.Intn(4)
			b := brute.RandomPosition(rng, n, rng.Intn(n*n/2+1))
			if b.Winner() != hex.Empty {
				continue
			}
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := bl.Build(b, c); err != nil {
					t.Fatal(err)
				}
				if bl.Truncated() {
					continue
				}
				wantVC, _ := bl.WinningVC()
				_, gotVC := h.WinningVC(b, c)
				if gotVC != wantVC {
					t.Fatalf("SemiAnd %v, %s: Compact winning VC %v, Builder %v\n%s", semiAnd, c, gotVC, wantVC, b.Diagram())
				}
				checked++
				if wantVC {
					won++
					continue
				}
				wantMust, wantSC := bl.Mustplay()
				gotMust, _, gotSC := h.Mustplay(b, c.Opp())
				if gotSC != wantSC || (wantSC && gotMust != wantMust.And(b.EmptyCells())) {
					t.Fatalf("SemiAnd %v, %s: Compact SC %v mustplay %v, Builder SC %v mustplay %v\n%s", semiAnd, c,
						gotSC, gotMust.AppendCells(nil), wantSC, wantMust.AppendCells(nil), b.Diagram())
				}
				if wantSC {
					withSC++
				}
			}
		}
	}
	if won == 0 || withSC == 0 {
		t.Fatalf("degenerate sample: %d checked, %d won, %d with SCs", checked, won, withSC)
	}
	t.Logf("%d colour-positions agree (%d with a winning VC, %d with a winning SC only)", checked, won, withSC)
}

// BenchmarkCompact measures one build of both colours on a 7x7 position with a few
// stones.
func BenchmarkCompact(b *testing.B) {
	bd, err := hex.ParsePosition(7, 7, "d4 c5 e3 d3 c4")
	if err != nil {
		b.Fatal(err)
	}
	h := NewCompact()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		h.run(bd, hex.Black)
		h.run(bd, hex.White)
	}
}
