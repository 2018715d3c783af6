package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestSIGTERMStopsPromptly starts long commands as a separate process, sends SIGTERM
// after a second and checks that each exits within a second with status 130, keeping
// only complete files.
func TestSIGTERMStopsPromptly(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and waits for them")
	}
	exe := self(t)
	hard := hardLabelInput(t)
	cases := []struct {
		name string
		args []string
		out  string // a directory whose files must all be complete datasets ("" for none)
		in   string // standard input (kept open)
	}{
		{"selfplay with labelling", []string{"selfplay", "--size", "7", "--games", "50", "--workers", "1", "--label-nodes", "1000000", "--out", "OUT"}, "OUT", ""},
		{"solve", []string{"solve", "--size", "9"}, "", ""},
		{"solve with the root split", []string{"solve", "--size", "8", "--moves", "a1", "--workers", "2", "--tt-bits", "16"}, "", ""},
		{"solve with a table file", []string{"solve", "--size", "8", "--moves", "a1", "--workers", "2", "--tt-bits", "16", "--table", "OUT/t.tab"}, "OUT", ""},
		{"solve openings with a checkpoint", []string{"solve", "--openings", "--size", "7", "--workers", "2", "--tt-bits", "16", "--checkpoint", "OUT/cp.json"}, "OUT", ""},
		{"label", []string{"label", "--max-nodes", "1000000", "--workers", "2", "--out", "OUT/l.arrow", hard}, "OUT", ""},
		{"demo", []string{"demo", "--out", "OUT", "--workers", "1"}, "OUT", ""},
		{"match", []string{"match", "--a", exe + " gtp --time 5", "--b", exe + " gtp --time 5", "--size", "9", "--sgf", "OUT"}, "OUT", ""},
		{"train", []string{"train", "--data", goldenData, "--size", "3", "--hidden", "50", "--epochs", "1000000", "--holdout", "0", "--out", "OUT/m.model"}, "OUT", ""},
		{"cv", []string{"cv", "--data", goldenData, "--size", "3", "--folds", "2", "--hidden", "50", "--epochs", "1000000", "--report", "OUT"}, "OUT", ""},
		{"gtp solving", []string{"gtp"}, "", "dfs-solve-state black\n"},
		{"gtp genmove", []string{"gtp", "--time", "30", "--depth", "32"}, "", "genmove b\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			args := make([]string, len(tc.args))
			precreated := false
			for i, a := range tc.args {
				if strings.HasPrefix(a, "OUT/") { // a file in an existing directory
					precreated = true
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
				}
				a = strings.ReplaceAll(a, "OUT", dir)
				args[i] = a
			}
			ready := filepath.Join(t.TempDir(), "ready")
			cmd := exec.Command(exe, args...)
			cmd.Env = append(os.Environ(), "HEXLEARN_TEST_CLI=1", "HEXLEARN_TEST_READY="+ready)
			if tc.in != "" {
				r, w, err := os.Pipe()
				if err != nil {
					t.Fatal(err)
				}
				defer w.Close()
				defer r.Close()
				cmd.Stdin = r
				if _, err := w.WriteString(tc.in); err != nil {
					t.Fatal(err)
				}
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			// The command catches the signals once it has started (the test binary's
			// start takes seconds on a loaded machine); then it works for a second.
			for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(ready); err == nil {
					break
				}
				select {
				case err := <-done:
					t.Fatalf("ended before it caught the signals: %v", err)
				default:
				}
				if time.Since(start) > 60*time.Second {
					cmd.Process.Kill()
					t.Fatal("the command did not start within 60 s")
				}
			}
			select {
			case err := <-done:
				t.Fatalf("ended before the signal: %v", err)
			case <-time.After(time.Second):
			}
			sent := time.Now()
			if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
			case <-time.After(5 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 5 s after SIGTERM")
			}
			if el := time.Since(sent); el > time.Second {
				t.Errorf("stopped %v after SIGTERM, want < 1 s", el)
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 130 {
				t.Errorf("exit: %v, want status 130", err)
			}
			if tc.out == "" {
				return
			}
			if strings.Contains(tc.name, "table file") {
				if _, err := os.Stat(filepath.Join(dir, "t.tab")); err != nil {
					t.Errorf("the table was not kept: %v", err)
				}
			}
			// Whatever is left is complete: datasets read back, no temporary files,
			// no empty directories.
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				switch {
				case err != nil:
					if !errors.Is(err, os.ErrNotExist) {
						t.Error(err)
					}
				case d.IsDir():
					if ents, _ := os.ReadDir(p); len(ents) == 0 && !(precreated && p == dir) {
						t.Errorf("empty directory %s left behind", p)
					}
				case filepath.Ext(p) == dataset.FileExt:
					if _, err := dataset.ReadPath(p, nil); err != nil {
						t.Errorf("incomplete file %s: %v", filepath.Base(p), err)
					}
				case filepath.Ext(p) == ".tab":
					f, err := os.Open(p)
					if err != nil {
						t.Fatal(err)
					}
					defer f.Close()
					if tab, _, err := solver.ReadTable(f, 17, solver.DefaultConfig()); err != nil || tab.Solved()+tab.Open() == 0 {
						t.Errorf("table file %s: %v (nothing kept)", filepath.Base(p), err)
					}
				case strings.Contains(filepath.Base(p), ".tmp"):
					t.Errorf("temporary file %s left behind", p)
				}
				return nil
			})
		})
	}
}

// hardLabelInput writes a dataset of three 9x9 positions of two stones (no solver
// decides them in a second) and returns its path.
func hardLabelInput(t *testing.T) string {
	t.Helper()
	var rows []dataset.Example
	for i, moves := range []string{"e5 d6", "a1 i9", "c3 g7"} {
		b := hex.MustBoard(9, 9)
		ms, err := b.Geometry().ParseMoves(moves)
		if err != nil {
			t.Fatal(err)
		}
		if err := b.PlayMoves(ms); err != nil {
			t.Fatal(err)
		}
		e := dataset.FromBoard(b)
		e.GameID = uint64(i)
		rows = append(rows, e)
	}
	path := filepath.Join(t.TempDir(), "hard9.arrow")
	if err := dataset.WriteFile(path, dataset.Meta{Width: 9, Height: 9, Generator: "test"}, rows, nil); err != nil {
		t.Fatal(err)
	}
	return path
}
