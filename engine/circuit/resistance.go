package circuit

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// Eval is the resistance evaluation of a position.
type Eval struct {
	// RB and RW are the total resistances of Black's and White's circuits (0 when the
	// colour is connected, +Inf when it is cut off).
	RB, RW float64
	// LogRB and LogRW are ln RB and ln RW clamped to [-LogClamp, LogClamp].
	LogRB, LogRW float64
	// E is Anshelevich's evaluation log(R_B/R_W) = LogRB - LogRW (negative favours
	// Black).
	E float64
	// Value is -E = ln(R_W/R_B), hexlearn's convention: positive favours Black.
	Value float64
	// Black and White are the solutions of the two circuits.
	Black, White Side
}

// Resistance evaluates both colours' circuits. It is a reusable workspace (not safe
// for concurrent use); its zero value is not usable, call NewResistance.
type Resistance struct {
	black, white *Circuit
	last         Eval
}

// NewResistance returns a two-circuit evaluator with configuration cfg.
func NewResistance(cfg Config) (*Resistance, error) {
	bl, err := New(cfg)
	if err != nil {
		return nil, err
	}
	wh, _ := New(cfg)
	return &Resistance{black: bl, white: wh}, nil
}

// Circuits returns the workspaces of Black's and White's circuits (for potentials,
// energies and residuals of the last evaluation).
func (r *Resistance) Circuits() (black, white *Circuit) { return r.black, r.white }

// Eval solves Black's circuit with blackLinks and White's with whiteLinks (virtual
// connections of each colour; nil for none).
func (r *Resistance) Eval(b *hex.Board, blackLinks, whiteLinks []Link) (Eval, error) {
	sb, err := r.black.Solve(b, hex.Black, blackLinks)
	if err != nil {
		return Eval{}, err
	}
	sw, err := r.white.Solve(b, hex.White, whiteLinks)
	if err != nil {
		return Eval{}, err
	}
	e := Eval{RB: sb.R, RW: sw.R, LogRB: sb.LogR, LogRW: sw.LogR, Black: sb, White: sw}
	e.E = e.LogRB - e.LogRW
	e.Value = -e.E
	r.last = e
	return e, nil
}

// Energy is the move-ordering score of empty cell p after the last evaluation: the sum
// of the cell's energies (power fractions, see Circuit.CellEnergy) in both circuits, so
// that a cell carrying much of either colour's current ranks high (Anshelevich 2002,
// section 6).
func (r *Resistance) Energy(p hex.Cell) float64 {
	return r.black.CellEnergy(p) + r.white.CellEnergy(p)
}

// Evaluate implements search.Evaluator with the plain circuits (no virtual
// connections): the value is ln(R_W/R_B) and a finished game sets Winner.
func (r *Resistance) Evaluate(b *hex.Board) search.Result {
	if w := b.Winner(); w != hex.Empty {
		return search.Result{Value: WinValue(w), Winner: w}
	}
	e, err := r.Eval(b, nil, nil)
	if err != nil { // cannot happen for a valid board without links
		return search.Result{}
	}
	return search.Result{Value: e.Value}
}

// MoveScores implements search.Orderer: scores[p] = Energy(p) for every empty cell of
// the position evaluated last.
func (r *Resistance) MoveScores(b *hex.Board, scores []float64) {
	fillEnergies(b, scores, r.Energy)
}

func fillEnergies(b *hex.Board, scores []float64, energy func(hex.Cell) float64) {
	empty := b.EmptyCells()
	for p := empty.First(); p != hex.NoCell; p = empty.Next(p + 1) {
		if int(p) < len(scores) {
			scores[p] = energy(p)
		}
	}
}

// WinValue returns the value of a position won by w: the extreme of the clamped scale,
// MaxValue for Black and -MaxValue for White (0 for hex.Empty: no winner).
func WinValue(w hex.Color) float64 {
	switch w {
	case hex.Black:
		return MaxValue
	case hex.White:
		return -MaxValue
	}
	return 0
}
