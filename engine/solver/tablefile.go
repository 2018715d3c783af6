package solver

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Table is a DFPN transposition table that outlives its solvers (Config.Table): the
// solvers made with it share it (it locks its buckets as SolveParallel's shared
// table does), and its solved positions can be written to a file and read back, so
// that a long solve stopped by a limit or an interrupt resumes from what it had
// proved. Every entry is saved: the solved positions (value, proof set, winning
// move, the work they cost) and the open ones (proof and disproof numbers,
// mustplay, remaining children, widening window, fill-in), so a resumed DFPN search
// goes on from the table as it was. The open entries hold the children that the
// inferior-cell pruning left, so they are valid only under the same pruning
// settings (NoICE, NoInferior, NoDominated, NoLocalDominated): ReadTable keeps them
// only when its Config has the settings of the file, and the solved ones always.
type Table struct {
	t *pnTable
	// settings are the pruning settings of the solvers that use the table
	// (Config.pruning), written with its open entries: set by the first
	// Config.Validate or ReadTable (claimed), and a configuration with other
	// settings is refused (Validate)
	mu       sync.Mutex
	claimed  bool
	settings uint32
}

// claim fixes the table's pruning settings to p unless they are fixed already,
// and reports whether they are p.
func (t *Table) claim(p uint32) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.claimed {
		t.claimed, t.settings = true, p
	}
	return t.settings == p
}

// pruningSettings returns the table's pruning settings (0 before any claim).
func (t *Table) pruningSettings() uint32 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.settings
}

// ErrTableFile is returned (wrapped) for a table file that cannot be read: not a
// table file, another format version, another board or key set, or a damaged entry.
var ErrTableFile = errors.New("solver: bad table file")

// NewTable returns an empty table of 2^bits entries (10..26), allocated for the
// board of its first solve or of the file read into it.
func NewTable(bits int) (*Table, error) {
	if bits < 10 || bits > maxTTBits {
		return nil, fmt.Errorf("%w: table of 2^%d entries (want 10..%d)", ErrBadConfig, bits, maxTTBits)
	}
	return &Table{t: newSharedPNTable(bits)}, nil
}

// Board returns the board shape the table's entries are for (0, 0 before its first
// solve or ReadTable).
func (t *Table) Board() (w, h int) {
	w, h, _, _ = t.t.shape()
	return w, h
}

// Bits returns log2 of the table's entries.
func (t *Table) Bits() int { return t.t.bits }

// Solved returns the number of solved positions the table holds.
func (t *Table) Solved() int {
	solved, _ := t.count()
	return solved
}

// Open returns the number of positions the table holds that a search entered but
// did not decide.
func (t *Table) Open() int {
	_, open := t.count()
	return open
}

// Counts returns Solved and Open in one pass over the table.
func (t *Table) Counts() (solved, open int) { return t.count() }

// count returns the numbers of solved and open entries (each bucket read under its
// lock, so solvers may be searching meanwhile).
func (t *Table) count() (solved, open int) {
	t.each(func(e *pnEntry) {
		if e.pn == 0 || e.dn == 0 {
			solved++
		} else {
			open++
		}
	})
	return solved, open
}

// each calls f with a copy of every used entry, slot by slot, each bucket's two
// slots copied under the bucket's lock: solvers may be searching meanwhile, and
// each entry is then one that some solver stored whole.
func (t *Table) each(f func(e *pnEntry)) {
	pt := t.t
	_, _, small, big := pt.shape()
	var e [2]pnEntry
	var used [2]bool
	n := max(len(small), len(big))
	for i := 0; i < n; i += 2 {
		m := pt.lockSlot(uint64(i))
		for j := range 2 {
			if small != nil {
				if used[j] = small[i+j].used; used[j] {
					smallEntry(&small[i+j], &e[j])
				}
			} else if used[j] = big[i+j].used; used[j] {
				e[j] = big[i+j]
			}
		}
		if m != nil {
			m.Unlock()
		}
		for j := range 2 {
			if used[j] {
				f(&e[j])
			}
		}
	}
}

