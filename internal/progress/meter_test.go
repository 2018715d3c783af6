package progress

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// TestMeter: each part gets its own bar named Desc plus the part's label, and a
// failed part says so under that name; a Meter without a writer is silent.
func TestMeter(t *testing.T) {
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
		m := &Meter{W: &buf, Desc: "cv"}
		m.Start(tc.label, 10, "epoch")
		m.Set(3)
		m.Count(2, "entry")
		m.Done(tc.err)
		got := buf.String()
		if !strings.HasPrefix(got, tc.head) || !strings.HasSuffix(got, tc.tail) || tc.head == "" && got != "" {
			t.Errorf("label %q, err %v: got %q, want %q...%q", tc.label, tc.err, got, tc.head, tc.tail)
		}
	}
	var silent Meter
	silent.Start("x", 5, "epoch")
	silent.Set(1)
	silent.Count(1, "entry")
	silent.Done(errors.New("boom"))
}
