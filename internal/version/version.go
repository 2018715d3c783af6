// Package version reports the code version recorded in files the project writes.
package version

import (
	"runtime/debug"
	"sync"
)

// Number is the release number of hexlearn.
const Number = "0.1.0"

var (
	once sync.Once
	full string
)

// String returns the release number followed by the VCS revision the binary was built
// from, when Go recorded one (for example "0.1.0+3f2a9c1d0e4b" or "0.1.0+3f2a9c1d0e4b-dirty").
// It is deterministic for a given build.
func String() string {
	once.Do(func() {
		full = Number
		info, ok := debug.ReadBuildInfo()
		if !ok {
			return
		}
		rev, dirty := "", false
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				dirty = s.Value == "true"
			}
		}
		if len(rev) > 12 {
			rev = rev[:12]
		}
		if rev != "" {
			full += "+" + rev
			if dirty {
				full += "-dirty"
			}
		}
	})
	return full
}
