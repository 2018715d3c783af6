package dataset

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/apache/arrow/go/v15/arrow/array"
	"github.com/apache/arrow/go/v15/arrow/ipc"
	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// randomExamples plays random games on a w x h board and records every position with
// pseudo-random evaluation fields (nulls included).
func randomExamples(t testing.TB, w, h, n int, seed uint64) []Example {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Example
	game := uint64(0)
	for len(out) < n {
		b := hex.MustBoard(w, h)
		winner := hex.Black
		if rng.IntN(2) == 0 {
			winner = hex.White
		}
		for len(out) < n {
			e := FromBoard(b)
			e.GameID = game
			e.Value = rng.NormFloat64() * 3
			if rng.IntN(4) != 0 {
				e.RBlack, e.RWhite = rng.Float64()*10, rng.Float64()*10
			}
			e.BlackWinsVC = rng.IntN(5) == 0
			e.WhiteWinsVC = !e.BlackWinsVC && rng.IntN(5) == 0
			if rng.IntN(3) == 0 {
				e.CostUS = int64(rng.IntN(5000))
			}
			e.Played = rng.IntN(2) == 0
			e.Winner = winner
			if rng.IntN(3) == 0 {
				e.TrueWinner = hex.Color(1 + rng.IntN(2))
			}
			if e.Played && b.EmptyCells().Count() > 0 { // a search's targets (no draws of rng)
				e.Search = &SearchTargets{Value: math.Tanh(e.Value)}
				if e.Ply%2 == 0 {
					e.Search.Policy = make([]float32, len(e.Cells))
					empty := b.EmptyCells()
					for c := empty.First(); c != hex.NoCell; c = empty.Next(c + 1) {
						e.Search.Policy[c] = 1 / float32(empty.Count())
					}
				}
			}
			out = append(out, e)
			empty := b.EmptyCells()
			cells := empty.AppendCells(nil)
			if len(cells) == 0 || b.Winner() != hex.Empty {
				break
			}
			b.PlayStone(b.ToMove(), cells[rng.IntN(len(cells))])
		}
		game++
	}
	return out
}

// sameExamples compares examples with NaN == NaN.
func sameExamples(t *testing.T, got, want []Example) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("got %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if math.IsNaN(g.RBlack) != math.IsNaN(w.RBlack) || math.IsNaN(g.RWhite) != math.IsNaN(w.RWhite) {
			t.Fatalf("row %d: null resistances differ: got %v/%v want %v/%v", i, g.RBlack, g.RWhite, w.RBlack, w.RWhite)
		}
		if math.IsNaN(w.RBlack) {
			g.RBlack, w.RBlack = 0, 0
		}
		if math.IsNaN(w.RWhite) {
			g.RWhite, w.RWhite = 0, 0
		}
		if !reflect.DeepEqual(g, w) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, g, w)
		}
	}
}

func testMeta(w, h int) Meta {
	return Meta{Version: FormatVersion, Width: w, Height: h, Generator: "test", CodeVersion: "test-1",
		Config: map[string]string{"seed": "7", "depth": "2", "k": "8"}}
}

func TestRoundTrip(t *testing.T) {
	for _, sz := range []Size{{5, 5}, {6, 6}, {3, 7}, {11, 11}} {
		t.Run(sz.String(), func(t *testing.T) {
			mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
			defer mem.AssertSize(t, 0)
			rows := randomExamples(t, sz.W, sz.H, 300, uint64(sz.W*31+sz.H))
			path := filepath.Join(t.TempDir(), "d.arrow")
			if err := WriteFile(path, testMeta(sz.W, sz.H), rows, &WriterOptions{Allocator: mem, BatchRows: 64}); err != nil {
				t.Fatal(err)
			}
			tab, err := ReadFile(path, &ReaderOptions{Allocator: mem})
			if err != nil {
				t.Fatal(err)
			}
			sameExamples(t, tab.Rows, rows)
			if !reflect.DeepEqual(tab.Meta, testMeta(sz.W, sz.H)) {
				t.Errorf("meta: got %+v, want %+v", tab.Meta, testMeta(sz.W, sz.H))
			}
		})
	}
}

func TestDeterministicBytes(t *testing.T) {
	rows := randomExamples(t, 5, 5, 500, 3)
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")
	for _, p := range []string{a, b} {
		if err := WriteFile(p, testMeta(5, 5), rows, &WriterOptions{BatchRows: 100}); err != nil {
			t.Fatal(err)
		}
	}
	da, _ := os.ReadFile(a)
	db, _ := os.ReadFile(b)
	if !bytes.Equal(da, db) {
		t.Fatal("equal rows and metadata gave different bytes")
	}
}

