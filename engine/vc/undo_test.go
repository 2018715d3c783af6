package vc

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// builderState describes everything observable of a Builder and the internal state a
// later Play reads: every connection in query order with its processed flag, the
// points, the winning answers, Truncated and the unprocessed work queue.
func builderState(bl *Builder) string {
	var sb strings.Builder
	write := func(kind string) func(x, y hex.Cell, c *Conn) bool {
		return func(x, y hex.Cell, c *Conn) bool {
			fmt.Fprintf(&sb, "%s %d %d %x %x %d %v %v %v %d\n", kind, x, y, [6]uint64(c.Carrier), [6]uint64(c.Stones), c.Key, c.Rule, c.done, c.ored, c.size)
			return true
		}
	}
	bl.EachFull(write("F"))
	bl.EachSemi(write("S"))
	won, car := bl.WinningVC()
	must, thr := bl.Mustplay()
	fmt.Fprintf(&sb, "points %v chain %v edges %d %d won %v %v %x must %x %v trunc %v conn %v queue %v or-queue %v cross %d\n",
		bl.pt, bl.chain, bl.edgeA, bl.edgeB, bl.won, won, car, must, thr, bl.Truncated(), bl.connected, bl.queue[bl.qhead:], bl.orQueue[bl.orHead:], len(bl.cross))
	for i := 0; i < bl.np; i++ {
		fmt.Fprintf(&sb, "%x %x;", bl.nbrFull[i], bl.nbrSemi[i])
	}
	for s, idx := range bl.touched {
		fmt.Fprintf(&sb, "%d:%d %x %x;", s, idx, bl.doneAnd[0][idx], bl.doneAnd[1][idx])
	}
	return sb.String()
}

// TestPlayUndoRestores plays random games on 3x3 to 8x8 boards with several
// configurations. At every position of a game the Builder tries one side move with
// PlayUndoable and takes it back with Undo (sometimes two nested moves); its state must
// equal the state before, and a twin Builder that never undoes must stay equal to it
// along the game (so Undo restored everything the next Play reads).
func TestPlayUndoRestores(t *testing.T) {
	configs := map[string]Config{
		"default":   DefaultConfig(),
		"xh":        XHConfig(),
		"stopatwin": func() Config { c := DefaultConfig(); c.StopAtWin = true; return c }(),
		"tiny":      {MaxFull: 2, MaxSemi: 3, MaxOr: 2, SemiAnd: true},
		"edges":     func() Config { c := DefaultConfig(); c.AndOverEdge = true; return c }(),
		"templates": func() Config { c := DefaultConfig(); c.EdgeTemplates = true; return c }(),
		"fastvc":    FastVCConfig(),
	}
	games := 6
	if testing.Short() {
		games = 4
	}
	rng := rand.New(rand.NewSource(7))
	undone := 0
	for name, cfg := range configs {
		for gi := 0; gi < games; gi++ {
			n := 3 + rng.Intn(5)
			c := hex.Black
			if rng.Intn(2) == 1 {
				c = hex.White
			}
			board := hex.MustBoard(n, n)
			bl, twin := NewBuilder(cfg), NewBuilder(cfg)
			if err := bl.Build(board, c); err != nil {
				t.Fatal(err)
			}
			if err := twin.Build(board, c); err != nil {
				t.Fatal(err)
			}
			moves := rng.Perm(n * n)
			for mi, m := range moves {
				if board.Winner() != hex.Empty {
					break
				}
				before := builderState(bl)
				// one or two nested side moves, taken back
				depth := 1 + rng.Intn(2)
				played, base := 0, bl.UndoDepth()
				for d := 0; d < depth && mi+1+d < len(moves); d++ {
					side := hex.Cell(moves[mi+1+d])
					board.PlayStone(board.ToMove(), side)
					if err := bl.PlayUndoable(board, side); err != nil {
						t.Fatalf("%s: PlayUndoable: %v", name, err)
					}
					played++
				}
				if bl.UndoDepth() != base+played {
					t.Fatalf("%s: undo depth %d, want %d", name, bl.UndoDepth(), base+played)
				}
				for ; played > 0; played-- {
					board.Undo()
					if err := bl.Undo(); err != nil {
						t.Fatal(err)
					}
					undone++
				}
				if after := builderState(bl); after != before {
					t.Fatalf("%s %dx%d %v move %d: state after Play and Undo differs\n%s", name, n, n, c, mi, board.Diagram())
				}
				// the main line
				board.PlayStone(board.ToMove(), hex.Cell(m))
				if err := bl.PlayUndoable(board, hex.Cell(m)); err != nil {
					t.Fatal(err)
				}
				if err := twin.Play(board, hex.Cell(m)); err != nil {
					t.Fatal(err)
				}
				if builderState(bl) != builderState(twin) {
					t.Fatalf("%s %dx%d %v move %d: Builder after Undo and Play differs from one that never undid\n%s", name, n, n, c, mi, board.Diagram())
				}
			}
			// take the whole game back, one move at a time, to the empty board
			for bl.UndoDepth() > 0 {
				if err := bl.Undo(); err != nil {
					t.Fatal(err)
				}
			}
			fresh := NewBuilder(cfg)
			if err := fresh.Build(hex.MustBoard(n, n), c); err != nil {
				t.Fatal(err)
			}
			if builderState(bl) != builderState(fresh) {
				t.Fatalf("%s %dx%d %v: the game undone differs from a build of the empty board", name, n, n, c)
			}
		}
	}
	if err := NewBuilder(DefaultConfig()).Undo(); !errors.Is(err, ErrUndo) {
		t.Fatalf("Undo with nothing saved: %v, want ErrUndo", err)
	}
	t.Logf("%d moves played and undone", undone)
}

// TestPlayUndoableErrorSavesNothing checks that a refused PlayUndoable leaves the undo
// stack and the connections as they were, and that Build empties the stack.
func TestPlayUndoableErrorSavesNothing(t *testing.T) {
	board := hex.MustBoard(5, 5)
	bl := NewBuilder(DefaultConfig())
	if err := bl.Build(board, hex.Black); err != nil {
		t.Fatal(err)
	}
	before := builderState(bl)
	if err := bl.PlayUndoable(board, 3); !errors.Is(err, ErrPlay) { // cell 3 is still empty
		t.Fatalf("PlayUndoable on an unchanged board: %v, want ErrPlay", err)
	}
	if bl.UndoDepth() != 0 || builderState(bl) != before {
		t.Fatal("a refused PlayUndoable changed the Builder")
	}
	board.PlayStone(hex.Black, 3)
	if err := bl.PlayUndoable(board, 3); err != nil {
		t.Fatal(err)
	}
	if err := bl.Build(board, hex.Black); err != nil {
		t.Fatal(err)
	}
	if bl.UndoDepth() != 0 {
		t.Fatalf("Build left %d saved states", bl.UndoDepth())
	}
}
