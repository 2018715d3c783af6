//go:build !linux

package benchutil

import "time"

// ThreadClock returns a wall clock (and false) on systems without per-thread CPU
// time.
func ThreadClock() (clock func() time.Duration, cpu bool) { return wallClock(), false }
