package book

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// movesWin reports whether move m wins b for its side to move (the brute-force oracle).
func movesWin(b *hex.Board, m hex.Cell, memo map[uint64]bool) bool {
	b.PlayStone(b.ToMove(), m)
	defer b.Undo()
	return !brute.MoverWins(b, memo)
}

func position(t *testing.T, size int, moves string) *hex.Board {
	t.Helper()
	b, err := hex.ParsePosition(size, size, moves)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBuildOracle builds a 4x4 book from every opening and checks every stored move
// (and every symmetric lookup) wins by brute force.
func TestBuildOracle(t *testing.T) {
	bk, err := New(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	var events int
	bl, err := NewBuilder(bk, BuildConfig{Depth: 3, Replies: 3, Timeout: 10 * time.Second, Solver: solver.DefaultConfig()},
		func(Event) { events++ })
	if err != nil {
		t.Fatal(err)
	}
	g := bk.g
	for p := hex.Cell(0); int(p) < g.N; p++ {
		root := position(t, 4, g.CellName(p))
		if err := bl.AddRoot(context.Background(), root); err != nil {
			t.Fatal(err)
		}
	}
	st := bl.Stats()
	if bk.Len() < 40 || st.Stored != bk.Len() || st.Unknown != 0 || events != st.Solves {
		t.Fatalf("book of %d positions, stats %+v, %d events", bk.Len(), st, events)
	}
	memo := map[uint64]bool{}
	for k, m := range bk.m {
		b := bk.board(k)
		if !movesWin(b, m, memo) {
			t.Fatalf("book move %s does not win:\n%s", g.CellName(m), b.Diagram())
		}
		// every symmetric image of the position finds a winning move too
		for s := 1; s < 4; s++ {
			img := bk.board(bk.image(k, s))
			got, ok := bk.Lookup(img)
			if !ok || !movesWin(img, got, memo) {
				t.Fatalf("image %d of a book position: move %v, found %v\n%s", s, got, ok, img.Diagram())
			}
		}
	}
}

// board returns the position of key k.
func (bk *Book) board(k key) *hex.Board {
	b := hex.NewBoardGeometry(bk.g)
	for p := k.black.First(); p != hex.NoCell; p = k.black.Next(p + 1) {
		b.PlayStone(hex.Black, p)
	}
	for p := k.white.First(); p != hex.NoCell; p = k.white.Next(p + 1) {
		b.PlayStone(hex.White, p)
	}
	b.SetToMove(k.toMove)
	return b
}

func TestLookup(t *testing.T) {
	bk, _ := New(5, 5)
	b := position(t, 5, "c3 b4")
	if err := bk.Add(b, 12); err == nil { // c3 is taken
		t.Fatal("a move on a stone was added")
	}
	d2, _ := bk.g.ParseCell("d2")
	if err := bk.Add(b, d2); err != nil {
		t.Fatal(err)
	}
	if m, ok := bk.Lookup(b); !ok || m != d2 {
		t.Fatalf("lookup %v %v", m, ok)
	}
	rot := position(t, 5, "c3 d2") // b4 rotated by 180°
	if m, ok := bk.Lookup(rot); !ok || bk.g.CellName(m) != "b4" {
		t.Fatalf("rotated lookup %v %v", m, ok)
	}
	if _, ok := bk.Lookup(position(t, 5, "c3 b3")); ok {
		t.Fatal("a position not in the book was found")
	}
	if _, ok := bk.Lookup(position(t, 6, "c3 b4")); ok {
		t.Fatal("a board of another size was found")
	}
	if err := bk.Add(position(t, 6, "c3"), 1); !errors.Is(err, ErrSize) {
		t.Fatalf("another size: %v", err)
	}
	var nilBook *Book
	if _, ok := nilBook.Lookup(b); ok {
		t.Fatal("nil book found a move")
	}
}

func TestFormatRoundTrip(t *testing.T) {
	text := "# comment\nsize 5x5\n\nc3 b4 b d2\n- - b c3\nc3,d4 b4,a5 b e2\nc3 - w b2\n"
	bk, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if bk.Len() != 4 {
		t.Fatalf("%d positions", bk.Len())
	}
	var out bytes.Buffer
	if err := bk.Write(&out); err != nil {
		t.Fatal(err)
	}
	want := "# hexlearn opening book: BLACK WHITE TOMOVE MOVE per line, MOVE wins for TOMOVE\nsize 5x5\n" +
		"- - b c3\nc3 - w b2\nc3 b4 b d2\nc3,d4 b4,a5 b e2\n"
	if out.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", out.String(), want)
	}
	again, err := Read(&out)
	if err != nil || again.Len() != bk.Len() {
		t.Fatalf("read back: %v", err)
	}
}

func TestReadErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"", "no \"size WxH\" line"},
		{"# only\n", "no \"size WxH\" line"},
		{"size 5\n", "line 1: want \"size WxH\""},
		{"size 5x5x\n", "line 1: want \"size WxH\""},
		{"size 0x5\n", "line 1:"},
		{"size 5x5\nc3 - w\n", "line 2: want 4 fields"},
		{"size 5x5\nz9 - w b2\n", "line 2:"},
		{"size 5x5\nc3,c3 - w b2\n", "line 2: cell c3 given twice"},
		{"size 5x5\nc3 c3 w b2\n", "line 2: cell c3 given twice"},
		{"size 5x5\nc3 - b b2\n", "line 2: 1 black and 0 white stones with b to move"},
		{"size 5x5\nc3 - x b2\n", "line 2: side to move \"x\""},
		{"size 5x5\nc3 - w c3\n", "line 2: move c3 is on a stone"},
		{"size 5x5\nc3 - w q7\n", "line 2:"},
		{"size 2x2\na1,a2 b1 w b2\n", "line 2: the game is over"},
	} {
		_, err := Read(strings.NewReader(tc.text))
		if err == nil || !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

func TestBuildConfigErrors(t *testing.T) {
	bk, _ := New(4, 4)
	for _, cfg := range []BuildConfig{{Depth: 0, Replies: 1}, {Depth: 1, Replies: 0}, {Depth: 1, Replies: 1, Timeout: -1}} {
		cfg.Solver = solver.DefaultConfig()
		if _, err := NewBuilder(bk, cfg, nil); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: %v", cfg, err)
		}
	}
	bl, _ := NewBuilder(bk, BuildConfig{Depth: 1, Replies: 1, Solver: solver.DefaultConfig()}, nil)
	if err := bl.AddRoot(context.Background(), position(t, 5, "c3")); !errors.Is(err, ErrSize) {
		t.Errorf("root of another size: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := bl.AddRoot(ctx, position(t, 4, "b2")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func FuzzRead(f *testing.F) {
	f.Add("size 5x5\nc3 b4 b d2\n- - b c3\n")
	f.Add("size 4x4\nb2 - w c2\n")
	f.Fuzz(func(t *testing.T, text string) {
		bk, err := Read(strings.NewReader(text))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := bk.Write(&out); err != nil {
			t.Fatal(err)
		}
		again, err := Read(&out)
		if err != nil || again.Len() != bk.Len() {
			t.Fatalf("round trip: %v", err)
		}
	})
}

// TestBuildUndecidedRoot: a root the node limit leaves undecided is followed one ply
// down; every stored move is checked with an unlimited solve.
func TestBuildUndecidedRoot(t *testing.T) {
	for _, c := range []struct {
		opening  string
		maxNodes int64
	}{{"a2", 30}, {"c3", 30}} {
		bk, _ := New(6, 6)
		scfg := solver.DefaultConfig()
		scfg.MaxNodes = c.maxNodes
		err := BuildRoots(context.Background(), bk, []*hex.Board{position(t, 6, c.opening)}, 1,
			func() BuildConfig { return BuildConfig{Depth: 2, Replies: 2, Solver: scfg} }, func(r RootReport) {
				if r.Unknown == 0 {
					t.Errorf("%s: the root was decided within %d nodes", c.opening, c.maxNodes)
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		if bk.Len() == 0 {
			t.Fatalf("%s: nothing stored", c.opening)
		}
		for k, m := range bk.m {
			b := bk.board(k)
			me := b.ToMove()
			b.PlayStone(me, m)
			if w, err := solver.TrueWinner(context.Background(), b, 0); err != nil || w != me {
				t.Fatalf("%s: stored move %s: winner %v (%v)\n%s", c.opening, bk.g.CellName(m), w, err, b.Diagram())
			}
		}
	}
}

// TestBuildRootMaxNodes: RootMaxNodes bounds the root's solve instead of the
// solver's MaxNodes, which still bounds every solve below it; a negative one is a
// configuration error.
func TestBuildRootMaxNodes(t *testing.T) {
	for _, c := range []struct {
		root    int64
		decided bool
	}{{0, false}, {30, false}, {1_000_000, true}} {
		bk, _ := New(6, 6)
		scfg := solver.DefaultConfig()
		scfg.MaxNodes = 30
		var events []Event
		bl, err := NewBuilder(bk, BuildConfig{Depth: 2, Replies: 2, RootMaxNodes: c.root, Solver: scfg},
			func(e Event) { events = append(events, e) })
		if err != nil {
			t.Fatal(err)
		}
		if err := bl.AddRoot(context.Background(), position(t, 6, "a2")); err != nil {
			t.Fatal(err)
		}
		if len(events) < 2 {
			t.Fatalf("root limit %d: %d solves", c.root, len(events))
		}
		if root := events[0]; (root.Winner != hex.Empty) != c.decided || (c.decided && root.Nodes <= 30) {
			t.Errorf("root limit %d: root winner %v after %d nodes, want decided %v", c.root, root.Winner, root.Nodes, c.decided)
		}
		for _, e := range events[1:] {
			if e.Nodes > 31 {
				t.Errorf("root limit %d: a solve below the root took %d nodes (limit 30)", c.root, e.Nodes)
			}
		}
		if st := bl.Stats(); st.Solves != len(events) || st.Nodes < events[0].Nodes {
			t.Errorf("root limit %d: stats %+v after %d solves", c.root, st, len(events))
		}
	}
	bk, _ := New(4, 4)
	if _, err := NewBuilder(bk, BuildConfig{Depth: 1, Replies: 1, RootMaxNodes: -1, Solver: solver.DefaultConfig()}, nil); !errors.Is(err, ErrConfig) {
		t.Errorf("negative root limit: %v", err)
	}
}

// TestBuildRootsWorkers: two workers give the same book as one, and a cancelled
// build stores nothing.
func TestBuildRootsWorkers(t *testing.T) {
	var roots []*hex.Board
	for _, o := range []string{"a1", "b2", "c2", "d1"} {
		roots = append(roots, position(t, 4, o))
	}
	mk := func() BuildConfig { return BuildConfig{Depth: 3, Replies: 2, Solver: solver.DefaultConfig()} }
	var files [2]bytes.Buffer
	for w := 1; w <= 2; w++ {
		bk, _ := New(4, 4)
		if err := BuildRoots(context.Background(), bk, roots, w, mk, nil); err != nil {
			t.Fatal(err)
		}
		bk.Write(&files[w-1])
	}
	if files[0].String() != files[1].String() {
		t.Fatalf("one worker:\n%s\ntwo workers:\n%s", files[0].String(), files[1].String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	bk, _ := New(4, 4)
	if err := BuildRoots(ctx, bk, roots, 2, mk, nil); !errors.Is(err, context.Canceled) || bk.Len() != 0 {
		t.Fatalf("cancelled: %v, %d positions", err, bk.Len())
	}
	if err := BuildRoots(context.Background(), bk, roots, 0, mk, nil); !errors.Is(err, ErrConfig) {
		t.Fatalf("no workers: %v", err)
	}
}

// TestRecipeRoots: "all" is every opening up to the 180° rotation, a list keeps its
// order, and a bad list names what is wrong.
func TestRecipeRoots(t *testing.T) {
	for _, tc := range []struct {
		n        int
		openings string
		want     int
		first    string
	}{{8, "all", 32, "a1"}, {5, "all", 13, "a1"}, {8, "d5, a1 h8", 3, "d5"}} {
		r := DefaultRecipe(tc.n)
		r.Openings = tc.openings
		roots, names, err := r.Roots()
		if err != nil || len(roots) != tc.want || len(names) != tc.want || names[0] != tc.first {
			t.Errorf("%dx%d %q: %d roots %v, %v; want %d from %s", tc.n, tc.n, tc.openings, len(roots), names, err, tc.want, tc.first)
		}
		if tc.openings == "all" { // the roots and their rotations cover the board
			g := hex.MustGeometry(tc.n, tc.n)
			var cover hex.Bitset
			for _, name := range names {
				p, _ := g.ParseCell(name)
				cover.Set(p)
				cover.Set(g.Rotate180(p))
			}
			if cover.Count() != g.N {
				t.Errorf("%dx%d: the roots and their rotations cover %d cells of %d", tc.n, tc.n, cover.Count(), g.N)
			}
		}
	}
	for _, bad := range []string{"", "z9", "a1 a1b2", ","} {
		r := DefaultRecipe(8)
		r.Openings = bad
		if _, _, err := r.Roots(); !errors.Is(err, ErrOpenings) {
			t.Errorf("%q: %v, want ErrOpenings", bad, err)
		}
	}
	if got, want := DefaultRecipe(5).String(), "# hexlearn book build --size 5 --openings all --depth 5 --replies 3 --max-nodes 30000 --root-max-nodes 1500000 --timeout 0s --root-timeout 0s --tt-bits 22"; got != want {
		t.Errorf("recipe line %q, want %q", got, want)
	}
	if c := DefaultRecipe(8).BuildConfig(); c.Solver.MaxNodes != 30_000 || c.RootMaxNodes != 1_500_000 || c.Timeout != 0 {
		t.Errorf("build configuration %+v", c)
	}
}
