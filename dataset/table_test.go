package dataset

import (
	"bytes"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v15/arrow/memory"
	"github.com/hexlearn/hexlearn/engine/hex"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata")

// goldenRows is a fixed small dataset: positions given as diagrams.
func goldenRows(t testing.TB) []Example {
	t.Helper()
	diagrams := []string{
		`
  a b c
1  . . .  1
 2  . . .  2
  3  . . .  3`,
		`
  a b c
1  . . .  1
 2  . B .  2
  3  . . .  3`,
		`
  a b c
1  . . W  1
 2  . B .  2
  3  . . .  3`,
		`
  a b c
1  B . W  1
 2  . B .  2
  3  . . .  3`,
	}
	var rows []Example
	for i, d := range diagrams {
		b, err := hex.ParseDiagram(d)
		if err != nil {
			t.Fatal(err)
		}
		e := FromBoard(b)
		e.GameID = 1
		e.Value = float64(i) - 0.5
		e.RBlack, e.RWhite = 2.5, 2.5*math.Exp(e.Value)
		e.BlackWinsVC = i == 3
		e.Played = true
		e.Winner = hex.Black
		if i == 3 {
			e.TrueWinner = hex.Black
			e.CostUS = 42
		}
		rows = append(rows, e)
	}
	return rows
}

func TestGoldenFile(t *testing.T) {
	path := filepath.Join("testdata", "golden_3x3.arrow")
	rows := goldenRows(t)
	tmp := filepath.Join(t.TempDir(), "g.arrow")
	if err := WriteFile(tmp, testMeta(3, 3), rows, nil); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(tmp)
	if *update {
		os.WriteFile(path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("file bytes differ from %s (format changed? bump FormatVersion and run -update)", path)
	}
	tab, err := ReadFile(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameExamples(t, tab.Rows, rows)
}

// TestReadVersion1: a file of format version 1 (the golden file as the version-1
// writer wrote it, before search_value and policy) reads into the same rows, with no
// search value and no policy.
func TestReadVersion1(t *testing.T) {
	tab, err := ReadFile(filepath.Join("testdata", "golden_3x3_v1.arrow"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Meta.Version != 1 {
		t.Errorf("version %d, want 1", tab.Meta.Version)
	}
	sameExamples(t, tab.Rows, goldenRows(t))
}

func TestXY(t *testing.T) {
	tab := &Table{Rows: goldenRows(t)}
	x, y, err := tab.XY()
	if err != nil {
		t.Fatal(err)
	}
	if len(x) != 4*9 || len(y) != 4 {
		t.Fatalf("len x %d y %d", len(x), len(y))
	}
	// Row 2: b2 black (index 4), c1 white (index 2).
	if x[2*9+4] != -1 || x[2*9+2] != 1 || x[2*9+0] != 0 || y[2] != 1.5 {
		t.Fatalf("row 2: x %v y %v", x[18:27], y[2])
	}
	tab.Rows = append(tab.Rows, randomExamples(t, 4, 4, 1, 1)...)
	if _, _, err := tab.XY(); !errors.Is(err, ErrSize) {
		t.Fatalf("mixed sizes: got %v", err)
	}
}

func TestPartitions(t *testing.T) {
	rows := append(randomExamples(t, 5, 5, 200, 1), randomExamples(t, 4, 6, 100, 2)...)
	tab := &Table{Rows: rows}
	bs := tab.BySize()
	if len(bs) != 2 || bs[Size{5, 5}].Len() != 200 || bs[Size{4, 6}].Len() != 100 {
		t.Fatalf("by size: %v", bs)
	}
	if bs[Size{4, 6}].Meta.Width != 4 || tab.Size(4, 6).Len() != 100 {
		t.Fatal("size meta")
	}
	total := 0
	for p, part := range tab.ByPly() {
		for _, e := range part.Rows {
			if e.Ply != p {
				t.Fatalf("ply %d in part %d", e.Ply, p)
			}
		}
		total += part.Len()
	}
	if total != 300 {
		t.Fatalf("by ply covers %d rows", total)
	}
	r := tab.PlyRange(3, 5)
	for _, e := range r.Rows {
		if e.Ply < 3 || e.Ply > 5 {
			t.Fatal("ply range")
		}
	}
	sum := 0
	for k, part := range tab.PlyBuckets(4) {
		for _, e := range part.Rows {
			if e.Ply < k || e.Ply >= k+4 {
				t.Fatalf("ply %d in bucket %d", e.Ply, k)
			}
		}
		sum += part.Len()
	}
	if sum != 300 || r.Len() == 0 {
		t.Fatalf("buckets %d, range %d", sum, r.Len())
	}
}

func TestFolds(t *testing.T) {
	tab := &Table{Rows: randomExamples(t, 5, 5, 103, 4)}
	for i := range tab.Rows {
		tab.Rows[i].Value = float64(i) // a row's identity
	}
	f1, err := tab.Folds(10, 99)
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := tab.Folds(10, 99)
	f3, _ := tab.Folds(10, 100)
	seen := map[float64]int{}
	same3 := true
	for j := range f1 {
		if f1[j].Test.Len()+f1[j].Train.Len() != 103 {
			t.Fatalf("fold %d: %d+%d rows", j, f1[j].Test.Len(), f1[j].Train.Len())
		}
		if n := f1[j].Test.Len(); n < 10 || n > 11 {
			t.Fatalf("fold %d has %d test rows", j, n)
		}
		in := map[float64]bool{}
		for k, e := range f1[j].Test.Rows {
			seen[e.Value]++
			in[e.Value] = true
			if f2[j].Test.Rows[k].Value != e.Value {
				t.Fatal("same seed, different folds")
			}
			if k < f3[j].Test.Len() && f3[j].Test.Rows[k].Value != e.Value {
				same3 = false
			}
		}
		for _, e := range f1[j].Train.Rows {
			if in[e.Value] {
				t.Fatalf("fold %d: row %v in train and test", j, e.Value)
			}
		}
	}
	if len(seen) != 103 {
		t.Fatalf("test sets cover %d rows", len(seen))
	}
	for v, n := range seen {
		if n != 1 {
			t.Fatalf("row %v in %d test sets", v, n)
		}
	}
	if same3 {
		t.Fatal("different seeds gave the same folds")
	}
	if _, err := tab.Folds(1, 1); err == nil {
		t.Fatal("k=1 accepted")
	}
}

func TestDedupe(t *testing.T) {
	rows := randomExamples(t, 4, 4, 50, 8)
	dup := append(append([]Example(nil), rows...), rows[:20]...)
	// Every game starts from the empty board: count distinct hashes by brute force.
	want := map[uint64]bool{}
	for _, e := range dup {
		want[e.Hash] = true
	}
	tab, removed := (&Table{Rows: dup}).Dedupe()
	if tab.Len() != len(want) || removed != len(dup)-len(want) {
		t.Fatalf("dedupe kept %d removed %d, want %d kept", tab.Len(), removed, len(want))
	}
	// Same stones, other side to move: a different position.
	a := rows[3]
	b := a
	b.ToMove = a.ToMove.Opp()
	b, _ = rehash(b)
	if d, _ := (&Table{Rows: []Example{a, b}}).Dedupe(); d.Len() != 2 {
		t.Fatal("side to move ignored")
	}
}

func TestSymmetries(t *testing.T) {
	b, err := hex.ParsePosition(4, 4, "a1 b2 d2 c3 a4")
	if err != nil {
		t.Fatal(err)
	}
	e := FromBoard(b)
	e.Value, e.RBlack, e.RWhite = 0.7, 1.0, 2.0
	e.BlackWinsVC, e.Winner, e.TrueWinner = true, hex.Black, hex.Black
	g := b.Geometry()
	c2, _ := g.ParseCell("c2")
	e.Search = &SearchTargets{Value: 0.25, Policy: make([]float32, g.N)}
	e.Search.Policy[c2] = 1
	rot, err := Rotate180(&e)
	if err != nil {
		t.Fatal(err)
	}
	// Oracle: the hex package's own board transforms.
	if rot.Hash != b.Rotated().Hash() {
		t.Fatal("rotation hash differs from hex.Board.Rotated")
	}
	if !bytes.Equal(i8b(rot.Cells), i8b(EncodeCells(b.Rotated(), nil))) || rot.Value != e.Value || rot.ToMove != e.ToMove ||
		rot.Search.Value != 0.25 || rot.Search.Policy[g.Rotate180(c2)] != 1 || rot.Validate() != nil {
		t.Fatalf("rotation: %+v", rot)
	}
	ref, err := Reflect(&e)
	if err != nil {
		t.Fatal(err)
	}
	rb := b.Reflected()
	if ref.Hash != rb.Hash() || !bytes.Equal(i8b(ref.Cells), i8b(EncodeCells(rb, nil))) {
		t.Fatal("reflection differs from hex.Board.Reflected")
	}
	if ref.Value != -0.7 || ref.RBlack != 2 || ref.RWhite != 1 || ref.BlackWinsVC || !ref.WhiteWinsVC ||
		ref.Winner != hex.White || ref.TrueWinner != hex.White || ref.ToMove != e.ToMove.Opp() ||
		ref.Search.Value != -0.25 || ref.Search.Policy[g.Transpose(c2)] != 1 || ref.Validate() != nil {
		t.Fatalf("reflection fields: %+v", ref)
	}
	back, _ := Reflect(&ref)
	if back.Hash != e.Hash || back.Value != e.Value {
		t.Fatal("reflecting twice is not the identity")
	}
	rect := randomExamples(t, 3, 5, 10, 1)
	if _, err := Reflect(&rect[5]); !errors.Is(err, ErrSize) {
		t.Fatalf("reflection on 3x5: %v", err)
	}
	aug, err := (&Table{Rows: []Example{e, rect[5]}}).Augment()
	if err != nil {
		t.Fatal(err)
	}
	if aug.Len() != 4+2 {
		t.Fatalf("augment gave %d rows, want 6", aug.Len())
	}
	// The empty board is symmetric under the rotation: one image only.
	empty := FromBoard(hex.MustBoard(4, 4))
	aug, _ = (&Table{Rows: []Example{empty}}).Augment()
	if aug.Len() != 2 { // itself and the colour-exchanged (White to move) board
		t.Fatalf("empty board gave %d images", aug.Len())
	}
	for _, r := range aug.Rows {
		if err := r.Validate(); err != nil {
			t.Fatal(err)
		}
	}
}

func i8b(c []int8) []byte {
	out := make([]byte, len(c))
	for i, v := range c {
		out[i] = byte(v)
	}
	return out
}

func TestExportCSVAndFANN(t *testing.T) {
	tab := &Table{Meta: testMeta(3, 3), Rows: goldenRows(t)}
	var csvBuf, fannBuf bytes.Buffer
	if err := tab.WriteCSV(&csvBuf); err != nil {
		t.Fatal(err)
	}
	if err := tab.WriteFANN(&fannBuf, FANNOptions{}); err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]byte{"golden_3x3.csv": csvBuf.Bytes(), "golden_3x3.fann": fannBuf.Bytes()} {
		path := filepath.Join("testdata", name)
		if *update {
			os.WriteFile(path, got, 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs:\n%s", name, got)
		}
	}
	lines := strings.Split(strings.TrimSpace(fannBuf.String()), "\n")
	if lines[0] != "4 9 1" || len(lines) != 9 || lines[5] != "0 0 1 0 -1 0 0 0 0" || lines[6] != "1.5" {
		t.Fatalf("fann:\n%s", fannBuf.String())
	}
	tab.Rows[0].Value = math.Inf(1)
	if err := tab.WriteFANN(&fannBuf, FANNOptions{}); !errors.Is(err, ErrExample) {
		t.Fatalf("infinite value: %v", err)
	}
}

func TestStats(t *testing.T) {
	rows := goldenRows(t)
	rows = append(rows, rows[1])
	st := (&Table{Rows: rows}).ComputeStats(4)
	if st.Rows != 5 || st.Games != 1 || st.Duplicates != 1 || st.PerPly[1] != 2 || st.PerPly[3] != 1 ||
		st.Cost.N != 1 || st.Cost.Max != 42 || st.BlackVC != 1 || st.TrueKnown != 1 || st.Value.Max != 2.5 {
		t.Fatalf("stats: %+v", st)
	}
	var buf bytes.Buffer
	if err := st.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rows 5", "duplicates 1", "ply   1: 2", "cost (µs): n 1"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("stats text lacks %q:\n%s", want, buf.String())
		}
	}
}

func TestMerge(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	dir := t.TempDir()
	a, b := randomExamples(t, 5, 5, 40, 1), randomExamples(t, 5, 5, 30, 2)
	WriteFile(filepath.Join(dir, "a.arrow"), testMeta(5, 5), a, nil)
	WriteFile(filepath.Join(dir, "b.arrow"), testMeta(5, 5), b, nil)
	out := filepath.Join(t.TempDir(), "m.arrow")
	n, err := Merge(out, []string{filepath.Join(dir, "a.arrow"), filepath.Join(dir, "b.arrow")}, false, &WriterOptions{Allocator: mem})
	if err != nil || n != 70 {
		t.Fatalf("merge: %d, %v", n, err)
	}
	tab, err := ReadFile(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameExamples(t, tab.Rows, append(append([]Example(nil), a...), b...))
	if tab.Meta.Generator != "merge" || tab.Meta.Config["source.1.seed"] != "7" {
		t.Fatalf("merged meta %+v", tab.Meta)
	}
	nd, err := Merge(out, []string{dir}, true, nil)
	if err != nil || nd != 70-(&Table{Rows: tab.Rows}).Duplicates() {
		t.Fatalf("dedupe merge: %d %v", nd, err)
	}
	WriteFile(filepath.Join(dir, "c.arrow"), testMeta(4, 4), randomExamples(t, 4, 4, 5, 1), nil)
	if _, err := Merge(out, []string{dir}, false, nil); !errors.Is(err, ErrSize) {
		t.Fatalf("mixed sizes: %v", err)
	}
}

func FuzzDecode(f *testing.F) {
	golden, err := os.ReadFile(filepath.Join("testdata", "golden_3x3.arrow"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(golden)
	f.Add([]byte("ARROW1\x00\x00"))
	f.Add([]byte("garbage"))
	rows := randomExamples(f, 2, 2, 12, 1)
	p := filepath.Join(f.TempDir(), "f.arrow")
	WriteFile(p, testMeta(2, 2), rows, &WriterOptions{BatchRows: 5})
	small, _ := os.ReadFile(p)
	f.Add(small)
	f.Fuzz(func(t *testing.T, data []byte) {
		tab, err := Decode(data, nil)
		if err != nil {
			return
		}
		for i := range tab.Rows {
			if err := tab.Rows[i].Validate(); err != nil {
				t.Fatalf("accepted invalid row %d: %v", i, err)
			}
		}
	})
}
