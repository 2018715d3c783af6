package dataset

import (
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckFooterCatches: the damaged footers checkFooter exists for (see the header
// of fbcheck.go). Each case is the golden file with one 32-bit word of its footer
// changed. Without checkFooter, arrow/go/v15's ipc reader kills the process on every
// one of them ("fatal error: runtime: out of memory" for the lengths, "fatal error:
// stack overflow" for the cycle; measured by bypassing checkFooter in a scratch copy),
// which no recover can turn into an error. With it, Decode reports ErrCorrupt.
func TestCheckFooterCatches(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "golden_3x3.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	// Locate the words by the flatbuffer rules alone (not by fbCheck): the footer
	// ends 10 bytes before the end (its length, then the magic); a table starts with
	// the signed offset back to its vtable, whose u16 slot 2+i holds field i's offset
	// in the table; a reference is a u32 offset forward from where it is stored; a
	// vector starts with its u32 length.
	end := len(data) - 10
	base := end - int(binary.LittleEndian.Uint32(data[end:]))
	u32 := func(pos int) int { return int(binary.LittleEndian.Uint32(data[base+pos:])) }
	deref := func(pos int) int { return pos + u32(pos) }
	field := func(table, i int) int {
		vt := table - int(int32(u32(table)))
		off := int(binary.LittleEndian.Uint16(data[base+vt+4+2*i:]))
		if off == 0 {
			t.Fatalf("field %d of the table at %d is absent", i, table)
		}
		return table + off
	}
	root := deref(0)
	schema := deref(field(root, 1))   // Footer.schema
	fields := deref(field(schema, 1)) // Schema.fields: a vector of Field tables
	meta := deref(field(schema, 2))   // Schema.custom_metadata
	field0 := deref(fields + 4)       // the first column, game_id
	childrenRef := field(field0, 5)   // Field.children
	children := deref(childrenRef)    // (empty for a uint64 column)
	if u32(fields) != 18 || u32(children) != 0 || u32(meta) < 5 {
		t.Fatalf("locator: %d fields, %d children, %d metadata entries; want 18, 0, >= 5", u32(fields), u32(children), u32(meta))
	}
	for _, tc := range []struct {
		name     string
		pos      int    // footer offset of the word
		value    uint32 // its damaged value
		prevents string // what the reader would do without checkFooter
	}{
		{"schema fields length 2^32-16", fields, 0xFFFFFFF0, "make([]arrow.Field, n) in schemaFromFB: 378 GB"},
		{"schema metadata length 2^32-16", meta, 0xFFFFFFF0, "two make([]string, n) in metadataFromFB: 69 GB each"},
		{"column children length 2^32-16", children, 0xFFFFFFF0, "make([]arrow.Field, n) in fieldFromFB: 378 GB"},
		{"column children: the schema's fields again", childrenRef, uint32(int32(fields - childrenRef)), "fieldFromFB recursing without end"},
	} {
		bad := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(bad[base+tc.pos:], tc.value)
		if err := checkFooter(bad); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s (%s): checkFooter %v, want ErrCorrupt", tc.name, tc.prevents, err)
		}
		if _, err := Decode(bad, nil); !errors.Is(err, ErrCorrupt) {
			t.Errorf("%s: Decode %v, want ErrCorrupt", tc.name, err)
		}
	}
	if err := checkFooter(data); err != nil {
		t.Errorf("the undamaged file: %v", err)
	}
}
