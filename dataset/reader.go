package dataset

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// FileExt is the extension of dataset files; ReadPath reads every such file in a
// directory.
const FileExt = ".arrow"

// ReaderOptions tune reading; the zero value (or nil) is fine.
type ReaderOptions struct {
	// Allocator for Arrow buffers (memory.NewCheckedAllocator in tests); default
	// memory.DefaultAllocator.
	Allocator memory.Allocator
}

// ReadFile reads and validates one dataset file.
func ReadFile(path string, opt *ReaderOptions) (*Table, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	t, err := Decode(data, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// Files returns the dataset files a path names: the path itself if it is a file, or
// the *.arrow files of a directory (not recursive, hidden and temporary files
// skipped), sorted by name.
func Files(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return nil, fmt.Errorf("dataset: %w", err)
	}
	var out []string
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || strings.HasPrefix(n, ".") || !strings.HasSuffix(n, FileExt) {
			continue
		}
		out = append(out, filepath.Join(path, n))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return nil, fmt.Errorf("dataset: no %s files in %s", FileExt, path)
	}
	return out, nil
}

// ReadPath reads a dataset file, or every dataset file of a directory in name order,
// into one Table. Files may hold different board sizes; Table.Meta is then the first
// file's metadata with Width and Height set to 0.
func ReadPath(path string, opt *ReaderOptions) (*Table, error) {
	files, err := Files(path)
	if err != nil {
		return nil, err
	}
	var all *Table
	for _, f := range files {
		t, err := ReadFile(f, opt)
		if err != nil {
			return nil, err
		}
		if all == nil {
			all = t
			continue
		}
		if t.Meta.Width != all.Meta.Width || t.Meta.Height != all.Meta.Height {
			all.Meta.Width, all.Meta.Height = 0, 0
		}
		all.Rows = append(all.Rows, t.Rows...)
	}
	return all, nil
}

// Decode reads and validates a dataset file held in memory. Any damage (a truncated,
// altered or foreign file) gives an error wrapping ErrNotDataset, ErrVersion,
// ErrSchema or ErrCorrupt; it never panics.
func Decode(data []byte, opt *ReaderOptions) (t *Table, err error) {
	mem := memory.Allocator(memory.DefaultAllocator)
	if opt != nil && opt.Allocator != nil {
		mem = opt.Allocator
	}
	// The Arrow library trusts the flatbuffers and buffer lengths it reads and may
	// panic on a damaged file: turn that into an error.
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, fmt.Errorf("%w: %v", ErrCorrupt, r)
		}
	}()
	if len(data) < 8 || string(data[:6]) != "ARROW1" {
		return nil, fmt.Errorf("%w: no Arrow IPC file magic", ErrNotDataset)
	}
	if err := checkFooter(data); err != nil {
		return nil, err
	}
	// A damaged length field can ask for gigabytes, and running out of memory is
	// fatal, not a panic: no buffer of an uncompressed file exceeds the file itself.
	mem = &limitAllocator{Allocator: mem, limit: len(data) + 64}
	fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(mem))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	defer fr.Close()
	meta, err := metaFromArrow(fr.Schema().Metadata())
	if err != nil {
		return nil, err
	}
	if err := checkSchema(fr.Schema(), meta.Width, meta.Height, meta.Version); err != nil {
		return nil, err
	}
	t = &Table{Meta: meta}
	v := newValidator(meta.Width, meta.Height, fr.Schema().NumFields())
	for i := 0; i < fr.NumRecords(); i++ {
		rec, err := fr.RecordAt(i)
		if err != nil {
			return nil, fmt.Errorf("%w: record batch %d: %v", ErrCorrupt, i, err)
		}
		err = v.decodeRecord(rec, t)
		rec.Release()
		if err != nil {
			return nil, fmt.Errorf("record batch %d: %w", i, err)
		}
	}
	return t, nil
}

