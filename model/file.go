package model

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"os"

	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// File layout (all integers and floats little-endian):
//
//	magic        8 bytes  "HEXLMODL"
//	version      uint32   1 (no policy head), or 2 (policy heads)
//	header size  uint32   n (at most 1 MiB)
//	header       n bytes  JSON: board size, encoding, target, output, scaling,
//	                      feature set (absent: cells), policy head ("cells"; version
//	                      2 only), per-network ply range and hidden size, provenance
//	weights      float32  per network: W1 (inputs×hidden, column by column), B1, W2,
//	                      B2, and in version 2 WP (cells×hidden, cell by cell), BP
//	checksum     uint32   CRC-32 (IEEE) of every byte before it
//
// The header is encoded from a fixed struct, so the same model always gives the same
// bytes; nothing time-dependent is recorded. A model without a policy head is written
// in version 1, byte for byte as before version 2 existed.

// Magic starts every model file.
const Magic = "HEXLMODL"

// FormatVersion is the newest model file format this code writes and reads: version
// 2, written for models with a policy head (Net.WP). Models without one are written
// in FormatVersionValueOnly; both versions are read.
const FormatVersion = 2

// FormatVersionValueOnly is the format version of a model without a policy head.
const FormatVersionValueOnly = 1

// PolicyCells is the header's name of the policy head: one logit per cell.
const PolicyCells = "cells"

const maxHeader = 1 << 20

type header struct {
	Board      boardHeader `json:"board"`
	Encoding   string      `json:"encoding"`
	Target     Target      `json:"target"`
	Output     Output      `json:"output"`
	Scaling    Scaling     `json:"scaling"`
	Features   Features    `json:"features,omitempty"`
	Policy     string      `json:"policy,omitempty"`
	Nets       []netHeader `json:"nets"`
	Provenance Provenance  `json:"provenance"`
}

type boardHeader struct {
	W int `json:"w"`
	H int `json:"h"`
}

type netHeader struct {
	MinPly int `json:"min_ply"`
	MaxPly int `json:"max_ply"`
	Hidden int `json:"hidden"`
}

// MarshalBinary encodes the model in the file format. It validates the model first.
func (m *Model) MarshalBinary() ([]byte, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	h := header{
		Board:      boardHeader{m.W, m.H},
		Encoding:   Encoding,
		Target:     m.Target,
		Output:     m.Output,
		Scaling:    m.Scaling,
		Provenance: m.Provenance,
	}
	if m.Features != FeaturesCells {
		h.Features = m.Features // the cells set is written as before the field existed
	}
	version := uint32(FormatVersionValueOnly)
	if m.HasPolicy() {
		h.Policy, version = PolicyCells, FormatVersion
	}
	for _, n := range m.Nets {
		h.Nets = append(h.Nets, netHeader{n.MinPly, n.MaxPly, n.Hidden})
	}
	hj, err := json.Marshal(&h)
	if err != nil {
		return nil, fmt.Errorf("model: encode header: %w", err)
	}
	if len(hj) > maxHeader {
		return nil, fmt.Errorf("model: header of %d bytes is too large", len(hj))
	}
	var buf bytes.Buffer
	buf.WriteString(Magic)
	buf.Write(binary.LittleEndian.AppendUint32(nil, version))
	buf.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hj))))
	buf.Write(hj)
	var b4 [4]byte
	put := func(v float32) {
		binary.LittleEndian.PutUint32(b4[:], math.Float32bits(v))
		buf.Write(b4[:])
	}
	for _, n := range m.Nets {
		for _, s := range [][]float32{n.W1, n.B1, n.W2, {n.B2}, n.WP, n.BP} {
			for _, v := range s {
				put(v)
			}
		}
	}
	sum := crc32.ChecksumIEEE(buf.Bytes())
	buf.Write(binary.LittleEndian.AppendUint32(nil, sum))
	return buf.Bytes(), nil
}