// tableMagic opens a table file; tableVersion is its format.
const (
	tableMagic   = "HEXLDFPN"
	tableVersion = 1
)

// The file: the magic, then the header (version, board width and height, the
// Zobrist fingerprint, the pruning settings of the open entries), the entries, an
// end record, and the CRC-32 (IEEE) of everything before it, all little-endian. An
// entry is its key, proof and disproof numbers, work, winning move (int16, -1 for
// none), dominated count and a flag byte (0: solved, 1: open), then its sets, each
// one word per 64 cells of the board: a solved entry its proof set, an open one its
// mustplay, children, loss proof, window, dead cells and the two colours' captured
// cells. The end record is an entry's fixed part with flag endFlag and the number
// of entries in place of the key (the number comes last, so a table can be written
// while solvers still search on it).
type tableHeader struct {
	Version     uint32
	W, H        uint16
	Fingerprint uint64
	Settings    uint32
}

// endFlag is the flag byte of the end record.
const endFlag = 0xFF

// entryFixed is the length of an entry before its sets; openSets the number of
// sets of an open entry.
const (
	entryFixed = 24
	openSets   = 7
)

// analysisVersion names the inferior-cell analysis and pruning rules of this
// build (engine/ice's patterns, pruneInferior): an open table entry's children and
// the dominators its loss proof is completed with depend on them, so a change to
// them must change this number (the open entries of older files are then left out).
const analysisVersion = 1

// pruning returns the settings that decide which children an open table entry
// holds: bit flags, and the analysis version above them.
func (c Config) pruning() uint32 {
	p := uint32(analysisVersion) << 8
	for i, on := range []bool{c.NoICE, c.NoInferior, c.NoDominated, c.NoLocalDominated} {
		if on {
			p |= 1 << i
		}
	}
	return p
}

// words returns the number of proof-set words of an n-cell board.
func words(n int) int { return (n + 63) / 64 }

// fingerprint identifies the Zobrist keys of g's board: a file's keys are only
// valid with the keys that made them.
func fingerprint(g *hex.Geometry) uint64 {
	_, zmove := zobrist(g)
	return zmove
}

// WriteTo writes the table's entries to w (io.WriterTo). Solvers may go on
// searching with the table meanwhile (a periodic checkpoint): each bucket is read
// under its lock, so every entry written is one a solver stored whole, and the file
// holds the table as it was bucket by bucket. A table that holds no board yet (no
// solve and no ReadTable) cannot be written.
func (t *Table) WriteTo(w io.Writer) (int64, error) {
	tw, th, _, _ := t.t.shape()
	if tw == 0 {
		return 0, fmt.Errorf("solver: write table: the table holds no board yet")
	}
	g, err := hex.NewGeometry(tw, th)
	if err != nil {
		return 0, fmt.Errorf("solver: write table: %w", err)
	}
	cw := &countWriter{w: w, crc: crc32.NewIEEE()}
	bw := bufio.NewWriterSize(cw, 1<<16)
	h := tableHeader{Version: tableVersion, W: uint16(tw), H: uint16(th), Fingerprint: fingerprint(g),
		Settings: t.pruningSettings()}
	if _, err := bw.WriteString(tableMagic); err != nil {
		return cw.n, err
	}
	if err := binary.Write(bw, binary.LittleEndian, h); err != nil {
		return cw.n, err
	}
	nw := words(g.N)
	buf := make([]byte, 0, entryFixed+openSets*8*nw)
	put := func(key uint64, e *pnEntry, flag byte) {
		buf = binary.LittleEndian.AppendUint64(buf[:0], key)
		buf = binary.LittleEndian.AppendUint32(buf, e.pn)
		buf = binary.LittleEndian.AppendUint32(buf, e.dn)
		buf = binary.LittleEndian.AppendUint32(buf, e.work)
		buf = binary.LittleEndian.AppendUint16(buf, uint16(e.best))
		buf = append(buf, e.dominated, flag)
		var sets []hex.Bitset
		switch flag {
		case 0:
			sets = []hex.Bitset{e.kids}
		case 1:
			sets = []hex.Bitset{e.must, e.kids, e.loss, e.wide, e.dead, e.capt[0], e.capt[1]}
		}
		for _, st := range sets {
			for k := range nw {
				buf = binary.LittleEndian.AppendUint64(buf, st[k])
			}
		}
		if err == nil {
			_, err = bw.Write(buf)
		}
	}
	var count uint64
	t.each(func(e *pnEntry) {
		flag := byte(0)
		if e.pn != 0 && e.dn != 0 {
			flag = 1
		}
		put(e.key, e, flag)
		count++
	})
	put(count, &pnEntry{}, endFlag)
	if err != nil {
		return cw.n, err
	}
	if err := bw.Flush(); err != nil {
		return cw.n, err
	}
	sum := cw.crc.Sum32()
	err = binary.Write(cw, binary.LittleEndian, sum)
	return cw.n, err
}

