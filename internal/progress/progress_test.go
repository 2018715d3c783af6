package progress

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCount(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		unit string
		want string
	}{
		{0, "game", "0 games"}, {1, "game", "1 game"}, {2, "stone", "2 stones"}, {1, "stone", "1 stone"},
		{3, "match", "3 matches"}, {2, "entry", "2 entries"}, {2, "day", "2 days"}, {7, "", "7"}, {5, "box", "5 boxes"}, {2, "epoch", "2 epochs"}, {2, "batch", "2 batches"},
	} {
		if got := Count(tc.n, tc.unit); got != tc.want {
			t.Errorf("Count(%d, %q) = %q, want %q", tc.n, tc.unit, got, tc.want)
		}
	}
}

func TestDuration(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{850 * time.Millisecond, "850ms"}, {12300 * time.Millisecond, "12.3s"}, {245 * time.Second, "4m05s"}, {62 * time.Minute, "1h02m"},
	} {
		if got := Duration(tc.d); got != tc.want {
			t.Errorf("Duration(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}

// TestPlainLines checks the log form: a line per interval with count and percentage,
// and a last line that says "done" only when the step finished.
func TestPlainLines(t *testing.T) {
	for _, tc := range []struct {
		err      error
		want     string
		mustNot  string
		progress int64
	}{
		{nil, "train: done in", "interrupted", 10},
		{nil, "10/10 epochs (100%)", "interrupted", 10},
		{context.Canceled, "4/10 epochs (40%)", "done", 4},
		{context.Canceled, "train: interrupted after", "done", 4},
		{fmt.Errorf("wrapped: %w", context.Canceled), "interrupted after", "done", 4},
		{errors.New("disk full"), "train: failed after", "done", 4},
	} {
		var buf bytes.Buffer
		b := New(&buf, "train", 10, "epoch")
		b.Interval = 0
		for i := int64(1); i <= tc.progress; i++ {
			b.Set(i)
		}
		b.Done(tc.err)
		b.Done(tc.err) // a second Done prints nothing
		lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
		if len(lines) != int(tc.progress)+1 {
			t.Errorf("%v: %d lines, want %d:\n%s", tc.err, len(lines), tc.progress+1, buf.String())
		}
		if !strings.Contains(lines[0], "train: 1/10 epochs (10%)") {
			t.Errorf("first line %q", lines[0])
		}
		last := lines[len(lines)-1]
		if !strings.Contains(last, tc.want) || strings.Contains(last, tc.mustNot) {
			t.Errorf("%v: last line %q, want %q and not %q", tc.err, last, tc.want, tc.mustNot)
		}
	}
	var buf bytes.Buffer
	quick := New(&buf, "quick", 3, "step")
	quick.Set(3)
	quick.Done(nil)
	if buf.Len() != 0 {
		t.Errorf("a step shorter than the interval printed %q", buf.String())
	}
	var nilBar *Bar
	nilBar.Set(3) // a nil bar is silent
	nilBar.Done(nil)
	New(nil, "x", 1, "y").Done(nil)
}
