//go:build linux

package benchutil

import (
	"time"

	"golang.org/x/sys/unix"
)

// ThreadClock returns a clock reading the calling thread's CPU time with nanosecond
// resolution (clock_gettime(CLOCK_THREAD_CPUTIME_ID); the caller locks its goroutine
// to its thread with runtime.LockOSThread), so measurements do not count the time
// other processes take on a busy machine, and true. It falls back to the wall clock
// (and false) when the thread clock cannot be read.
func ThreadClock() (clock func() time.Duration, cpu bool) {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
		return wallClock(), false
	}
	return func() time.Duration {
		if unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts) != nil {
			return 0
		}
		return time.Duration(ts.Nano())
	}, true
}
