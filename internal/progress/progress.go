// Package progress is hexlearn's one progress reporter for steps that take more than a
// couple of seconds. Steps report through the Meter interface (meter.go), which every
// layer can take; Bars implements it with one Bar per part. A Bar is a progress bar
// (github.com/schollz/progressbar/v3) when the output is a terminal, otherwise a plain
// line every few seconds, fit for the log of a batch job; its last line says whether
// the step finished or stopped. Loops that are not steps of their own (an
// experiment's positions) use a Bar directly.
package progress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// DefaultInterval is the time between plain progress lines.
const DefaultInterval = 5 * time.Second

// Bar reports the progress of one step. Its methods are safe for concurrent use; a
// nil *Bar, or one writing to a nil writer, reports nothing.
type Bar struct {
	mu          sync.Mutex
	w           io.Writer
	desc, unit  string
	total, done int64
	detail      string
	bar         *progressbar.ProgressBar
	start, last time.Time
	// Interval is the time between plain lines (DefaultInterval).
	Interval time.Duration
	ended    bool
}

// New starts reporting a step called desc that counts total units (total <= 0: not
// known yet; see SetTotal) to w.
func New(w io.Writer, desc string, total int64, unit string) *Bar {
	b := &Bar{w: w, desc: desc, unit: unit, total: total, Interval: DefaultInterval, start: time.Now()}
	b.last = b.start
	if isTerminal(w) {
		max := total
		if max <= 0 {
			max = -1
		}
		b.bar = progressbar.NewOptions64(max, progressbar.OptionSetWriter(w), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString(unit), progressbar.OptionShowIts(),
			progressbar.OptionSetPredictTime(true), progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(100*time.Millisecond))
	}
	return b
}

// isTerminal reports whether w is a terminal (progressbar does not detect that itself).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

func (b *Bar) silent() bool { return b == nil || b.w == nil }

// SetTotal changes the number of units of the step.
func (b *Bar) SetTotal(total int64) {
	if b.silent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if total == b.total {
		return
	}
	b.total = total
	if b.bar != nil {
		b.bar.ChangeMax64(total)
	}
}

// SetDetail sets extra text shown after the count (e.g. "1200 positions").
func (b *Bar) SetDetail(s string) {
	if b.silent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.detail = s
	if b.bar != nil && s != "" {
		b.bar.Describe(b.desc + " (" + s + ")")
	}
}

// Set records that done units are complete.
func (b *Bar) Set(done int64) {
	if b.silent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done = done
	b.update()
}

// Add records n more complete units.
func (b *Bar) Add(n int64) {
	if b.silent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	b.update()
}

func (b *Bar) update() {
	if b.ended {
		return
	}
	if b.bar != nil {
		_ = b.bar.Set64(b.done)
		return
	}
	if now := time.Now(); now.Sub(b.last) >= b.Interval {
		b.last = now
		fmt.Fprintf(b.w, "%s: %s, %s elapsed%s\n", b.desc, b.count(), Duration(now.Sub(b.start)), b.eta(now))
	}
}

// count formats the progress: "120/500 games (24%), 3400 positions".
func (b *Bar) count() string {
	s := Count(b.done, b.unit)
	if b.total > 0 {
		s = fmt.Sprintf("%d/%s (%.0f%%)", b.done, Count(b.total, b.unit), 100*float64(b.done)/float64(b.total))
	}
	if b.detail != "" {
		s += ", " + b.detail
	}
	return s
}

// eta estimates the time left from the rate so far.
func (b *Bar) eta(now time.Time) string {
	el := now.Sub(b.start)
	if b.total <= 0 || b.done <= 0 || b.done >= b.total {
		return ""
	}
	left := time.Duration(float64(el) * float64(b.total-b.done) / float64(b.done))
	return ", about " + Duration(left) + " left"
}

// Done ends the report. With err nil the last line says the step finished (steps
// shorter than Interval end silently); with an error it says how far the step got
// before it was interrupted (a context error) or failed. On a terminal the bar is
// cleared.
func (b *Bar) Done(err error) {
	if b.silent() {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ended {
		return
	}
	b.ended = true
	if err == nil && b.total > 0 && b.done < b.total {
		b.done = b.total // finished: every unit is done
	}
	if b.bar != nil {
		_ = b.bar.Exit()
		fmt.Fprint(b.w, "\r\033[K") // Exit leaves the bar's line; clear it
	}
	d := time.Since(b.start)
	el := Duration(d)
	switch {
	case err == nil && d < b.Interval:
		// a short step: its end needs no line of its own
	case err == nil:
		fmt.Fprintf(b.w, "%s: done in %s, %s\n", b.desc, el, b.count())
	case errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(b.w, "%s: interrupted after %s, %s\n", b.desc, el, b.count())
	default:
		fmt.Fprintf(b.w, "%s: failed after %s, %s\n", b.desc, el, b.count())
	}
}

// Count formats n units with the right plural: "1 game", "2 games", "0 games".
// An empty unit gives just the number.
func Count(n int64, unit string) string {
	if unit == "" {
		return fmt.Sprint(n)
	}
	if n == 1 || n == -1 {
		return fmt.Sprintf("%d %s", n, unit)
	}
	return fmt.Sprintf("%d %s", n, Plural(unit))
}

// Plural returns the plural of an English noun of hexlearn's vocabulary (game,
// position, epoch, stone, opening, run, match, batch, entry, ...): -s, -x, -sh and
// -tch take "es", a consonant before -y becomes "ies".
func Plural(unit string) string {
	n := len(unit)
	switch {
	case n > 1 && unit[n-1] == 'y' && !isVowel(unit[n-2]):
		return unit[:n-1] + "ies"
	case n > 1 && (unit[n-1] == 's' || unit[n-1] == 'x' || unit[n-2:] == "sh") || n > 2 && unit[n-3:] == "tch":
		return unit + "es"
	}
	return unit + "s"
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

// Duration formats d for people: "850ms", "12.3s", "4m05s", "1h02m".
func Duration(d time.Duration) string {
	switch {
	case d < time.Second:
		return d.Round(time.Millisecond).String()
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		d = d.Round(time.Second)
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	default:
		d = d.Round(time.Minute)
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
}