func TestEmptyFile(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	path := filepath.Join(t.TempDir(), "e.arrow")
	if err := WriteFile(path, testMeta(4, 4), nil, &WriterOptions{Allocator: mem}); err != nil {
		t.Fatal(err)
	}
	tab, err := ReadFile(path, &ReaderOptions{Allocator: mem})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 0 || tab.Meta.Width != 4 {
		t.Fatalf("got %d rows, meta %+v", tab.Len(), tab.Meta)
	}
}

func TestAtomicAbort(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	path := filepath.Join(dir, "x.arrow")
	w, err := Create(path, testMeta(5, 5), &WriterOptions{Allocator: mem, BatchRows: 10})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range randomExamples(t, 5, 5, 25, 1) {
		if err := w.Write(&e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatal("final name exists before Close")
	}
	w.Abort()
	ents, _ := os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("abort left files: %v", ents)
	}
	// A bad example makes WriteFile abort and leave nothing.
	bad := randomExamples(t, 5, 5, 3, 2)
	bad[2].Cells[0] = 5
	err = WriteFile(path, testMeta(5, 5), bad, &WriterOptions{Allocator: mem})
	if !errors.Is(err, ErrExample) {
		t.Fatalf("bad cell: got %v, want ErrExample", err)
	}
	ents, _ = os.ReadDir(dir)
	if len(ents) != 0 {
		t.Fatalf("failed write left files: %v", ents)
	}
}

