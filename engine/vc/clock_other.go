//go:build !linux

package vc

import "time"

// threadClock returns a wall clock on systems without per-thread CPU time.
func threadClock() (func() time.Duration, bool) {
	start := time.Now()
	return func() time.Duration { return time.Since(start) }, false
}