// Write writes the model in the file format to w.
func (m *Model) Write(w io.Writer) error {
	data, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// WriteFile writes the model to path atomically (a crash leaves no partial file).
func (m *Model) WriteFile(path string) error {
	data, err := m.MarshalBinary()
	if err != nil {
		return err
	}
	return fileutil.WriteFileAtomic(path, data)
}

// Load reads and validates a model from r: magic, format version, header, weight
// count, checksum and model consistency. Truncated or corrupted input gives an error
// wrapping ErrFormat (or ErrVersion), never a panic.
func Load(r io.Reader) (*Model, error) {
	br := bufio.NewReader(r)
	var pre [16]byte
	if _, err := io.ReadFull(br, pre[:]); err != nil {
		return nil, fmt.Errorf("%w: too short for a header (%v)", ErrFormat, err)
	}
	if string(pre[:8]) != Magic {
		return nil, fmt.Errorf("%w: bad magic %q", ErrFormat, pre[:8])
	}
	version := binary.LittleEndian.Uint32(pre[8:12])
	if version != FormatVersionValueOnly && version != FormatVersion {
		return nil, fmt.Errorf("%w: file has version %d, this code reads versions %d and %d", ErrVersion, version, FormatVersionValueOnly, FormatVersion)
	}
	hn := binary.LittleEndian.Uint32(pre[12:16])
	if hn > maxHeader {
		return nil, fmt.Errorf("%w: header size %d exceeds %d", ErrFormat, hn, maxHeader)
	}
	hj := make([]byte, hn)
	if _, err := io.ReadFull(br, hj); err != nil {
		return nil, fmt.Errorf("%w: truncated header (%v)", ErrFormat, err)
	}
	crc := crc32.NewIEEE()
	crc.Write(pre[:])
	crc.Write(hj)
	var h header
	dec := json.NewDecoder(bytes.NewReader(hj))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", ErrFormat, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: trailing data after the header", ErrFormat)
	}
	if h.Encoding != Encoding {
		return nil, fmt.Errorf("%w: unknown input encoding %q", ErrFormat, h.Encoding)
	}
	policy := version == FormatVersion
	switch {
	case policy && h.Policy != PolicyCells:
		return nil, fmt.Errorf("%w: version %d file with policy head %q (want %q)", ErrFormat, version, h.Policy, PolicyCells)
	case !policy && h.Policy != "":
		return nil, fmt.Errorf("%w: version %d file names a policy head (version %d has none)", ErrFormat, version, version)
	}
	m := &Model{W: h.Board.W, H: h.Board.H, Target: h.Target, Output: h.Output, Scaling: h.Scaling, Provenance: h.Provenance}
	if h.Features != "" {
		f, err := ParseFeatures(string(h.Features))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrFormat, err)
		}
		m.Features = f
	}
	if m.W < 1 || m.H < 1 || m.W > 19 || m.H > 19 {
		return nil, fmt.Errorf("%w: board size %dx%d out of range 1..19", ErrFormat, m.W, m.H)
	}
	if len(h.Nets) == 0 || len(h.Nets) > maxNets {
		return nil, fmt.Errorf("%w: %d networks (want 1..%d)", ErrFormat, len(h.Nets), maxNets)
	}
	inputs := m.Inputs()
	var b4 [4]byte
	read := func(dst []float32) error {
		for i := range dst {
			if _, err := io.ReadFull(br, b4[:]); err != nil {
				return fmt.Errorf("%w: truncated weights (%v)", ErrFormat, err)
			}
			crc.Write(b4[:])
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b4[:]))
		}
		return nil
	}
	for i, nh := range h.Nets {
		if nh.Hidden < 1 || nh.Hidden > maxHidden {
			return nil, fmt.Errorf("%w: network %d has %d hidden units (want 1..%d)", ErrFormat, i, nh.Hidden, maxHidden)
		}
		n := Net{MinPly: nh.MinPly, MaxPly: nh.MaxPly, Hidden: nh.Hidden,
			W1: make([]float32, inputs*nh.Hidden), B1: make([]float32, nh.Hidden), W2: make([]float32, nh.Hidden)}
		if policy {
			n.WP, n.BP = make([]float32, m.Cells()*nh.Hidden), make([]float32, m.Cells())
		}
		var b2 [1]float32
		for _, s := range [][]float32{n.W1, n.B1, n.W2, b2[:], n.WP, n.BP} {
			if err := read(s); err != nil {
				return nil, err
			}
		}
		n.B2 = b2[0]
		m.Nets = append(m.Nets, n)
	}
	if _, err := io.ReadFull(br, b4[:]); err != nil {
		return nil, fmt.Errorf("%w: truncated checksum (%v)", ErrFormat, err)
	}
	if got, want := binary.LittleEndian.Uint32(b4[:]), crc.Sum32(); got != want {
		return nil, fmt.Errorf("%w: checksum mismatch (file %08x, computed %08x)", ErrFormat, got, want)
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%w: trailing bytes after the checksum", ErrFormat)
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadFile loads a model file; see Load.
func ReadFile(path string) (*Model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("model: %w", err)
	}
	defer f.Close()
	m, err := Load(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// LoadFor reads a model file and checks it is for a w x h board (ErrWrongSize if not).
func LoadFor(path string, w, h int) (*Model, error) {
	m, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := m.CheckSize(w, h); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}
