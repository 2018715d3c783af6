package progress

import "io"

// Meter reports a step of several parts as one Bar per part: it satisfies the
// pipeline package's Meter interface (Start, Set, Count, Done) without importing it.
// A Meter with a nil W reports nothing.
type Meter struct {
	W         io.Writer
	Desc      string // the bar's description; a part's label is appended to it
	Unit      string // the unit of work ("epoch", "position")
	CountUnit string // the unit of the running count shown beside the bar
	bar       *Bar
}

// Start begins a bar for the part called label (Desc alone when label is "").
func (m *Meter) Start(label string, total int64) {
	desc := m.Desc
	if label != "" {
		desc += " " + label
	}
	m.bar = New(m.W, desc, total, m.Unit)
}

// Set reports the units done so far in the current part.
func (m *Meter) Set(done int64) { m.bar.Set(done) }

// Count shows n CountUnits beside the bar.
func (m *Meter) Count(n int64) { m.bar.SetDetail(Count(n, m.CountUnit)) }

// Done ends the current part's bar with its error.
func (m *Meter) Done(err error) { m.bar.Done(err) }
