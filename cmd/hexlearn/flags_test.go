package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// cliCase is one command (or dataset/patterns action) with arguments that make a valid
// run; out is replaced by a fresh empty directory's path.
type cliCase struct {
	cmd  []string // command and action
	base []string // valid flags and arguments
	// valid lists flag=value settings of the numeric probes below that are legal (the
	// run then starts and stops at once: its context is already cancelled).
	valid []string
}

const (
	goldenData = "../../dataset/testdata/golden_3x3.arrow"
	tinyModel  = "../../model/testdata/tiny.model"
	bridgeDB   = "../../engine/patterns/testdata/bridge5.db"
)

var cliCases = []cliCase{
	{cmd: []string{"analyze"}, base: []string{"../../engine/hex/testdata"}},
	{cmd: []string{"bench"}, base: []string{"--size", "3", "--positions", "1", "--time", "0.01"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"book", "build"}, base: []string{"--size", "4", "--out", "OUT/4x4.book"},
		valid: []string{"timeout=huge", "root-timeout=huge", "max-nodes=huge", "root-max-nodes=huge"}},
	{cmd: []string{"book", "probe"}, base: []string{"--size", "4", "--moves", "a1"}},
	{cmd: []string{"cv"}, base: []string{"--data", goldenData, "--size", "3", "--folds", "2", "--report", "OUT/cv"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"dataset", "stats"}, base: []string{goldenData}},
	{cmd: []string{"dataset", "export"}, base: []string{"--format", "csv", "--out", "OUT/x.csv", goldenData},
		valid: []string{"scale=huge"}},
	{cmd: []string{"dataset", "merge"}, base: []string{"--out", "OUT/m.arrow", goldenData}},
	{cmd: []string{"demo"}, base: []string{"--out", "OUT/demo"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"eval"}, base: []string{"--size", "3", "--moves", "b2"}},
	{cmd: []string{"experiment"}, base: []string{"2", "--size", "3", "--model", tinyModel, "--out", "OUT/exp"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"experiment", "strength"}, base: []string{"--size", "3", "--time", "0.01", "--players", "exact,exact-xh", "--out", "OUT/s"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"gtp"}, base: []string{"--size", "3"}, valid: []string{"solve-share=-1", "circuit-priors=-1", "playouts=-1", "playout-weight=-1", "amaf-priors=-1"}},
	{cmd: []string{"label"}, base: []string{"--out", "OUT/l.arrow", goldenData}},
	{cmd: []string{"loop"}, base: []string{"--dir", "OUT/loop", "--size", "5", "--games", "2", "--shards", "1"},
		valid: []string{"seed=-1", "seed=huge", "elo0=-1"}},
	{cmd: []string{"match"}, base: []string{"--a", "true", "--b", "true", "--size", "3", "--sgf", "OUT/sgf"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"models", "build"}, base: []string{"--out", "OUT/models", "--work", "OUT/work", "--sizes", "5"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"patterns", "build"}, base: []string{"--from", goldenData, "--out", "OUT/db"}},
	{cmd: []string{"patterns", "query"}, base: []string{"--db", bridgeDB, "--size", "5", "--moves", "c3"}},
	{cmd: []string{"patterns", "stats"}, base: []string{"--db", bridgeDB}},
	{cmd: []string{"play"}, base: []string{"--size", "3"}},
	{cmd: []string{"selfplay"}, base: []string{"--size", "3", "--games", "1", "--out", "OUT/sp"},
		valid: []string{"seed=-1", "seed=huge", "shard=-1"}},
	{cmd: []string{"show"}, base: []string{"--size", "3"}},
	{cmd: []string{"solve"}, base: []string{"--size", "3"}, valid: []string{"max-nodes=huge"}},
	{cmd: []string{"train"}, base: []string{"--data", goldenData, "--size", "3", "--hidden", "2", "--epochs", "1", "--holdout", "0", "--out", "OUT/m.model"},
		valid: []string{"seed=-1", "seed=huge"}},
	{cmd: []string{"vc"}, base: []string{"--size", "3"}},
}

