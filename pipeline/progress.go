package pipeline

import "strings"

// Meter receives the progress of every pipeline step (Corpus, CrossValidate, Fit,
// BuildPatterns, BuildBuiltins): the one way the pipeline reports how far it is.
// internal/progress.Meter adapts it to a progress bar (plain lines when not a
// terminal); a nil Meter reports nothing. A step calls Start, then Set and Count any
// number of times from one goroutine at a time, then Done; a step of several parts
// (CrossValidate per ply range, BuildBuiltins per size) does so once per part.
type Meter interface {
	// Start begins a step, or one part of it (part names it: "plies 0..2",
	// "5x5 self-play"; "" for a step in one part), of total units of work named
	// by unit ("position", "epoch").
	Start(part string, total int64, unit string)
	// Set reports the units done so far.
	Set(done int64)
	// Count reports a running count of something else, shown beside the bar (unit
	// names it: Corpus counts the games written, BuildPatterns the database's
	// entries).
	Count(n int64, unit string)
	// Done ends the part started last, with its error (nil: finished).
	Done(err error)
}

// nopMeter is the Meter used when a config has none.
type nopMeter struct{}

func (nopMeter) Start(string, int64, string) {}
func (nopMeter) Set(int64)                   {}
func (nopMeter) Count(int64, string)         {}
func (nopMeter) Done(error)                  {}

// meterOr returns m, or a Meter that reports nothing when m is nil.
func meterOr(m Meter) Meter {
	if m == nil {
		return nopMeter{}
	}
	return m
}

// subMeter reports a sub-step (BuildBuiltins' corpus and training of one size) as
// a part of its parent's Meter: the parts it starts are named prefix plus their own
// name.
type subMeter struct {
	Meter
	prefix string
}

func (m subMeter) Start(part string, total int64, unit string) {
	m.Meter.Start(strings.TrimSpace(m.prefix+" "+part), total, unit)
}
