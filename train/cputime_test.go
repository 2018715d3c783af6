package train

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// processCPU returns the process's user+system CPU time (getrusage RUSAGE_SELF): with
// the wall time it shows what an epoch costs on a loaded machine.
func processCPU() (time.Duration, bool) {
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return 0, false
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}

func reportCPU(b *testing.B, start time.Duration) {
	if t, ok := processCPU(); ok {
		b.ReportMetric((t-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}
