package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// inputPath returns an error (a failure, not a usage error: the command line is
// well formed) unless path, the value of flag name ("" for an argument), exists.
func inputPath(name, path string) error {
	if _, err := os.Stat(path); err != nil {
		what := path
		if name != "" {
			what = fmt.Sprintf("--%s %s", name, path)
		}
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("%s: %w", what, os.ErrNotExist)
		}
		return fmt.Errorf("%s: %w", what, errors.Unwrap(err))
	}
	return nil
}

// checkAll returns the first non-nil error of errs (checks in the order given).
func checkAll(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// optionalInput is inputPath for a flag that may be left empty.
func optionalInput(name, path string) error {
	if path == "" {
		return nil
	}
	return inputPath(name, path)
}

// outputs validates a command's output paths before any work starts and, when the
// command fails or is interrupted, removes the directories it created and left empty.
type outputs struct {
	force   bool     // overwrite existing outputs
	created []string // directories that did not exist before the run
}

// addForce registers the --force flag that lets a command overwrite existing outputs.
func (o *outputs) addForce(fs *flagSet) {
	fs.BoolVar(&o.force, "force", false, "overwrite existing output files")
}

// file checks the output file path of flag name: not a directory, its directory
// exists (or is created by the command), and not an existing file unless --force.
func (o *outputs) file(name, path string) error {
	if path == "" {
		return usageErr("--%s is required", name)
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return usageErr("--%s %s: is a directory, want a file name", name, path)
	case err == nil && !o.force:
		return usageErr("--%s %s: file exists (use --force to overwrite it)", name, path)
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return usageErr("--%s %s: %v", name, path, errors.Unwrap(err))
	}
	if dir := filepath.Dir(path); dir != "." {
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return usageErr("--%s %s: directory %s does not exist", name, path, dir)
		}
	}
	return nil
}

// dir checks the output directory path of flag name: not an existing file, and, if
// it exists, none of the files named by the glob patterns (relative to path) exists
// unless --force. A directory that does not exist yet is remembered for cleanup.
func (o *outputs) dir(name, path string, patterns ...string) error {
	if path == "" {
		return usageErr("--%s is required", name)
	}
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		o.created = append(o.created, path)
		return nil
	}
	if err != nil {
		return usageErr("--%s %s: %v", name, path, errors.Unwrap(err))
	}
	if !st.IsDir() {
		return usageErr("--%s %s: is a file, want a directory", name, path)
	}
	if o.force {
		return nil
	}
	for _, p := range patterns {
		m, _ := filepath.Glob(filepath.Join(path, p))
		if len(m) > 0 {
			return usageErr("--%s %s: would overwrite %s (use --force, or another directory)", name, path, filepath.Base(m[0]))
		}
	}
	return nil
}

// cleanup removes the directories the run created that hold no files (after a
// failure or an interruption). Call it with the run's error.
func (o *outputs) cleanup(err error) {
	if err == nil {
		return
	}
	for _, d := range o.created {
		removeEmptyDirs(d)
	}
}

// removeEmptyDirs removes dir and its subdirectories if they contain no files.
func removeEmptyDirs(dir string) bool {
	es, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	empty := true
	for _, e := range es {
		if !e.IsDir() || !removeEmptyDirs(filepath.Join(dir, e.Name())) {
			empty = false
		}
	}
	return empty && os.Remove(dir) == nil
}
