package dataset

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// WriteCSV writes the rows as CSV with a header line: the scalar columns in schema
// order (nulls as empty fields, colours as -1/0/+1, booleans as 0/1, hash in
// hexadecimal), then one column per cell named by its cell name (a1, b1, ...). All
// rows must have one board size.
func (t *Table) WriteCSV(w io.Writer) error {
	if len(t.Rows) == 0 {
		return fmt.Errorf("dataset: nothing to export")
	}
	w0, h0 := t.Rows[0].Width, t.Rows[0].Height
	g, err := hex.NewGeometry(w0, h0)
	if err != nil {
		return fmt.Errorf("dataset: %w", err)
	}
	cw := csv.NewWriter(w)
	head := []string{ColGameID, ColWidth, ColHeight, ColPly, ColToMove, ColValue, ColRBlack, ColRWhite,
		ColBlackWinsVC, ColWhiteWinsVC, ColCostUS, ColPlayed, ColWinner, ColTrueWinner, ColHash}
	nscalar := len(head)
	for i := 0; i < g.N; i++ {
		head = append(head, g.CellName(hex.Cell(i)))
	}
	if err := cw.Write(head); err != nil {
		return fmt.Errorf("dataset: write csv: %w", err)
	}
	rec := make([]string, len(head))
	for r := range t.Rows {
		e := &t.Rows[r]
		if e.Width != w0 || e.Height != h0 {
			return fmt.Errorf("%w: row %d is %dx%d, row 0 is %dx%d", ErrSize, r, e.Width, e.Height, w0, h0)
		}
		rec = rec[:0]
		rec = append(rec,
			strconv.FormatUint(e.GameID, 10), strconv.Itoa(e.Width), strconv.Itoa(e.Height),
			strconv.Itoa(e.Ply), strconv.Itoa(int(ColorCode(e.ToMove))), ftoa(e.Value),
			nullFloat(e.RBlack), nullFloat(e.RWhite), btoa(e.BlackWinsVC), btoa(e.WhiteWinsVC))
		if e.CostUS == NoCost {
			rec = append(rec, "")
		} else {
			rec = append(rec, strconv.FormatInt(e.CostUS, 10))
		}
		rec = append(rec, btoa(e.Played), strconv.Itoa(int(ColorCode(e.Winner))))
		if e.TrueWinner == hex.Empty {
			rec = append(rec, "")
		} else {
			rec = append(rec, strconv.Itoa(int(ColorCode(e.TrueWinner))))
		}
		rec = append(rec, fmt.Sprintf("%016x", e.Hash))
		for _, c := range e.Cells {
			rec = append(rec, strconv.Itoa(int(c)))
		}
		if len(rec) != nscalar+g.N {
			return fmt.Errorf("%w: row %d has %d cells", ErrExample, r, len(e.Cells))
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("dataset: write csv: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("dataset: write csv: %w", err)
	}
	return nil
}

func ftoa(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func nullFloat(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return ftoa(v)
}

func btoa(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// FANNOptions tune the FANN export.
type FANNOptions struct {
	// Scale divides every value before it is written (0 or 1: unchanged). FANN's
	// symmetric sigmoid outputs lie in (-1, 1), so a scale such as 2*LogClamp maps the
	// exact evaluator's range onto it.
	Scale float64
}

// WriteFANN writes the rows in the training-file format of the Fast Artificial Neural
// Network library (Nissen 2003), which Kahl et al. used: a header line "pairs inputs
// outputs", then per row one line of W*H inputs (+1 white, 0 empty, -1 black) and one
// line with the value (Black's point of view). Non-finite values are an error.
func (t *Table) WriteFANN(w io.Writer, opt FANNOptions) error {
	if len(t.Rows) == 0 {
		return fmt.Errorf("dataset: nothing to export")
	}
	scale := opt.Scale
	if scale == 0 {
		scale = 1
	}
	n := len(t.Rows[0].Cells)
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%d %d 1\n", len(t.Rows), n)
	buf := make([]byte, 0, 4*n)
	for r := range t.Rows {
		e := &t.Rows[r]
		if len(e.Cells) != n {
			return fmt.Errorf("%w: row %d has %d cells, row 0 has %d", ErrSize, r, len(e.Cells), n)
		}
		v := e.Value / scale
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: row %d has value %v; FANN needs finite values", ErrExample, r, e.Value)
		}
		buf = buf[:0]
		for i, c := range e.Cells {
			if i > 0 {
				buf = append(buf, ' ')
			}
			buf = strconv.AppendInt(buf, int64(c), 10)
		}
		buf = append(buf, '\n')
		buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("dataset: write fann: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("dataset: write fann: %w", err)
	}
	return nil
}

// ExportCSV writes t as CSV to path atomically.
func (t *Table) ExportCSV(path string) error {
	return fileutil.WriteAtomic(path, t.WriteCSV)
}

// ExportFANN writes t as a FANN training file to path atomically.
func (t *Table) ExportFANN(path string, opt FANNOptions) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return t.WriteFANN(w, opt) })
}

// Merge reads the dataset files in paths (files or directories) and writes them,
// rows in argument order, as one file at out. All inputs must have the same board
// size; with dedupe repeated positions are dropped (first kept). The output's
// metadata is the first input's with Generator "merge" and the sources' configs
// recorded under "source.N.*" keys. It returns the number of rows written.
func Merge(out string, paths []string, dedupe bool, opt *WriterOptions) (int, error) {
	if len(paths) == 0 {
		return 0, fmt.Errorf("dataset: merge needs at least one input")
	}
	var all *Table
	cfg := map[string]string{}
	src := 0
	for _, p := range paths {
		files, err := Files(p)
		if err != nil {
			return 0, err
		}
		for _, f := range files {
			t, err := ReadFile(f, nil)
			if err != nil {
				return 0, err
			}
			if all == nil {
				all = &Table{Meta: t.Meta}
			} else if t.Meta.Width != all.Meta.Width || t.Meta.Height != all.Meta.Height {
				return 0, fmt.Errorf("%w: %s is %dx%d, the first input is %dx%d", ErrSize, f,
					t.Meta.Width, t.Meta.Height, all.Meta.Width, all.Meta.Height)
			}
			pre := fmt.Sprintf("source.%d.", src)
			cfg[pre+"generator"] = t.Meta.Generator
			cfg[pre+"code_version"] = t.Meta.CodeVersion
			for k, v := range t.Meta.Config {
				cfg[pre+k] = v
			}
			src++
			all.Rows = append(all.Rows, t.Rows...)
		}
	}
	if dedupe {
		all, _ = all.Dedupe()
	}
	meta := all.Meta
	meta.Generator = "merge"
	meta.CodeVersion = ""
	meta.Config = cfg
	if err := WriteFile(out, meta, all.Rows, opt); err != nil {
		return 0, err
	}
	return len(all.Rows), nil
}