// checkSchema compares s with the schema of format version version for w x h boards,
// field by field (names, types, nullability).
func checkSchema(s *arrow.Schema, w, h, version int) error {
	want := schemaVersion(w, h, version, nil)
	if s.NumFields() != want.NumFields() {
		return fmt.Errorf("%w: %d columns, want %d", ErrSchema, s.NumFields(), want.NumFields())
	}
	for i, f := range want.Fields() {
		g := s.Field(i)
		if g.Name != f.Name || g.Nullable != f.Nullable || !arrow.TypeEqual(g.Type, f.Type) {
			return fmt.Errorf("%w: column %d is %s %s (nullable %v), want %s %s (nullable %v)",
				ErrSchema, i, g.Name, g.Type, g.Nullable, f.Name, f.Type, f.Nullable)
		}
	}
	return nil
}

// validator checks rows against the board size and recomputes hashes.
type validator struct {
	w, h  int
	cols  int // the file's columns: 16 (version 1) or 18
	board *hex.Board
}

func newValidator(w, h, cols int) *validator {
	return &validator{w: w, h: h, cols: cols, board: hex.MustBoard(w, h)}
}

func (v *validator) decodeRecord(rec arrow.Record, t *Table) error {
	n := int(rec.NumRows())
	if int(rec.NumCols()) != v.cols {
		return fmt.Errorf("%w: %d columns", ErrCorrupt, rec.NumCols())
	}
	for c := 0; c < v.cols; c++ {
		col := rec.Column(c)
		if col.Len() != n {
			return fmt.Errorf("%w: column %s has %d rows, record has %d", ErrCorrupt, rec.ColumnName(c), col.Len(), n)
		}
		if !rec.Schema().Field(c).Nullable && col.NullN() != 0 {
			return fmt.Errorf("%w: column %s has nulls", ErrCorrupt, rec.ColumnName(c))
		}
	}
	gameID := rec.Column(0).(*array.Uint64)
	width := rec.Column(1).(*array.Uint8)
	height := rec.Column(2).(*array.Uint8)
	ply := rec.Column(3).(*array.Uint16)
	toMove := rec.Column(4).(*array.Int8)
	cellsList := rec.Column(5).(*array.FixedSizeList)
	cellVals, ok := cellsList.ListValues().(*array.Int8)
	if !ok {
		return fmt.Errorf("%w: cells values are not int8", ErrCorrupt)
	}
	if cellVals.NullN() != 0 {
		return fmt.Errorf("%w: cells hold nulls", ErrCorrupt)
	}
	value := rec.Column(6).(*array.Float64)
	rB := rec.Column(7).(*array.Float64)
	rW := rec.Column(8).(*array.Float64)
	bVC := rec.Column(9).(*array.Boolean)
	wVC := rec.Column(10).(*array.Boolean)
	cost := rec.Column(11).(*array.Int64)
	played := rec.Column(12).(*array.Boolean)
	winner := rec.Column(13).(*array.Int8)
	trueWinner := rec.Column(14).(*array.Int8)
	hash := rec.Column(15).(*array.Uint64)
	var searchValue *array.Float64
	var policyList *array.FixedSizeList
	var policyVals []float32
	if v.cols > 16 {
		searchValue = rec.Column(16).(*array.Float64)
		policyList = rec.Column(17).(*array.FixedSizeList)
		pv, ok := policyList.ListValues().(*array.Float32)
		if !ok {
			return fmt.Errorf("%w: policy values are not float32", ErrCorrupt)
		}
		policyVals = pv.Float32Values()
	}

	nc := v.w * v.h
	raw := cellVals.Int8Values()
	for i := 0; i < n; i++ {
		start, end := cellsList.ValueOffsets(i)
		if start < 0 || end > int64(len(raw)) || end-start != int64(nc) {
			return fmt.Errorf("%w: row %d: cells out of bounds", ErrCorrupt, i)
		}
		e := Example{
			GameID: gameID.Value(i),
			Width:  int(width.Value(i)), Height: int(height.Value(i)),
			Ply:         int(ply.Value(i)),
			Cells:       append([]int8(nil), raw[start:end]...),
			Value:       value.Value(i),
			RBlack:      math.NaN(),
			RWhite:      math.NaN(),
			BlackWinsVC: bVC.Value(i),
			WhiteWinsVC: wVC.Value(i),
			CostUS:      NoCost,
			Played:      played.Value(i),
			Hash:        hash.Value(i),
		}
		if searchValue != nil && searchValue.IsValid(i) {
			e.Search = &SearchTargets{Value: searchValue.Value(i)}
		}
		if policyList != nil && policyList.IsValid(i) {
			if e.Search == nil {
				return fmt.Errorf("%w: row %d: a policy without a search value", ErrCorrupt, i)
			}
			start, end := policyList.ValueOffsets(i)
			if start < 0 || end > int64(len(policyVals)) || end-start != int64(nc) {
				return fmt.Errorf("%w: row %d: policy out of bounds", ErrCorrupt, i)
			}
			e.Search.Policy = append([]float32(nil), policyVals[start:end]...)
		}
		if e.Width != v.w || e.Height != v.h {
			return fmt.Errorf("%w: row %d is %dx%d in a %dx%d file", ErrCorrupt, i, e.Width, e.Height, v.w, v.h)
		}
		var ok1, ok2, ok3 bool
		e.ToMove, ok1 = CodeColor(toMove.Value(i))
		e.Winner, ok2 = CodeColor(winner.Value(i))
		ok3 = true
		if trueWinner.IsValid(i) {
			e.TrueWinner, ok3 = CodeColor(trueWinner.Value(i))
			ok3 = ok3 && e.TrueWinner != hex.Empty
		}
		if !ok1 || !ok2 || !ok3 || e.ToMove == hex.Empty {
			return fmt.Errorf("%w: row %d: colour code out of range", ErrCorrupt, i)
		}
		if rB.IsValid(i) {
			e.RBlack = rB.Value(i)
		}
		if rW.IsValid(i) {
			e.RWhite = rW.Value(i)
		}
		if cost.IsValid(i) {
			e.CostUS = cost.Value(i)
			if e.CostUS < 0 {
				return fmt.Errorf("%w: row %d: negative cost", ErrCorrupt, i)
			}
		}
		if err := e.Validate(); err != nil {
			return fmt.Errorf("%w: row %d: %s", ErrCorrupt, i, strings.TrimPrefix(err.Error(), ErrExample.Error()+": "))
		}
		if h, err := v.hash(&e); err != nil || h != e.Hash {
			return fmt.Errorf("%w: row %d: position hash does not match the cells", ErrCorrupt, i)
		}
		t.Rows = append(t.Rows, e)
	}
	return nil
}

// hash recomputes the Zobrist hash of e's position on the validator's board.
func (v *validator) hash(e *Example) (uint64, error) {
	b := v.board
	b.Reset()
	for i, c := range e.Cells {
		switch c {
		case CellBlack:
			b.PlayStone(hex.Black, hex.Cell(i))
		case CellWhite:
			b.PlayStone(hex.White, hex.Cell(i))
		}
	}
	b.SetToMove(e.ToMove)
	return b.Hash(), nil
}

// limitAllocator refuses (by panicking, which Decode recovers) any single allocation
// larger than limit bytes.
type limitAllocator struct {
	memory.Allocator
	limit int
}

// errTooLarge is the panic value of a refused allocation.
var errTooLarge = errors.New("a buffer length exceeds the file size")

func (a *limitAllocator) Allocate(size int) []byte {
	if size < 0 || size > a.limit {
		panic(errTooLarge)
	}
	return a.Allocator.Allocate(size)
}

func (a *limitAllocator) Reallocate(size int, b []byte) []byte {
	if size < 0 || size > a.limit {
		panic(errTooLarge)
	}
	return a.Allocator.Reallocate(size, b)
}
