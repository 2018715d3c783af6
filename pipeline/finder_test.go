package pipeline

import (
	"errors"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// TestNewFinder: every finder name gives its finder (the solver finder with its time
// per question, and as a MoveFinder); a bad name or time is a configuration error.
func TestNewFinder(t *testing.T) {
	for _, name := range []string{"vc", "proof", "xh", "bridges", "solver", "solver:3s"} {
		if _, err := NewFinder(name); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for name, want := range map[string]time.Duration{"solver": SolverFinderTime, "solver:1m30s": 90 * time.Second} {
		f, err := NewFinder(name)
		if err != nil {
			t.Fatal(err)
		}
		sf, ok := f.(*solver.Finder)
		if !ok || sf.Timeout != want {
			t.Errorf("%s: %T with %v, want a solver finder with %v", name, f, sf, want)
		}
		if _, ok := f.(patterns.MoveFinder); !ok {
			t.Errorf("%s: not a MoveFinder", name)
		}
	}
	for _, name := range []string{"", "solverx", "solver:", "solver:0s", "solver:-1s", "solver:soon", "solver5s", "dfpn"} {
		if _, err := NewFinder(name); !errors.Is(err, ErrConfig) {
			t.Errorf("%q: %v, want ErrConfig", name, err)
		}
	}
}
