package train

import (
	"bytes"
	"strings"
	"testing"
)

func TestProgressPlainLines(t *testing.T) {
	var buf bytes.Buffer
	p := NewProgress(&buf, 10, "cv")
	p.Interval = 0
	p.Set(5)
	p.Finish()
	out := buf.String()
	if !strings.Contains(out, "cv: 5/10 (50%") || !strings.Contains(out, "cv: done in") {
		t.Fatalf("progress output %q", out)
	}
	var silent *Progress
	silent.Set(1) // a nil reporter is silent
	silent.Finish()
	NewProgress(nil, 3, "x").Set(1)
}
