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
