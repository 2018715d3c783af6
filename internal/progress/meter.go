package progress

import "io"

// Meter reports a step of one or several parts as one Bar per part: it satisfies
// the pipeline package's Meter interface (Start, Set, Count, Done) without
// importing it. A Meter with a nil W reports nothing.
type Meter struct {
	W    io.Writer
	Desc string // the bars' description; a part's name is appended to it
	bar  *Bar
}

// Start begins a bar for the part called part (Desc alone when part is "") of total
// units.
func (m *Meter) Start(part string, total int64, unit string) {
	desc := m.Desc
	if part != "" {
		desc += " " + part
	}
	m.bar = New(m.W, desc, total, unit)
}

// Set reports the units done so far in the current part.
func (m *Meter) Set(done int64) { m.bar.Set(done) }

// Count shows n units of unit beside the bar ("12 games").
func (m *Meter) Count(n int64, unit string) { m.bar.SetDetail(Count(n, unit)) }

// Done ends the current part's bar with its error.
func (m *Meter) Done(err error) { m.bar.Done(err) }
