package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/model"
)

// TestTrainPolicy trains a policy head from a dataset with the search's visit shares
// (the golden corpus with uniform shares over every row's empty cells): the model has
// the head and its held-out report the policy's figures; --policy-weight without
// --policy and a bad weight are usage errors.
func TestTrainPolicy(t *testing.T) {
	tab, err := dataset.ReadPath(goldenData, nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	data := filepath.Join(dir, "policy.arrow")
	w, err := dataset.Create(data, dataset.Meta{Width: 3, Height: 3, Generator: "test"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range tab.Rows {
		r := tab.Rows[i]
		empty := 0
		for _, v := range r.Cells {
			if v == dataset.CellEmpty {
				empty++
			}
		}
		if empty == 0 {
			continue
		}
		pol := make([]float32, len(r.Cells))
		for k, v := range r.Cells {
			if v == dataset.CellEmpty {
				pol[k] = 1 / float32(empty)
			}
		}
		r.Search = &dataset.SearchTargets{Value: 0, Policy: pol}
		if err := w.Write(&r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "p.model")
	var o, e bytes.Buffer
	args := []string{"train", "--data", data, "--size", "3", "--hidden", "3", "--epochs", "2", "--holdout", "0.3",
		"--policy", "--policy-weight", "0.5", "--json", "--out", out}
	if code := runCommand(context.Background(), args, &o, &e); code != 0 {
		t.Fatalf("train --policy: exit %d\n%s", code, e.String())
	}
	var rep struct {
		Holdout map[string]any `json:"holdout"`
	}
	if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
		t.Fatalf("train --json: %v\n%s", err, o.String())
	}
	if _, ok := rep.Holdout["policy_cross_entropy"]; !ok {
		t.Errorf("held-out report without the policy: %s", o.String())
	}
	m, err := model.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !m.HasPolicy() || !strings.Contains(m.Provenance.Config, "policy_weight=0.5") {
		t.Fatalf("model head %v, config %q", m.HasPolicy(), m.Provenance.Config)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy-weight", "2"}, "--policy-weight applies with --policy only"},
		{[]string{"--policy", "--policy-weight", "0"}, "--policy-weight 0: want a weight above 0"},
	} {
		o.Reset()
		e.Reset()
		args := append([]string{"train", "--data", data, "--size", "3", "--hidden", "3", "--epochs", "1", "--out", filepath.Join(dir, "x.model")}, tc.args...)
		if code := runCommand(context.Background(), args, &o, &e); code != 2 || !strings.Contains(e.String(), tc.want) {
			t.Errorf("%v: exit %d, %q (want 2, %q)", tc.args, code, e.String(), tc.want)
		}
	}
	// Without visit shares --policy is refused with a clear error.
	e.Reset()
	args = []string{"train", "--data", goldenData, "--size", "3", "--hidden", "3", "--epochs", "1", "--policy", "--out", filepath.Join(dir, "y.model")}
	if code := runCommand(context.Background(), args, &o, &e); code == 0 || !strings.Contains(e.String(), "visit shares") {
		t.Errorf("--policy without visit shares: exit %d, %q", code, e.String())
	}
}
