// Package experiments runs hexlearn's named, seeded, reproducible experiments after
// Kahl, Edelkamp & Hildebrand (2007), section 6: learned versus exact evaluation,
// evaluation times, search times, proving the empty 6x6 board, matches, pattern
// lookups and agreement with the solver. Each experiment writes a report directory
// (README.md summary, CSV tables, PNG and SVG plots) through package report.
package experiments

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/internal/report"
	"github.com/hexlearn/hexlearn/model"
)

// Errors callers may branch on.
var (
	ErrUnknown       = errors.New("experiments: unknown experiment")
	ErrNeedModel     = errors.New("experiments: this experiment needs a learned model (--model)")
	ErrNeedPatterns  = errors.New("experiments: this experiment needs a pattern database (--patterns)")
	ErrBadEnv        = errors.New("experiments: bad settings")
	errNoPositions   = errors.New("experiments: no positions to measure")
	defaultPositions = 300
)

// Env holds everything an experiment may use. Zero fields take the defaults noted.
type Env struct {
	Size      int          // board side (required)
	Seed      uint64       // seeds every random choice
	Model     *model.Model // the learned evaluator's model (experiments 1-9 except 7's XH match)
	Patterns  *patterns.DB // goal-pattern database (experiments 4, 8; optional elsewhere)
	Exact     circuit.ExactConfig
	Depth     int           // search depth (default 3)
	K         int           // k-best successor limit (default 10)
	Time      time.Duration // time per search for experiment 6 and per move for 7 (default 1 s)
	Positions int           // sample size for experiments 2, 6, 8, 9 (default 300; 6 and 8 use fewer)
	Openings  int           // openings for experiment 7 (0: every cell)
	Self      string        // path of the hexlearn binary that experiment 7 starts as GTP engines
	// ModelPath and PatternsPath are the files behind Model and Patterns, passed to the
	// engines of experiment 7.
	ModelPath, PatternsPath string
	Log                     io.Writer // progress lines (nil: discarded)
}

func (e *Env) defaults() error {
	if e.Size < 1 || e.Size > hex.MaxSize {
		return fmt.Errorf("%w: board size %d", ErrBadEnv, e.Size)
	}
	if e.Depth < 0 || e.K < 0 || e.Time < 0 || e.Positions < 0 || e.Openings < 0 {
		return fmt.Errorf("%w: negative depth, k, time, positions or openings", ErrBadEnv)
	}
	if e.Depth == 0 {
		e.Depth = 3
	}
	if e.K == 0 {
		e.K = 10
	}
	if e.Time == 0 {
		e.Time = time.Second
	}
	if e.Positions == 0 {
		e.Positions = defaultPositions
	}
	if e.Exact == (circuit.ExactConfig{}) {
		e.Exact = circuit.SearchExactConfig()
	}
	if e.Log == nil {
		e.Log = io.Discard
	}
	if e.Model != nil {
		if err := e.Model.CheckSize(e.Size, e.Size); err != nil {
			return err
		}
	}
	if e.Patterns != nil {
		if g := e.Patterns.Geometry(); g.W != e.Size || g.H != e.Size {
			return fmt.Errorf("%w: pattern database is for %dx%d, not %dx%d", ErrBadEnv, g.W, g.H, e.Size, e.Size)
		}
	}
	return nil
}

func (e *Env) logf(format string, a ...any) { fmt.Fprintf(e.Log, format+"\n", a...) }

// progress starts a progress report on e.Log for a loop over total units.
func (e *Env) progress(desc string, total int, unit string) *progress.Bar {
	return progress.New(e.Log, "  "+desc, int64(total), unit)
}

// Experiment is one named experiment.
type Experiment struct {
	Name  string // as typed on the command line
	Paper string // what the paper reports, for the summary
	Title string
	Run   func(ctx context.Context, env *Env, r *report.Report) error
}

var registry = map[string]*Experiment{}

func add(e *Experiment) { registry[e.Name] = e }

// Names lists the experiments in order.
func Names() []string {
	ns := make([]string, 0, len(registry))
	for n := range registry {
		ns = append(ns, n)
	}
	sort.Slice(ns, func(i, j int) bool { return order(ns[i]) < order(ns[j]) })
	return ns
}

// order sorts experiments by their number in the issue ("1-values" < "2-evaltime").
func order(name string) string {
	if i := strings.IndexByte(name, '-'); i > 0 && i < 3 {
		return fmt.Sprintf("%02s", name[:i]) + name[i:]
	}
	return name
}

// Lookup returns the experiment called name (its full name such as "1-values", or
// just its number or its word).
func Lookup(name string) (*Experiment, error) {
	if e, ok := registry[name]; ok {
		return e, nil
	}
	for n, e := range registry {
		if i := strings.IndexByte(n, '-'); i > 0 && (n[:i] == name || n[i+1:] == name) {
			return e, nil
		}
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknown, name, strings.Join(Names(), ", "))
}

// Run runs one experiment and writes its report into dir.
func Run(ctx context.Context, name string, env Env, dir string) error {
	ex, err := Lookup(name)
	if err != nil {
		return err
	}
	if err := env.defaults(); err != nil {
		return err
	}
	r, err := report.New(dir, fmt.Sprintf("Experiment %s: %s (%dx%d)", ex.Name, ex.Title, env.Size, env.Size))
	if err != nil {
		return err
	}
	if ex.Paper != "" {
		r.Printf("Paper (Kahl, Edelkamp & Hildebrand 2007): %s\n\n", ex.Paper)
	}
	r.Printf("Settings: seed %d, depth %d, k %d, time %v, positions %d.\n\n", env.Seed, env.Depth, env.K, env.Time, env.Positions)
	start := time.Now()
	env.logf("experiment %s: %s", ex.Name, ex.Title)
	if err := ex.Run(ctx, &env, r); err != nil {
		return fmt.Errorf("experiment %s: %w", ex.Name, err)
	}
	r.Printf("\nRun time: %.1f s.\n", time.Since(start).Seconds())
	return r.Close()
}

// firstMoveBoards returns the boards after each possible first move of Black.
func firstMoveBoards(size int) []*hex.Board {
	g := hex.MustGeometry(size, size)
	bs := make([]*hex.Board, 0, g.N)
	for c := hex.Cell(0); int(c) < g.N; c++ {
		b := hex.NewBoardGeometry(g)
		b.PlayStone(hex.Black, c)
		bs = append(bs, b)
	}
	return bs
}

// randomPositions returns n distinct undecided positions from seeded random games,
// with the number of stones drawn uniformly from 1..cells/2 (positions.Random).
func randomPositions(size, n int, seed uint64) []*hex.Board {
	return positions.Random(size, n, seed)
}

// evaluators returns a fresh exact evaluator and the learned evaluator of env.Model.
func (env *Env) evaluators() (*circuit.Exact, *model.Evaluator, error) {
	if env.Model == nil {
		return nil, nil, ErrNeedModel
	}
	ex, err := circuit.NewExact(env.Exact)
	if err != nil {
		return nil, nil, err
	}
	le, err := model.NewEvaluator(env.Model, env.Size, env.Size)
	if err != nil {
		return nil, nil, err
	}
	return ex, le, nil
}

// hexGeometry returns the geometry of an n x n board.
func hexGeometry(n int) *hex.Geometry { return hex.MustGeometry(n, n) }

// f3 formats v with 3 decimals, never as "-0.000".
func f3(v float64) string {
	s := fmt.Sprintf("%.3f", v)
	if s == "-0.000" {
		return "0.000"
	}
	return s
}
