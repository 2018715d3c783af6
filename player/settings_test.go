package player

import (
	"errors"
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// settings builds Settings from "name=value" pairs (as flags give them).
func settings(t testing.TB, pairs ...string) Settings {
	t.Helper()
	var s Settings
	for _, p := range pairs {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			v = "true" // a boolean flag without a value
		}
		if err := s.Set(k, v); err != nil {
			t.Fatal(err)
		}
	}
	return s
}

// TestSpecsCoverSettings: the table of settings names every field of Settings exactly
// once, so that a setting added to the struct without a row (no flag, no Args, no
// docs) fails here.
func TestSpecsCoverSettings(t *testing.T) {
	var s Settings
	seen := map[uintptr]string{}
	names := map[string]bool{}
	for _, sp := range Specs() {
		if names[sp.Name] || sp.Usage == "" || sp.DefaultText() == "" {
			t.Errorf("spec %q: duplicate, or without usage or default", sp.Name)
		}
		names[sp.Name] = true
		addr := reflect.ValueOf(sp.field(&s)).Pointer()
		if other, dup := seen[addr]; dup {
			t.Errorf("specs %q and %q set the same field", sp.Name, other)
		}
		seen[addr] = sp.Name
	}
	v := reflect.ValueOf(&s).Elem()
	for i := 0; i < v.NumField(); i++ {
		if _, ok := seen[v.Field(i).Addr().Pointer()]; !ok {
			t.Errorf("field %s has no row in the table of settings", v.Type().Field(i).Name)
		}
	}
}

// TestResolve: the defaults per kind of player and board size, and given settings
// kept on every size.
func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		name   string
		s      Settings
		cells  int
		pn     bool
		params search.Params
	}{
		{"exact, timed", settings(t, "player=exact", "time=1"), 64, false, search.Params{Depth: search.MaxDepth, K: ExactK, Time: time.Second}},
		{"exact, untimed", settings(t, "player=exact", "time=0"), 64, false, search.Params{Depth: DefaultDepth, K: ExactK}},
		{"learned alpha-beta", settings(t, "search=alphabeta", "time=1"), 64, false,
			search.Params{Depth: search.MaxDepth, K: LearnedK, Time: time.Second, VCPlies: LearnedVCPlies}},
		{"learned, given limits", settings(t, "search=alphabeta", "depth=5", "k=3", "vc-plies=0", "time=0"), 121, false, search.Params{Depth: 5, K: 3}},
		// With MCTS the evaluator carries the cheap ordering (the priors); alpha-beta,
		// which plays the lost positions, keeps its 1-ply lookahead at every node.
		{"learned MCTS", Settings{}, 64, false, search.Params{Depth: search.MaxDepth, K: LearnedK, Time: DefaultTime, VCPlies: LearnedVCPlies, LookaheadDepth: 1}},
		{"learned MCTS, lookahead", settings(t, "lookahead-depth=3", "depth=5"), 64, false, search.Params{Depth: 5, K: LearnedK, Time: DefaultTime, VCPlies: LearnedVCPlies, LookaheadDepth: 3}},
		{"exact ignores the learned settings", settings(t, "player=exact", "vc-plies=3", "lookahead-depth=2"), 64, false, search.Params{Depth: search.MaxDepth, K: ExactK, Time: DefaultTime}},
	} {
		r := tc.s.Resolve(tc.cells, tc.pn)
		if got := r.Params(); got != tc.params {
			t.Errorf("%s: params %+v, want %+v", tc.name, got, tc.params)
		}
	}
	// The MCTS's defaults follow the board size; given values hold on every size.
	for _, tc := range []struct {
		s                 Settings
		cells             int
		pn                bool
		priors, weight    float64
		playouts          int
		book              string
		share             float64
		reuse, leaf, fill bool
	}{
		{Settings{}, 64, false, 0, DefaultPlayoutWeight, 0, BookBuiltin, LearnedSolveShare, false, false, true},
		{Settings{}, 121, false, search.LargeBoardTacticsPriors, DefaultPlayoutWeight, search.LargeBoardPlayouts, BookBuiltin, LearnedSolveShare, false, false, true},
		{Settings{}, 121, true, search.LargeBoardTacticsPriors, DefaultPlayoutWeight, 0, BookBuiltin, LearnedSolveShare, false, false, true},
		{settings(t, "playouts=8", "circuit-priors=0.5", "reuse=on", "leaf-vc", "fill-in=false"), 121, true, 0.5, DefaultPlayoutWeight, 8, BookBuiltin, LearnedSolveShare, true, true, false},
		{settings(t, "playouts=8", "playout-weight=0.5", "book=none", "solve-share=0"), 36, false, 0, 0.5, 8, BookNone, 0, false, false, true},
		{settings(t, "player=exact"), 64, false, 0, DefaultPlayoutWeight, 0, BookNone, 0, false, false, true},
	} {
		r := tc.s.Resolve(tc.cells, tc.pn)
		mp := r.MCTSParams(tc.cells)
		if mp.TacticsPriors != tc.priors || mp.PlayoutWeight != tc.weight || mp.Playouts != tc.playouts || mp.Reuse != tc.reuse ||
			r.Book.V != tc.book || r.SolveShare.V != tc.share || r.LeafVC.V != tc.leaf || r.FillIn.V != tc.fill {
			t.Errorf("%v on %d cells (playout net %v): priors %g weight %g playouts %d reuse %v book %q share %g leaf %v fill %v",
				tc.s.Args(), tc.cells, tc.pn, mp.TacticsPriors, mp.PlayoutWeight, mp.Playouts, mp.Reuse, r.Book.V, r.SolveShare.V, r.LeafVC.V, r.FillIn.V)
		}
		if err := mp.Validate(); err != nil {
			t.Errorf("%v: %v", tc.s.Args(), err)
		}
	}
}