// countWriter counts the bytes written through it and hashes them.
type countWriter struct {
	w   io.Writer
	n   int64
	crc interface {
		io.Writer
		Sum32() uint32
	}
}

func (c *countWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.crc.Write(p[:n])
	return n, err
}

// ReadTable reads a table file written by Table.WriteTo into a new table of 2^bits
// entries (10..26), made for the file's board, for solvers with configuration cfg:
// its open entries are kept only when cfg has the pruning settings they were
// searched with (see Table), its solved ones always. When the file holds more
// positions than the table has room for, the ones that cost less work give way, as
// in a search. The error wraps ErrTableFile for a file that is not a whole, intact
// table file of this format (a truncated file, a damaged entry or a wrong checksum).
func ReadTable(r io.Reader, bits int, cfg Config) (*Table, TableFileInfo, error) {
	t, info, err := readTable(r, bits, cfg)
	if err != nil {
		return nil, TableFileInfo{}, err
	}
	return t, info, nil
}

// TableFileInfo is what ReadTable found in a file: the file's solved and open
// positions, and whether its open ones were left out (searched with other pruning
// settings). The table holds fewer than Solved+Open positions when they were left
// out or when it had no room for them all.
type TableFileInfo struct {
	Solved, Open int
	OpenDropped  bool
}

