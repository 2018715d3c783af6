//go:build linux

package vc

import (
	"syscall"
	"time"
	"unsafe"
)

// threadClock returns a clock reading the calling thread's CPU time with nanosecond
// resolution (clock_gettime(CLOCK_THREAD_CPUTIME_ID); the caller locks its goroutine
// to the thread), so measurements do not count time other processes take on a busy
// machine. It falls back to the wall clock if the call fails.
func threadClock() (func() time.Duration, bool) {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	read := func() bool {
		_, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
		return e == 0
	}
	if !read() {
		start := time.Now()
		return func() time.Duration { return time.Since(start) }, false
	}
	return func() time.Duration {
		read()
		return time.Duration(ts.Nano())
	}, true
}
