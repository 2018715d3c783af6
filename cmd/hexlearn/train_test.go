package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/model"
)

// TestTrainTwoDist trains a twodist model and plays it through eval: the feature set
// is recorded in the file and the learned value is reported.
func TestTrainTwoDist(t *testing.T) {
	out := filepath.Join(t.TempDir(), "td.model")
	var o, e bytes.Buffer
	args := []string{"train", "--data", goldenData, "--size", "3", "--hidden", "3", "--epochs", "2", "--holdout", "0",
		"--features", "twodist", "--out", out}
	if code := runCommand(context.Background(), args, &o, &e); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, e.String())
	}
	if !strings.Contains(o.String(), "61-3-1") {
		t.Errorf("train output does not name the 61 inputs of a 3x3 twodist network:\n%s", o.String())
	}
	m, err := model.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Features != model.FeaturesTwoDist || !strings.Contains(m.Provenance.Config, "features=twodist") {
		t.Fatalf("model features %q, config %q", m.Features, m.Provenance.Config)
	}
	o.Reset()
	e.Reset()
	if code := runCommand(context.Background(), []string{"eval", "--size", "3", "--moves", "b2", "--model", out, "--json"}, &o, &e); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, e.String())
	}
	var rep map[string]any
	if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, o.String())
	}
	if _, ok := rep["learned"]; !ok {
		t.Errorf("eval --json has no learned value: %s", o.String())
	}
}

// TestTrainRotate checks that --rotate adds the rotated rows (each row once more,
// unless it is its own rotation) and is recorded in the model.
func TestTrainRotate(t *testing.T) {
	rows := func(rotate bool) (int, *model.Model) {
		out := filepath.Join(t.TempDir(), "r.model")
		args := []string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--holdout", "0", "--json", "--out", out}
		if rotate {
			args = append(args, "--rotate")
		}
		var o, e bytes.Buffer
		if code := runCommand(context.Background(), args, &o, &e); code != 0 {
			t.Fatalf("train %v: exit %d\n%s", args, code, e.String())
		}
		var rep struct {
			Rows int `json:"rows"`
		}
		if err := json.Unmarshal(o.Bytes(), &rep); err != nil {
			t.Fatalf("train --json: %v\n%s", err, o.String())
		}
		m, err := model.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		return rep.Rows, m
	}
	n0, m0 := rows(false)
	n1, m1 := rows(true)
	if n1 <= n0 || n1 > 2*n0 {
		t.Fatalf("--rotate trained on %d rows, without it %d: want more, at most twice", n1, n0)
	}
	if !strings.Contains(m1.Provenance.Config, "rotate=true") || !strings.Contains(m0.Provenance.Config, "rotate=false") {
		t.Fatalf("configs %q and %q do not record --rotate", m0.Provenance.Config, m1.Provenance.Config)
	}
}
