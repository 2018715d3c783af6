package pipeline

import "github.com/hexlearn/hexlearn/internal/progress"

// Meter receives the progress of every pipeline step (Corpus, CrossValidate, Fit,
// Label, BuildPatterns, BuildBuiltins): it is progress.Meter, hexlearn's one progress
// interface, whose contract says how a step calls it; progress.Bars shows it as
// progress bars (plain lines when not a terminal). A nil Meter reports nothing.
type Meter = progress.Meter

// meterOr returns m, or a Meter that reports nothing when m is nil.
func meterOr(m Meter) Meter { return progress.Or(m) }

// subMeter reports a sub-step as a part of its parent's Meter (progress.Part).
func subMeter(m Meter, prefix string) Meter { return progress.Part(m, prefix) }
