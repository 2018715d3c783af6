package pipeline

// Meter receives the progress of a long pipeline step (CrossValidate, BuildPatterns).
// Front ends adapt it to internal/progress bars; a nil Meter reports nothing.
type Meter interface {
	// Start begins a step or one part of it (label names the part, "" for a step
	// in one part) of total units of work.
	Start(label string, total int64)
	// Set reports the units done so far.
	Set(done int64)
	// Count reports a running count shown beside the bar (BuildPatterns: the
	// database's entries so far).
	Count(n int64)
	// Done ends the step or part started last, with its error.
	Done(err error)
}

// nopMeter is the Meter used when a config has none.
type nopMeter struct{}

func (nopMeter) Start(string, int64) {}
func (nopMeter) Set(int64)           {}
func (nopMeter) Count(int64)         {}
func (nopMeter) Done(error)          {}

// meterOr returns m, or a Meter that reports nothing when m is nil.
func meterOr(m Meter) Meter {
	if m == nil {
		return nopMeter{}
	}
	return m
}
