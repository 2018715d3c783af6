package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime/pprof"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// profileEnv names the environment variable that makes any hexlearn command record a
// CPU profile (go tool pprof format) of its whole run into the file it names; "%p" in
// the name is replaced by the process id, so the GTP engines a match starts (which
// inherit the variable) write one profile each. The file is written when the command
// ends (interrupted ones included), through a temporary file. The profiles of typical
// runs, merged, are the compiler's profile for profile-guided optimisation
// (cmd/hexlearn/default.pgo; docs/testing.md says how it was made).
const profileEnv = "HEXLEARN_CPUPROFILE"

// startProfile starts the CPU profile HEXLEARN_CPUPROFILE asks for (nothing when it
// is empty) and returns the function that stops it and writes the file.
func startProfile(path string) (stop func() error, err error) {
	if path == "" {
		return func() error { return nil }, nil
	}
	path = strings.ReplaceAll(path, "%p", strconv.Itoa(os.Getpid()))
	var buf bytes.Buffer
	if err := pprof.StartCPUProfile(&buf); err != nil {
		return nil, fmt.Errorf("%s: %w", profileEnv, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := fileutil.WriteFileAtomic(path, buf.Bytes()); err != nil {
			return fmt.Errorf("%s: %w", profileEnv, err)
		}
		return nil
	}, nil
}
