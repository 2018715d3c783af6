package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestSolveProgress: --progress prints one line per decided root move to standard
// error, in the documented shape; on 6x6 b2 (a Black win, White to move) every line
// is a refutation and no move comes twice. With --openings it is a usage error.
func TestSolveProgress(t *testing.T) {
	line := regexp.MustCompile(`^root move ([a-f][1-6]) +(refuted|wins) +nodes \d+ +\d+\.\ds$`)
	for _, workers := range []string{"1", "2"} {
		var out, errb bytes.Buffer
		if code := run([]string{"solve", "--size", "6", "--moves", "b2", "--progress", "--workers", workers}, &out, &errb); code != 0 {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		if !strings.Contains(out.String(), "winner: black") {
			t.Fatalf("6x6 b2:\n%s", out.String())
		}
		seen := map[string]bool{}
		lines := strings.Split(strings.TrimSpace(errb.String()), "\n")
		for _, l := range lines {
			m := line.FindStringSubmatch(l)
			if m == nil || m[2] != "refuted" || seen[m[1]] {
				t.Fatalf("workers %s: bad progress line %q in\n%s", workers, l, errb.String())
			}
			seen[m[1]] = true
		}
		if len(seen) == 0 {
			t.Fatalf("workers %s: no progress lines", workers)
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--openings", "--size", "3", "--progress"}, &out, &errb); code != 2 || !strings.Contains(errb.String(), "--progress goes with --moves") {
		t.Fatalf("--openings --progress: exit %d, %q", code, errb.String())
	}
}
