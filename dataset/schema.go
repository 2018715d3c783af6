package dataset

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/apache/arrow/go/v15/arrow"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// FormatName is the value of the schema metadata key KeyFormat in every hexlearn
// dataset file.
const FormatName = "hexlearn-dataset"

// FormatVersion is the dataset format version this package writes. It is stored in
// the schema metadata under KeyVersion. Version 2 added the columns search_value and
// policy (the targets of the player's own searches); readers also read version 1
// files (MinFormatVersion), whose rows have neither, and refuse any other version.
const FormatVersion = 2

// MinFormatVersion is the oldest dataset format version a reader reads.
const MinFormatVersion = 1

// Schema metadata keys. The schema metadata holds the format name and version, the
// board size (which fixes the length of the cells column) and what produced the file.
const (
	KeyFormat      = "hexlearn.format"         // always FormatName
	KeyVersion     = "hexlearn.format_version" // decimal FormatVersion
	KeyWidth       = "hexlearn.width"          // board width W (columns), decimal
	KeyHeight      = "hexlearn.height"         // board height H (rows), decimal
	KeyGenerator   = "hexlearn.generator"      // producer, e.g. "selfplay" or "merge"
	KeyCodeVersion = "hexlearn.code_version"   // internal/version.String() of the producer
	KeyConfig      = "hexlearn.config"         // generator configuration: JSON object of strings, keys sorted
)

// Errors returned by readers and writers; callers may test them with errors.Is.
var (
	// ErrNotDataset: the file is not an Arrow IPC file, or not a hexlearn dataset.
	ErrNotDataset = errors.New("dataset: not a hexlearn dataset file")
	// ErrVersion: the file has a format version this code cannot read.
	ErrVersion = errors.New("dataset: unsupported dataset format version")
	// ErrSchema: the Arrow schema differs from the one this package defines.
	ErrSchema = errors.New("dataset: schema mismatch")
	// ErrCorrupt: the file's structure or values are damaged or out of range.
	ErrCorrupt = errors.New("dataset: damaged file")
	// ErrExample: an Example handed to a writer is invalid.
	ErrExample = errors.New("dataset: invalid example")
	// ErrSize: board sizes do not match (e.g. merging files of different sizes).
	ErrSize = errors.New("dataset: board size mismatch")
)

// Column names, in schema order.
const (
	ColGameID      = "game_id"
	ColWidth       = "width"
	ColHeight      = "height"
	ColPly         = "ply"
	ColToMove      = "to_move"
	ColCells       = "cells"
	ColValue       = "value"
	ColRBlack      = "r_black"
	ColRWhite      = "r_white"
	ColBlackWinsVC = "black_wins_vc"
	ColWhiteWinsVC = "white_wins_vc"
	ColCostUS      = "cost_us"
	ColPlayed      = "played"
	ColWinner      = "winner"
	ColTrueWinner  = "true_winner"
	ColHash        = "hash"
	ColSearchValue = "search_value"
	ColPolicy      = "policy"
)

// Schema returns the dataset schema for a W x H board. It is the same schema for every
// board size except for the length W*H of the cells column and the size keys of the
// metadata. Field by field:
//
//   - game_id (uint64): the game the board was evaluated in. Generators number games
//     globally (a shard's games keep their global numbers), so ids are unique within a
//     corpus and merged shards never collide.
//   - width, height (uint8): the board size; constant within a file and equal to the
//     metadata keys hexlearn.width and hexlearn.height.
//   - ply (uint16): the number of stones on the board (the paper's "ply"); equals the
//     number of non-zero entries of cells.
//   - to_move (int8): the side to move in the paper's encoding, -1 Black, +1 White.
//   - cells (fixed_size_list<int8>[W*H]): the board, one entry per cell in
//     index order y*W+x (a1, b1, ..., then row 2, ...), +1 white, 0 empty, -1 black as
//     in the paper. The list type (rather than fixed_size_binary) keeps the values
//     signed and typed in every Arrow implementation: pyarrow, arrow-js (Int8Array)
//     and R see -1/0/+1 without reinterpreting bytes, and the storage is still one
//     byte per cell with no offsets. Its length fixes the board size per file, which
//     the reader checks against width*height. (Arrow Go v15's Parquet writer loses
//     fixed_size_list columns; this package writes Arrow IPC files only.) The list
//     item is declared nullable because Arrow Go v15's builder always declares it so,
//     but no item is ever null and the reader rejects a file with null cells.
//   - value (float64): the exact evaluator's value from Black's point of view,
//     positive good for Black; for the resistance evaluator ln(R_W/R_B). Decided
//     positions may hold ±Inf or a large evaluator-specific constant.
//   - r_black, r_white (float64, nullable): the circuit resistances R_B and R_W
//     between each colour's edges; null when the evaluator does not report them.
//   - black_wins_vc, white_wins_vc (bool): the evaluator found a winning virtual
//     connection (or a finished chain) for that colour.
//   - cost_us (int64, nullable): measured wall time of the evaluation in microseconds;
//     null unless timings were requested, because a measured time makes otherwise
//     identical runs differ byte for byte (see the selfplay package).
//   - played (bool): true when the board occurred in the game itself, false when the
//     evaluator only saw it inside the search tree.
//   - winner (int8): the final winner of the game the board belongs to, -1 Black,
//     +1 White, 0 unknown.
//   - true_winner (int8, nullable): the game-theoretic winner of this position (with
//     to_move to play) when a solver established it, -1 Black, +1 White; null when
//     unknown.
//   - hash (uint64): the Zobrist hash of stones and side to move, hex.Board.Hash().
//     Together with width and height it identifies a position (duplicate removal).
//   - search_value (float64, nullable; version 2): the value a search backed up for the
//     position, Black's point of view, in [-1, 1] (the player's MCTS root: its mean
//     score, ±1 when proved); null when no search ran there.
//   - policy (fixed_size_list<float32>[W*H], nullable; version 2): the share of that
//     search's root visits each cell received, in cell index order (0 on occupied
//     cells; the shares sum to 1); null when no search ran there.
func Schema(w, h int, meta *arrow.Metadata) *arrow.Schema {
	return schemaVersion(w, h, FormatVersion, meta)
}

