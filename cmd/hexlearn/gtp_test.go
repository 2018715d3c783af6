package main

import (
	"bytes"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/player"
)

// TestGTPFlagsRoundTrip: the flags player.Settings.Args writes for a player
// (experiment 7 and the strength ladder start 'hexlearn gtp' with them) parse back
// into the same settings, and the engine starts on the board they name.
func TestGTPFlagsRoundTrip(t *testing.T) {
	set := func(pairs ...string) player.Settings {
		var s player.Settings
		for _, p := range pairs {
			k, v, _ := strings.Cut(p, "=")
			if err := s.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		return s
	}
	for _, tc := range []struct {
		s    player.Settings
		size int
	}{
		{player.Settings{}, gtp.DefaultSize},
		{set("player=exact", "xh=true", "depth=32", "time=1.5"), gtp.DefaultSize},
		{set("player=exact", "fill-in=false", "depth=2", "k=4", "time=0"), gtp.DefaultSize},
		{set("model="+tinyModel, "patterns="+bridgeDB, "k=7", "vc-plies=0"), 3},
		{set("leaf-vc=false", "solve-share=0.5", "solve-max-empty=0", "solve-parallel=true"), gtp.DefaultSize},
		{set("lookahead-depth=3", "order=potential", "search=alphabeta", "circuit-priors=0"), gtp.DefaultSize},
		{set("playouts=32", "playout-weight=0.8", "amaf-priors=0.25", "reuse=on", "book=none", "expansions=100"), gtp.DefaultSize},
		{set("player=exact", "book=builtin", "edge-templates=false"), gtp.DefaultSize},
	} {
		e, err := gtpEngine(commands["gtp"], tc.s.Args(), io.Discard, io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", tc.s.Args(), err)
		}
		p := e.Player().(*player.Player)
		if got := p.Settings(); !reflect.DeepEqual(got, tc.s) {
			t.Errorf("%q parsed into %q", tc.s.Args(), got.Args())
		}
		if b := e.Board(); b.Width() != tc.size || b.Height() != tc.size {
			t.Errorf("%q: starts on %dx%d, want %d", tc.s.Args(), b.Width(), b.Height(), tc.size)
		}
	}
	e, err := gtpEngine(commands["gtp"], []string{"--swap", "--size", "5"}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if ans, err := e.Run(t.Context(), "param_game"); err != nil || ans != "[bool] allow_swap 1" || e.Board().Width() != 5 {
		t.Errorf("--swap --size 5: %q %v, %dx%d", ans, err, e.Board().Width(), e.Board().Height())
	}
}

// TestGTPPlayerErrors: a player the flags describe but cannot be built is a one-line
// usage error naming what is wrong; files that cannot be read are plain errors.
func TestGTPPlayerErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--player", "random"}, 2, "hexlearn gtp: --player \"random\": want learned or exact\n"},
		{[]string{"--player", "exact", "--model", tinyModel}, 2, "hexlearn gtp: model " + tinyModel + ": the exact player uses no model\n"},
		{[]string{"--size", "5", "--model", tinyModel}, 2, "hexlearn gtp: size 5x5: model: model is for another board size: trained on 3x3, board is 5x5\n"},
		{[]string{"--solve-share", "1.5"}, 2, "hexlearn gtp: --solve-share \"1.5\": want 0 to 1\n"},
		{[]string{"--solve-share", "NaN"}, 2, "hexlearn gtp: --solve-share \"NaN\": want a number\n"},
		{[]string{"--order", "energy"}, 2, "hexlearn gtp: --order \"energy\": want potential, network, mix or policy\n"},
		{[]string{"--lookahead-depth", "40"}, 2, "hexlearn gtp: --lookahead-depth \"40\": want 0 to 32\n"},
		{[]string{"--depth", "0"}, 2, "hexlearn gtp: --depth \"0\": want 1 to 32\n"},
		{[]string{"--circuit-priors", "1.5"}, 2, "hexlearn gtp: --circuit-priors \"1.5\": want 0 to 1\n"},
		{[]string{"--playouts", "-2"}, 2, "hexlearn gtp: --playouts \"-2\": want 0 to 65536\n"},
		{[]string{"--playout-weight", "2"}, 2, "hexlearn gtp: --playout-weight \"2\": want 0 to 1\n"},
		{[]string{"--amaf-priors", "0.3", "--playouts", "0"}, 2, "hexlearn gtp: --amaf-priors: the AMAF ranking needs playouts (--playouts is 0)\n"},
		{[]string{"--reuse", "yes"}, 2, "hexlearn gtp: --reuse \"yes\": want true or false (or on, off)\n"},
		{[]string{"--search", "minimax"}, 2, "hexlearn gtp: --search \"minimax\": want mcts or alphabeta\n"},
		{[]string{"--time", "-1"}, 2, "hexlearn gtp: --time \"-1\": want seconds from 0 to 1e6\n"},
		{[]string{"--size", "0"}, 2, "hexlearn gtp: --size 0: want 1..19\n"},
		{[]string{"--model", "/nonexistent.model"}, 1, "hexlearn gtp: --model /nonexistent.model: file does not exist\n"},
		{[]string{"--patterns", tinyModel}, 1, "hexlearn gtp: " + tinyModel + ": patterns: "},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"gtp"}, tc.args...), &out, &errb)
		if code != tc.code || !strings.HasPrefix(errb.String(), tc.want) || strings.Count(errb.String(), "\n") > 2 {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
