package gtp

import (
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/search"
)

// TestPlayerBook: a position in the opening book is answered with the book's move
// (here a deliberately poor one, so that no search would choose it), for both
// players and under the book's symmetries; positions and sizes the book does not
// hold are searched.
func TestPlayerBook(t *testing.T) {
	bk, err := book.Read(strings.NewReader("size 4x4\nb2 - w a4\n"))
	if err != nil {
		t.Fatal(err)
	}
	books := func(w, h int) *book.Book {
		if w == 4 && h == 4 {
			return bk
		}
		return nil
	}
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
