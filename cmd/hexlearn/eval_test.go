package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestEvalCommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "--size", "5", "--moves", "c3"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"R_B", "R_W", "E     = ln(R_B/R_W)", "value = ln(R_W/R_B)", "winning VC: black yes", "time:"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	if code := run([]string{"eval", "--size", "4", "--moves", "a1 d4", "--json"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), `"r_b"`) || !strings.Contains(out.String(), `"value"`) {
		t.Errorf("json:\n%s", out.String())
	}
	for _, bad := range [][]string{{"eval", "--size", "0"}, {"eval", "--moves", "zz"}, {"eval", "--vc-mode", "odd"}, {"eval", "extra"}} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d", bad, code)
		}
	}
	if code := run([]string{"eval", "--model", "/nonexistent/m.model", "--size", "5"}, &out, &errb); code != 1 {
		t.Errorf("missing model: exit %d", code)
	}
}

func TestEvalWithModel(t *testing.T) {
	const m = "../../model/testdata/tiny.model" // a 3x3 model of package model's tests
	if _, err := os.Stat(m); err != nil {
		t.Skipf("no test model: %v", err)
	}
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "--model", m, "--size", "3", "--moves", "b2"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "learned value") {
		t.Errorf("no learned value:\n%s", out.String())
	}
	errb.Reset()
	if code := run([]string{"eval", "--model", m, "--size", "5"}, &out, &errb); code != 1 || !strings.Contains(errb.String(), "another board size") {
		t.Errorf("a 3x3 model on 5x5: exit %d, %s", code, errb.String())
	}
}

// TestEvalMessages checks plurals and that no value prints as negative zero.
func TestEvalMessages(t *testing.T) {
	for _, tc := range []struct {
		moves, want string
	}{
		{"", "3x3, 0 stones,"}, {"b2", "3x3, 1 stone,"}, {"b2 a1", "3x3, 2 stones,"},
	} {
		var out, errb bytes.Buffer
		if code := run([]string{"eval", "--size", "3", "--moves", tc.moves}, &out, &errb); code != 0 {
			t.Fatalf("eval %q: exit %d: %s", tc.moves, code, errb.String())
		}
		if !strings.Contains(out.String(), tc.want) || strings.Contains(out.String(), "-0.0000") {
			t.Errorf("eval %q: want %q and no -0.0000:\n%s", tc.moves, tc.want, out.String())
		}
	}
}

// TestEvalBuiltinModel: --model builtin evaluates with the binary's model of the board
// size (learned.value in --json, positive favours Black); a size without one fails
// with one line naming the sizes that have one.
func TestEvalBuiltinModel(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"eval", "--size", "8", "--moves", "d4 e5", "--json", "--model", "builtin"}, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var rep struct {
		Learned *struct {
			Model string  `json:"model"`
			Value float64 `json:"value"`
		} `json:"learned"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Learned == nil || rep.Learned.Model != "builtin" {
		t.Fatalf("json %v:\n%s", err, out.String())
	}
	out.Reset()
	errb.Reset()
	if code := run([]string{"eval", "--size", "4", "--moves", "b2", "--model", "builtin"}, &out, &errb); code != 1 ||
		!strings.Contains(errb.String(), "no built-in model") || strings.Count(strings.TrimSpace(errb.String()), "\n") != 0 {
		t.Fatalf("4x4 builtin: exit %d: %q", code, errb.String())
	}
}
