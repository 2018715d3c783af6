package solver

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// tableSolve solves the position of moves on an n x n board with DefaultConfig and
// table t (nil: the solver's own), the node limit max (0: none).
func tableSolve(t *testing.T, n int, moves string, tab *Table, max int64) (Result, error) {
	t.Helper()
	b := hex.NewBoardGeometry(hex.MustGeometry(n, n))
	ms, err := b.Geometry().ParseMoves(moves)
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PlayMoves(ms); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.TTBits, cfg.Table, cfg.MaxNodes = 16, tab, max
	return New(cfg).Solve(context.Background(), b)
}

// saved writes tab to a buffer.
func saved(t *testing.T, tab *Table) []byte {
	t.Helper()
	var buf bytes.Buffer
	n, err := tab.WriteTo(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(buf.Len()) {
		t.Fatalf("WriteTo reported %d bytes, wrote %d", n, buf.Len())
	}
	return buf.Bytes()
}

// TestTableResume stops a solve at a node limit, saves its table, and resumes from
// the file: the resumed search reaches the value of a fresh solve with fewer nodes,
// and a table saved after the solve answers the position without a node.
func TestTableResume(t *testing.T) {
	const n, moves = 6, "a3" // Black wins (published 6x6 openings)
	fresh, err := tableSolve(t, n, moves, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Winner != hex.Black {
		t.Fatalf("fresh solve: winner %v, want black", fresh.Winner)
	}
	tab, _ := NewTable(16)
	if _, err := tableSolve(t, n, moves, tab, fresh.Stats.Nodes/2); !errors.Is(err, ErrLimit) {
		t.Fatalf("limited solve: %v, want ErrLimit", err)
	}
	if tab.Solved() == 0 {
		t.Fatal("the limited solve stored no solved position")
	}
	data := saved(t, tab)
	back, _, err := ReadTable(bytes.NewReader(data), 16, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if back.Solved() != tab.Solved() || back.Open() != tab.Open() || tab.Open() == 0 {
		t.Fatalf("read %d solved and %d open positions, wrote %d and %d", back.Solved(), back.Open(), tab.Solved(), tab.Open())
	}
	other := DefaultConfig()
	other.NoLocalDominated = false
	if o, info, err := ReadTable(bytes.NewReader(data), 16, other); err != nil || o.Solved() != tab.Solved() || o.Open() != 0 || !info.OpenDropped || info.Open != tab.Open() {
		t.Fatalf("other pruning settings: %v; %d solved and %d open positions, want %d and 0", err, o.Solved(), o.Open(), tab.Solved())
	}
	if again := saved(t, back); len(again) != len(data) {
		t.Fatalf("rewritten file %d bytes, first %d", len(again), len(data))
	}
	resumed, err := tableSolve(t, n, moves, back, 0)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Winner != fresh.Winner {
		t.Fatalf("resumed: winner %v, fresh %v", resumed.Winner, fresh.Winner)
	}
	// the resumed search goes on from the saved one: together they take about the
	// nodes of the fresh solve, not a fresh solve more
	if lim := fresh.Stats.Nodes / 2; lim+resumed.Stats.Nodes > fresh.Stats.Nodes*11/10 {
		t.Fatalf("limited %d + resumed %d nodes, a fresh solve %d", lim, resumed.Stats.Nodes, fresh.Stats.Nodes)
	}
	t.Logf("fresh %d nodes; limited to %d, %d solved and %d open positions saved (%d bytes); resumed %d nodes",
		fresh.Stats.Nodes, fresh.Stats.Nodes/2, tab.Solved(), tab.Open(), len(data), resumed.Stats.Nodes)

	done, _, err := ReadTable(bytes.NewReader(saved(t, back)), 16, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r, err := tableSolve(t, n, moves, done, 0)
	if err != nil {
		t.Fatal(err)
	}
	if r.Winner != fresh.Winner || r.Stats.Nodes != 0 {
		t.Fatalf("solved table: winner %v with %d nodes, want %v with 0", r.Winner, r.Stats.Nodes, fresh.Winner)
	}
	// a table of another board is emptied, not misread, by a solve on this one
	five, _ := NewTable(12)
	if _, err := tableSolve(t, 5, "c3", five, 0); err != nil {
		t.Fatal(err)
	}
	fiveBack, _, err := ReadTable(bytes.NewReader(saved(t, five)), 12, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	if r, err := tableSolve(t, n, moves, fiveBack, 0); err != nil || r.Winner != fresh.Winner {
		t.Fatalf("6x6 solve on a 5x5 table: %v, %v", r.Winner, err)
	}
}

// TestTableParallel resumes a root split of two workers from the table a limited
// split saved: the same winner as a fresh split.
func TestTableParallel(t *testing.T) {
	g := hex.MustGeometry(6, 6)
	b := hex.NewBoardGeometry(g)
	b.PlayStone(hex.Black, g.At(0, 2))
	tab, _ := NewTable(16)
	mk := func() Config {
		cfg := DefaultConfig()
		cfg.Table, cfg.MaxNodes = tab, 1000
		return cfg
	}
	if _, err := SolveParallel(context.Background(), b, 2, mk); !errors.Is(err, ErrLimit) {
		t.Fatalf("limited split: %v, want ErrLimit", err)
	}
	tab, _, err := ReadTable(bytes.NewReader(saved(t, tab)), 16, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	r, err := SolveParallel(context.Background(), b, 2, func() Config { c := mk(); c.MaxNodes = 0; return c })
	if err != nil || r.Winner != hex.Black {
		t.Fatalf("resumed split: %v, %v; want black", r.Winner, err)
	}
}

// tableFile returns a valid table file of a 5x5 solve, and its header's offset of
// the entries.
func tableFile(t testing.TB) []byte {
	tab, _ := NewTable(12)
	b := hex.NewBoardGeometry(hex.MustGeometry(5, 5))
	b.PlayStone(hex.Black, b.Geometry().At(0, 2))
	cfg := DefaultConfig()
	cfg.Table = tab
	if _, err := New(cfg).Solve(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := tab.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// headerLen is the length of a table file's magic and header.
const headerLen = len(tableMagic) + 4 + 2 + 2 + 8 + 4

// withCRC replaces the checksum of a table file by the right one for its contents.
func withCRC(f []byte) []byte {
	out := append([]byte(nil), f[:len(f)-4]...)
	return binary.LittleEndian.AppendUint32(out, crc32.ChecksumIEEE(out))
}

func TestReadTableErrors(t *testing.T) {
	good := tableFile(t)
	if _, _, err := ReadTable(bytes.NewReader(good), 12, DefaultConfig()); err != nil {
		t.Fatalf("good file: %v", err)
	}
	edit := func(off int, b ...byte) []byte {
		f := append([]byte(nil), good...)
		copy(f[off:], b)
		return withCRC(f)
	}
	solved, open := entryOffsets(t, good, 5*5)
	tests := []struct {
		name, want string
		data       []byte
	}{
		{"empty", "not a hexlearn table file", nil},
		{"other magic", "not a hexlearn table file", append([]byte("HEXLMODL"), good[8:]...)},
		{"short header", "header: truncated", good[:12]},
		{"version", "format version 9", edit(8, 9)},
		{"board", "board 0x5", edit(12, 0, 0)},
		{"keys", "position keys of another build", edit(16, 1)},
		{"truncated entry", "truncated", good[:headerLen+5]},
		{"truncated sets", "truncated", good[:open+entryFixed+3]},
		{"no checksum", "checksum: truncated", good[:len(good)-4]},
		{"damaged", "damaged file", func() []byte { f := append([]byte(nil), good...); f[solved] ^= 1; return f }()},
		{"solved entry with numbers", "do not fit its kind", edit(solved+8, 1, 0, 0, 0, 1, 0, 0, 0)},
		{"open entry solved", "do not fit its kind", edit(open+8, 0, 0, 0, 0)},
		{"solved entry (0, 1)", "do not fit its kind", edit(solved+8, 0, 0, 0, 0, 1, 0, 0, 0)},
		{"open entry at infinity", "do not fit its kind", edit(open+8, 0, 0, 0, 0x40)},
		{"flag", "flag 7", edit(solved+23, 7)},
		{"move off the board", "is not a cell of the 5x5 board", edit(solved+20, 25, 0)},
		{"proof off the board", "a set outside the 5x5 board", edit(solved+entryFixed+3, 0x80)},
		{"open set off the board", "a set outside the 5x5 board", edit(open+entryFixed+8*6+3, 0x80)},
		{"end record", "the end record counts 1 entries", edit(len(good)-4-entryFixed, 1, 0, 0, 0, 0, 0, 0, 0)},
		{"no end record", "truncated", good[:len(good)-4-entryFixed]},
		{"trailing data", "data after the checksum", append(append([]byte(nil), good...), 0)},
	}
	for _, tc := range tests {
		_, _, err := ReadTable(bytes.NewReader(tc.data), 12, DefaultConfig())
		if !errors.Is(err, ErrTableFile) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want ErrTableFile containing %q", tc.name, err, tc.want)
		}
	}
	if _, _, err := ReadTable(bytes.NewReader(good), 9, DefaultConfig()); !errors.Is(err, ErrBadConfig) {
		t.Errorf("2^9 entries: %v, want ErrBadConfig", err)
	}
	if _, err := (&Table{t: newSharedPNTable(10)}).WriteTo(&bytes.Buffer{}); err == nil {
		t.Error("an unused table wrote a file")
	}
}

// entryOffsets returns the offsets of the first solved and the first open entry
// of a table file of an n-cell board.
func entryOffsets(t *testing.T, f []byte, n int) (solved, open int) {
	solved, open = -1, -1
	nw := words(n)
	for off := headerLen; f[off+23] != endFlag; {
		if f[off+23] == 1 {
			if open < 0 {
				open = off
			}
			off += entryFixed + openSets*8*nw
		} else {
			if solved < 0 {
				solved = off
			}
			off += entryFixed + 8*nw
		}
	}
	if solved < 0 || open < 0 {
		t.Fatalf("the test file has no solved or no open entry (%d, %d)", solved, open)
	}
	return solved, open
}

func FuzzReadTable(f *testing.F) {
	good := tableFile(f)
	f.Add(good)
	f.Add(good[:headerLen+10])
	f.Add([]byte(tableMagic))
	f.Fuzz(func(t *testing.T, data []byte) {
		// as given, and with its checksum made right, so the fuzzer reaches the
		// entries' checks
		for _, d := range [][]byte{data, withCRC(append(data, 0, 0, 0, 0))} {
			tab, _, err := ReadTable(bytes.NewReader(d), 10, DefaultConfig())
			if err != nil {
				if !errors.Is(err, ErrTableFile) {
					t.Fatalf("error %v does not wrap ErrTableFile", err)
				}
				continue
			}
			if s, o := tab.Counts(); s+o > 1<<10 {
				t.Fatalf("%d positions in a table of 1024", s+o)
			}
		}
	})
}

// TestTableWriteDuringSearch writes the table again and again while two workers
// search on it (a periodic checkpoint): every file reads back, and a search
// resumed from the last one finds the fresh solve's winner. Run with -race, it also
// checks the locking.
func TestTableWriteDuringSearch(t *testing.T) {
	g := hex.MustGeometry(6, 6)
	b := hex.NewBoardGeometry(g)
	b.PlayStone(hex.Black, g.At(0, 2)) // a3: Black wins
	tab, _ := NewTable(12)
	mk := func() Config {
		cfg := DefaultConfig()
		cfg.Table = tab
		return cfg
	}
	done := make(chan error, 1)
	go func() {
		r, err := SolveParallel(context.Background(), b, 2, mk)
		if err == nil && r.Winner != hex.Black {
			err = errors.New("winner " + r.Winner.String())
		}
		done <- err
	}()
	var last []byte
	writes := 0
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		var buf bytes.Buffer
		if _, err := tab.WriteTo(&buf); err != nil {
			continue // no board yet
		}
		if _, _, err := ReadTable(bytes.NewReader(buf.Bytes()), 12, DefaultConfig()); err != nil {
			t.Fatalf("write %d during the search: %v", writes+1, err)
		}
		last = buf.Bytes()
		writes++
	}
	back, _, err := ReadTable(bytes.NewReader(last), 12, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	c := DefaultConfig()
	c.Table = back
	r, err := New(c).Solve(context.Background(), b)
	if err != nil || r.Winner != hex.Black {
		t.Fatalf("resumed from the last write: %v, %v", r.Winner, err)
	}
	t.Logf("%d writes during the search", writes)
}

// TestTableSettings: one table takes one set of pruning settings: Validate refuses
// a configuration with others.
func TestTableSettings(t *testing.T) {
	tab, _ := NewTable(10)
	a := DefaultConfig()
	a.Table = tab
	if err := a.Validate(); err != nil {
		t.Fatal(err)
	}
	b := a
	b.NoLocalDominated = !a.NoLocalDominated
	if err := b.Validate(); !errors.Is(err, ErrBadConfig) {
		t.Fatalf("other pruning settings on the table: %v, want ErrBadConfig", err)
	}
	if err := a.Validate(); err != nil {
		t.Fatalf("the first settings again: %v", err)
	}
}

func TestPeekTable(t *testing.T) {
	w, h, err := PeekTable(bytes.NewReader(tableFile(t)))
	if err != nil || w != 5 || h != 5 {
		t.Fatalf("PeekTable: %dx%d, %v", w, h, err)
	}
	if _, _, err := PeekTable(strings.NewReader("HEXLDFPN")); !errors.Is(err, ErrTableFile) {
		t.Fatalf("header cut: %v", err)
	}
}