// schemaVersion returns the schema of a dataset file of format version v.
func schemaVersion(w, h, v int, meta *arrow.Metadata) *arrow.Schema {
	n := int32(w * h)
	fields := []arrow.Field{
		{Name: ColGameID, Type: arrow.PrimitiveTypes.Uint64},
		{Name: ColWidth, Type: arrow.PrimitiveTypes.Uint8},
		{Name: ColHeight, Type: arrow.PrimitiveTypes.Uint8},
		{Name: ColPly, Type: arrow.PrimitiveTypes.Uint16},
		{Name: ColToMove, Type: arrow.PrimitiveTypes.Int8},
		{Name: ColCells, Type: arrow.FixedSizeListOf(n, arrow.PrimitiveTypes.Int8)},
		{Name: ColValue, Type: arrow.PrimitiveTypes.Float64},
		{Name: ColRBlack, Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: ColRWhite, Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: ColBlackWinsVC, Type: arrow.FixedWidthTypes.Boolean},
		{Name: ColWhiteWinsVC, Type: arrow.FixedWidthTypes.Boolean},
		{Name: ColCostUS, Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: ColPlayed, Type: arrow.FixedWidthTypes.Boolean},
		{Name: ColWinner, Type: arrow.PrimitiveTypes.Int8},
		{Name: ColTrueWinner, Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: ColHash, Type: arrow.PrimitiveTypes.Uint64},
	}
	if v >= 2 {
		fields = append(fields,
			arrow.Field{Name: ColSearchValue, Type: arrow.PrimitiveTypes.Float64, Nullable: true},
			arrow.Field{Name: ColPolicy, Type: arrow.FixedSizeListOf(n, arrow.PrimitiveTypes.Float32), Nullable: true},
		)
	}
	return arrow.NewSchema(fields, meta)
}

// Meta is what a dataset file records about itself besides its rows.
type Meta struct {
	// Version is the file's format version (a writer writes FormatVersion whatever
	// it says).
	Version       int
	Width, Height int    // board size
	Generator     string // what produced the file, e.g. "selfplay"
	CodeVersion   string // internal/version.String() of the producer
	// Config is the generator's configuration (evaluator parameters, search
	// settings, seed, ...), stored as a JSON object with sorted keys.
	Config map[string]string
}

// arrowMetadata encodes m (with the format name and version) as schema metadata.
func (m Meta) arrowMetadata() (arrow.Metadata, error) {
	cfg := m.Config
	if cfg == nil {
		cfg = map[string]string{}
	}
	js, err := json.Marshal(cfg) // map keys are sorted: deterministic
	if err != nil {
		return arrow.Metadata{}, fmt.Errorf("dataset: encode config: %w", err)
	}
	return arrow.NewMetadata(
		[]string{KeyFormat, KeyVersion, KeyWidth, KeyHeight, KeyGenerator, KeyCodeVersion, KeyConfig},
		[]string{FormatName, strconv.Itoa(FormatVersion), strconv.Itoa(m.Width), strconv.Itoa(m.Height),
			m.Generator, m.CodeVersion, string(js)},
	), nil
}

// metaFromArrow decodes and checks schema metadata.
func metaFromArrow(md arrow.Metadata) (Meta, error) {
	var m Meta
	f, ok := md.GetValue(KeyFormat)
	if !ok || f != FormatName {
		return m, fmt.Errorf("%w: schema metadata has no %s=%s", ErrNotDataset, KeyFormat, FormatName)
	}
	v, ok := md.GetValue(KeyVersion)
	if !ok {
		return m, fmt.Errorf("%w: no %s in schema metadata", ErrVersion, KeyVersion)
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < MinFormatVersion || n > FormatVersion {
		return m, fmt.Errorf("%w: file has version %q, this code reads versions %d to %d", ErrVersion, v, MinFormatVersion, FormatVersion)
	}
	m.Version = n
	if m.Width, err = metaInt(md, KeyWidth); err != nil {
		return m, err
	}
	if m.Height, err = metaInt(md, KeyHeight); err != nil {
		return m, err
	}
	if m.Width < 1 || m.Width > hex.MaxSize || m.Height < 1 || m.Height > hex.MaxSize {
		return m, fmt.Errorf("%w: board size %dx%d out of range 1..%d", ErrCorrupt, m.Width, m.Height, hex.MaxSize)
	}
	m.Generator, _ = md.GetValue(KeyGenerator)
	m.CodeVersion, _ = md.GetValue(KeyCodeVersion)
	if js, ok := md.GetValue(KeyConfig); ok && js != "" {
		if err := json.Unmarshal([]byte(js), &m.Config); err != nil {
			return m, fmt.Errorf("%w: config metadata is not a JSON object of strings: %v", ErrCorrupt, err)
		}
	}
	return m, nil
}

func metaInt(md arrow.Metadata, key string) (int, error) {
	s, ok := md.GetValue(key)
	if !ok {
		return 0, fmt.Errorf("%w: no %s in schema metadata", ErrCorrupt, key)
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("%w: %s=%q is not an integer", ErrCorrupt, key, s)
	}
	return n, nil
}
