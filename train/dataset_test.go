package train

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// toDataset turns examples into dataset rows (positions rebuilt on a board so the
// hash and side to move are consistent).
func toDataset(t testing.TB, ex *Examples) []dataset.Example {
	c := ex.Cells()
	var rows []dataset.Example
	for i := 0; i < ex.Rows(); i++ {
		b := hex.MustBoard(ex.W, ex.H)
		x := ex.X[i*c : (i+1)*c]
		var black, white []hex.Cell
		for p, v := range x {
			switch v {
			case -1:
				black = append(black, hex.Cell(p))
			case 1:
				white = append(white, hex.Cell(p))
			}
		}
		for k := 0; k < len(black)+len(white); k++ {
			if k%2 == 0 {
				b.PlayStone(hex.Black, black[k/2])
			} else {
				b.PlayStone(hex.White, white[k/2])
			}
		}
		e := dataset.FromBoard(b)
		e.Value = float64(ex.Value[i])
		switch ex.Winner[i] {
		case 1:
			e.TrueWinner = hex.Black
		case -1:
			e.TrueWinner = hex.White
		}
		rows = append(rows, e)
	}
	return rows
}

func writeSyntheticDataset(t testing.TB, dir string, ex *Examples) {
	meta := dataset.Meta{Width: ex.W, Height: ex.H, Generator: "train-synthetic-test", CodeVersion: "test",
		Config: map[string]string{"rows": "synthetic"}}
	if err := dataset.WriteFile(filepath.Join(dir, "synthetic.arrow"), meta, toDataset(t, ex), nil); err != nil {
		t.Fatal(err)
	}
}

func TestReadExamplesFromDataset(t *testing.T) {
	ex := Synthetic(4, 3, 200, 12)
	dir := t.TempDir()
	writeSyntheticDataset(t, dir, ex)
	got, err := ReadExamples(dir, 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	if got.Hash() != ex.Hash() {
		t.Fatalf("dataset round trip changed the examples")
	}
	if _, err := ReadExamples(dir, 5, 5); err == nil {
		t.Fatal("reading 5x5 rows from a 4x3 dataset gave no error")
	}
	if !math.IsInf(float64(got.Value[0]), 0) && got.Value[0] != ex.Value[0] {
		t.Fatal("value changed")
	}
}

// TestWriteSyntheticDataset writes a synthetic dataset for trying the CLI by hand:
// HEXLEARN_SYNTH_OUT=DIR HEXLEARN_SYNTH_SIZE=5 HEXLEARN_SYNTH_ROWS=2000 go test -run WriteSynthetic ./train
func TestWriteSyntheticDataset(t *testing.T) {
	dir := os.Getenv("HEXLEARN_SYNTH_OUT")
	if dir == "" {
		t.Skip("set HEXLEARN_SYNTH_OUT to write a synthetic dataset")
	}
	n, rows := 5, 2000
	if s := os.Getenv("HEXLEARN_SYNTH_SIZE"); s != "" {
		n = atoi(t, s)
	}
	if s := os.Getenv("HEXLEARN_SYNTH_ROWS"); s != "" {
		rows = atoi(t, s)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeSyntheticDataset(t, dir, Synthetic(n, n, rows, 1))
}

func atoi(t testing.TB, s string) int {
	v := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			t.Fatalf("not a number: %q", s)
		}
		v = v*10 + int(c-'0')
	}
	return v
}

func TestExamplesBoard(t *testing.T) {
	ex := Synthetic(5, 4, 50, 4)
	m := &model.Model{W: 5, H: 4}
	for i := 0; i < ex.Rows(); i++ {
		b, err := ex.Board(i)
		if err != nil {
			t.Fatal(err)
		}
		x := m.Encode(b, nil)
		for p := range x {
			if x[p] != ex.X[i*20+p] {
				t.Fatalf("row %d: board does not encode back to the row", i)
			}
		}
		if b.NumStones() != ex.Ply[i] {
			t.Fatalf("row %d: %d stones, ply %d", i, b.NumStones(), ex.Ply[i])
		}
		want := hex.Black
		if ex.Ply[i]%2 == 1 {
			want = hex.White
		}
		if b.ToMove() != want {
			t.Fatalf("row %d: %v to move with %d stones", i, b.ToMove(), ex.Ply[i])
		}
	}
	if _, err := ex.Board(50); err == nil {
		t.Fatal("row 50 of 50: no error")
	}
}

// TestWithRotations checks the rotated rows against the board's own 180° rotation
// (cell (x, y) to (W−1−x, H−1−y)), with the labels and the side to move kept, and that
// a position equal to its rotation appears once.
func TestWithRotations(t *testing.T) {
	ex := Synthetic(4, 3, 30, 2)
	ex.Winner = make([]int8, ex.Rows())
	ex.Outcome = make([]int8, ex.Rows())
	for i := range ex.Winner {
		ex.Winner[i], ex.Outcome[i] = int8(i%3-1), int8(1-i%3)
	}
	// row 0: the empty board, its own image
	clear(ex.X[:12])
	ex.Ply[0] = 0
	r := ex.WithRotations()
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	k, symmetric := 0, 0
	for i := 0; i < ex.Rows(); i++ {
		b, err := ex.Board(i)
		if err != nil {
			t.Fatal(err)
		}
		images := 2
		if b.Hash() == b.Rotated().Hash() {
			images = 1
			symmetric++
		}
		for j := 0; j < images; j++ {
			got, err := r.Board(k)
			if err != nil {
				t.Fatal(err)
			}
			for y := 0; y < 3; y++ {
				for x := 0; x < 4; x++ {
					sx, sy := x, y
					if j == 1 {
						sx, sy = 3-x, 2-y
					}
					g := got.Geometry()
					if got.At(g.At(x, y)) != b.At(g.At(sx, sy)) {
						t.Fatalf("row %d image %d: cell %s differs\n%s\n%s", i, j, g.CellName(g.At(x, y)), b, got)
					}
				}
			}
			if got.ToMove() != b.ToMove() || r.Ply[k] != ex.Ply[i] || r.Value[k] != ex.Value[i] ||
				r.Winner[k] != ex.Winner[i] || r.Outcome[k] != ex.Outcome[i] {
				t.Fatalf("row %d image %d: labels or side to move changed", i, j)
			}
			k++
		}
	}
	if k != r.Rows() || symmetric == 0 {
		t.Fatalf("%d rows, %d expected (%d symmetric positions)", r.Rows(), k, symmetric)
	}
}
