package main

import (
	"strings"
	"testing"
)

// TestDocParser checks the example parser on a small document, including the errors
// that keep the documentation honest.
func TestDocParser(t *testing.T) {
	doc := strings.Split("intro\n```console\n$ hexlearn show --moves \"c3 b2\" --size 5\nout 1  \n\n```\n```text\n$ hexlearn vc --size 5\nnot checked\n```\n```console\n$ hexlearn gtp\nname\n= hexlearn\n\nshowboard\n=\n a\n\nquit\n= \n\n```\n", "\n")
	exs, err := parseDocExamples(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 {
		t.Fatalf("%d examples, want 2", len(exs))
	}
	if got := strings.Join(exs[0].args, "|"); got != "show|--moves|c3 b2|--size|5" {
		t.Errorf("args %q", got)
	}
	if !equalLines(exs[0].want, []string{"out 1"}) || exs[0].input != nil {
		t.Errorf("show example: want %q input %q", exs[0].want, exs[0].input)
	}
	if !equalLines(exs[1].input, []string{"name", "showboard", "quit"}) {
		t.Errorf("gtp input %q", exs[1].input)
	}
	if !equalLines(exs[1].want, []string{"= hexlearn", "", "=", " a", "", "="}) {
		t.Errorf("gtp answers %q", exs[1].want)
	}
	tr, err := transcript(exs[1].input, append(exs[1].want, ""))
	if err != nil || !equalLines(tr, []string{"name", "= hexlearn", "", "showboard", "=", " a", "", "quit", "="}) {
		t.Errorf("transcript %q, %v", tr, err)
	}
	if _, err := transcript([]string{"name", "version"}, []string{"= hexlearn", ""}); err == nil {
		t.Error("a missing answer was not reported")
	}
	for _, bad := range []string{
		"```console\n$ hexlearn selfplay --size 5\n```",    // slow command
		"```console\n$ ls\n```",                            // not hexlearn
		"```console\nstray\n$ hexlearn show\n```",          // text before the command
		"```console\n$ hexlearn show --moves \"c3\n```",    // bad quoting
		"```console\n$ hexlearn gtp\nname\n\n= x\n\n```",   // blank line outside an answer
		"```console\n$ hexlearn show --size 5\n1  . 1\n\n", // unterminated block
	} {
		if _, err := parseDocExamples(strings.Split(bad, "\n")); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
	if w, err := shellWords(`show --moves 'a1 "b2"' --x="y z" plain`); err != nil || strings.Join(w, "|") != `show|--moves|a1 "b2"|--x=y z|plain` {
		t.Errorf("shellWords: %q %v", w, err)
	}
}
