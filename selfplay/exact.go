package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// Exact adapts the exact evaluator (circuit.Exact: H-search connections plus the two
// resistor circuits) for recording: it evaluates exactly as circuit.Exact.Evaluate
// does and also reports R_B, R_W and both colours' winning-VC flags (Detailer), and
// forwards the energy move ordering (search.Orderer).
type Exact struct {
	X    *circuit.Exact
	last Detail
}

// NewExact returns the adapter around a new circuit.Exact with configuration cfg.
func NewExact(cfg circuit.ExactConfig) (*Exact, error) {
	x, err := circuit.NewExact(cfg)
	if err != nil {
		return nil, fmt.Errorf("selfplay: %w", err)
	}
	return &Exact{X: x}, nil
}

// Evaluate implements search.Evaluator with circuit.Exact's analysis: the value is
// ln(R_W/R_B) from Black's point of view, ±circuit.MaxValue for a decided position.
func (e *Exact) Evaluate(b *hex.Board) search.Result {
	a, err := e.X.Analyse(b)
	if err != nil {
		e.last = Detail{RBlack: nan(), RWhite: nan()}
		return search.Result{}
	}
	e.last = Detail{RBlack: a.RB, RWhite: a.RW, BlackVC: a.BlackVC, WhiteVC: a.WhiteVC, WinnerProved: true}
	r := search.Result{Value: a.Value, Winner: a.Winner, HasMustplay: a.HasMustplay, Mustplay: a.Mustplay}
	if a.Winner != hex.Empty {
		r.Value = circuit.WinValue(a.Winner)
	}
	return r
}

// LastDetail implements Detailer.
func (e *Exact) LastDetail() Detail { return e.last }

// MoveScores implements search.Orderer (cell energies of the last evaluation).
func (e *Exact) MoveScores(b *hex.Board, scores []float64) { e.X.MoveScores(b, scores) }

// DescribeExact returns the exact evaluator configuration cfg as metadata entries.
func DescribeExact(cfg circuit.ExactConfig) map[string]string {
	return map[string]string{
		"evaluator":         "exact",
		"evaluator.circuit": fmt.Sprintf("%+v", cfg.Circuit),
		"evaluator.vc":      fmt.Sprintf("%+v", cfg.VC),
	}
}

func nan() float64 { return math.NaN() }

// SolverLabeler returns a labelling function for Config.NewLabeler backed by the
// game-theoretic solver (engine/solver) with a node limit per position; a position
// the solver cannot decide within the limit stays unlabelled. Call it once per game:
// the solver's transposition table is shared by the positions of one game only,
// which keeps the labels independent of the number of workers.
func SolverLabeler(maxNodes int64) func(context.Context, *hex.Board) (hex.Color, bool, error) {
	l := solver.NewLabeler(maxNodes)
	return func(ctx context.Context, b *hex.Board) (hex.Color, bool, error) {
		w, err := l.Winner(ctx, b)
		if cerr := ctx.Err(); cerr != nil {
			return hex.Empty, false, cerr
		}
		if errors.Is(err, solver.ErrLimit) {
			return hex.Empty, false, nil
		}
		if err != nil {
			return hex.Empty, false, err
		}
		return w, w != hex.Empty, nil
	}
}