// TestSetErrors: a bad value or an unknown name is refused with an error wrapping
// ErrSettings that names the setting, and leaves the settings as they were.
func TestSetErrors(t *testing.T) {
	for _, c := range []struct{ name, value, want string }{
		{"player", "nonsense", "want learned or exact"},
		{"search", "uct", "want mcts or alphabeta"},
		{"order", "best", "order"},
		{"depth", "0", `--depth "0": want 1 to 32`},
		{"depth", "x", `--depth "x": want an integer`},
		{"k", "-1", "--k"},
		{"time", "-2", `--time "-2": want seconds`},
		{"time", "NaN", "--time"},
		{"solve-share", "1.5", `--solve-share "1.5": want 0 to 1`},
		{"circuit-priors", "NaN", "--circuit-priors"},
		{"playout-weight", "-0.5", "--playout-weight"},
		{"amaf-priors", "inf", "--amaf-priors"},
		{"playouts", "99999999", "--playouts"},
		{"reuse", "maybe", `--reuse "maybe": want true or false`},
		{"colour", "3", "unknown setting"},
	} {
		s := settings(t, "depth=4")
		err := s.Set(c.name, c.value)
		if !errors.Is(err, ErrSettings) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %s: %v, want an error with %q", c.name, c.value, err, c.want)
		}
		if s.Depth != Set(4) || len(s.Args()) != 1 {
			t.Errorf("%s %s: the settings changed: %v", c.name, c.value, s.Args())
		}
	}
	if s := settings(t, "root_k=3", "Solve_Share=0.5"); s.RootK != Set(3) || s.SolveShare != Set(0.5) {
		t.Errorf("GTP names: %+v", s)
	}
}

