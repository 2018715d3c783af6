package train

import (
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// FromTable converts the w x h rows of a dataset table to Examples (rows of other
// sizes are skipped). The winner is the solver's TrueWinner when known, else 0; the
// outcome is that winner, else the winner a winning connection proves, else the
// result of the row's game (0 when the game has none); the search value is the
// player's search's where one ran (dataset.SearchTargets), and so are the visit
// shares (the policy target).
func FromTable(t *dataset.Table, w, h int) (*Examples, error) {
	c := w * h
	ex := &Examples{W: w, H: h}
	known, outcomes, searched, policies := false, false, false, false
	for i := range t.Rows {
		r := &t.Rows[i]
		if r.Width != w || r.Height != h {
			continue
		}
		if len(r.Cells) != c {
			return nil, fmt.Errorf("train: dataset row %d has %d cells for a %dx%d board", i, len(r.Cells), w, h)
		}
		for _, v := range r.Cells {
			ex.X = append(ex.X, float32(v))
		}
		v := r.Value
		if math.IsNaN(v) {
			return nil, fmt.Errorf("train: dataset row %d has a NaN value", i)
		}
		ex.Value = append(ex.Value, float32(v))
		ex.Ply = append(ex.Ply, r.Ply)
		var win int8
		switch r.TrueWinner {
		case hex.Black:
			win, known = 1, true
		case hex.White:
			win, known = -1, true
		}
		ex.Winner = append(ex.Winner, win)
		out := win
		switch {
		case out != 0:
		case r.BlackWinsVC || math.IsInf(v, 1):
			out = 1
		case r.WhiteWinsVC || math.IsInf(v, -1):
			out = -1
		case r.Winner == hex.Black:
			out = 1
		case r.Winner == hex.White:
			out = -1
		}
		outcomes = outcomes || r.Winner != hex.Empty
		ex.Outcome = append(ex.Outcome, out)
		q := float32(math.NaN())
		if r.Search != nil {
			q, searched = float32(r.Search.Value), true
		}
		ex.Search = append(ex.Search, q)
		switch {
		case r.Search != nil && r.Search.Policy != nil:
			if len(r.Search.Policy) != c {
				return nil, fmt.Errorf("train: dataset row %d has %d visit shares for a %dx%d board", i, len(r.Search.Policy), w, h)
			}
			ex.Policy, policies = append(ex.Policy, r.Search.Policy...), true
		default:
			for range c {
				ex.Policy = append(ex.Policy, float32(math.NaN()))
			}
		}
	}
	if ex.Rows() == 0 {
		return nil, fmt.Errorf("%w for %dx%d in the dataset", ErrNoData, w, h)
	}
	if !known {
		ex.Winner = nil
	}
	if !outcomes {
		ex.Outcome = nil
	}
	if !searched {
		ex.Search = nil
	}
	if !policies {
		ex.Policy = nil
	}
	if err := ex.Validate(); err != nil {
		return nil, err
	}
	return ex, nil
}

// ReadExamples reads a dataset file or directory and returns its w x h rows.
func ReadExamples(path string, w, h int) (*Examples, error) {
	t, err := dataset.ReadPath(path, nil)
	if err != nil {
		return nil, err
	}
	return FromTable(t, w, h)
}
