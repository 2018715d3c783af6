package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/player"
)

// testPlayer is the exact player at depth 1 (k 4, no time limit).
func testPlayer(t *testing.T) *player.Player {
	t.Helper()
	var s player.Settings
	for _, kv := range [][2]string{{"player", "exact"}, {"depth", "1"}, {"k", "4"}, {"time", "0"}} {
		if err := s.Set(kv[0], kv[1]); err != nil {
			t.Fatal(err)
		}
	}
	p, err := player.New(s, player.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlayPiped(t *testing.T) {
	b := hex.MustBoard(3, 3)
	var out bytes.Buffer
	in := strings.NewReader("zz\nb2\nundo\nb2\nquit\n")
	if err := playGame(context.Background(), b, hex.Black, testPlayer(t), false, in, &out); err != nil {
		t.Fatal(err)
	}
	o := out.String()
	for _, want := range []string{"bad cell", "engine plays", "bye"} {
		if !strings.Contains(o, want) {
			t.Errorf("output lacks %q:\n%s", want, o)
		}
	}
	if b.Ply() != 2 {
		t.Errorf("after b2, undo, b2 the game has %d moves, want 2:\n%s", b.Ply(), o)
	}
}

func TestPlayToTheEnd(t *testing.T) {
	// The engine plays Black on 3x3 and must win whatever the human does.
	b := hex.MustBoard(3, 3)
	var out bytes.Buffer
	in := strings.NewReader("a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n")
	if err := playGame(context.Background(), b, hex.White, testPlayer(t), false, in, &out); err != nil {
		t.Fatal(err)
	}
	if b.Winner() != hex.Black || !strings.Contains(out.String(), "The engine wins.") {
		t.Fatalf("winner %v:\n%s", b.Winner(), out.String())
	}
}

func TestPlayEOF(t *testing.T) {
	b := hex.MustBoard(4, 4)
	var out bytes.Buffer
	if err := playGame(context.Background(), b, hex.Black, testPlayer(t), false, strings.NewReader(""), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "abandoned") {
		t.Fatalf("output:\n%s", out.String())
	}
}

func TestPlayFlags(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"play", "--color", "green"}, &out, &errb); code != 2 {
		t.Errorf("bad colour: exit %d, %s", code, errb.String())
	}
	if code := run([]string{"play", "--depth", "0"}, &out, &errb); code != 2 {
		t.Errorf("bad depth: exit %d, %s", code, errb.String())
	}
}
