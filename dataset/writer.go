package dataset

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/version"
)

// DefaultBatchRows is the number of rows per Arrow record batch a Writer writes.
const DefaultBatchRows = 8192

// WriterOptions tune a Writer; the zero value (or nil) is fine.
type WriterOptions struct {
	// Allocator for the Arrow builders (memory.NewCheckedAllocator in tests); default
	// memory.DefaultAllocator.
	Allocator memory.Allocator
	// BatchRows is the number of rows per record batch; default DefaultBatchRows.
	// Batch boundaries depend only on the row count, so equal rows give equal bytes.
	BatchRows int
}

// Writer writes one dataset file (Arrow IPC file format) atomically: rows go to a
// temporary file next to the destination, which Close renames into place. Abort (or
// any failed Close) removes the temporary file, so an interrupted run leaves no
// partial dataset under the final name. A Writer is not safe for concurrent use.
type Writer struct {
	path, tmp string
	meta      Meta
	f         *os.File
	bw        *posWriter
	iw        *ipc.FileWriter
	schema    *arrow.Schema
	mem       memory.Allocator
	rb        *array.RecordBuilder
	batch     int
	pending   int
	rows      int64
	done      bool
}

// posWriter is a buffered writer that reports its position (the IPC file writer needs
// Seek(0, io.SeekCurrent) only).
type posWriter struct {
	*bufio.Writer
	pos int64
}

func (p *posWriter) Write(b []byte) (int, error) {
	n, err := p.Writer.Write(b)
	p.pos += int64(n)
	return n, err
}

func (p *posWriter) Seek(off int64, whence int) (int64, error) {
	if off == 0 && whence == io.SeekCurrent {
		return p.pos, nil
	}
	return 0, fmt.Errorf("dataset: writer cannot seek")
}

// Create starts a dataset file at path for boards of meta.Width x meta.Height. An
// empty meta.CodeVersion is set to internal/version.String().
func Create(path string, meta Meta, opt *WriterOptions) (*Writer, error) {
	if meta.Width < 1 || meta.Width > hex.MaxSize || meta.Height < 1 || meta.Height > hex.MaxSize {
		return nil, fmt.Errorf("%w: board size %dx%d out of range 1..%d", ErrSize, meta.Width, meta.Height, hex.MaxSize)
	}
	if meta.CodeVersion == "" {
		meta.CodeVersion = version.String()
	}
	meta.Version = FormatVersion
	var o WriterOptions
	if opt != nil {
		o = *opt
	}
	if o.Allocator == nil {
		o.Allocator = memory.DefaultAllocator
	}
	if o.BatchRows <= 0 {
		o.BatchRows = DefaultBatchRows
	}
	md, err := meta.arrowMetadata()
	if err != nil {
		return nil, err
	}
	schema := Schema(meta.Width, meta.Height, &md)
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("dataset: create temporary file for %s: %w", path, err)
	}
	w := &Writer{path: path, tmp: f.Name(), meta: meta, f: f, schema: schema, mem: o.Allocator, batch: o.BatchRows}
	w.bw = &posWriter{Writer: bufio.NewWriterSize(f, 1<<16)}
	w.iw, err = ipc.NewFileWriter(w.bw, ipc.WithSchema(schema), ipc.WithAllocator(o.Allocator))
	if err != nil {
		f.Close()
		os.Remove(w.tmp)
		return nil, fmt.Errorf("dataset: start %s: %w", path, err)
	}
	w.rb = array.NewRecordBuilder(o.Allocator, schema)
	return w, nil
}

// Meta returns the metadata the file is written with.
func (w *Writer) Meta() Meta { return w.meta }

// Rows returns the number of rows written so far.
func (w *Writer) Rows() int64 { return w.rows }

