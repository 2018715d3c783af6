package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStrengthBadFlags(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "never")
	for _, tc := range []struct {
		args []string
		want string // the flag the error names
	}{
		{[]string{"--players", "learned,nobody"}, "--players: unknown player \"nobody\""},
		{[]string{"--players", "exact"}, "--players"},
		{[]string{"--players", "exact,exact"}, "--players: exact given twice"},
		{[]string{"--time", "0"}, "--time"},
		{[]string{"--time", "fast"}, "--time"},
		{[]string{"--time", "-1"}, "--time"},
		{[]string{"--time", "0.5,0.5"}, "--time"},
		{[]string{"--size", "1"}, "--size"},
		{[]string{"--size", "20"}, "--size"},
		{[]string{"--size", "8,x"}, "--size"},
		{[]string{"--size", "8,8"}, "--size"},
		{[]string{"--engine", "wolve"}, "-engine"},
		{[]string{"--engine", "=wolve"}, "-engine"},
		{[]string{"--engine", "a/b=wolve"}, "-engine"},
		{[]string{"--engine", "w="}, "-engine"},
		{[]string{"--engine", "w=x", "--engine", "w=y"}, "-engine"},
		{[]string{"--engine-init", "exact"}, "-engine-init"},
		{[]string{"--engine-init", "exact= ; "}, "-engine-init"},
		{[]string{"--engine-init", "wolve=param_wolve x 1"}, "--engine-init: \"wolve\" is not a player"},
		{[]string{"--openings", "0"}, "--openings"},
		{[]string{"--openings", "some"}, "--openings"},
		{[]string{"--out", ""}, "--out"},
		{[]string{"--frobnicate"}, "-frobnicate"},
		{[]string{"extra"}, "unexpected argument"},
	} {
		var out, errb bytes.Buffer
		args := append([]string{"experiment", "strength", "--out", dir}, tc.args...)
		code := run(args, &out, &errb)
		first, _, _ := strings.Cut(errb.String(), "\n")
		if code != 2 || !strings.Contains(first, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 naming %q", tc.args, code, errb.String(), tc.want)
		}
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("a rejected command created %s", dir)
	}
}

func TestStrengthBuiltins(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"learned", "'/x y/hexlearn' gtp --player=learned --time {time}"},
		{"exact", "'/x y/hexlearn' gtp --player=exact --time {time}"},
		{"exact-xh", "'/x y/hexlearn' gtp --player=exact --xh=true --time {time}"},
	} {
		if got, ok := builtinCommand("/x y/hexlearn", tc.name); !ok || got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if _, ok := builtinCommand("hexlearn", "wolve"); ok {
		t.Errorf("wolve is not built in")
	}
}

func TestStrengthEndToEnd(t *testing.T) {
	exe := self(t)
	dir := filepath.Join(t.TempDir(), "ladder")
	var out, errb bytes.Buffer
	args := []string{"experiment", "strength", "--size", "3,4", "--time", "0.02", "--openings", "2", "--seed", "9",
		"--players", "exact,exact-xh", "--engine", "exact=" + exe + " gtp --depth 32 --time {time}",
		"--engine", "exact-xh=" + exe + " gtp --xh --depth 32 --time {time}",
		"--engine", "shallow=" + exe + " gtp --depth 1 --k 1 --time {time}",
		"--engine-init", "shallow=param_search k 2; param_search time {time}", "--out", dir, "--json"}
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	var res struct {
		Players           []struct{ Name string }
		Played            int
		AdjudicateSeconds float64 `json:"adjudicate_seconds"`
		Ladders           []struct {
			Size  int
			Pairs []struct{ Games int }
			Elo   struct{ Ratings []struct{ Games int } }
		}
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("JSON output: %v\n%s", err, out.String())
	}
	// Three players (exact, exact-xh, then the added shallow): 3 pairs x 4 games x 2 sizes.
	if len(res.Players) != 3 || res.Players[2].Name != "shallow" || res.Played != 24 || len(res.Ladders) != 2 || res.AdjudicateSeconds != 60 {
		t.Fatalf("result %+v", res)
	}
	if lines := strings.Count(errb.String(), " wins ("); lines != 24 {
		t.Errorf("%d progress lines, want 24:\n%s", lines, errb.String())
	}
	if !strings.Contains(errb.String(), "[24/24 ") || !strings.Contains(errb.String(), "report written to") {
		t.Errorf("stderr:\n%s", errb.String())
	}
	sgfs, _ := filepath.Glob(filepath.Join(dir, "sgf", "*", "*", "*", "*.sgf"))
	if len(sgfs) != 24 {
		t.Errorf("%d SGF files, want 24", len(sgfs))
	}
	md, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Status: complete, 24 games", "`param_search k 2; param_search time {time}`", "### 4x4, 0.02 s per move (2 openings, 4 games per pair)", "| exact | 8 |", "elo-4x4.svg"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("README lacks %q:\n%s", want, md)
		}
	}
	svg, err := os.ReadFile(filepath.Join(dir, "elo-3x3.svg"))
	if err != nil || !bytes.Contains(svg, []byte("<svg")) || !bytes.Contains(svg, []byte("</svg>")) {
		t.Errorf("elo-3x3.svg: %v", err)
	}
}
