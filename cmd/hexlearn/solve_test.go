package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestSolveCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--size", "4", "--moves", "d1", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var r solveJSON
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatalf("bad JSON %q: %v", out.String(), err)
	}
	if r.Winner != "black" || r.ToMove != "white" {
		t.Fatalf("4x4 d1: got winner %q, to move %q", r.Winner, r.ToMove)
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "3", "--to-move", "white"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "winner: white") || !strings.Contains(out.String(), "winning move:") {
		t.Fatalf("3x3 white to move:\n%s", out.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--openings", "--size", "4"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "black wins with: d1 c2 b3 a4") {
		t.Fatalf("4x4 openings:\n%s", out.String())
	}
	for _, bad := range [][]string{
		{"solve", "--size", "0"},
		{"solve", "--size", "3", "--moves", "z9"},
		{"solve", "--size", "3", "--to-move", "red"},
		{"solve", "--openings", "--moves", "a1"},
		{"solve", "--size", "3", "--moves", "a1", "--split"},
		{"solve", "--size", "3", "--moves", "a1", "--order", "easy"}, {"solve", "--openings", "--size", "3", "--order", "random"},
		{"solve", "--openings", "--size", "3", "--shared"}, {"solve", "extra"},
		{"solve", "--tt-bits", "40"},
	} {
		out.Reset()
		errb.Reset()
		if code := run(bad, &out, &errb); code == 0 {
			t.Errorf("%v: exit 0, want an error", bad)
		}
	}
}

// TestSolveLimitIsUnknown: a node or time limit answers winner "unknown" with exit 0
// (text and JSON), not an error.
func TestSolveLimitIsUnknown(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--size", "7", "--moves", "d4", "--max-nodes", "20", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Winner string `json:"winner"`
		Nodes  int64  `json:"nodes"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Winner != "unknown" || rep.Nodes == 0 {
		t.Fatalf("json %v: %s", err, out.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "7", "--moves", "d4", "--timeout", "50ms"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "winner: unknown") {
		t.Fatalf("timeout: exit %d: %s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "8", "--moves", "a1", "--timeout", "100ms", "--workers", "2", "--tt-bits", "14"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "winner: unknown") {
		t.Fatalf("timeout with 2 workers: exit %d: %s%s", code, out.String(), errb.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--size", "6", "--moves", "c3", "--workers", "2", "--tt-bits", "14"}, &out, &errb); code != 0 ||
		!strings.Contains(out.String(), "winner: black") {
		t.Fatalf("6x6 c3 with 2 workers: exit %d: %s%s", code, out.String(), errb.String())
	}
}

// cancelAfter is a standard error that cancels a context once it has been written n
// lines naming a searched opening (not a rotation): an interruption at a known point.
type cancelAfter struct {
	bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (w *cancelAfter) Write(p []byte) (int, error) {
	if s := string(p); strings.HasPrefix(s, "opening ") && !strings.Contains(s, "rotation") {
		if w.n--; w.n == 0 {
			w.cancel()
		}
	}
	return w.Buffer.Write(p)
}

// TestSolveOpeningsCheckpoint: a run of --openings with --checkpoint interrupted after
// a few openings exits with status 130 and leaves a checkpoint of exactly the openings
// it decided; a rerun with the same file skips them ("from the checkpoint") and prints
// the win map of one uninterrupted run. A checkpoint of another board size is refused.
func TestSolveOpeningsCheckpoint(t *testing.T) {
	for _, tc := range []struct {
		size, stopAfter int
		workers         string
		split           bool
	}{{4, 2, "1", false}, {5, 3, "2", false}, {5, 1, "1", false}, {5, 2, "2", true}} {
		size := strconv.Itoa(tc.size)
		name := size + "x" + size + " stop after " + strconv.Itoa(tc.stopAfter)
		if tc.split {
			name += " split"
		}
		t.Run(name, func(t *testing.T) {
			base := []string{"solve", "--openings", "--size", size, "--tt-bits", "14", "--workers", tc.workers}
			if tc.split {
				base = append(base, "--split")
			}
			var full, errb bytes.Buffer
			if code := run(base, &full, &errb); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			cp := filepath.Join(t.TempDir(), "cp.json")
			args := append(base[:len(base):len(base)], "--checkpoint", cp)
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			stderr := &cancelAfter{n: tc.stopAfter, cancel: cancel}
			var out bytes.Buffer
			if code := runCommand(ctx, args, &out, stderr); code != 130 {
				t.Fatalf("interrupted run: exit %d, want 130: %s", code, stderr.String())
			}
			data, err := os.ReadFile(cp)
			if err != nil {
				t.Fatalf("no checkpoint after the interruption: %v", err)
			}
			var saved openingsJSON
			if err := json.Unmarshal(data, &saved); err != nil {
				t.Fatalf("checkpoint %q: %v", data, err)
			}
			if len(saved.Openings) < tc.stopAfter || saved.Width != tc.size {
				t.Fatalf("checkpoint holds %d openings of %dx%d, want at least %d of %dx%d", len(saved.Openings), saved.Width, saved.Height, tc.stopAfter, tc.size, tc.size)
			}
			out.Reset()
			errb.Reset()
			if code := run(args, &out, &errb); code != 0 {
				t.Fatalf("resumed run: exit %d: %s", code, errb.String())
			}
			if got := strings.Count(errb.String(), "(from the checkpoint)"); got != len(saved.Openings) {
				t.Errorf("resumed run took %d openings from the checkpoint, it holds %d:\n%s", got, len(saved.Openings), errb.String())
			}
			winMap := func(s string) string { // the output up to the time table
				return s[:strings.Index(s, "seconds per opening")]
			}
			if winMap(out.String()) != winMap(full.String()) {
				t.Errorf("resumed win map:\n%s\none run:\n%s", out.String(), full.String())
			}
			if ents, _ := os.ReadDir(filepath.Dir(cp)); len(ents) != 1 {
				t.Errorf("%d files next to the checkpoint, want only it", len(ents))
			}
			// the same checkpoint on another board is refused
			bad := []string{"solve", "--openings", "--size", "3", "--checkpoint", cp}
			if code := run(bad, &out, &errb); code == 0 || !strings.Contains(errb.String(), "bad checkpoint") {
				t.Errorf("a %dx%d checkpoint on 3x3: exit %d: %s", tc.size, tc.size, code, errb.String())
			}
		})
	}
}

// TestSolveOpeningsTimeout: a per-opening limit reports the openings it stops as
// unknown ("?" in the win map, listed, JSON unknown_openings) and the run goes on.
func TestSolveOpeningsTimeout(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"solve", "--openings", "--size", "5", "--max-nodes", "3", "--tt-bits", "14"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "unknown (?, the limit was reached first): e1") || !strings.Contains(out.String(), "openings: 25") {
		t.Errorf("text output:\n%s", out.String())
	}
	if !strings.Contains(errb.String(), "opening e1   unknown") {
		t.Errorf("progress:\n%s", errb.String())
	}
	out.Reset()
	if code := run([]string{"solve", "--openings", "--size", "5", "--max-nodes", "3", "--tt-bits", "14", "--json", "--workers", "2"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep openingsJSON
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Openings) != 25 || len(rep.Unknown) == 0 || len(rep.Unknown)+len(rep.BlackWinning) > 25 {
		t.Errorf("JSON: %d openings, unknown %v, black wins %v", len(rep.Openings), rep.Unknown, rep.BlackWinning)
	}
}
