package dataset

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// Table is a dataset in memory: rows in file order and the metadata of the (first)
// file they came from. Tables are what training, cross-validation and the pattern
// builder consume.
type Table struct {
	Meta Meta
	Rows []Example
}

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.Rows) }

// subset returns a table with the same metadata and the given rows.
func (t *Table) subset(rows []Example) *Table {
	return &Table{Meta: t.Meta, Rows: rows}
}

// XY returns the network inputs and targets: X holds Len() rows of Width*Height
// float32 cell codes (+1 white, 0 empty, -1 black) back to back, Y the values. Every
// row must have the same board size.
func (t *Table) XY() (x, y []float32, err error) {
	if len(t.Rows) == 0 {
		return nil, nil, nil
	}
	n := len(t.Rows[0].Cells)
	x = make([]float32, 0, n*len(t.Rows))
	y = make([]float32, len(t.Rows))
	for i := range t.Rows {
		e := &t.Rows[i]
		if len(e.Cells) != n {
			return nil, nil, fmt.Errorf("%w: row %d has %d cells, row 0 has %d", ErrSize, i, len(e.Cells), n)
		}
		for _, c := range e.Cells {
			x = append(x, float32(c))
		}
		y[i] = float32(e.Value)
	}
	return x, y, nil
}

// Size is a board size, the key of a partition by size.
type Size struct{ W, H int }

// String prints the size as "WxH".
func (s Size) String() string { return fmt.Sprintf("%dx%d", s.W, s.H) }

// BySize partitions the rows by board size, keeping row order within each part.
func (t *Table) BySize() map[Size]*Table {
	out := map[Size]*Table{}
	for _, e := range t.Rows {
		k := Size{e.Width, e.Height}
		p := out[k]
		if p == nil {
			p = &Table{Meta: t.Meta}
			p.Meta.Width, p.Meta.Height = e.Width, e.Height
			out[k] = p
		}
		p.Rows = append(p.Rows, e)
	}
	return out
}

// Size returns the rows of one board size.
func (t *Table) Size(w, h int) *Table {
	var rows []Example
	for _, e := range t.Rows {
		if e.Width == w && e.Height == h {
			rows = append(rows, e)
		}
	}
	s := t.subset(rows)
	s.Meta.Width, s.Meta.Height = w, h
	return s
}

// PlyRange returns the rows with lo <= ply <= hi, in order.
func (t *Table) PlyRange(lo, hi int) *Table {
	var rows []Example
	for _, e := range t.Rows {
		if e.Ply >= lo && e.Ply <= hi {
			rows = append(rows, e)
		}
	}
	return t.subset(rows)
}

// ByPly partitions the rows by ply (stones on board), keeping row order.
func (t *Table) ByPly() map[int]*Table {
	out := map[int]*Table{}
	for _, e := range t.Rows {
		p := out[e.Ply]
		if p == nil {
			p = t.subset(nil)
			out[e.Ply] = p
		}
		p.Rows = append(p.Rows, e)
	}
	return out
}

// PlyBuckets partitions the rows into consecutive ply ranges of the given width
// (0-(width-1), width-(2*width-1), ...), keyed by the range's first ply.
func (t *Table) PlyBuckets(width int) map[int]*Table {
	if width < 1 {
		width = 1
	}
	out := map[int]*Table{}
	for _, e := range t.Rows {
		k := e.Ply / width * width
		p := out[k]
		if p == nil {
			p = t.subset(nil)
			out[k] = p
		}
		p.Rows = append(p.Rows, e)
	}
	return out
}

// Fold is one train/validation split of a k-fold cross-validation.
type Fold struct {
	Train, Test *Table
}

// Folds splits the rows into k folds deterministically from seed: the rows are
// shuffled with a PCG generator seeded by seed and row i of the shuffle goes to fold
// i mod k. Fold j's Test is fold j and its Train is every other fold (both in the
// original row order). Every row is in exactly one Test. Errors when k < 2 or k
// exceeds the number of rows.
func (t *Table) Folds(k int, seed uint64) ([]Fold, error) {
	if k < 2 || k > len(t.Rows) {
		return nil, fmt.Errorf("dataset: cannot make %d folds of %d rows", k, len(t.Rows))
	}
	rng := rand.New(rand.NewPCG(seed, 0x6b666f6c64)) // "kfold"
	perm := rng.Perm(len(t.Rows))
	fold := make([]int, len(t.Rows))
	for i, r := range perm {
		fold[r] = i % k
	}
	out := make([]Fold, k)
	for j := range out {
		out[j] = Fold{Train: t.subset(nil), Test: t.subset(nil)}
	}
	for r, e := range t.Rows {
		for j := range out {
			if fold[r] == j {
				out[j].Test.Rows = append(out[j].Test.Rows, e)
			} else {
				out[j].Train.Rows = append(out[j].Train.Rows, e)
			}
		}
	}
	return out, nil
}

// posKey identifies a position: board size and Zobrist hash (stones and side to
// move).
type posKey struct {
	w, h int
	hash uint64
}

// Dedupe returns the table without repeated positions (same size and hash), keeping
// the first occurrence of each, and the number of rows removed.
func (t *Table) Dedupe() (*Table, int) {
	seen := make(map[posKey]struct{}, len(t.Rows))
	rows := make([]Example, 0, len(t.Rows))
	for _, e := range t.Rows {
		k := posKey{e.Width, e.Height, e.Hash}
		if _, dup := seen[k]; dup {
			continue
		}
		seen[k] = struct{}{}
		rows = append(rows, e)
	}
	return t.subset(rows), len(t.Rows) - len(rows)
}

// Duplicates returns the number of rows whose position occurred earlier in the table.
func (t *Table) Duplicates() int {
	_, n := t.Dedupe()
	return n
}

// Shuffle returns a copy of the table with its rows in a random order drawn from seed.
func (t *Table) Shuffle(seed uint64) *Table {
	rng := rand.New(rand.NewPCG(seed, 0x73687566)) // "shuf"
	rows := append([]Example(nil), t.Rows...)
	rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	return t.subset(rows)
}

// SortedPlies returns the keys of a partition by ply in increasing order.
func SortedPlies(m map[int]*Table) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}
