package fileutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	if err := WriteFileAtomic(p, []byte("first")); err != nil {
		t.Fatal(err)
	}
	// A failing writer leaves the old file as it was and no temporary file behind.
	boom := errors.New("boom")
	err := WriteAtomic(p, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("error %v, want boom", err)
	}
	if got, _ := os.ReadFile(p); string(got) != "first" {
		t.Fatalf("file changed to %q", got)
	}
	// So does a panicking one.
	func() {
		defer func() { _ = recover() }()
		_ = WriteAtomic(p, func(w io.Writer) error { panic("writer panicked") })
	}()
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("directory holds %d entries, want only f.txt", len(entries))
	}
	if err := WriteFileAtomic(p, []byte("second")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(p); string(got) != "second" {
		t.Fatalf("file is %q", got)
	}
	if err := WriteFileAtomic(filepath.Join(dir, "no", "such", "dir", "f"), nil); err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
}
