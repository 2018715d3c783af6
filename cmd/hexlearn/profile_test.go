package main

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestStartProfile: HEXLEARN_CPUPROFILE's file gets a gzip-compressed profile with
// "%p" replaced by the process id, and nothing else is left next to it; an empty
// name profiles nothing; an unwritable name is an error at the end.
func TestStartProfile(t *testing.T) {
	dir := t.TempDir()
	stop, err := startProfile(filepath.Join(dir, "cpu-%p.prof"))
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := 0; i < 20_000_000; i++ {
		x ^= i * i
	}
	_ = x
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dir, "cpu-"+strconv.Itoa(os.Getpid())+".prof")
	data, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		t.Errorf("profile of %d bytes does not start with the gzip magic", len(data))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("%d files in the directory, want the profile only", len(ents))
	}
	stop, err = startProfile("")
	if err != nil || stop() != nil {
		t.Errorf("empty name: %v", err)
	}
	stop, err = startProfile(filepath.Join(dir, "missing", "cpu.prof"))
	if err != nil {
		t.Fatal(err)
	}
	if err := stop(); err == nil {
		t.Error("a profile in a missing directory gave no error")
	}
}
