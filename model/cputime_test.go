package model

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// cpuTimer reports CPU time per benchmark op next to wall time, so figures measured on
// a loaded machine stay meaningful: the benchmark goroutine is locked to its thread
// and the thread's user+system time (getrusage RUSAGE_THREAD, Linux) is read around
// the timed loop.
type cpuTimer struct{ start time.Duration }

const rusageThread = 1 // RUSAGE_THREAD on Linux

func threadCPU() (time.Duration, bool) {
	if runtime.GOOS != "linux" {
		return 0, false
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

func startCPU(b *testing.B) *cpuTimer {
	runtime.LockOSThread()
	t, _ := threadCPU()
	b.ResetTimer()
	return &cpuTimer{start: t}
}

func (c *cpuTimer) stop(b *testing.B) {
	b.StopTimer()
	if t, ok := threadCPU(); ok {
		b.ReportMetric(float64(t-c.start)/float64(b.N), "cpu-ns/op")
	}
	runtime.UnlockOSThread()
}
