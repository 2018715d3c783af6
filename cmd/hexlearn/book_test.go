package main

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/book"
)

// TestBookCommand builds a 4x4 book, probes it, plays from it over GTP and checks
// the usage errors.
func TestBookCommand(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "4x4.book")
	var out, errb bytes.Buffer
	args := []string{"book", "build", "--size", "4", "--openings", "a1,b2", "--depth", "2", "--replies", "2",
		"--timeout", "0", "--root-timeout", "0", "--max-nodes", "100000", "--tt-bits", "14", "--workers", "2", "--out", file}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "positions from 2 openings") || !strings.Contains(errb.String(), "a1 ") {
		t.Fatalf("build printed %q and %q", out.String(), errb.String())
	}
	first, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	// the same flags with one worker give the same file
	args[len(args)-3] = "1"
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if again, _ := os.ReadFile(file); !bytes.Equal(first, again) {
		t.Fatalf("one worker wrote\n%s\ntwo wrote\n%s", again, first)
	}
	// a1 loses for Black on 4x4: White's stored answer is probed
	out.Reset()
	if code := run([]string{"book", "probe", "--book", file, "--size", "4", "--moves", "a1"}, &out, &errb); code != 0 {
		t.Fatalf("probe: exit %d: %s", code, errb.String())
	}
	if m := strings.TrimSpace(out.String()); m == "none" || len(m) != 2 {
		t.Fatalf("probe a1: %q", m)
	}
	out.Reset()
	if code := run([]string{"book", "probe", "--book", file, "--size", "4", "--moves", "d4 a1"}, &out, &errb); code != 0 || strings.TrimSpace(out.String()) != "none" {
		t.Fatalf("probe of a position not in the book: %d %q", code, out.String())
	}
	for _, bad := range [][]string{
		{"book"}, {"book", "write"}, {"book", "build"}, {"book", "build", "--out", file, "--size", "0"},
		{"book", "build", "--out", file, "--depth", "0"}, {"book", "build", "--out", file, "--replies", "0"},
		{"book", "build", "--out", file, "--openings", "z9"}, {"book", "build", "--out", file, "--openings", ","},
		{"book", "build", "--out", file, "--timeout", "-1s"}, {"book", "build", "--out", file, "extra"},
		{"book", "build", "--out", file, "--root-max-nodes", "-1"},
		{"book", "probe", "--size", "4", "--moves", "q1"}, {"book", "probe", "--size", "99"},
	} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%q: exit %d, want 2", bad, code)
		}
	}
	for _, bad := range [][]string{
		{"book", "probe", "--book", file, "--size", "5"},                            // a book for another size
		{"book", "probe", "--book", filepath.Join(dir, "none.book"), "--size", "4"}, // no such file
		{"book", "build", "--size", "5", "--in", file, "--out", file},
	} {
		errb.Reset()
		if code := run(bad, &out, &errb); code != 1 || strings.Count(errb.String(), "\n") != 1 {
			t.Errorf("%q: exit %d, message %q", bad, code, errb.String())
		}
	}
}

// TestBuiltinBookRebuild remakes the built-in 5x5 book with the command its first
// line records and finds it byte for byte the file the binary embeds
// (player/books/5x5.book); the built-in 8x8 book records the flags the command takes
// by default, the ones its rebuild (about an hour on two cores) is documented with.
func TestBuiltinBookRebuild(t *testing.T) {
	books := filepath.Join("..", "..", "player", "books")
	want, err := os.ReadFile(filepath.Join(books, "5x5.book"))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "5x5.book")
	var out, errb bytes.Buffer
	if code := run([]string{"book", "build", "--size", "5", "--tt-bits", "16", "--workers", "2", "--out", file}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	got, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		line, _, _ := strings.Cut(string(got), "\n")
		t.Fatalf("the rebuilt 5x5 book (%d bytes, sha256 %x) differs from player/books/5x5.book (%d bytes, sha256 %x); "+
			"remake it with %s", len(got), sha256.Sum256(got), len(want), sha256.Sum256(want), line[2:]+" --out player/books/5x5.book")
	}
	// The first line records the default flags: the test's flags are those defaults.
	if line, _, _ := strings.Cut(string(want), "\n"); line != withTT(book.DefaultRecipe(5), 16).String() {
		t.Errorf("player/books/5x5.book records %q, not the default flags", line)
	}
}

// withTT returns r with the solver table's size changed.
func withTT(r book.Recipe, bits int) book.Recipe {
	r.TTBits = bits
	return r
}
