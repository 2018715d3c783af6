package pipeline

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/train"
)

const golden3x3 = "../dataset/testdata/golden_3x3.arrow"

// readGolden reads testdata/golden.sha256: "name hash" lines, # comments.
func readGolden(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("testdata/golden.sha256")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, sum, ok := strings.Cut(line, " ")
		if !ok {
			t.Fatalf("golden line %q", line)
		}
		out[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// dbDigest hashes a pattern database file without its code-version field (which
// names the build) and its checksum (which covers that field).
func dbDigest(t *testing.T, data []byte) string {
	t.Helper()
	const off = 8 + 2 + 1 + 1 // magic, format version, width, height
	if len(data) < off+2+4 {
		t.Fatalf("database of %d bytes", len(data))
	}
	n := int(binary.LittleEndian.Uint16(data[off:]))
	sum := sha256.New()
	sum.Write(data[:off])
	sum.Write(data[off+2+n : len(data)-4])
	return hex.EncodeToString(sum.Sum(nil))
}

func fileDigest(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(data)
	return hex.EncodeToString(s[:])
}

// TestGoldenOutputs pins the bytes of a cross-validation report table and a pattern
// database built from the golden 3x3 dataset (see testdata/golden.sha256 for the
// commands that produced the hashes), with one and two workers.
func TestGoldenOutputs(t *testing.T) {
	want := readGolden(t)
	for _, workers := range []int{1, 2} {
		dir := t.TempDir()
		base := train.Config{BatchSize: 256, LearnRate: 0.003, Seed: 1, Target: "value"}
		parts := 0
		meter := &countMeter{}
		res, err := CrossValidate(context.Background(), CVConfig{Data: golden3x3, Width: 3, Height: 3, Base: base,
			Folds: 2, Hidden: []int{2, 3}, Epochs: 5, Workers: workers, Agree: 5, Report: dir, Meter: meter,
			OnPart: func(CVPart) { parts++ }})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Parts) != 1 || parts != 1 || meter.starts != 1 || meter.done != 20 || meter.parts[0] != "/20/epoch" {
			t.Fatalf("parts %d/%d, meter %+v", len(res.Parts), parts, meter)
		}
		if got := fileDigest(t, filepath.Join(dir, "sweep.csv")); got != want["sweep.csv"] {
			t.Errorf("workers %d: sweep.csv sha256 %s, want %s", workers, got, want["sweep.csv"])
		}
		if _, err := os.Stat(filepath.Join(dir, "sweep.json")); err != nil {
			t.Error(err)
		}
	}
	out := filepath.Join(t.TempDir(), "p.lbt")
	r, err := BuildPatterns(context.Background(), PatternsConfig{From: golden3x3, Finder: "vc", Verify: 12, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if r.Width != 3 || r.Stats.Positions != 4 {
		t.Fatalf("result %+v", r)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := dbDigest(t, data); got != want["patterns.lbt"] {
		t.Errorf("patterns.lbt digest %s, want %s", got, want["patterns.lbt"])
	}
}

// countMeter records what a pipeline step reported.
type countMeter struct {
	starts int
	parts  []string // "part/total/unit" of every Start
	done   int64
	count  int64
	units  map[string]bool // the units of Count
	errs   []error
}

func (m *countMeter) Start(part string, total int64, unit string) {
	m.starts++
	m.parts = append(m.parts, fmt.Sprintf("%s/%d/%s", part, total, unit))
}
func (m *countMeter) Set(d int64) { m.done = d }
func (m *countMeter) Count(n int64, unit string) {
	m.count = n
	if m.units == nil {
		m.units = map[string]bool{}
	}
	m.units[unit] = true
}
func (m *countMeter) Done(err error) { m.errs = append(m.errs, err) }

// TestBuildPatternsGames builds from a games file (twice: the same bytes; 7 positions,
// 6 distinct) and checks
// the configuration errors.
func TestBuildPatternsGames(t *testing.T) {
	dir := t.TempDir()
	games := filepath.Join(dir, "games.txt")
	if err := os.WriteFile(games, []byte("b2 a2 b1\nb2 b1 a2 a3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var files [2][]byte
	for i := range files {
		out := filepath.Join(dir, "db"+string(rune('0'+i)))
		m := &countMeter{}
		r, err := BuildPatterns(context.Background(), PatternsConfig{From: games, Size: 3, Finder: "bridges", Verify: 4, Out: out, Meter: m})
		if err != nil {
			t.Fatal(err)
		}
		if r.Stats.Positions != 6 || m.done != 7 || len(m.errs) != 1 || m.errs[0] != nil ||
			m.parts[0] != "/7/position" || !m.units["entry"] || m.count == 0 {
			t.Fatalf("stats %+v, meter %+v", r.Stats, m)
		}
		var err2 error
		if files[i], err2 = os.ReadFile(out); err2 != nil {
			t.Fatal(err2)
		}
	}
	if string(files[0]) != string(files[1]) {
		t.Error("same games, different database bytes")
	}
	for _, c := range []PatternsConfig{
		{From: games, Finder: "vc"},               // a games file needs a size
		{From: games, Size: 3, Finder: "nothing"}, // unknown finder
	} {
		if _, err := BuildPatterns(context.Background(), c); !errors.Is(err, ErrConfig) {
			t.Errorf("%+v: error %v, want ErrConfig", c, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildPatterns(ctx, PatternsConfig{From: games, Size: 3, Finder: "vc"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
