package pipeline

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/book"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
)

const (
	tinyModel = "../model/testdata/tiny.model"           // a 3x3 model
	bridgeDB  = "../engine/patterns/testdata/bridge5.db" // a 5x5 pattern database
)

// TestNewPlayer: each config field reaches the player (search limits, XH, model,
// patterns, starting board), the zero values take the engine's defaults, and every
// configuration NewPlayer cannot honour is an error (ErrConfig where the config is at
// fault, the file's error where a file is).
func TestNewPlayer(t *testing.T) {
	def := gtp.SearchDefaults()
	for _, tc := range []struct {
		name   string
		cfg    PlayerConfig
		w      int
		params search.Params
		xh     bool
		want   string // the player's description
	}{
		{"zero config", PlayerConfig{}, gtp.DefaultSize,
			search.Params{Depth: search.MaxDepth, K: player.LearnedK, Time: def.Time, VCPlies: player.LearnedVCPlies, LookaheadDepth: 1}, false, "learned"},
		{"exact xh, limits", PlayerConfig{Kind: player.Exact, XH: true, Size: 5, Depth: 4, K: 3, Time: -1}, 5,
			search.Params{Depth: 4, K: 3}, true, "exact (XH-search + circuit)"},
		{"exact, builtin model name", PlayerConfig{Kind: player.Exact, Model: BuiltinModel, Time: time.Second}, gtp.DefaultSize,
			search.Params{Depth: search.MaxDepth, K: def.K, Time: time.Second}, false, "exact (H-search + circuit)"},
		{"model file sets the board", PlayerConfig{Model: tinyModel, VCPlies: -1, Time: -1}, 3,
			search.Params{Depth: def.Depth, K: player.LearnedK, LookaheadDepth: 1}, false, "learned (3x3 model)"},
		{"model file and patterns", PlayerConfig{Model: tinyModel, Patterns: bridgeDB, Size: 3, VCPlies: 2}, 3,
			search.Params{Depth: search.MaxDepth, K: player.LearnedK, Time: def.Time, VCPlies: 2, LookaheadDepth: 1}, false, "learned (3x3 model) + patterns"},
		{"exact with the built-in books", PlayerConfig{Kind: player.Exact, Book: BuiltinBook, Time: time.Second}, gtp.DefaultSize,
			search.Params{Depth: search.MaxDepth, K: def.K, Time: time.Second}, false, "exact (H-search + circuit) + book"},
		{"learned without a book", PlayerConfig{Book: NoBook}, gtp.DefaultSize,
			search.Params{Depth: search.MaxDepth, K: player.LearnedK, Time: def.Time, VCPlies: player.LearnedVCPlies, LookaheadDepth: 1}, false, "learned"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewPlayer(context.Background(), tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			if p.Width != tc.w || p.Height != tc.w {
				t.Errorf("board %dx%d, want %dx%d", p.Width, p.Height, tc.w, tc.w)
			}
			got := p.GTP.Params
			got.TTBits = 0
			if got != tc.params {
				t.Errorf("params %+v, want %+v", got, tc.params)
			}
			if p.GTP.XH != tc.xh || p.GTP.Describe() != tc.want || (tc.cfg.Patterns != "") != (p.GTP.Terminal != nil) {
				t.Errorf("player %q (xh %v, terminal %v)", p.GTP.Describe(), p.GTP.XH, p.GTP.Terminal != nil)
			}
			wantBook := tc.cfg.Book == BuiltinBook || tc.cfg.Book == "" && tc.cfg.Kind != player.Exact
			if (p.GTP.Book != nil) != wantBook {
				t.Errorf("book %v, want %v", p.GTP.Book != nil, wantBook)
			}
		})
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		cfg  PlayerConfig
		want []error
	}{
		{"unknown kind", nil, PlayerConfig{Kind: "random"}, []error{ErrConfig, player.ErrKind}},
		{"exact with a model", nil, PlayerConfig{Kind: player.Exact, Model: tinyModel}, []error{ErrConfig}},
		{"model for another size", nil, PlayerConfig{Model: tinyModel, Size: 5}, []error{ErrConfig, model.ErrWrongSize}},
		{"board too large", nil, PlayerConfig{Size: 99}, []error{ErrConfig}},
		{"negative board", nil, PlayerConfig{Size: -1}, []error{ErrConfig}},
		{"depth beyond the search's", nil, PlayerConfig{Depth: search.MaxDepth + 1}, []error{ErrConfig}},
		{"missing model", nil, PlayerConfig{Model: "nothing.model"}, []error{fs.ErrNotExist}},
		{"missing patterns", nil, PlayerConfig{Patterns: "nothing.lbt"}, []error{fs.ErrNotExist}},
		{"damaged patterns", nil, PlayerConfig{Patterns: tinyModel}, nil},
		{"missing book", nil, PlayerConfig{Book: "nothing.book"}, []error{fs.ErrNotExist}},
		{"damaged book", nil, PlayerConfig{Book: tinyModel}, []error{book.ErrFormat}},
		{"book for another size", nil, PlayerConfig{Book: book4x4(t), Size: 5}, []error{book.ErrSize}},
		{"cancelled", cancelled, PlayerConfig{}, []error{context.Canceled}},
	} {
		ctx := tc.ctx
		if ctx == nil {
			ctx = context.Background()
		}
		_, err := NewPlayer(ctx, tc.cfg)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !errors.Is(err, w) {
				t.Errorf("%s: error %v, want %v", tc.name, err, w)
			}
		}
		if len(tc.want) == 0 && errors.Is(err, ErrConfig) {
			t.Errorf("%s: a file's error %v reported as a configuration error", tc.name, err)
		}
	}
}