func readTable(r io.Reader, bits int, cfg Config) (*Table, TableFileInfo, error) {
	var info TableFileInfo
	t, err := NewTable(bits)
	if err != nil {
		return nil, info, err
	}
	t.claim(cfg.pruning())
	crc := crc32.NewIEEE()
	br := bufio.NewReaderSize(r, 1<<16)
	tr := io.TeeReader(br, crc)
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: "+format, append([]any{ErrTableFile}, a...)...)
	}
	magic := make([]byte, len(tableMagic))
	if _, err := io.ReadFull(tr, magic); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, info, bad("%v", err)
	} else if err != nil || string(magic) != tableMagic {
		return nil, info, bad("not a hexlearn table file")
	}
	var h tableHeader
	if err := binary.Read(tr, binary.LittleEndian, &h); err != nil {
		return nil, info, bad("header: %v", unexpected(err))
	}
	if h.Version != tableVersion {
		return nil, info, bad("format version %d (this build reads %d)", h.Version, tableVersion)
	}
	g, err := hex.NewGeometry(int(h.W), int(h.H))
	if err != nil {
		return nil, info, bad("board %dx%d: %v", h.W, h.H, err)
	}
	if h.Fingerprint != fingerprint(g) {
		return nil, info, bad("position keys of another build (fingerprint %016x)", h.Fingerprint)
	}
	keepOpen := h.Settings == t.pruningSettings()
	info.OpenDropped = !keepOpen
	t.t.reset(g)
	nw := words(g.N)
	buf := make([]byte, entryFixed+openSets*8*nw)
	cells := g.Cells()
	for i := uint64(0); ; i++ {
		if _, err := io.ReadFull(tr, buf[:entryFixed]); err != nil {
			return nil, info, bad("entry %d: %v", i+1, unexpected(err))
		}
		if buf[23] == endFlag {
			if n := binary.LittleEndian.Uint64(buf); n != i {
				return nil, info, bad("the end record counts %d entries, the file holds %d", n, i)
			}
			break
		}
		e := pnEntry{key: binary.LittleEndian.Uint64(buf), pn: binary.LittleEndian.Uint32(buf[8:]),
			dn: binary.LittleEndian.Uint32(buf[12:]), work: binary.LittleEndian.Uint32(buf[16:]),
			best: hex.Cell(int16(binary.LittleEndian.Uint16(buf[20:]))), dominated: buf[22]}
		open := buf[23] == 1
		switch {
		case buf[23] > 1:
			return nil, info, bad("entry %d: flag %d", i+1, buf[23])
		case open && (e.pn == 0 || e.dn == 0 || e.pn >= pnInf || e.dn >= pnInf),
			!open && !(e.pn == 0 && e.dn == pnInf || e.pn == pnInf && e.dn == 0):
			return nil, info, bad("entry %d: proof number %d and disproof number %d do not fit its kind", i+1, e.pn, e.dn)
		case e.best != hex.NoCell && (e.best < 0 || int(e.best) >= g.N):
			return nil, info, bad("entry %d: move %d is not a cell of the %dx%d board", i+1, e.best, h.W, h.H)
		}
		sets := []*hex.Bitset{&e.kids}
		if open {
			sets = []*hex.Bitset{&e.must, &e.kids, &e.loss, &e.wide, &e.dead, &e.capt[0], &e.capt[1]}
		}
		rest := buf[entryFixed : entryFixed+len(sets)*8*nw]
		if _, err := io.ReadFull(tr, rest); err != nil {
			return nil, info, bad("entry %d: %v", i+1, unexpected(err))
		}
		for j, st := range sets {
			for k := range nw {
				st[k] = binary.LittleEndian.Uint64(rest[8*(j*nw+k):])
			}
			if st.AndNot(cells) != (hex.Bitset{}) {
				return nil, info, bad("entry %d: a set outside the %dx%d board", i+1, h.W, h.H)
			}
		}
		if open {
			info.Open++
			if !keepOpen {
				continue
			}
		} else {
			info.Solved++
		}
		t.t.store(&e)
	}
	sum := crc.Sum32()
	var got uint32
	if err := binary.Read(br, binary.LittleEndian, &got); err != nil {
		return nil, info, bad("checksum: %v", unexpected(err))
	}
	if got != sum {
		return nil, info, bad("checksum %08x, contents give %08x (damaged file)", got, sum)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, info, bad("data after the checksum")
	}
	return t, info, nil
}

// PeekTable reads the header of a table file and returns its board, so a caller
// can refuse a file of another board before ReadTable allocates a table for it.
// The error wraps ErrTableFile as ReadTable's does.
func PeekTable(r io.Reader) (w, h int, err error) {
	magic := make([]byte, len(tableMagic))
	if _, err := io.ReadFull(r, magic); err != nil || string(magic) != tableMagic {
		return 0, 0, fmt.Errorf("%w: not a hexlearn table file", ErrTableFile)
	}
	var hd tableHeader
	if err := binary.Read(r, binary.LittleEndian, &hd); err != nil {
		return 0, 0, fmt.Errorf("%w: header: %v", ErrTableFile, unexpected(err))
	}
	if hd.Version != tableVersion {
		return 0, 0, fmt.Errorf("%w: format version %d (this build reads %d)", ErrTableFile, hd.Version, tableVersion)
	}
	return int(hd.W), int(hd.H), nil
}

// unexpected turns a clean end of file inside a record into "truncated".
func unexpected(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("truncated")
	}
	return err
}
