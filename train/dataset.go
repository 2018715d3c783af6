package train

import (
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// FromTable converts the w x h rows of a dataset table to Examples (rows of other
// sizes are skipped). The winner is the solver's TrueWinner when known, else 0.
func FromTable(t *dataset.Table, w, h int) (*Examples, error) {
	c := w * h
	ex := &Examples{W: w, H: h}
	known := false
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
	}
	if ex.Rows() == 0 {
		return nil, fmt.Errorf("%w for %dx%d in the dataset", ErrNoData, w, h)
	}
	if !known {
		ex.Winner = nil
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
