package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoopCommand: a tiny loop through the command line writes its state, report
// and first candidate; run again it resumes (and does nothing new); bad flags are
// one-line usage errors.
func TestLoopCommand(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "loop")
	args := []string{"loop", "--dir", dir, "--size", "5", "--games", "4", "--shards", "2", "--expansions", "10",
		"--hidden", "4", "--epochs", "2", "--gate-time", "0.01", "--gate-games", "2", "--gate-min-games", "2",
		"--generations", "1", "--max-iterations", "1", "--workers", "1"}
	for run := 0; run < 2; run++ {
		var out, errb bytes.Buffer
		if code := run1(args, &out, &errb); code != 0 {
			t.Fatalf("run %d: exit %d\n%s%s", run, code, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), "report "+dir+"/report/README.md") {
			t.Fatalf("run %d: %s", run, out.String())
		}
	}
	for _, f := range []string{"loop.json", "gen-000.model", "iter-000/candidate.model", "report/README.md", "iter-000/selfplay/shard-001.done"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var out, errb bytes.Buffer
	if code := run1([]string{"loop", "report", "--dir", dir}, &out, &errb); code != 0 {
		t.Errorf("report: exit %d %s", code, errb.String())
	}
	if code := run1(append(args, "--games", "6"), &out, &errb); code != 2 || !strings.Contains(errb.String(), "another configuration") {
		t.Errorf("another configuration: exit %d %s", code, errb.String())
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"loop", "--size", "5"}, "--dir is required"},
		{[]string{"loop", "--dir", dir, "--size", "1"}, "--size 1"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--gate-games", "4", "--gate-min-games", "6"}, "--gate-min-games 6"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--search-mix", "0"}, "--search-mix"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--gate-expansions", "-1"}, "--gate-expansions -1"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--gate-expansions", "50", "--gate-time", "0.1"}, "give one of them"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--set", "depth"}, "--set"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--set", "depth=0"}, "--depth"},
		{[]string{"loop", "--dir", dir, "--size", "5", "--features", "moves"}, "--features"},
		{[]string{"loop", "shard", "--dir", dir}, "--iteration"},
		{[]string{"loop", "shard", "--dir", dir, "--iteration", "7", "--shard", "0"}, "iteration 7"},
	} {
		var out, errb bytes.Buffer
		if code := run1(tc.args, &out, &errb); code != 2 || !strings.Contains(errb.String(), tc.want) || strings.Count(errb.String(), "\n") > 2 {
			t.Errorf("%q: exit %d, %q; want 2 and %q", tc.args, code, errb.String(), tc.want)
		}
	}
}

// run1 runs the command line as main does.
func run1(args []string, stdout, stderr *bytes.Buffer) int { return run(args, stdout, stderr) }