// Write appends one example after validating it against the file's board size.
func (w *Writer) Write(e *Example) error {
	if w.done {
		return fmt.Errorf("dataset: write to closed writer for %s", w.path)
	}
	if e.Width != w.meta.Width || e.Height != w.meta.Height {
		return fmt.Errorf("%w: example is %dx%d, file %s is %dx%d", ErrSize, e.Width, e.Height, w.path, w.meta.Width, w.meta.Height)
	}
	if err := e.Validate(); err != nil {
		return err
	}
	b := w.rb
	b.Field(0).(*array.Uint64Builder).Append(e.GameID)
	b.Field(1).(*array.Uint8Builder).Append(uint8(e.Width))
	b.Field(2).(*array.Uint8Builder).Append(uint8(e.Height))
	b.Field(3).(*array.Uint16Builder).Append(uint16(e.Ply))
	b.Field(4).(*array.Int8Builder).Append(ColorCode(e.ToMove))
	lb := b.Field(5).(*array.FixedSizeListBuilder)
	lb.Append(true)
	lb.ValueBuilder().(*array.Int8Builder).AppendValues(e.Cells, nil)
	b.Field(6).(*array.Float64Builder).Append(e.Value)
	appendNullableFloat(b.Field(7).(*array.Float64Builder), e.RBlack)
	appendNullableFloat(b.Field(8).(*array.Float64Builder), e.RWhite)
	b.Field(9).(*array.BooleanBuilder).Append(e.BlackWinsVC)
	b.Field(10).(*array.BooleanBuilder).Append(e.WhiteWinsVC)
	if e.CostUS == NoCost {
		b.Field(11).(*array.Int64Builder).AppendNull()
	} else {
		b.Field(11).(*array.Int64Builder).Append(e.CostUS)
	}
	b.Field(12).(*array.BooleanBuilder).Append(e.Played)
	b.Field(13).(*array.Int8Builder).Append(ColorCode(e.Winner))
	if e.TrueWinner == 0 {
		b.Field(14).(*array.Int8Builder).AppendNull()
	} else {
		b.Field(14).(*array.Int8Builder).Append(ColorCode(e.TrueWinner))
	}
	b.Field(15).(*array.Uint64Builder).Append(e.Hash)
	sv, pb := b.Field(16).(*array.Float64Builder), b.Field(17).(*array.FixedSizeListBuilder)
	switch s := e.Search; {
	case s == nil:
		sv.AppendNull()
		pb.AppendNull()
	case s.Policy == nil:
		sv.Append(s.Value)
		pb.AppendNull()
	default:
		sv.Append(s.Value)
		pb.Append(true)
		pb.ValueBuilder().(*array.Float32Builder).AppendValues(s.Policy, nil)
	}
	w.pending++
	w.rows++
	if w.pending >= w.batch {
		return w.flush()
	}
	return nil
}

func appendNullableFloat(b *array.Float64Builder, v float64) {
	if math.IsNaN(v) {
		b.AppendNull()
	} else {
		b.Append(v)
	}
}

// flush writes the pending rows as one record batch.
func (w *Writer) flush() error {
	if w.pending == 0 {
		return nil
	}
	rec := w.rb.NewRecord()
	defer rec.Release()
	w.pending = 0
	if err := w.iw.Write(rec); err != nil {
		return fmt.Errorf("dataset: write %s: %w", w.path, err)
	}
	return nil
}

// Close writes the remaining rows and the file footer, syncs the file and renames it
// to its final name. On error the temporary file is removed.
func (w *Writer) Close() (err error) {
	if w.done {
		return fmt.Errorf("dataset: %s already closed", w.path)
	}
	defer func() {
		if err != nil {
			w.Abort()
		}
	}()
	if err := w.flush(); err != nil {
		return err
	}
	if err := w.iw.Close(); err != nil {
		return fmt.Errorf("dataset: finish %s: %w", w.path, err)
	}
	if err := w.bw.Flush(); err != nil {
		return fmt.Errorf("dataset: write %s: %w", w.path, err)
	}
	if err := w.f.Sync(); err != nil {
		return fmt.Errorf("dataset: sync %s: %w", w.path, err)
	}
	if err := w.f.Close(); err != nil {
		return fmt.Errorf("dataset: close %s: %w", w.path, err)
	}
	if err := os.Chmod(w.tmp, 0o644); err != nil {
		return fmt.Errorf("dataset: chmod %s: %w", w.path, err)
	}
	if err := os.Rename(w.tmp, w.path); err != nil {
		return fmt.Errorf("dataset: rename into %s: %w", w.path, err)
	}
	w.done = true
	w.rb.Release()
	return nil
}

// Abort discards the file: the temporary file is removed and nothing appears under
// the final name. Calling Abort after Close or Abort does nothing.
func (w *Writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.rb.Release()
	w.f.Close()
	os.Remove(w.tmp)
}

// WriteFile writes examples to path as one dataset file (atomically).
func WriteFile(path string, meta Meta, examples []Example, opt *WriterOptions) error {
	w, err := Create(path, meta, opt)
	if err != nil {
		return err
	}
	for i := range examples {
		if err := w.Write(&examples[i]); err != nil {
			w.Abort()
			return fmt.Errorf("%w (row %d)", err, i)
		}
	}
	return w.Close()
}
