package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/model"
)

// goldenFiles are the digests of TestSelfplayTrainGolden (testdata/golden.sha256).
const goldenFiles = "testdata/golden.sha256"

// TestSelfplayTrainGolden pins what selfplay and train write for a set of flags that
// covers their settings: the rows and metadata of every dataset file, the model
// files and train's summaries (testdata/golden.sha256 says where the digests come
// from). The build's code version is blanked: it names the binary, not the output.
func TestSelfplayTrainGolden(t *testing.T) {
	if testing.Short() {
		t.Skip("plays and trains (a few seconds)")
	}
	want := readDigests(t, goldenFiles)
	dir := t.TempDir()
	sweep := filepath.Join(dir, "sweep.json")
	if err := os.WriteFile(sweep, []byte(`{"w":4,"h":4,"rows":300,"folds":2,"hidden":[2,3],"epochs":4,"seed":1,"data_hash":"sha256:x","best_hidden":3,"best_epochs":2,"best_mean":0.25,"best_std":0.125}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sp1 := filepath.Join(dir, "sp1")
	sp5 := filepath.Join(dir, "sp5")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"sp1", []string{"selfplay", "--size", "4", "--positions", "300", "--seed", "3", "--out", sp1}},
		{"sp2", []string{"selfplay", "--size", "4", "--games", "6", "--mode", "mixed", "--depth", "1", "--k", "0", "--opening", "0", "--workers", "2"}},
		{"sp3", []string{"selfplay", "--size", "5", "--games", "4", "--mode", "random", "--temperature", "0.5", "--temp-plies", "3", "--stop-at-proof", "--games-per-file", "2"}},
		{"sp4", []string{"selfplay", "--size", "3x4", "--games", "5", "--shards", "2", "--shard", "1", "--light"}},
		{"sp5", []string{"selfplay", "--size", "4", "--games", "30", "--mode", "positions", "--label-nodes", "1000", "--out", sp5}},
		{"tr1", []string{"train", "--data", sp1, "--size", "4", "--hidden", "4", "--epochs", "3"}},
		{"tr2", []string{"train", "--data", sp1, "--size", "4", "--hidden", "3", "--epochs", "2", "--per-ply", "--ply-width", "3", "--holdout", "0.2", "--rotate"}},
		{"tr3", []string{"train", "--data", sp1, "--size", "4", "--hidden", "3", "--epochs", "2", "--target", "playouts", "--playouts", "8", "--holdout", "0.3", "--json"}},
		{"tr4", []string{"train", "--data", sp5, "--size", "4", "--hidden", "3", "--epochs", "2", "--target", "winner", "--open-only"}},
		{"tr5", []string{"train", "--data", sp1, "--size", "4", "--hidden", "3", "--epochs", "2", "--output", "linear", "--batch", "32", "--lr", "0.01", "--seed", "9"}},
		{"tr6", []string{"train", "--data", sp1, "--size", "4", "--hidden", "2", "--epochs", "1", "--features", "twodist", "--holdout", "0"}},
		{"tr7", []string{"train", "--data", sp1, "--size", "4", "--sweep", sweep, "--target", "outcome"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(dir, tc.name)
			args := tc.args
			if !slices.Contains(args, "--out") {
				if args[0] == "train" {
					out += ".model"
				}
				args = append(args, "--out", out)
			}
			var o, e bytes.Buffer
			if code := runCommand(context.Background(), args, &o, &e); code != 0 {
				t.Fatalf("%v: exit %d\n%s", args, code, e.String())
			}
			h := sha256.New()
			if args[0] == "train" {
				// the summary names the model file
				fmt.Fprint(h, strings.ReplaceAll(o.String(), out, "OUT"))
				m, err := model.ReadFile(out)
				if err != nil {
					t.Fatal(err)
				}
				m.Provenance.CodeVersion = ""
				if err := m.Write(h); err != nil {
					t.Fatal(err)
				}
			} else {
				files, err := dataset.Files(out)
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range files {
					tab, err := dataset.ReadFile(f, nil)
					if err != nil {
						t.Fatal(err)
					}
					tab.Meta.CodeVersion = ""
					fmt.Fprintf(h, "%s\n%+v\n", filepath.Base(f), tab.Meta)
					for i := range tab.Rows {
						fmt.Fprintf(h, "%+v\n", tab.Rows[i])
					}
				}
			}
			if got := hex.EncodeToString(h.Sum(nil)); got != want[tc.name] {
				t.Errorf("%v: digest %s, want %s", args, got, want[tc.name])
			}
		})
	}
}

// readDigests reads "name sha256" lines (# comments).
func readDigests(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
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
			t.Fatalf("%s: line %q", path, line)
		}
		out[name] = sum
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
