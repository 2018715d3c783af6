package main

import (
	"bytes"
	"context"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/player"
)

// TestGTPPlayerConfigRoundTrip: the flags pipeline.PlayerConfig.Args writes for a
// player (experiment 7 and the strength ladder start 'hexlearn gtp' with them) parse
// back into a config that builds the same player, on the same board.
func TestGTPPlayerConfigRoundTrip(t *testing.T) {
	for _, cfg := range []pipeline.PlayerConfig{
		{},
		{Kind: player.Exact, XH: true, Depth: 32, Time: 1500 * time.Millisecond},
		{Kind: player.Exact, Size: 5, Depth: 2, K: 4, Time: -1},
		{Kind: player.Exact, NoFillIn: true, Size: 5, Depth: 2},
		{Kind: player.Learned, NoTemplates: true, Size: 5},
		{Kind: player.Exact, Size: gtp.DefaultSize, Model: pipeline.BuiltinModel},
		{Kind: player.Learned, Model: tinyModel, Patterns: bridgeDB, K: 7, VCPlies: -1},
		{Model: tinyModel, Size: 3, VCPlies: 2, Time: 250 * time.Millisecond},
		{Model: tinyModel, Size: 3, LeafVC: 1},
		{Kind: player.Learned, LeafVC: -1},
		{Kind: player.Exact, Size: 5, SolveShare: 0.5},
		{Model: tinyModel, Size: 3, SolveShare: -1},
		{Kind: player.Learned, Size: 6, SolveMaxEmpty: -1},
		{Kind: player.Exact, SolveShare: 0.2, SolveMaxEmpty: 20},
		{Kind: player.Learned, Size: 8, SolveParallel: 1},
		{Kind: player.Learned, LookaheadDepth: 3, Order: model.OrderPotential},
		{Model: tinyModel, Size: 3, LookaheadDepth: -1, Order: model.OrderNetwork},
		{Kind: player.Learned, Search: player.SearchAlphaBeta},
		{Model: tinyModel, Size: 3, Search: player.SearchMCTS},
		{Kind: player.Learned, Size: 11, CircuitPriors: 0.5},
		{Kind: player.Learned, CircuitPriors: -1},
		{Kind: player.Learned, Size: 11, Playouts: 32, PlayoutWeight: 0.8},
		{Kind: player.Learned, Playouts: -1},
		{Kind: player.Learned, Size: 11, AMAFPriors: 0.25},
		{Kind: player.Learned, Size: 11, AMAFPriors: -1},
		{Kind: player.Exact, Book: pipeline.BuiltinBook},
		{Kind: player.Learned, Size: 8, Book: pipeline.NoBook},
	} {
		parsed, err := gtpPlayerConfig(commands["gtp"], cfg.Args(), io.Discard)
		if err != nil {
			t.Fatalf("%q: %v", cfg.Args(), err)
		}
		want, err := pipeline.NewPlayer(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pipeline.NewPlayer(context.Background(), parsed)
		if err != nil {
			t.Fatal(err)
		}
		// The learned evaluator is a function (compared through the name); the
		// rest must be equal.
		want.GTP.Learned, got.GTP.Learned = nil, nil
		if (want.GTP.Book == nil) != (got.GTP.Book == nil) {
			t.Errorf("%q: book %v, want %v", cfg.Args(), got.GTP.Book != nil, want.GTP.Book != nil)
		}
		want.GTP.Book, got.GTP.Book = nil, nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q:\n got %+v\nwant %+v", cfg.Args(), got, want)
		}
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
		{[]string{"--player", "random"}, 2, "hexlearn gtp: --player: player: unknown player \"random\" (want learned or exact)\n"},
		{[]string{"--player", "exact", "--model", tinyModel}, 2, "hexlearn gtp: model " + tinyModel + ": the exact player uses no model\n"},
		{[]string{"--size", "5", "--model", tinyModel}, 2, "hexlearn gtp: size 5: " + tinyModel + ": model: model is for another board size: trained on 3x3, board is 5x5\n"},
		{[]string{"--solve-share", "1.5"}, 2, "hexlearn gtp: --solve-share: want a fraction from 0 to 1 (or -1), got 1.5\n"},
		{[]string{"--solve-share", "NaN"}, 2, "hexlearn gtp: --solve-share: want a fraction from 0 to 1 (or -1), got NaN\n"},
		{[]string{"--order", "energy"}, 2, "hexlearn gtp: --order: model: unsupported move ordering \"energy\" (want potential, network or mix)\n"},
		{[]string{"--lookahead-depth", "40"}, 2, "hexlearn gtp: --lookahead-depth"},
		{[]string{"--circuit-priors", "1.5"}, 2, "hexlearn gtp: --circuit-priors: want a weight from 0 to 1 (or -1), got 1.5\n"},
		{[]string{"--circuit-priors", "NaN"}, 2, "hexlearn gtp: --circuit-priors: want a weight from 0 to 1 (or -1), got NaN\n"},
		{[]string{"--playouts", "-2"}, 2, "hexlearn gtp: --playouts: want 0 to 65536 (or -1), got -2\n"},
		{[]string{"--playout-weight", "0"}, 2, "hexlearn gtp: --playout-weight: want a weight above 0 and at most 1 (or -1), got 0\n"},
		{[]string{"--playout-weight", "NaN"}, 2, "hexlearn gtp: --playout-weight: want a weight above 0 and at most 1 (or -1), got NaN\n"},
		{[]string{"--amaf-priors", "1.5"}, 2, "hexlearn gtp: --amaf-priors: want a weight from 0 to 1 (or -1), got 1.5\n"},
		{[]string{"--amaf-priors", "0.3", "--playouts", "0"}, 2, "hexlearn gtp: --amaf-priors: the AMAF ranking needs playouts (--playouts is 0)\n"},
		{[]string{"--reuse", "yes"}, 2, "hexlearn gtp: --reuse: want on or off, got \"yes\"\n"},
		{[]string{"--search", "minimax"}, 2, "hexlearn gtp: --search: player: unknown search \"minimax\" (want mcts or alphabeta)\n"},
		{[]string{"--patterns", tinyModel}, 1, "hexlearn gtp: " + tinyModel + ": patterns: "},
	} {
		var out, errb bytes.Buffer
		code := run(append([]string{"gtp"}, tc.args...), &out, &errb)
		if code != tc.code || !strings.HasPrefix(errb.String(), tc.want) || strings.Count(errb.String(), "\n") > 2 {
			t.Errorf("%q: exit %d, stderr %q; want %d, %q", tc.args, code, errb.String(), tc.code, tc.want)
		}
	}
}