// TestArgsRoundTrip: the flags Args gives parse back into the same settings, and
// settings not given give no flag.
func TestArgsRoundTrip(t *testing.T) {
	for _, s := range []Settings{
		{},
		settings(t, "player=exact", "xh", "depth=32", "time=1.5"),
		settings(t, "model=my models/8's.model", "patterns=p.lbt", "k=7", "vc-plies=0", "time=0"),
		settings(t, "fill-in=false", "edge-templates=false", "book=none", "solve-share=0", "solve-max-empty=0"),
		settings(t, "search=alphabeta", "lookahead-depth=3", "order=potential", "leaf-vc=true", "root-k=20", "tt-bits=18"),
		settings(t, "circuit-priors=0", "playouts=32", "playout-weight=0.8", "amaf-priors=0.25", "reuse=on", "expansions=400", "solve-parallel"),
	} {
		args := s.Args()
		if len(args) != countGiven(s) {
			t.Errorf("%v: %d flags for %d settings", args, len(args), countGiven(s))
		}
		var got Settings
		fs := flag.NewFlagSet("x", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		got.Flags(fs)
		if err := fs.Parse(args); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if !reflect.DeepEqual(got, s) {
			t.Errorf("%v parsed into %v", args, got.Args())
		}
	}
	if got := settings(t, "player=exact").CommandLine("/opt/hex learn/hexlearn", "--size", "8"); got != "'/opt/hex learn/hexlearn' gtp --size 8 --player=exact" {
		t.Errorf("command line %q", got)
	}
}

// countGiven counts the settings s gives.
func countGiven(s Settings) int {
	n := 0
	for _, sp := range Specs() {
		if sp.field(&s).given() {
			n++
		}
	}
	return n
}

// TestFlagsHelp: every flag's help says its default, and a bad value is the flag
// package's error naming what the value should be.
func TestFlagsHelp(t *testing.T) {
	var s Settings
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	s.Flags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(f.Usage, "(default: ") {
			t.Errorf("--%s: help %q says no default", f.Name, f.Usage)
		}
	})
	if f := fs.Lookup("k"); !strings.Contains(f.Usage, "learned 10, exact 6") {
		t.Errorf("--k: %q", f.Usage)
	}
	if f := fs.Lookup("circuit-priors"); !strings.Contains(f.Usage, "1 above 8x8, else 0") {
		t.Errorf("--circuit-priors: %q", f.Usage)
	}
	if err := fs.Parse([]string{"--solve-share", "2"}); err == nil || !strings.Contains(err.Error(), "want 0 to 1") {
		t.Errorf("bad share: %v", err)
	}
	if err := fs.Parse([]string{"--leaf-vc", "--order", "mix", "--reuse", "on"}); err != nil || !s.LeafVC.V || s.Order != Set(model.OrderMix) || !s.Reuse.V {
		t.Errorf("boolean flag without a value, --reuse on: %v %+v", err, s.LeafVC)
	}
}

// TestMarkdown: the table for docs/cli.md has a row per setting with its default.
func TestMarkdown(t *testing.T) {
	md := Markdown()
	if n := strings.Count(md, "\n| `--"); n != len(Specs()) {
		t.Errorf("%d rows for %d settings", n, len(Specs()))
	}
	for _, want := range []string{"| `--k` |", "learned 10, exact 6", "| `--playouts` |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
}

// FuzzSetParam: any name and value either set a valid setting or are refused with
// an error wrapping ErrSettings; resolved settings always give valid search
// parameters.
func FuzzSetParam(f *testing.F) {
	for _, s := range []string{"depth 3", "k 0", "time 1.5", "root_k 36", "depth -1", "time NaN", "time 1e300", "k 99999", "foo 1",
		"playouts 0", "amaf_priors 0.5", "expansions 1", "tt_bits 27", "player exact"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		name, value, _ := strings.Cut(line, " ")
		var s Settings
		if err := s.Set(name, value); err != nil {
			if !errors.Is(err, ErrSettings) {
				t.Fatalf("%q: %v does not wrap ErrSettings", line, err)
			}
			return
		}
		for _, cells := range []int{9, 64, 121} {
			r := s.Resolve(cells, false)
			if err := r.Params().Validate(); err != nil {
				t.Fatalf("%q left invalid search parameters: %v", line, err)
			}
			mp := r.MCTSParams(cells)
			if err := mp.Validate(); err != nil && !(r.AMAFPriors.V > 0 && r.Playouts.V == 0) {
				t.Fatalf("%q left invalid MCTS parameters: %v", line, err)
			}
		}
	})
}
