package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestLabelCommand labels the 3x3 golden dataset (every row decided: the summary
// says so per ply) and checks the one-line errors: usage mistakes exit 2, a missing
// or damaged input exits 1, and nothing is written then.
func TestLabelCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "l.arrow")
	var o, e bytes.Buffer
	if code := runCommand(context.Background(), []string{"label", "--out", out, "--workers", "2", goldenData}, &o, &e); code != 0 {
		t.Fatalf("exit %d\n%s", code, e.String())
	}
	tab, err := dataset.ReadFile(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range tab.Rows {
		if r.TrueWinner == hex.Empty {
			t.Errorf("row %d not labelled", i)
		}
	}
	for _, want := range []string{"positions/s", " 0 rows unknown", "known%", "100.0%"} {
		if !strings.Contains(o.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, o.String())
		}
	}
	data, err := os.ReadFile(goldenData)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.arrow")
	if err := os.WriteFile(damaged, data[:len(data)-40], 0o644); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "fresh.arrow")
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"label", "--out", fresh}, 2, "one input"},
		{[]string{"label", "--out", fresh, goldenData, goldenData}, 2, "one input"},
		{[]string{"label", goldenData}, 2, "--out is required"},
		{[]string{"label", "--out", out, goldenData}, 2, "file exists"},
		{[]string{"label", "--out", fresh, "--max-nodes", "0", goldenData}, 2, "--max-nodes"},
		{[]string{"label", "--out", fresh, filepath.Join(dir, "missing")}, 1, "missing"},
		{[]string{"label", "--out", fresh, damaged}, 1, "damaged.arrow"},
	} {
		var o, e bytes.Buffer
		code := runCommand(context.Background(), tc.args, &o, &e)
		errs := e.String()
		if code != tc.code || !strings.Contains(errs, tc.want) || strings.Count(strings.TrimSpace(errs), "\n") > 1 {
			t.Errorf("%v: exit %d, want %d and a short message with %q:\n%s", tc.args, code, tc.code, tc.want, errs)
		}
		if _, err := os.Stat(fresh); err == nil {
			t.Fatalf("%v: wrote %s", tc.args, fresh)
		}
	}
}
