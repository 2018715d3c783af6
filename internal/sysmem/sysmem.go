// Package sysmem reports how much memory the machine can give a process, so that
// tables (the solver's transposition table) can be sized to it.
package sysmem

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// ErrNoField is returned by ParseMeminfo when the text has no MemAvailable line.
var ErrNoField = errors.New("sysmem: no MemAvailable line")

// The Linux files Available reads (variables for tests): the machine's memory and
// the memory limit and use of the process's cgroup (v2, as in a container).
var (
	meminfoPath   = "/proc/meminfo"
	cgroupMaxPath = "/sys/fs/cgroup/memory.max"
	cgroupCurPath = "/sys/fs/cgroup/memory.current"
)

// Available returns the memory available to new processes without swapping, in
// bytes (Linux: MemAvailable of /proc/meminfo, no more than the cgroup's
// memory.max less its memory.current when a limit is set). ok is false where the
// system does not say (another OS, or an unreadable file).
func Available() (bytes uint64, ok bool) {
	f, err := os.Open(meminfoPath)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	n, err := ParseMeminfo(f)
	if err != nil {
		return 0, false
	}
	if limit, ok := cgroupValue(cgroupMaxPath); ok {
		used, _ := cgroupValue(cgroupCurPath)
		n = min(n, limit-min(used, limit))
	}
	return n, true
}

// cgroupValue reads a cgroup file holding one number of bytes; ok is false for
// "max" (no limit), a missing file or anything else.
func cgroupValue(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v, err := strconv.ParseUint(strings.TrimSpace(string(b)), 10, 64)
	return v, err == nil
}

// ParseMeminfo returns the MemAvailable field of a /proc/meminfo text in bytes
// ("MemAvailable:   23715796 kB"). A malformed MemAvailable line is an error naming
// its line number.
func ParseMeminfo(r io.Reader) (uint64, error) {
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		name, rest, found := strings.Cut(sc.Text(), ":")
		if !found || strings.TrimSpace(name) != "MemAvailable" {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || len(f) > 2 || (len(f) == 2 && f[1] != "kB") {
			return 0, fmt.Errorf("sysmem: line %d: want \"MemAvailable: N kB\", got %q", line, sc.Text())
		}
		n, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil || n > 1<<44 {
			return 0, fmt.Errorf("sysmem: line %d: bad size %q", line, f[0])
		}
		if len(f) == 2 {
			n *= 1024
		}
		return n, nil
	}
	if err := sc.Err(); err != nil {
		return 0, fmt.Errorf("sysmem: %w", err)
	}
	return 0, ErrNoField
}
