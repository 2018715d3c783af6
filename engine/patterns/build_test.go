package patterns

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func TestBridgeFinderTable(t *testing.T) {
	tests := []struct {
		name    string
		diagram string
		c       hex.Color
		want    bool
	}{
		{"two bridges and a bridge to each edge", `
. . . . .
 . . B . .
  . . . . .
   . B . . .
    . . . . .`, hex.Black, true},
		{"one bridge cut by White", `
. . . . .
 . . B . .
  . W . . .
   . B . . .
    . . . . .`, hex.Black, false},
		{"White: reflected chain", `
. . . . .
 . . . W .
  . W . . .
   . . . . .
    . . . . .`, hex.White, true},
		{"finished chain", `
B . .
 B . .
  B . .`, hex.Black, true},
		{"nothing", `
. . .
 . . .
  . . .`, hex.Black, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := mustBoard(t, tc.diagram)
			carrier, ok, err := BridgeFinder{}.WinningCarrier(b, tc.c)
			if err != nil {
				t.Fatal(err)
			}
			if ok != tc.want {
				t.Fatalf("found %v, want %v", ok, tc.want)
			}
			if !ok {
				return
			}
			p, err := FromBoard(b, tc.c, carrier)
			if err != nil {
				t.Fatal(err)
			}
			g := b.Geometry()
			if won, err := Verify(g, p, 20); err != nil || !won {
				t.Fatalf("found connection does not verify (%v):\n%s", err, p.Diagram(g))
			}
		})
	}
}

// TestBuilderFromGames: random games on 5x5 fill a database whose every entry is a
// proved win, and the final positions of the games are decided for their winners.
func TestBuilderFromGames(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	g := hex.MustGeometry(5, 5)
	var lines []string
	for i := 0; i < 30; i++ {
		b := hex.NewBoardGeometry(g)
		var ms []hex.Move
		for _, c := range r.Perm(g.N) {
			m := hex.Move{Color: b.ToMove(), Cell: hex.Cell(c)}
			if err := b.Play(m); err != nil {
				t.Fatal(err)
			}
			ms = append(ms, m)
			if b.Winner() != hex.Empty {
				break
			}
		}
		lines = append(lines, g.FormatMoves(ms))
	}
	games, err := ReadGames(strings.NewReader("# random games\n\n"+strings.Join(lines, "\n")), g)
	if err != nil {
		t.Fatal(err)
	}
	if len(games) != 30 {
		t.Fatalf("read %d games", len(games))
	}
	d, _ := New(5, 5)
	bl := NewBuilder(d, BridgeFinder{}, 16)
	for _, ms := range games {
		if err := bl.AddGame(ms); err != nil {
			t.Fatal(err)
		}
	}
	if bl.Stats.Wins == 0 || d.Len() == 0 || bl.Stats.Rejected != 0 {
		t.Fatalf("stats %+v, %d entries", bl.Stats, d.Len())
	}
	for _, e := range d.Entries() {
		if won, err := Verify(g, e, 20); err != nil || !won {
			t.Fatalf("entry does not verify (%v):\n%s", err, e.Diagram(g))
		}
	}
	for _, ms := range games {
		b := hex.NewBoardGeometry(g)
		b.PlayMoves(ms)
		if got := d.Decided(b); got != b.Winner() {
			t.Errorf("final position won by %v decided as %v", b.Winner(), got)
		}
	}
	t.Logf("stats %+v, %d entries, %d bytes", bl.Stats, d.Len(), d.Bytes())
}

// liar claims a win with a carrier that is not one.
type liar struct{}

func (liar) WinningCarrier(b *hex.Board, c hex.Color) (hex.Bitset, bool, error) {
	if c != hex.Black {
		return hex.Bitset{}, false, nil
	}
	g := b.Geometry()
	var s hex.Bitset
	for y := 0; y < g.H; y++ {
		s.Set(g.At(0, y)) // a bare column: White cuts it with one stone
	}
	return s, true, nil
}

func TestBuilderRejectsUnsoundConnections(t *testing.T) {
	d, _ := New(4, 4)
	bl := NewBuilder(d, liar{}, 16)
	if err := bl.AddPosition(hex.MustBoard(4, 4)); err != nil {
		t.Fatal(err)
	}
	if bl.Stats.Rejected != 1 || d.Len() != 0 {
		t.Errorf("stats %+v, %d entries: the unsound connection was not rejected", bl.Stats, d.Len())
	}
	if err := bl.AddPosition(hex.MustBoard(3, 3)); !errors.Is(err, ErrBadPattern) {
		t.Errorf("position of another size: %v", err)
	}
}

func TestReadGamesErrors(t *testing.T) {
	g := hex.MustGeometry(3, 3)
	if _, err := ReadGames(strings.NewReader("a1 b2\nz9\n"), g); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("bad move: %v, want an error naming line 2", err)
	}
	d, _ := New(3, 3)
	bl := NewBuilder(d, BridgeFinder{}, 0)
	ms, _ := g.ParseMoves("a1 a1")
	if err := bl.AddGame(ms); err == nil {
		t.Error("illegal game accepted")
	}
}

// moveBridges is BridgeFinder that also names a fixed winning move: a stand-in for a
// solver finder.
type moveBridges struct {
	BridgeFinder
	move hex.Cell
}

func (f moveBridges) WinningMove(b *hex.Board) (hex.Cell, bool, error) {
	if b.At(f.move) != hex.Empty {
		return hex.NoCell, false, nil
	}
	return f.move, true, nil
}

// TestBuilderMoveFinder: with a MoveFinder the Builder also stores the position after
// the winning move it names. On 5x5 with Black c2 and White e5, Black b4 makes a bridge
// chain between Black's edges, so after AddPosition of that position the database
// decides the position with b4 for Black, which a plain BridgeFinder does not store.
func TestBuilderMoveFinder(t *testing.T) {
	g := hex.MustGeometry(5, 5)
	start, err := hex.ParsePosition(5, 5, "c2 e5")
	if err != nil {
		t.Fatal(err)
	}
	b4, _ := g.ParseCell("b4")
	after := start.Clone()
	after.PlayStone(hex.Black, b4)
	for _, tc := range []struct {
		f    Finder
		want hex.Color
	}{
		{BridgeFinder{}, hex.Empty},
		{moveBridges{move: b4}, hex.Black},
	} {
		d, err := New(5, 5)
		if err != nil {
			t.Fatal(err)
		}
		bl := NewBuilder(d, tc.f, 12)
		if err := bl.AddPosition(start); err != nil {
			t.Fatal(err)
		}
		if got := d.Decided(after); got != tc.want {
			t.Errorf("%T: after b4 the database says %v, want %v", tc.f, got, tc.want)
		}
	}
}
