package progress

import (
	"io"
	"strings"
)

// Meter is hexlearn's one progress interface: the long steps of every layer
// (selfplay.Run, the pipeline's Corpus, CrossValidate, Fit, Label, BuildPatterns and
// BuildBuiltins) report through it, and the commands and the demo hand them Bars,
// its terminal and log implementation. A nil Meter in a config reports nothing (Or).
//
// A step calls Start, then Set and Count any number of times from one goroutine at a
// time, then Done; a step of several parts (CrossValidate per ply range,
// BuildBuiltins per size) does so once per part.
type Meter interface {
	// Start begins a step, or one part of it (part names it: "plies 0..2",
	// "5x5 self-play"; "" for a step in one part), of total units of work named by
	// unit ("position", "epoch"; total <= 0: not known).
	Start(part string, total int64, unit string)
	// Set reports the units done so far.
	Set(done int64)
	// Count reports a running count of something else, shown beside the bar (unit
	// names it: self-play counts the games written beside the positions, or the
	// positions beside the games; BuildPatterns the database's entries).
	Count(n int64, unit string)
	// Done ends the part started last, with its error (nil: finished).
	Done(err error)
}

// Or returns m, or a Meter that reports nothing when m is nil.
func Or(m Meter) Meter {
	if m == nil {
		return nop{}
	}
	return m
}

// Part returns a Meter that reports the steps it is given as parts of m named prefix
// plus their own part's name (a sub-step: the loop's training of one iteration,
// BuildBuiltins' corpus of one size). A nil m reports nothing.
func Part(m Meter, prefix string) Meter { return part{Or(m), prefix} }

type part struct {
	Meter
	prefix string
}

func (m part) Start(name string, total int64, unit string) {
	m.Meter.Start(strings.TrimSpace(m.prefix+" "+name), total, unit)
}

// nop is the Meter that reports nothing.
type nop struct{}

func (nop) Start(string, int64, string) {}
func (nop) Set(int64)                   {}
func (nop) Count(int64, string)         {}
func (nop) Done(error)                  {}

// Bars is the Meter of the commands: one Bar per part on W (a progress bar on a
// terminal, a plain line every few seconds in a log), described as Desc followed by
// the part's name. Bars with a nil W report nothing.
type Bars struct {
	W    io.Writer
	Desc string // the bars' description; a part's name is appended to it
	bar  *Bar
}

// Start begins a bar for the part called part (Desc alone when part is "") of total
// units.
func (m *Bars) Start(part string, total int64, unit string) {
	desc := m.Desc
	if part != "" {
		desc += " " + part
	}
	m.bar = New(m.W, desc, total, unit)
}

// Set reports the units done so far in the current part.
func (m *Bars) Set(done int64) { m.bar.Set(done) }

// Count shows n units of unit beside the bar ("12 games").
func (m *Bars) Count(n int64, unit string) { m.bar.SetDetail(Count(n, unit)) }

// Done ends the current part's bar with its error.
func (m *Bars) Done(err error) { m.bar.Done(err) }
