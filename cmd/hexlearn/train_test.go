package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/train"
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

// TestTrainRotate checks that --rotate adds, after the held-out split, the rotation of
// every training row that is not its own rotation, and is recorded in the model.
func TestTrainRotate(t *testing.T) {
	rows := func(holdout string, rotate bool) (int, *model.Model) {
		out := filepath.Join(t.TempDir(), "r.model")
		args := []string{"train", "--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--holdout", holdout, "--json", "--out", out}
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
	ex, err := train.ReadExamples(goldenData, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	trainPart, _, err := train.SplitHoldout(ex, 0.5, 1)
	if err != nil {
		t.Fatal(err)
	}
	// want: the rows plus one image per row that differs from its rotation
	want := func(e *train.Examples) int {
		n := e.Rows()
		for i := 0; i < e.Rows(); i++ {
			b, err := e.Board(i)
			if err != nil {
				t.Fatal(err)
			}
			if b.Rotated().Hash() != b.Hash() {
				n++
			}
		}
		return n
	}
	n0, m0 := rows("0", false)
	n1, m1 := rows("0", true)
	n2, _ := rows("0.5", true)
	if n0 != ex.Rows() || n1 != want(ex) || n1 == n0 || n2 != want(trainPart) {
		t.Fatalf("trained on %d rows, %d with --rotate, %d with --rotate --holdout 0.5: want %d, %d, %d",
			n0, n1, n2, ex.Rows(), want(ex), want(trainPart))
	}
	if !strings.Contains(m1.Provenance.Config, "rotate=true") || !strings.Contains(m0.Provenance.Config, "rotate=false") {
		t.Fatalf("configs %q and %q do not record --rotate", m0.Provenance.Config, m1.Provenance.Config)
	}
}

// TestTrainPlayouts trains on the playouts target: the model is logistic, records the
// playouts per row, reports the held-out playout RMSE, and eval shows its value.
func TestTrainPlayouts(t *testing.T) {
	out := filepath.Join(t.TempDir(), "p.model")
	var o, e bytes.Buffer
	args := []string{"train", "--data", goldenData, "--size", "3", "--hidden", "3", "--epochs", "2", "--holdout", "0.3",
		"--target", "playouts", "--playouts", "16", "--out", out}
	if code := runCommand(context.Background(), args, &o, &e); code != 0 {
		t.Fatalf("train: exit %d\n%s", code, e.String())
	}
	if !strings.Contains(o.String(), "playout RMSE") {
		t.Errorf("train output reports no playout RMSE:\n%s", o.String())
	}
	m, err := model.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Target != model.TargetPlayouts || m.Output != model.OutputLogistic || !strings.Contains(m.Provenance.Config, "playouts=16") {
		t.Fatalf("model target %q output %q config %q", m.Target, m.Output, m.Provenance.Config)
	}
	o.Reset()
	e.Reset()
	if code := runCommand(context.Background(), []string{"eval", "--size", "3", "--moves", "b2", "--model", out}, &o, &e); code != 0 {
		t.Fatalf("eval: exit %d\n%s", code, e.String())
	}
}
