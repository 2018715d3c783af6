package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/internal/gtpfake"
)

// TestMain lets this test binary stand in for the hexlearn binary: with
// HEXLEARN_TEST_CLI=1 it runs the command line it is given, so commands that start
// hexlearn as a subprocess (match, experiment 7) can be tested end to end; and for a
// scripted GTP engine (internal/gtpfake) when asked.
func TestMain(m *testing.M) {
	gtpfake.Main()
	if os.Getenv("HEXLEARN_TEST_CLI") == "1" {
		if path := os.Getenv("HEXLEARN_TEST_READY"); path != "" {
			signalsCaught = func() { os.WriteFile(path, nil, 0o644) }
		}
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func self(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("HEXLEARN_TEST_CLI", "1")
	return exe
}

func TestHelp(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"help"}, &out, &errb); code != 0 {
		t.Fatalf("help: exit %d", code)
	}
	for _, c := range []string{"gtp", "show", "match", "bench", "demo", "experiment"} {
		if !strings.Contains(out.String(), c) {
			t.Errorf("help does not list %s", c)
		}
	}
	out.Reset()
	if code := run([]string{"help", "match"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "--time-per-move") {
		t.Errorf("help match: exit %d\n%s", code, out.String())
	}
	errb.Reset()
	if code := run([]string{"frobnicate"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "unknown command") {
		t.Errorf("unknown command: exit %d, %s", code, errb.String())
	}
}

func TestMatchOwnEngines(t *testing.T) {
	exe := self(t)
	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := []string{"match", "--a", exe + " gtp --time 0.05", "--name-a", "H", "--b", exe + " gtp --time 0.05 --xh", "--name-b", "XH",
		"--size", "3", "--openings", "1", "--seed", "4", "--sgf", dir}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("match: exit %d\n%s\n%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "over 2 games") {
		t.Fatalf("match output:\n%s", out.String())
	}
	sgfs, _ := filepath.Glob(filepath.Join(dir, "*.sgf"))
	if len(sgfs) != 2 {
		t.Fatalf("%d SGF files, want 2", len(sgfs))
	}
	if code := run([]string{"match", "--a", "x", "--size", "3"}, &out, &errb); code != 2 {
		t.Errorf("match without --b: exit %d", code)
	}
}

func TestExperimentMatches(t *testing.T) {
	self(t)
	const m = "../../model/testdata/tiny.model" // a 3x3 model of package model's tests
	if _, err := os.Stat(m); err != nil {
		t.Fatalf("no test model: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "exp7")
	var out, errb bytes.Buffer
	args := []string{"experiment", "7", "--size", "3", "--model", m, "--time", "0.05", "--openings", "1", "--out", dir}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("experiment 7: exit %d\n%s", code, errb.String())
	}
	md, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| learned | exact | 2 |", "| XH-search | H-search | 2 |"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	if code := run([]string{"experiment", "nope", "--size", "3", "--out", dir}, &out, &errb); code != 2 {
		t.Errorf("unknown experiment: exit %d, want 2 (usage)", code)
	}
}
