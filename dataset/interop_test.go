package dataset

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow/go/v15/arrow/memory"
)

// TestInteropJS writes a dataset with this package and reads it with the official
// JavaScript Arrow implementation (npm apache-arrow, testdata/interop/read.mjs) under
// Node, comparing row count, schema and a few rows. It installs the npm package into
// testdata/interop/node_modules on first use and is skipped only when node or npm is
// not on PATH.
func TestInteropJS(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("interop test skipped: node is not on PATH")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skip("interop test skipped: npm is not on PATH")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	dir, _ := filepath.Abs(filepath.Join("testdata", "interop"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "apache-arrow")); err != nil {
		cmd := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm install in %s: %v\n%s", dir, err, out)
		}
	}

	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	rows := randomExamples(t, 5, 5, 1000, 11)
	rows[0].CostUS = 1234
	rows[0].RBlack = 3.25
	path := filepath.Join(t.TempDir(), "interop.arrow")
	if err := WriteFile(path, testMeta(5, 5), rows, &WriterOptions{Allocator: mem, BatchRows: 300}); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "read.mjs"), path)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("node read.mjs: %v\n%s", err, msg)
	}
	var got struct {
		NumRows   int      `json:"numRows"`
		Fields    []string `json:"fields"`
		CellsType string   `json:"cellsType"`
		Format    string   `json:"format"`
		Version   string   `json:"version"`
		Rows      []struct {
			GameID      string    `json:"game_id"`
			Ply         int       `json:"ply"`
			ToMove      int       `json:"to_move"`
			Cells       []int     `json:"cells"`
			Value       float64   `json:"value"`
			RBlack      *float64  `json:"r_black"`
			BlackWinsVC bool      `json:"black_wins_vc"`
			CostUS      *string   `json:"cost_us"`
			Winner      int       `json:"winner"`
			TrueWinner  *int      `json:"true_winner"`
			Hash        string    `json:"hash"`
			SearchValue *float64  `json:"search_value"`
			Policy      []float32 `json:"policy"`
		} `json:"rows"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("bad JSON from node: %v\n%s", err, out)
	}
	t.Logf("apache-arrow (JS) read %d rows; cells type %s", got.NumRows, got.CellsType)
	if got.NumRows != len(rows) || got.Format != FormatName || got.Version != fmt.Sprint(FormatVersion) ||
		len(got.Fields) != 18 || got.Fields[5] != ColCells || got.Fields[17] != ColPolicy {
		t.Fatalf("JS summary: %+v", got)
	}
	for k, i := range []int{0, 1, len(rows) - 1} {
		g, w := got.Rows[k], rows[i]
		if g.GameID != fmt.Sprint(w.GameID) || g.Ply != w.Ply || g.ToMove != int(ColorCode(w.ToMove)) ||
			g.Value != w.Value || g.BlackWinsVC != w.BlackWinsVC || g.Winner != int(ColorCode(w.Winner)) ||
			g.Hash != fmt.Sprintf("%x", w.Hash) {
			t.Errorf("row %d: JS %+v, Go %+v", i, g, w)
		}
		if len(g.Cells) != 25 {
			t.Fatalf("row %d: JS saw %d cells", i, len(g.Cells))
		}
		for c := range g.Cells {
			if g.Cells[c] != int(w.Cells[c]) {
				t.Errorf("row %d cell %d: JS %d, Go %d", i, c, g.Cells[c], w.Cells[c])
			}
		}
		if (g.RBlack == nil) != math.IsNaN(w.RBlack) || (g.RBlack != nil && *g.RBlack != w.RBlack) {
			t.Errorf("row %d: r_black JS %v, Go %v", i, g.RBlack, w.RBlack)
		}
		if (g.CostUS == nil) != (w.CostUS == NoCost) || (g.CostUS != nil && *g.CostUS != fmt.Sprint(w.CostUS)) {
			t.Errorf("row %d: cost JS %v, Go %v", i, g.CostUS, w.CostUS)
		}
		if (g.TrueWinner == nil) != (w.TrueWinner == 0) {
			t.Errorf("row %d: true_winner JS %v, Go %v", i, g.TrueWinner, w.TrueWinner)
		}
		var wv *float64
		var wp []float32
		if w.Search != nil {
			wv, wp = &w.Search.Value, w.Search.Policy
		}
		if (g.SearchValue == nil) != (wv == nil) || (g.SearchValue != nil && *g.SearchValue != *wv) {
			t.Errorf("row %d: search_value JS %v, Go %v", i, g.SearchValue, wv)
		}
		if !reflect.DeepEqual(g.Policy, wp) {
			t.Errorf("row %d: policy JS %v, Go %v", i, g.Policy, wp)
		}
	}
	if got.Rows[0].Policy == nil && got.Rows[1].Policy == nil && got.Rows[2].Policy == nil {
		t.Log("none of the rows the JS reader printed has a policy")
	}
}
