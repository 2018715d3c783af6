package selfplay

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// Reporter shows a run's progress: a progress bar when w is a terminal, otherwise a
// plain line every Interval (for logs of batch jobs). Use its Update method as
// Config.Progress and call Finish at the end.
type Reporter struct {
	w        io.Writer
	bar      *progressbar.ProgressBar
	start    time.Time
	last     time.Time
	Interval time.Duration
	lastP    Progress
}

// NewReporter returns a reporter writing to w; the bar is used only when w is an
// *os.File connected to a terminal (progressbar does not detect that itself).
func NewReporter(w io.Writer) *Reporter {
	r := &Reporter{w: w, start: time.Now(), Interval: 10 * time.Second}
	r.last = r.start
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		r.bar = progressbar.NewOptions64(-1, progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("selfplay"), progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond))
	}
	return r
}

// Update records progress p.
func (r *Reporter) Update(p Progress) {
	r.lastP = p
	if r.bar != nil {
		if r.bar.GetMax64() != p.Total {
			r.bar.ChangeMax64(p.Total)
			if p.ByRows {
				r.bar.Describe("selfplay positions")
			} else {
				r.bar.Describe("selfplay games")
			}
		}
		if p.ByRows {
			r.bar.Set64(p.Rows)
		} else {
			r.bar.Set64(int64(p.Games))
		}
		return
	}
	if now := time.Now(); now.Sub(r.last) >= r.Interval {
		r.last = now
		fmt.Fprintln(r.w, r.line(p, now))
	}
}

func (r *Reporter) line(p Progress, now time.Time) string {
	el := now.Sub(r.start).Seconds()
	unit, done := "games", int64(p.Games)
	if p.ByRows {
		unit, done = "positions", p.Rows
	}
	pct := 0.0
	if p.Total > 0 {
		pct = 100 * float64(done) / float64(p.Total)
	}
	rate := 0.0
	if el > 0 {
		rate = float64(p.Rows) / el
	}
	return fmt.Sprintf("selfplay: %d/%d %s (%.1f%%), %d games, %d positions, %.0f positions/s, %.0fs elapsed",
		done, p.Total, unit, pct, p.Games, p.Rows, rate, el)
}

// Finish clears the bar and prints a final line.
func (r *Reporter) Finish() {
	if r.bar != nil {
		r.bar.Finish()
	}
	fmt.Fprintln(r.w, r.line(r.lastP, time.Now()))
}