func TestWriterRejects(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.arrow")
	w, err := Create(path, testMeta(5, 5), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Abort()
	good := randomExamples(t, 5, 5, 4, 9)[3]
	tests := []struct {
		name string
		edit func(e *Example)
		want error
	}{
		{"wrong size", func(e *Example) { *e = randomExamples(t, 6, 6, 1, 1)[0] }, ErrSize},
		{"bad ply", func(e *Example) { e.Ply++ }, ErrExample},
		{"bad cell", func(e *Example) { e.Cells[3] = -2 }, ErrExample},
		{"no side to move", func(e *Example) { e.ToMove = hex.Empty }, ErrExample},
		{"short cells", func(e *Example) { e.Cells = e.Cells[:10] }, ErrExample},
		{"search value outside [-1, 1]", func(e *Example) { e.Search = &SearchTargets{Value: 1.5} }, ErrExample},
		{"search value NaN", func(e *Example) { e.Search = &SearchTargets{Value: math.NaN()} }, ErrExample},
		{"short policy", func(e *Example) { e.Search = &SearchTargets{Policy: make([]float32, 3)} }, ErrExample},
		{"policy not summing to 1", func(e *Example) { e.Search = &SearchTargets{Policy: make([]float32, len(e.Cells))} }, ErrExample},
		{"policy on a stone", func(e *Example) {
			e.Search = &SearchTargets{Policy: make([]float32, len(e.Cells))}
			for i, c := range e.Cells {
				if c != CellEmpty {
					e.Search.Policy[i] = 1
					return
				}
			}
		}, ErrExample},
	}
	for _, tc := range tests {
		e := good
		e.Cells = append([]int8(nil), good.Cells...)
		tc.edit(&e)
		if err := w.Write(&e); !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, err := Create(path, testMeta(0, 5), nil); !errors.Is(err, ErrSize) {
		t.Errorf("size 0x5: got %v", err)
	}
}

// writeRaw writes an IPC file with the given schema and one record built by fill.
func writeRaw(t *testing.T, schema *arrow.Schema, fill func(b *array.RecordBuilder)) []byte {
	t.Helper()
	var buf bytes.Buffer
	f, err := os.CreateTemp(t.TempDir(), "raw")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	iw, err := ipc.NewFileWriter(f, ipc.WithSchema(schema))
	if err != nil {
		t.Fatal(err)
	}
	rb := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer rb.Release()
	if fill != nil {
		fill(rb)
		rec := rb.NewRecord()
		if err := iw.Write(rec); err != nil {
			t.Fatal(err)
		}
		rec.Release()
	}
	if err := iw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Seek(0, 0)
	buf.ReadFrom(f)
	return buf.Bytes()
}

func TestReaderRejects(t *testing.T) {
	good := testMeta(3, 3)
	md, _ := good.arrowMetadata()
	future := arrow.NewMetadata(
		[]string{KeyFormat, KeyVersion, KeyWidth, KeyHeight},
		[]string{FormatName, "3", "3", "3"})
	foreign := arrow.NewMetadata([]string{"x"}, []string{"y"})
	sizeMismatch := arrow.NewMetadata(
		[]string{KeyFormat, KeyVersion, KeyWidth, KeyHeight},
		[]string{FormatName, "2", "4", "3"})
	otherSchema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int8}}, &md)

	// A well-formed file whose row is inconsistent (ply does not match the cells).
	badPly := writeRaw(t, Schema(3, 3, &md), func(b *array.RecordBuilder) {
		e := FromBoard(hex.MustBoard(3, 3))
		b.Field(0).(*array.Uint64Builder).Append(0)
		b.Field(1).(*array.Uint8Builder).Append(3)
		b.Field(2).(*array.Uint8Builder).Append(3)
		b.Field(3).(*array.Uint16Builder).Append(4) // wrong: the board is empty
		b.Field(4).(*array.Int8Builder).Append(-1)
		lb := b.Field(5).(*array.FixedSizeListBuilder)
		lb.Append(true)
		lb.ValueBuilder().(*array.Int8Builder).AppendValues(e.Cells, nil)
		b.Field(6).(*array.Float64Builder).Append(0)
		b.Field(7).(*array.Float64Builder).AppendNull()
		b.Field(8).(*array.Float64Builder).AppendNull()
		b.Field(9).(*array.BooleanBuilder).Append(false)
		b.Field(10).(*array.BooleanBuilder).Append(false)
		b.Field(11).(*array.Int64Builder).AppendNull()
		b.Field(12).(*array.BooleanBuilder).Append(true)
		b.Field(13).(*array.Int8Builder).Append(1)
		b.Field(14).(*array.Int8Builder).AppendNull()
		b.Field(15).(*array.Uint64Builder).Append(e.Hash)
		b.Field(16).(*array.Float64Builder).AppendNull()
		b.Field(17).(*array.FixedSizeListBuilder).AppendNull()
	})

	tests := []struct {
		name string
		data []byte
		want error
	}{
		{"garbage", []byte("garbage"), ErrNotDataset},
		{"empty", nil, ErrNotDataset},
		{"magic only", []byte("ARROW1\x00\x00ARROW1"), ErrCorrupt},
		{"foreign arrow file", writeRaw(t, Schema(3, 3, &foreign), nil), ErrNotDataset},
		{"future version", writeRaw(t, Schema(3, 3, &future), nil), ErrVersion},
		{"other schema", writeRaw(t, otherSchema, nil), ErrSchema},
		{"cells length disagrees with size", writeRaw(t, Schema(3, 3, &sizeMismatch), nil), ErrSchema},
		{"inconsistent row", badPly, ErrCorrupt},
	}
	for _, tc := range tests {
		_, err := Decode(tc.data, nil)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestTruncatedAndAltered(t *testing.T) {
	rows := randomExamples(t, 4, 4, 40, 5)
	path := filepath.Join(t.TempDir(), "t.arrow")
	if err := WriteFile(path, testMeta(4, 4), rows, &WriterOptions{BatchRows: 16}); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	step := 1
	if testing.Short() {
		step = 7
	}
	for n := 0; n < len(data); n += step {
		if _, err := Decode(data[:n], nil); err == nil {
			t.Fatalf("truncated to %d of %d bytes: no error", n, len(data))
		}
	}
	// Every single-byte change either still decodes to a valid table or gives an
	// error; none may panic (Decode recovers, so check the error type too).
	accepted := 0
	for i := 0; i < len(data); i += step {
		alt := append([]byte(nil), data...)
		alt[i] ^= 0x5a
		tab, err := Decode(alt, nil)
		if err == nil {
			accepted++
			for j := range tab.Rows {
				if err := tab.Rows[j].Validate(); err != nil {
					t.Fatalf("byte %d altered: accepted an invalid row: %v", i, err)
				}
			}
			continue
		}
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrNotDataset) && !errors.Is(err, ErrSchema) && !errors.Is(err, ErrVersion) {
			t.Fatalf("byte %d altered: error %v wraps no sentinel", i, err)
		}
	}
	t.Logf("%d of %d altered files still valid (changes to values or padding)", accepted, len(data)/step)
}

func TestReadPathDirectory(t *testing.T) {
	dir := t.TempDir()
	a := randomExamples(t, 5, 5, 30, 1)
	b := randomExamples(t, 5, 5, 20, 2)
	if err := WriteFile(filepath.Join(dir, "b.arrow"), testMeta(5, 5), b, nil); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(filepath.Join(dir, "a.arrow"), testMeta(5, 5), a, nil); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, ".a.arrow.tmp-123"), []byte("junk"), 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("junk"), 0o644)
	tab, err := ReadPath(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameExamples(t, tab.Rows, append(append([]Example(nil), a...), b...))
	if _, err := ReadPath(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "no .arrow files") {
		t.Errorf("empty dir: got %v", err)
	}
}
