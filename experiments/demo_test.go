package experiments

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/internal/gtpfake"
	"github.com/hexlearn/hexlearn/internal/report"
)

// TestMain turns the test binary into a fake GTP engine (internal/gtpfake) when asked.
func TestMain(m *testing.M) {
	gtpfake.Main()
	os.Exit(m.Run())
}

// fakeBinary writes a script that stands in for the hexlearn binary: whatever its
// arguments, it starts this test binary as a fake GTP engine that plays the first
// empty cell.
func fakeBinary(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hexlearn")
	script := fmt.Sprintf("#!/bin/sh\nexec env %s=first %q\n", gtpfake.EnvVar, os.Args[0])
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDemoBuiltinMatch runs the demo's last stage with a fake engine standing in for
// the binary: the built-in players' command lines start it, every planned game is
// played, and the index and the log give the same score as the ladder's report.
func TestDemoBuiltinMatch(t *testing.T) {
	dir := t.TempDir()
	idx, err := report.New(dir, "demo")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	cfg := DemoConfig{Self: fakeBinary(t), BuiltinSize: 3, BuiltinTime: 10 * time.Millisecond, BuiltinOpenings: 2,
		Seed: 1, Log: &log}
	stage := func(string) func() float64 { return func() float64 { return 0 } }
	if err := demoBuiltinMatch(context.Background(), cfg, dir, idx, stage); err != nil {
		t.Fatal(err)
	}
	if err := idx.Close(); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	score := regexp.MustCompile(`learned (\d+) - (\d+) exact`)
	for _, text := range []string{string(index), log.String()} {
		m := score.FindStringSubmatch(text)
		if m == nil {
			t.Fatalf("no score in %q", text)
		}
		a, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if a+b != 4 {
			t.Errorf("score %s - %s, want 4 games in all", m[1], m[2])
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "builtin-match", "README.md")); err != nil {
		t.Errorf("the ladder's report is missing: %v", err)
	}
	if !bytes.Contains(index, []byte("builtin-match/README.md")) {
		t.Errorf("the index does not link the match report:\n%s", index)
	}
}

// TestDemoBuiltinMatchInterrupted: a cancelled context stops the stage with an error.
func TestDemoBuiltinMatchInterrupted(t *testing.T) {
	dir := t.TempDir()
	idx, err := report.New(dir, "demo")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := DemoConfig{Self: fakeBinary(t), BuiltinSize: 3, BuiltinTime: 10 * time.Millisecond, BuiltinOpenings: 2}
	stage := func(string) func() float64 { return func() float64 { return 0 } }
	if err := demoBuiltinMatch(ctx, cfg, dir, idx, stage); err == nil {
		t.Fatal("a cancelled demo stage returned no error")
	}
}

// TestDemoLinks runs the whole demo on a tiny budget (no matches) and follows every
// link of its README: each names a file the demo wrote and that is not empty, or the
// corpus directory; the cross-validation section links the sweep's report page.
func TestDemoLinks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole demo (a few seconds)")
	}
	dir := t.TempDir()
	cfg := DemoConfig{Size: 4, Positions: 300, Depth: 2, K: 4, Folds: 2, Hidden: []int{2, 3}, Epochs: 3, Seed: 1,
		Workers: 1, Opening: 2, Search: 2}
	if err := Demo(context.Background(), cfg, dir); err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`\]\(([^)]*)\)`)
	links := link.FindAllStringSubmatch(string(index), -1)
	if len(links) < 8 {
		t.Fatalf("%d links in\n%s", len(links), index)
	}
	for _, l := range links {
		target := l[1]
		st, err := os.Stat(filepath.Join(dir, filepath.FromSlash(target)))
		switch {
		case err != nil:
			t.Errorf("link %q: %v", target, err)
		case st.IsDir() && target != "data/":
			t.Errorf("link %q names a directory, not a page", target)
		case !st.IsDir() && st.Size() == 0:
			t.Errorf("link %q names an empty file", target)
		}
	}
	_, sweep, _ := strings.Cut(string(index), "## 2.")
	sweep, _, _ = strings.Cut(sweep, "## 3.")
	if !regexp.MustCompile(`Report: \[[^\]]+\]\(cv/[^)]+\.md\)`).MatchString(sweep) {
		t.Errorf("the cross-validation section links no report page:\n%s", sweep)
	}
}
