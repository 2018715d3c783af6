package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestBenchMarkdown: --markdown prints the tables of docs/results.md, each row with
// the command that measures it again; --json and --markdown together are a usage
// error.
func TestBenchMarkdown(t *testing.T) {
	var o, e bytes.Buffer
	if code := run([]string{"bench", "circuit", "--markdown", "--size", "3", "--positions", "1", "--time", "0.01"}, &o, &e); code != 0 {
		t.Fatalf("exit %d\n%s", code, e.String())
	}
	for _, want := range []string{
		"`hexlearn bench circuit --markdown --size 3 --time 0.01 --positions 1 --seed 1`.",
		"| board | item | per op | median | p90 | vs baseline | note | command |",
		"| 3x3 | circuit solve",
	} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, o.String())
		}
	}
	o.Reset()
	e.Reset()
	if code := run([]string{"bench", "--json", "--markdown"}, &o, &e); code != 2 || !strings.Contains(e.String(), "--json and --markdown") {
		t.Errorf("--json --markdown: exit %d, %q", code, e.String())
	}
}
