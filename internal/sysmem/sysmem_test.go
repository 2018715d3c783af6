package sysmem

import (
	"errors"
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
	old := meminfoPath
	defer func() { meminfoPath = old }()
	meminfoPath = t.TempDir() + "/none"
	if n, ok := Available(); ok || n != 0 {
		t.Fatalf("unreadable file: %d, %v", n, ok)
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
