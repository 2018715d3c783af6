package gtp

import (
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/search"
)

// testBooks is a Player.Book with one 4x4 position, b2 with White to move, answered
// by a deliberately poor a4 (no search would choose it); other sizes have no book.
func testBooks(t *testing.T) func(w, h int) *book.Book {
	t.Helper()
	bk, err := book.Read(strings.NewReader("size 4x4\nb2 - w a4\n"))
	if err != nil {
		t.Fatal(err)
	}
	return func(w, h int) *book.Book {
		if w == 4 && h == 4 {
			return bk
		}
		return nil
	}
}

// TestPlayerBook: a position in the opening book is answered with the book's move
// (here a deliberately poor one, so that no search would choose it), for both
// players and under the book's symmetries; positions and sizes the book does not
// hold are searched.
func TestPlayerBook(t *testing.T) {
	books := testBooks(t)
	for _, p := range []Player{
		{Book: books, Params: search.Params{Depth: 1}},
		{Book: books, Learned: learnedOn3x3, Params: search.Params{Depth: 1}},
	} {
		for _, c := range []struct{ setup, want string }{
			{"play b b2", "a4"}, // as stored
			{"play b c3", "d1"}, // the 180° rotation
		} {
			e := New()
			e.SetPlayer(p)
			for _, cmd := range []string{"boardsize 4", c.setup} {
				if ok, ans := exec(t, e, cmd); !ok {
					t.Fatalf("%s: %s", cmd, ans)
				}
			}
			if ok, ans := exec(t, e, "genmove w"); !ok || ans != c.want {
				t.Errorf("%s, %s: genmove w = %v %q, want %s", p.Describe(), c.setup, ok, ans, c.want)
			}
		}
	}
	// the reflection with the colours exchanged: White's b2 (transposed: b2) with
	// Black to move is the stored position with the roles exchanged
	e := New()
	e.SetPlayer(Player{Book: books, Params: search.Params{Depth: 1}})
	for _, cmd := range []string{"boardsize 4", "play w b2"} {
		exec(t, e, cmd)
	}
	if ok, ans := exec(t, e, "genmove b"); !ok || ans != "d1" {
		t.Errorf("reflected: genmove b = %v %q, want d1", ok, ans)
	}
	if d := (Player{Book: books}).Describe(); d != "exact (H-search + circuit) + book" {
		t.Errorf("describe %q", d)
	}
}

// TestLastSearch: LastSearch reports the counters of the search behind the last
// genmove (alpha-beta and MCTS) and nothing when the move came from the book, before
// any genmove and after a board size change.
func TestLastSearch(t *testing.T) {
	books := testBooks(t)
	mp := search.DefaultMCTSParams()
	mp.MaxExpansions = 40
	anySize := func(w, h int) (search.Evaluator, error) { return tinyOrdered{}, nil }
	for _, p := range []Player{
		{Book: books, Params: search.Params{Depth: 2}},
		{Book: books, Learned: anySize, Params: search.Params{Depth: 2}},
		{Book: books, Learned: anySize, MCTS: true, MCTSParams: mp, Params: search.Params{Depth: 2, VCPlies: 2}},
	} {
		e := New()
		e.SetPlayer(p)
		exec(t, e, "boardsize 6")
		if _, ok := e.LastSearch(); ok {
			t.Fatalf("%s: a search reported before any genmove", p.Describe())
		}
		exec(t, e, "play b a1")
		if ok, ans := exec(t, e, "genmove w"); !ok {
			t.Fatalf("genmove: %s", ans)
		}
		st, ok := e.LastSearch()
		if !ok || st.Nodes < 2 || st.Depth < 1 {
			t.Fatalf("%s: after a searched genmove LastSearch = %+v, %v", p.Describe(), st, ok)
		}
		if p.MCTS && st.Tactics == 0 {
			t.Errorf("MCTS: no H-search calls counted (%+v)", st)
		}
		exec(t, e, "boardsize 4")
		if _, ok := e.LastSearch(); ok {
			t.Errorf("%s: a search reported after a size change", p.Describe())
		}
		exec(t, e, "play b a1", "genmove w")
		if _, ok := e.LastSearch(); !ok {
			t.Fatalf("%s: 4x4 genmove without a search", p.Describe())
		}
		exec(t, e, "clear_board", "play b b2")
		if ok, ans := exec(t, e, "genmove w"); !ok || ans != "a4" {
			t.Fatalf("%s: book move %v %q", p.Describe(), ok, ans)
		}
		if st, ok := e.LastSearch(); ok {
			t.Errorf("%s: the book's move reported a search %+v", p.Describe(), st)
		}
	}
}
