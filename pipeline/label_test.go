package pipeline

import (
	"bytes"
	"context"
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// labelInput writes a corpus of games on an n x n board: each game perGame random
// positions (any number of stones, no winner yet), then a repeat of the game's first
// position; every fifth row has its true winner given (the oracle's, when oracle).
// It returns the file and the rows.
func labelInput(t *testing.T, dir string, n, games, perGame int, seed int64, oracle bool) (string, []dataset.Example) {
	t.Helper()
	rng := rand.New(rand.NewSource(seed))
	memo := map[uint64]bool{}
	var rows []dataset.Example
	for g := 0; g < games; g++ {
		start := len(rows)
		for i := 0; i < perGame; i++ {
			b := brute.RandomPosition(rng, n, rng.Intn(n*n-1))
			e := dataset.FromBoard(b)
			e.GameID, e.Winner = uint64(g), hex.Black
			if oracle && len(rows)%5 == 0 {
				e.TrueWinner = oracleWinner(b, memo)
			}
			rows = append(rows, e)
		}
		dup := rows[start]
		dup.TrueWinner = hex.Empty
		rows = append(rows, dup)
	}
	path := filepath.Join(dir, "in.arrow")
	meta := dataset.Meta{Width: n, Height: n, Generator: "test", Config: map[string]string{"seed": "1"}}
	if err := dataset.WriteFile(path, meta, rows, nil); err != nil {
		t.Fatal(err)
	}
	return path, rows
}

// oracleWinner is the brute-force true winner of b with b.ToMove() to play.
func oracleWinner(b *hex.Board, memo map[uint64]bool) hex.Color {
	if brute.MoverWins(b, memo) {
		return b.ToMove()
	}
	return b.ToMove().Opp()
}

// TestLabelOracle: on 2x2 to 4x4 corpora every row gets the brute-force oracle's true
// winner (the default node limit decides every such position), given labels are kept,
// a repeated position is solved once, and the counts per ply add up.
func TestLabelOracle(t *testing.T) {
	tests := []struct {
		n, games, perGame, workers int
	}{
		{2, 3, 4, 1},
		{3, 4, 8, 2},
		{4, 6, 10, 2},
		{4, 5, 12, 3},
	}
	for _, tc := range tests {
		dir := t.TempDir()
		in, rows := labelInput(t, dir, tc.n, tc.games, tc.perGame, int64(tc.n*100+tc.workers), true)
		out := filepath.Join(dir, "out.arrow")
		meter := &countMeter{}
		res, err := Label(context.Background(), LabelConfig{In: in, Out: out, Workers: tc.workers, Meter: meter})
		if err != nil {
			t.Fatal(err)
		}
		tab, err := dataset.ReadFile(out, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tab.Rows) != len(rows) || res.Rows != len(rows) {
			t.Fatalf("%dx%d: %d rows written (result %d), want %d", tc.n, tc.n, len(tab.Rows), res.Rows, len(rows))
		}
		memo := map[uint64]bool{}
		known := 0
		for i, e := range tab.Rows {
			b, err := e.Board()
			if err != nil {
				t.Fatal(err)
			}
			if want := oracleWinner(b, memo); e.TrueWinner != want {
				t.Errorf("%dx%d row %d: true winner %v, oracle %v\n%s", tc.n, tc.n, i, e.TrueWinner, want, b.Diagram())
			}
			if rows[i].TrueWinner != hex.Empty {
				known++
			}
			e.TrueWinner = rows[i].TrueWinner // the rest of the row is unchanged
			if !sameExample(e, rows[i]) {
				t.Errorf("%dx%d row %d changed: %+v, was %+v", tc.n, tc.n, i, e, rows[i])
			}
		}
		if res.Known != known || res.Labelled != len(rows)-known || res.Decided != res.Solved {
			t.Errorf("%dx%d: result %+v, want %d known, %d labelled, every solved position decided", tc.n, tc.n, res, known, len(rows)-known)
		}
		distinct := map[string]bool{}
		for _, e := range rows {
			if e.TrueWinner == hex.Empty {
				distinct[string(int8s(e.Cells))+e.ToMove.String()] = true
			}
		}
		if res.Solved != len(distinct) { // a repeated position is solved once
			t.Errorf("%dx%d: %d positions solved, want the %d distinct ones to label", tc.n, tc.n, res.Solved, len(distinct))
		}
		sum := 0
		for _, p := range res.Plies {
			sum += p.Rows
			if p.Known+p.Labelled != p.Rows {
				t.Errorf("%dx%d ply %d: %+v", tc.n, tc.n, p.Ply, p)
			}
		}
		if sum != len(rows) {
			t.Errorf("%dx%d: plies count %d rows, want %d", tc.n, tc.n, sum, len(rows))
		}
		if tab.Meta.Generator != "label" || tab.Meta.Config["seed"] != "1" || tab.Meta.Config["label.max_nodes"] != "10000" {
			t.Errorf("%dx%d: metadata %+v", tc.n, tc.n, tab.Meta)
		}
		if len(meter.parts) != 1 || meter.done != int64(res.Solved) || meter.count != int64(res.Decided) || len(meter.errs) != 1 || meter.errs[0] != nil {
			t.Errorf("%dx%d: progress %+v for %+v", tc.n, tc.n, meter, res)
		}
	}
}

// sameExample compares two rows (NaN resistances equal).
func sameExample(a, b dataset.Example) bool {
	a.RBlack, a.RWhite, b.RBlack, b.RWhite = 0, 0, 0, 0
	return a.GameID == b.GameID && a.Ply == b.Ply && a.ToMove == b.ToMove && bytes.Equal(int8s(a.Cells), int8s(b.Cells)) &&
		a.Value == b.Value && a.Played == b.Played && a.Winner == b.Winner && a.TrueWinner == b.TrueWinner && a.Hash == b.Hash
}

func int8s(v []int8) []byte {
	out := make([]byte, len(v))
	for i, x := range v {
		out[i] = byte(x)
	}
	return out
}

// TestLabelDeterministic: with a node limit that leaves some 6x6 positions unknown,
// one, two and three workers write byte-identical files; a smaller limit labels
// fewer rows.
func TestLabelDeterministic(t *testing.T) {
	dir := t.TempDir()
	in, _ := labelInput(t, dir, 6, 6, 8, 7, false)
	var first []byte
	var firstRes LabelResult
	for _, workers := range []int{1, 2, 3} {
		out := filepath.Join(dir, "out.arrow")
		res, err := Label(context.Background(), LabelConfig{In: in, Out: out, Workers: workers, MaxNodes: 40})
		if err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first, firstRes = data, res
			if res.Labelled == 0 || res.Decided == res.Solved {
				t.Fatalf("40 nodes: %d rows labelled, %d of %d positions decided: want some of each", res.Labelled, res.Decided, res.Solved)
			}
			continue
		}
		if !bytes.Equal(data, first) || res.Labelled != firstRes.Labelled || res.Nodes != firstRes.Nodes {
			t.Errorf("%d workers: output differs from one worker's (%d labelled, %d nodes; one worker %d, %d)",
				workers, res.Labelled, res.Nodes, firstRes.Labelled, firstRes.Nodes)
		}
	}
	res, err := Label(context.Background(), LabelConfig{In: in, Out: filepath.Join(dir, "few.arrow"), Workers: 2, MaxNodes: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res.Labelled >= firstRes.Labelled {
		t.Errorf("2 nodes labelled %d rows, 40 nodes %d", res.Labelled, firstRes.Labelled)
	}
}

// TestLabelErrors: bad configurations, a missing, damaged or mixed-size input and a
// cancelled context give errors (wrapping the sentinel values) and write nothing.
func TestLabelErrors(t *testing.T) {
	dir := t.TempDir()
	in, _ := labelInput(t, dir, 3, 2, 4, 1, false)
	data, err := os.ReadFile(in)
	if err != nil {
		t.Fatal(err)
	}
	damaged := filepath.Join(dir, "damaged.arrow")
	if err := os.WriteFile(damaged, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	mixed := filepath.Join(dir, "mixed")
	if err := os.Mkdir(mixed, 0o755); err != nil {
		t.Fatal(err)
	}
	other, _ := labelInput(t, t.TempDir(), 4, 1, 2, 2, false)
	for i, p := range []string{in, other} {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mixed, string(rune('a'+i))+".arrow"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(dir, "out.arrow")
	tests := []struct {
		name string
		ctx  context.Context
		cfg  LabelConfig
		want error
	}{
		{"negative nodes", context.Background(), LabelConfig{In: in, Out: out, MaxNodes: -1}, ErrConfig},
		{"negative workers", context.Background(), LabelConfig{In: in, Out: out, Workers: -2}, ErrConfig},
		{"table bits", context.Background(), LabelConfig{In: in, Out: out, TTBits: 40}, ErrConfig},
		{"no output", context.Background(), LabelConfig{In: in}, ErrConfig},
		{"missing input", context.Background(), LabelConfig{In: filepath.Join(dir, "none.arrow"), Out: out}, os.ErrNotExist},
		{"damaged input", context.Background(), LabelConfig{In: damaged, Out: out}, dataset.ErrCorrupt},
		{"mixed sizes", context.Background(), LabelConfig{In: mixed, Out: out}, dataset.ErrSize},
		{"cancelled", cancelled, LabelConfig{In: in, Out: out}, context.Canceled},
	}
	for _, tc := range tests {
		_, err := Label(tc.ctx, tc.cfg)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.name == "damaged input" {
			if !errors.Is(err, dataset.ErrCorrupt) && !errors.Is(err, dataset.ErrNotDataset) {
				t.Errorf("%s: %v, want a dataset error", tc.name, err)
			}
		} else if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: an output file was written", tc.name)
		}
	}
}
