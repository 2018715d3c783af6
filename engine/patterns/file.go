package patterns

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/version"
)

// The database file format, version 1 (all integers little-endian):
//
//	magic        8 bytes  "HEXPATDB"
//	version      uint16   FormatVersion
//	width        uint8
//	height       uint8
//	code version uint16 length + bytes (internal/version.String() of the writer)
//	source       uint16 length + bytes (what the database was built from)
//	count        uint32   number of entries
//	entries      count x { nStones uint16, stones uint16 x nStones,
//	                       nCarrier uint16, carrier uint16 x nCarrier }
//	               cells in increasing order
//	checksum     uint32   CRC-32 (IEEE) of everything before it
//
// Entries are stored as kept (variants included), so reading rebuilds the same tree.
const (
	Magic         = "HEXPATDB"
	FormatVersion = 1
)

// ErrFormat is wrapped by every error about a damaged or unsupported database file.
var ErrFormat = errors.New("patterns: bad database file")

// maxString bounds the recorded strings.
const maxString = 1<<16 - 1

// WriteTo writes the database in the file format. It returns the bytes written.
func (d *DB) WriteTo(w io.Writer) (int64, error) {
	var buf bytes.Buffer
	buf.WriteString(Magic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint16(nil, FormatVersion))
	buf.WriteByte(byte(d.g.W))
	buf.WriteByte(byte(d.g.H))
	for _, s := range []string{version.String(), d.Source} {
		if len(s) > maxString {
			s = s[:maxString]
		}
		buf.Write(le.AppendUint16(nil, uint16(len(s))))
		buf.WriteString(s)
	}
	buf.Write(le.AppendUint32(nil, uint32(len(d.entries))))
	var tmp []byte
	for i := range d.entries {
		for _, s := range []hex.Bitset{d.entries[i].Stones, d.entries[i].Carrier} {
			tmp = le.AppendUint16(tmp[:0], uint16(s.Count()))
			for c := s.First(); c != hex.NoCell; c = s.Next(c + 1) {
				tmp = le.AppendUint16(tmp, uint16(c))
			}
			buf.Write(tmp)
		}
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	n, err := w.Write(buf.Bytes())
	if err != nil {
		return int64(n), fmt.Errorf("patterns: write database: %w", err)
	}
	return int64(n), nil
}

// Save writes the database to path atomically.
func (d *DB) Save(path string) error {
	return fileutil.WriteAtomic(path, func(w io.Writer) error {
		_, err := d.WriteTo(w)
		return err
	})
}

// Header is what a database file records besides its entries.
type Header struct {
	Version     int
	Width       int
	Height      int
	CodeVersion string
	Source      string
	Count       int
}

// Load reads a database file.
func Load(path string) (*DB, Header, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, Header{}, fmt.Errorf("patterns: %w", err)
	}
	return Decode(data)
}

// Read reads a database from r.
func Read(r io.Reader) (*DB, Header, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, Header{}, fmt.Errorf("patterns: read database: %w", err)
	}
	return Decode(data)
}

// Decode parses a database file image. Any damage (wrong magic, unknown version, bad
// size, truncation, checksum mismatch, cells off the board, overlapping or unsorted
// cells, duplicate entries, trailing bytes) gives an error wrapping ErrFormat.
func Decode(data []byte) (*DB, Header, error) {
	var h Header
	bad := func(format string, a ...any) (*DB, Header, error) {
		return nil, h, fmt.Errorf("%w: %s", ErrFormat, fmt.Sprintf(format, a...))
	}
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return bad("not a pattern database (magic %q missing)", Magic)
	}
	if len(data) < len(Magic)+4+4 {
		return bad("truncated header")
	}
	body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
	r := reader{b: body[len(Magic):]}
	h.Version = int(r.u16())
	if h.Version != FormatVersion {
		return bad("format version %d, this program reads version %d", h.Version, FormatVersion)
	}
	if crc32.ChecksumIEEE(body) != sum {
		return bad("checksum mismatch (file damaged)")
	}
	h.Width, h.Height = int(r.u8()), int(r.u8())
	h.CodeVersion = r.str()
	h.Source = r.str()
	h.Count = int(r.u32())
	if r.err {
		return bad("truncated header")
	}
	if h.Count > len(r.b)/4 {
		return bad("entry count %d exceeds file size", h.Count)
	}
	d, err := New(h.Width, h.Height)
	if err != nil {
		return bad("board size %dx%d: %v", h.Width, h.Height, err)
	}
	d.Source = h.Source
	for i := 0; i < h.Count; i++ {
		var p Pattern
		for _, s := range []*hex.Bitset{&p.Stones, &p.Carrier} {
			n := int(r.u16())
			prev := -1
			for j := 0; j < n && !r.err; j++ {
				c := int(r.u16())
				if c <= prev || c >= d.g.N {
					return bad("entry %d: cell %d out of order or off the %dx%d board", i, c, h.Width, h.Height)
				}
				prev = c
				s.Set(hex.Cell(c))
			}
		}
		if r.err {
			return bad("truncated at entry %d", i)
		}
		if err := p.Validate(d.g); err != nil {
			return bad("entry %d: %v", i, err)
		}
		if err := d.insertRaw(p); err != nil {
			return bad("entry %d: %v", i, err)
		}
	}
	if len(r.b) != 0 {
		return bad("%d unexpected bytes after the entries", len(r.b))
	}
	d.tree.Optimize()
	return d, h, nil
}

// reader consumes little-endian values, recording truncation in err.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) take(n int) []byte {
	if r.err || len(r.b) < n {
		r.err = true
		return make([]byte, n)
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u8() uint8   { return r.take(1)[0] }
func (r *reader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *reader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }
func (r *reader) str() string { return string(r.take(int(r.u16()))) }
