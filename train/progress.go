package train

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Progress reports the progress of long training runs: a progress bar when w is a
// terminal, otherwise a plain line at most every Interval (and at the end).
type Progress struct {
	mu       sync.Mutex
	w        io.Writer
	desc     string
	total    int
	bar      *progressbar.ProgressBar
	last     time.Time
	start    time.Time
	Interval time.Duration
}

// NewProgress returns a progress reporter for total steps. w may be nil (silent).
func NewProgress(w io.Writer, total int, desc string) *Progress {
	p := &Progress{w: w, desc: desc, total: total, Interval: 10 * time.Second, start: time.Now()}
	p.last = p.start
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond))
	}
	return p
}

// Set records that done of the total steps are complete.
func (p *Progress) Set(done int) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Set(done)
		return
	}
	if now := time.Now(); now.Sub(p.last) >= p.Interval {
		p.last = now
		fmt.Fprintf(p.w, "%s: %d/%d (%.0f%%, %s)\n", p.desc, done, p.total, 100*float64(done)/float64(max(1, p.total)),
			now.Sub(p.start).Round(time.Second))
	}
}

// Finish ends the report.
func (p *Progress) Finish() {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
		return
	}
	fmt.Fprintf(p.w, "%s: done in %s\n", p.desc, time.Since(p.start).Round(time.Millisecond))
}
