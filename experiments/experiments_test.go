package experiments

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/train"
)

// fixture trains a small network on the exact evaluator's values of random 4x4
// positions and fills a pattern database from their winning VCs.
func fixture(t *testing.T) (*model.Model, *patterns.DB) {
	t.Helper()
	const size = 4
	ex, err := circuit.NewExact(circuit.SearchExactConfig())
	if err != nil {
		t.Fatal(err)
	}
	db, err := patterns.New(size, size)
	if err != nil {
		t.Fatal(err)
	}
	boards := randomPositions(size, 600, 5)
	cells := size * size
	exs := &train.Examples{W: size, H: size, X: make([]float32, len(boards)*cells),
		Value: make([]float32, len(boards)), Ply: make([]int, len(boards)), Winner: make([]int8, len(boards))}
	for i, b := range boards {
		a, err := ex.Analyse(b)
		if err != nil {
			t.Fatal(err)
		}
		exs.Value[i] = float32(a.Value)
		exs.Ply[i] = b.NumStones()
		for p := hex.Cell(0); int(p) < cells; p++ {
			switch b.At(p) {
			case hex.Black:
				exs.X[i*cells+int(p)] = model.InputBlack
			case hex.White:
				exs.X[i*cells+int(p)] = model.InputWhite
			}
		}
		if a.BlackVC {
			if _, err := db.AddWin(b, hex.Black, a.BlackCarrier); err != nil {
				t.Fatal(err)
			}
		}
	}
	m, err := train.Train(context.Background(), exs, train.Config{Hidden: 8, Epochs: 30, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return m, db
}

func TestExperimentsWriteReports(t *testing.T) {
	m, db := fixture(t)
	if db.Len() == 0 {
		t.Fatal("no winning patterns found in 600 positions")
	}
	env := Env{Size: 4, Seed: 3, Model: m, Patterns: db, Depth: 2, K: 6, Positions: 20, Time: 0}
	env.Time = 50_000_000 // 50 ms per search in 6-depth
	for _, name := range []string{"1-values", "2-evaltime", "3-firstmove", "4-prove", "5-center", "6-depth", "8-patterns", "9-solver"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), name)
			if err := Run(context.Background(), name, env, dir); err != nil {
				t.Fatal(err)
			}
			md, err := os.ReadFile(filepath.Join(dir, "README.md"))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(md), "Experiment "+name) || strings.Contains(string(md), "NaN") {
				t.Fatalf("bad summary:\n%s", md)
			}
			if name == "9-solver" && !strings.Contains(string(md), "| undecided, not proved one ply deep |") {
				t.Fatalf("no one-ply rows:\n%s", md)
			}
		})
	}
	// Experiment 1: one row per first-move board, finite values, and a plot.
	dir := filepath.Join(t.TempDir(), "v")
	if err := Run(context.Background(), "values", env, dir); err != nil {
		t.Fatal(err)
	}
	csv, _ := os.ReadFile(filepath.Join(dir, "values.csv"))
	lines := strings.Split(strings.TrimSpace(string(csv)), "\n")
	if len(lines) != 1+16 {
		t.Fatalf("values.csv has %d lines, want 17", len(lines))
	}
	for _, ln := range lines[1:] {
		f := strings.Split(ln, ",")
		for _, s := range f[1:3] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("bad value in %q", ln)
			}
		}
	}
	for _, f := range []string{"values.png", "values.svg"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
}

func TestExperimentErrors(t *testing.T) {
	ctx := context.Background()
	if err := Run(ctx, "nope", Env{Size: 4}, t.TempDir()); !errors.Is(err, ErrUnknown) {
		t.Errorf("unknown experiment: %v", err)
	}
	if err := Run(ctx, "1", Env{Size: 4}, t.TempDir()); !errors.Is(err, ErrNeedModel) {
		t.Errorf("missing model: %v", err)
	}
	if err := Run(ctx, "values", Env{Size: 0}, t.TempDir()); !errors.Is(err, ErrBadEnv) {
		t.Errorf("bad size: %v", err)
	}
	if e, err := Lookup("4"); err != nil || e.Name != "4-prove" {
		t.Errorf("Lookup by number: %v %v", e, err)
	}
}

func TestHexDistance(t *testing.T) {
	for _, tc := range []struct{ x1, y1, x2, y2, d int }{
		{0, 0, 0, 0, 0}, {0, 0, 1, 0, 1}, {0, 0, 0, 1, 1}, {1, 0, 0, 1, 1}, {0, 0, 1, 1, 2}, {0, 0, 2, -1, 2}, {0, 0, 3, 3, 6},
	} {
		if d := hexDistance(tc.x1, tc.y1, tc.x2, tc.y2); d != tc.d {
			t.Errorf("hexDistance(%d,%d,%d,%d) = %d, want %d", tc.x1, tc.y1, tc.x2, tc.y2, d, tc.d)
		}
	}
}

// TestMatchPairingsNamePlayers: experiment 7 names every engine's player, since the
// GTP engine's default player is the learned one, and starts the engines on its board
// at its time per move (with a time limit the search has no depth limit).
func TestMatchPairingsNamePlayers(t *testing.T) {
	env := &Env{Self: "/bin dir/hexlearn", Size: 6, ModelPath: "m.model", Time: 100 * time.Millisecond}
	pairs := matchPairings(env)
	if len(pairs) != 2 {
		t.Fatalf("%d pairings", len(pairs))
	}
	want := []string{
		"'/bin dir/hexlearn' gtp --size 6 --player=learned --model=m.model --time=0.1",
		"'/bin dir/hexlearn' gtp --size 6 --player=exact --time=0.1",
		"'/bin dir/hexlearn' gtp --size 6 --player=exact --xh=true --time=0.1",
		"'/bin dir/hexlearn' gtp --size 6 --player=exact --time=0.1",
	}
	var got []string
	for _, p := range pairs {
		got = append(got, env.engineCmd(p.pa), env.engineCmd(p.pb))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("engine command lines\n got %q\nwant %q", got, want)
	}
}
