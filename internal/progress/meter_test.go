package progress

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestBars: each part gets its own bar named Desc plus the part's label, and a
// failed part says so under that name; Bars without a writer are silent.
func TestBars(t *testing.T) {
	for _, tc := range []struct {
		label      string
		err        error
		head, tail string
	}{
		{"", errors.New("boom"), "cv: failed after ", ", 3/10 epochs (30%), 2 entries\n"},
		{"plies 0..2", errors.New("boom"), "cv plies 0..2: failed after ", ", 3/10 epochs (30%), 2 entries\n"},
		{"", nil, "", ""}, // a short step that finished ends silently
	} {
		var buf bytes.Buffer
		var m Meter = &Bars{W: &buf, Desc: "cv"}
		m.Start(tc.label, 10, "epoch")
		m.Set(3)
		m.Count(2, "entry")
		m.Done(tc.err)
		got := buf.String()
		if !strings.HasPrefix(got, tc.head) || !strings.HasSuffix(got, tc.tail) || tc.head == "" && got != "" {
			t.Errorf("label %q, err %v: got %q, want %q...%q", tc.label, tc.err, got, tc.head, tc.tail)
		}
	}
	var silent Bars
	silent.Start("x", 5, "epoch")
	silent.Set(1)
	silent.Count(1, "entry")
	silent.Done(errors.New("boom"))
	var unstarted Bars // Done without Start (a step that failed before it began)
	unstarted.W = &bytes.Buffer{}
	unstarted.Done(errors.New("boom"))
}

// TestOr: Or keeps a Meter and replaces nil by one that reports nothing.
func TestOr(t *testing.T) {
	b := &Bars{}
	if Or(b) != Meter(b) {
		t.Error("Or replaced a Meter")
	}
	m := Or(nil)
	if m == nil {
		t.Fatal("Or(nil) is nil")
	}
	m.Start("", 3, "game")
	m.Set(1)
	m.Count(1, "position")
	m.Done(nil)
}
