// Package fileutil writes files atomically: to a temporary name in the destination
// directory, synced, then renamed, so an interrupted run never leaves a half-written
// file under the final name.
package fileutil

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// WriteAtomic creates path by calling write on a buffered temporary file next to it and
// renaming it into place when write and the flush succeed. On any error (or a panic)
// the temporary file is removed and path is left as it was.
func WriteAtomic(path string, write func(w io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("fileutil: create temporary file for %s: %w", path, err)
	}
	tmp := f.Name()
	ok := false
	defer func() {
		if !ok {
			f.Close()
			os.Remove(tmp)
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("fileutil: write %s: %w", path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("fileutil: sync %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("fileutil: close %s: %w", path, err)
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		return fmt.Errorf("fileutil: chmod %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("fileutil: rename into %s: %w", path, err)
	}
	ok = true
	return nil
}

// WriteFileAtomic writes data to path atomically.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
