package sysmem

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseMeminfo(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       uint64
		err        string // substring of the error ("" for none)
	}{
		{"linux", "MemTotal:       24567676 kB\nMemFree:          311988 kB\nMemAvailable:   23715796 kB\nBuffers:  1 kB\n", 23715796 * 1024, ""},
		{"bytes without a unit", "MemAvailable: 4096\n", 4096, ""},
		{"missing", "MemTotal: 1 kB\nMemFree: 1 kB\n", 0, "no MemAvailable"},
		{"empty", "", 0, "no MemAvailable"},
		{"not a number", "MemTotal: 1 kB\nMemAvailable: lots kB\n", 0, "line 2: bad size"},
		{"other unit", "MemAvailable: 12 MB\n", 0, "line 1: want"},
		{"no value", "MemAvailable:\n", 0, "line 1: want"},
		{"absurd", "MemAvailable: 99999999999999999 kB\n", 0, "bad size"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseMeminfo(strings.NewReader(tc.text))
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v, want one containing %q", err, tc.err)
			case got != tc.want:
				t.Fatalf("got %d, want %d", got, tc.want)
			}
		})
	}
	if _, err := ParseMeminfo(strings.NewReader("x")); !errors.Is(err, ErrNoField) {
		t.Fatalf("missing field: %v, want ErrNoField", err)
	}
}

func TestAvailable(t *testing.T) {
	oldInfo, oldMax, oldCur := meminfoPath, cgroupMaxPath, cgroupCurPath
	defer func() { meminfoPath, cgroupMaxPath, cgroupCurPath = oldInfo, oldMax, oldCur }()
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	meminfoPath = write("meminfo", "MemTotal: 8000 kB\nMemAvailable: 4000 kB\n")
	for _, tc := range []struct {
		name, max, cur string // "" for no file
		want           uint64
	}{
		{"no cgroup files", "", "", 4000 * 1024},
		{"no limit", "max\n", "100\n", 4000 * 1024},
		{"a limit below the machine's", "1048576\n", "48576\n", 1000000},
		{"a limit above it", "99999999999\n", "0\n", 4000 * 1024},
		{"over the limit", "1000\n", "5000\n", 0},
		{"limit without use", "2048\n", "", 2048},
	} {
		cgroupMaxPath, cgroupCurPath = filepath.Join(dir, "none"), filepath.Join(dir, "none")
		if tc.max != "" {
			cgroupMaxPath = write("max", tc.max)
		}
		if tc.cur != "" {
			cgroupCurPath = write("cur", tc.cur)
		}
		if n, ok := Available(); !ok || n != tc.want {
			t.Errorf("%s: %d, %v; want %d", tc.name, n, ok, tc.want)
		}
		os.Remove(filepath.Join(dir, "max"))
		os.Remove(filepath.Join(dir, "cur"))
	}
	meminfoPath = filepath.Join(dir, "none")
	if n, ok := Available(); ok || n != 0 {
		t.Fatalf("unreadable file: %d, %v", n, ok)
	}
	meminfoPath = write("bad", "MemAvailable: lots kB\n")
	if n, ok := Available(); ok || n != 0 {
		t.Fatalf("malformed file: %d, %v", n, ok)
	}
}

func FuzzParseMeminfo(f *testing.F) {
	f.Add("MemAvailable:   23715796 kB\n")
	f.Add("MemTotal: 1 kB\nMemAvailable: 7\n")
	f.Add("MemAvailable: 1 GB\n")
	f.Fuzz(func(t *testing.T, text string) {
		n, err := ParseMeminfo(strings.NewReader(text))
		if err != nil && n != 0 {
			t.Fatalf("error %v with size %d", err, n)
		}
		if n > 1<<54 {
			t.Fatalf("size %d beyond the bound", n)
		}
	})
}