// TestPlayerEngine: the engine of a player starts on its board and moves with it.
func TestPlayerEngine(t *testing.T) {
	p, err := NewPlayer(context.Background(), PlayerConfig{Kind: player.Exact, Size: 3, Depth: 1, Time: -1})
	if err != nil {
		t.Fatal(err)
	}
	e, err := p.Engine()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := e.Serve(context.Background(), strings.NewReader("genmove b\nquit\n"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "= b2\n") { // the centre of 3x3 wins
		t.Errorf("answers %q", out.String())
	}
	if _, err := (Player{}).Engine(); !errors.Is(err, ErrConfig) {
		t.Errorf("zero player's engine: %v", err)
	}
}

// TestPlayerArgs: the gtp flags and the command line of a player config (the gtp
// command's parsing of them is tested in cmd/hexlearn).
func TestPlayerArgs(t *testing.T) {
	for _, tc := range []struct {
		cfg  PlayerConfig
		want string
	}{
		{PlayerConfig{}, "hexlearn gtp"},
		{PlayerConfig{Kind: player.Exact, XH: true, Depth: 32, Time: 1500 * time.Millisecond}, "hexlearn gtp --player exact --xh --depth 32 --time 1.5"},
		{PlayerConfig{Kind: player.Learned, Size: 8, Model: "my models/8's.model", Patterns: "p.lbt", K: 7, Time: -1, VCPlies: -1},
			`hexlearn gtp --player learned --size 8 --model 'my models/8'\''s.model' --patterns p.lbt --k 7 --time 0 --vc-plies 0`},
		{PlayerConfig{Model: BuiltinModel, VCPlies: 2}, "hexlearn gtp --model builtin --vc-plies 2"},
		{PlayerConfig{Kind: player.Exact, NoFillIn: true, Depth: 4}, "hexlearn gtp --player exact --fill-in=false --depth 4"},
		{PlayerConfig{Kind: player.Exact, NoTemplates: true}, "hexlearn gtp --player exact --edge-templates=false"},
		{PlayerConfig{LeafVC: 1}, "hexlearn gtp --leaf-vc=true"},
		{PlayerConfig{Depth: 3, LeafVC: -1}, "hexlearn gtp --depth 3 --leaf-vc=false"},
		{PlayerConfig{SolveShare: 0.25}, "hexlearn gtp --solve-share 0.25"},
		{PlayerConfig{Kind: player.Learned, SolveShare: -1}, "hexlearn gtp --player learned --solve-share 0"},
		{PlayerConfig{SolveMaxEmpty: 20}, "hexlearn gtp --solve-max-empty 20"},
		{PlayerConfig{SolveParallel: 1}, "hexlearn gtp --solve-parallel=true"},
		{PlayerConfig{SolveParallel: -1}, "hexlearn gtp --solve-parallel=false"},
		{PlayerConfig{Search: player.SearchAlphaBeta}, "hexlearn gtp --search alphabeta"},
		{PlayerConfig{SolveShare: 1, SolveMaxEmpty: -1}, "hexlearn gtp --solve-share 1 --solve-max-empty 0"},
		{PlayerConfig{Kind: player.Exact, Book: BuiltinBook}, "hexlearn gtp --player exact --book builtin"},
		{PlayerConfig{Book: NoBook, Patterns: "p.lbt"}, "hexlearn gtp --patterns p.lbt --book none"},
		{PlayerConfig{Reuse: 1}, "hexlearn gtp --reuse on"},
		{PlayerConfig{Playouts: -1, Reuse: -1}, "hexlearn gtp --playouts 0 --reuse off"},
	} {
		if got := tc.cfg.CommandLine("hexlearn"); got != tc.want {
			t.Errorf("%+v:\n got %s\nwant %s", tc.cfg, got, tc.want)
		}
	}
	if got, want := (PlayerConfig{Kind: player.Exact}).CommandLine("/opt/hex learn/hexlearn"), "'/opt/hex learn/hexlearn' gtp --player exact"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := (PlayerConfig{Patterns: ""}).Args(); !reflect.DeepEqual(got, []string(nil)) {
		t.Errorf("zero config args %q", got)
	}
}

// book4x4 writes a one-position 4x4 opening book and returns its path.
func book4x4(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "4x4.book")
	if err := os.WriteFile(path, []byte("size 4x4\nb2 - w c2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