// numericFlag matches a flag line of the help: "  --name TYPE".
var numericFlag = regexp.MustCompile(`(?m)^  --([a-z0-9-]+) (int|uint|float|duration)$`)

// runCancelled runs args with an already cancelled context, recovering a panic.
func runCancelled(args []string) (code int, out, errs string, panicked any) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	func() {
		defer func() { panicked = recover() }()
		code = runCommand(ctx, args, &o, &e)
	}()
	return code, o.String(), e.String(), panicked
}

// TestEveryCommandFlags runs every command with --help, with an unknown flag and with
// each numeric flag at 0, -1 and an absurd value: no panic, exit 2 with a one-line
// message for bad values, and nothing written into the output directory.
func TestEveryCommandFlags(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range cliCases {
		covered[tc.cmd[0]] = true
	}
	for name := range commands {
		if !covered[name] {
			t.Errorf("command %s has no case in cliCases", name)
		}
	}
	start := time.Now()
	for _, tc := range cliCases {
		t.Run(strings.Join(tc.cmd, "_"), func(t *testing.T) {
			var o, e bytes.Buffer
			if code := run(append(append([]string{}, tc.cmd...), "--help"), &o, &e); code != 0 {
				t.Fatalf("--help: exit %d\n%s", code, e.String())
			}
			if o.Len() == 0 || e.Len() != 0 {
				t.Errorf("--help: %d bytes on standard output, %d on standard error; want the help on standard output only", o.Len(), e.Len())
			}
			help := o.String() + e.String()
			if strings.Contains(help, "\n  -") && !strings.Contains(help, "  --") {
				t.Errorf("--help shows flags with one dash:\n%s", help)
			}
			code, _, errs, p := runCancelled(append(append([]string{}, tc.cmd...), "--no-such-flag"))
			lines := strings.Split(strings.TrimSpace(errs), "\n")
			if p != nil || code != 2 || len(lines) != 2 || !strings.Contains(lines[0], "--no-such-flag") ||
				!strings.Contains(lines[1], "hexlearn help "+tc.cmd[0]) {
				t.Errorf("unknown flag: exit %d, panic %v, want exit 2 and two lines naming the flag and the help:\n%s", code, p, errs)
			}
			valid := map[string]bool{}
			for _, v := range tc.valid {
				valid[v] = true
			}
			for _, m := range numericFlag.FindAllStringSubmatch(help, -1) {
				flagName, typ := m[1], m[2]
				huge := "1000000000000"
				if typ == "float" {
					huge = "1e12"
				}
				if typ == "duration" {
					huge = "1000000h"
				}
				for _, probe := range []struct{ label, value string }{{"0", "0"}, {"-1", "-1"}, {"huge", huge}} {
					out := t.TempDir()
					args := append([]string{}, tc.cmd...)
					for _, a := range tc.base {
						args = append(args, strings.ReplaceAll(a, "OUT", out))
					}
					args = append(args, "--"+flagName, probe.value)
					code, _, errs, p := runCancelled(args)
					what := fmt.Sprintf("--%s %s", flagName, probe.value)
					if p != nil {
						t.Errorf("%s: panic %v", what, p)
						continue
					}
					if strings.Contains(errs, "panic") {
						t.Errorf("%s: %s", what, errs)
					}
					switch {
					case probe.label == "0" || valid[flagName+"="+probe.label]:
						if code != 0 && code != 2 && code != 130 {
							t.Errorf("%s: exit %d, want 0, 2 or 130 (interrupted):\n%s", what, code, errs)
						}
					default:
						if code != 2 || strings.Count(strings.TrimSpace(errs), "\n") != 1 || !strings.Contains(errs, "--"+flagName) {
							t.Errorf("%s: exit %d, want 2 and a one-line message naming the flag:\n%s", what, code, errs)
						}
					}
					if ents, _ := os.ReadDir(out); len(ents) > 0 {
						t.Errorf("%s: left %s in the output directory", what, filepath.Join(out, ents[0].Name()))
					}
				}
			}
		})
	}
	if el := time.Since(start); el > 20*time.Second {
		t.Errorf("the flag test took %v, want < 20 s", el)
	}
}
