package gtp

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// newSimple returns an engine that plays with simplePlayer, so these tests stay fast
// and deterministic.
func newSimple() *Engine {
	e := New()
	e.SetPlayer(simplePlayer)
	return e
}

// exec runs lines on e and returns the last line's answer and success.
func exec(t *testing.T, e *Engine, lines ...string) (bool, string) {
	t.Helper()
	var resp string
	for _, l := range lines {
		resp, _ = e.Exec(context.Background(), l)
	}
	return parseResponse(t, resp)
}

// parseResponse checks the framing of one response and returns its success and text.
func parseResponse(t *testing.T, resp string) (bool, string) {
	t.Helper()
	if len(resp) < 4 || (resp[0] != '=' && resp[0] != '?') || !strings.HasSuffix(resp, "\n\n") ||
		strings.Contains(resp[:len(resp)-2], "\n\n") {
		t.Fatalf("malformed response %q", resp)
	}
	head, _, _ := strings.Cut(resp, " ")
	text := strings.TrimSuffix(resp[len(head)+1:], "\n\n")
	return resp[0] == '=', text
}

func TestCommands(t *testing.T) {
	dir := t.TempDir()
	sgf := filepath.Join(dir, "g.sgf")
	os.WriteFile(sgf, []byte("(;FF[4]GM[11]SZ[5];B[c3];W[swap-pieces];B[b2])"), 0o644)
	os.WriteFile(filepath.Join(dir, "bad.sgf"), []byte("(;GM[11]SZ[5];B[z9])"), 0o644)
	for _, tc := range []struct {
		name  string
		setup []string // run first, answers ignored
		cmd   string
		ok    bool
		want  string // the exact answer, or with a leading '~' a substring of it
		board string // if set, the move list the board must show afterwards (FormatMoves)
	}{
		{"protocol_version", nil, "protocol_version", true, "2", ""},
		{"name", nil, "name", true, "hexlearn", ""},
		{"version", nil, "version", true, "~0.", ""},
		{"known_command yes", nil, "known_command genmove", true, "true", ""},
		{"known_command no", nil, "known_command frobnicate", true, "false", ""},
		{"known_command no arg", nil, "known_command", false, "~argument", ""},
		{"list_commands", nil, "list_commands", true, "~\nundo\n", ""},
		{"unknown", nil, "frobnicate 1 2", false, "unknown command: frobnicate", ""},
		{"boardsize", nil, "boardsize 5", true, "", ""},
		{"boardsize W H", []string{"boardsize 4 7"}, "showboard", true, "~7  . . . .  7", ""},
		{"boardsize WxH", []string{"boardsize 3x2"}, "showboard", true, "\n   a b c\n1  . . .  1\n 2  . . .  2", ""},
		{"boardsize 0", nil, "boardsize 0", false, "~unacceptable size", ""},
		{"boardsize -3", nil, "boardsize -3", false, "~unacceptable size", ""},
		{"boardsize 20", nil, "boardsize 20", false, "~unacceptable size", ""},
		{"boardsize x", nil, "boardsize x", false, `~bad number "x"`, ""},
		{"boardsize too many", nil, "boardsize 1 2 3", false, "~at most 2", ""},
		{"boardsize clears", []string{"play b a1"}, "boardsize 11", true, "", "-"},
		{"bad boardsize keeps board", []string{"boardsize 5", "play b a1"}, "boardsize 99", false, "~unacceptable", "a1"},
		{"clear_board", []string{"boardsize 5", "play b a1"}, "clear_board", true, "", "-"},
		{"play b", []string{"boardsize 5"}, "play b c3", true, "", "c3"},
		{"play black upper", []string{"boardsize 5"}, "play BLACK C3", true, "", "c3"},
		{"play white", []string{"boardsize 5"}, "play white c3", true, "", "c3"},
		{"play swap", []string{"boardsize 5", "play b c2"}, "play w swap-pieces", true, "", "c2 swap-pieces"},
		{"play resign", []string{"boardsize 5"}, "play w resign", true, "", "resign"},
		{"play occupied", []string{"boardsize 5", "play b c3"}, "play w c3", false, "~c3 is occupied", "c3"},
		{"play off board", []string{"boardsize 5"}, "play b f1", false, `~"f1" is off the 5x5 board`, "-"},
		{"play z9", nil, "play b z9", false, "~z9", "-"},
		{"play bad colour", nil, "play x a1", false, `~bad colour "x"`, "-"},
		{"play missing cell", nil, "play b", false, "~want 2 arguments, got 1", "-"},
		{"play bad swap", []string{"boardsize 5"}, "play w swap-pieces", false, "~swap", "-"},
		{"swap then occupied", []string{"boardsize 11", "play black f6", "play white swap-pieces"}, "play b f6", false, "~occupied", "f6 swap-pieces"},
		{"undo", []string{"boardsize 5", "play b a1", "play w b1"}, "undo", true, "", "a1"},
		{"undo swap", []string{"boardsize 5", "play b a2", "play w swap"}, "undo", true, "", "a2"},
		{"undo empty", nil, "undo", false, "cannot undo: no moves", "-"},
		{"showboard", []string{"boardsize 3", "play b b2", "play w a1"}, "showboard", true,
			"\n   a b c\n1  W . .  1\n 2  . B .  2\n  3  . . .  3", ""},
		{"genmove centre", []string{"boardsize 5"}, "genmove b", true, "c3", "c3"},
		// a3 and b3 both win and lie equally near the centre: the lower index.
		{"genmove wins", []string{"boardsize 3", "play b b1", "play w a1", "play b b2", "play w a2"}, "genmove b", true, "a3", ""},
		{"genmove blocks", []string{"boardsize 3", "play b b1", "play w a3", "play b b2"}, "genmove w", true, "b3", ""},
		{"genmove bad colour", nil, "genmove x", false, "~bad colour", "-"},
		{"genmove resigns when lost", []string{"boardsize 1", "play b a1"}, "genmove w", true, "resign", "a1 resign"},
		{"loadsgf", nil, "loadsgf " + sgf, true, "", "c3 swap-pieces b2"},
		{"loadsgf N", nil, "loadsgf " + sgf + " 3", true, "", "c3 swap-pieces"},
		{"loadsgf missing", nil, "loadsgf " + filepath.Join(dir, "nope.sgf"), false, "~nope.sgf", "-"},
		{"loadsgf bad", nil, "loadsgf " + filepath.Join(dir, "bad.sgf"), false, "~z9", "-"},
		{"final_score", []string{"boardsize 1", "play w a1"}, "final_score", true, "W+", ""},
		{"final_score resign", []string{"boardsize 3", "play b resign"}, "final_score", true, "W+R", ""},
		{"final_score open", []string{"boardsize 3"}, "final_score", false, "game not over", ""},
		{"all_legal_moves", []string{"boardsize 2", "play b a1"}, "all_legal_moves w", true, "b1 a2 b2 swap-pieces", ""},
		{"analyze", nil, "hexgui-analyze_commands", true, "~string/Show Board/showboard", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newSimple()
			for _, s := range tc.setup {
				e.Exec(context.Background(), s)
			}
			ok, text := exec(t, e, tc.cmd)
			if ok != tc.ok {
				t.Fatalf("%q: ok=%v %q", tc.cmd, ok, text)
			}
			if w, sub := strings.CutPrefix(tc.want, "~"); sub {
				if !strings.Contains(text, w) {
					t.Fatalf("%q answered %q, want it to contain %q", tc.cmd, text, w)
				}
			} else if text != tc.want {
				t.Fatalf("%q answered %q, want %q", tc.cmd, text, tc.want)
			}
			if tc.board != "" {
				got := e.Board().Geometry().FormatMoves(e.Board().Moves())
				if got == "" {
					got = "-"
				}
				if got != tc.board {
					t.Fatalf("history %q, want %q", got, tc.board)
				}
			}
		})
	}
}

func TestSaveSGF(t *testing.T) {
	e := newSimple()
	path := filepath.Join(t.TempDir(), "out.sgf")
	exec(t, e, "boardsize 7", "play b d4", "play w swap-pieces", "play b c5")
	if ok, text := exec(t, e, "savesgf "+path); !ok {
		t.Fatal(text)
	}
	want := e.Board().Moves()
	if ok, text := exec(t, e, "clear_board", "loadsgf "+path); !ok {
		t.Fatal(text)
	}
	got := e.Board().Moves()
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("loaded %v, saved %v", got, want)
	}
	if ok, _ := exec(t, e, "savesgf "+filepath.Join(t.TempDir(), "no", "such", "dir.sgf")); ok {
		t.Fatal("savesgf into a missing directory succeeded")
	}
}

// TestFraming: ids, comments, blank lines, tabs, carriage returns and control
// characters as GTP specifies them; responses always "= " or "? " with a space (HexGui
// requires it even for an empty answer).
func TestFraming(t *testing.T) {
	e := newSimple()
	for _, tc := range []struct{ in, out string }{
		{"name", "= hexlearn\n\n"},
		{"7 name", "=7 hexlearn\n\n"},
		{"  12\tname  # a comment", "=12 hexlearn\n\n"},
		{"name\r", "= hexlearn\n\n"},
		{"na\x01me", "= hexlearn\n\n"},
		{"3 frobnicate", "?3 unknown command: frobnicate\n\n"},
		{"boardsize 3", "= \n\n"},
		{"42", "?42 missing command name\n\n"},
		{"1x name", "? bad command id \"1x\"\n\n"},
		{"99999999999999999999999 name", "? bad command id \"99999999999999999999999\"\n\n"},
		{"", ""},
		{"   ", ""},
		{"# only a comment", ""},
		{"# interrupt", ""},
	} {
		if got, _ := e.Exec(context.Background(), tc.in); got != tc.out {
			t.Errorf("Exec(%q) = %q, want %q", tc.in, got, tc.out)
		}
	}
	if got := FormatResponse("", true, "a\n\n\nb\n"); got != "= a\nb\n\n" {
		t.Errorf("FormatResponse drops empty lines: %q", got)
	}
	if got := FormatResponse("5", false, ""); got != "?5 \n\n" {
		t.Errorf("FormatResponse empty error: %q", got)
	}
}

func TestServe(t *testing.T) {
	e := newSimple()
	in := "protocol_version\n\n# comment\n1 boardsize 3\r\nplay b b2\nfrobnicate\nquit\nname\n"
	var out strings.Builder
	if err := e.Serve(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	want := "= 2\n\n=1 \n\n= \n\n? unknown command: frobnicate\n\n= \n\n"
	if out.String() != want {
		t.Fatalf("Serve wrote %q, want %q (nothing after quit)", out.String(), want)
	}
	// End of input without quit, last line without newline.
	out.Reset()
	if err := e.Serve(context.Background(), strings.NewReader("name"), &out); err != nil || out.String() != "= hexlearn\n\n" {
		t.Fatalf("unterminated last line: %q %v", out.String(), err)
	}
	// A huge line is refused and the engine goes on.
	out.Reset()
	huge := "play b " + strings.Repeat("a", maxLine+10) + "\nname\n"
	if err := e.Serve(context.Background(), strings.NewReader(huge), &out); err != nil ||
		!strings.HasPrefix(out.String(), "? command line longer") || !strings.HasSuffix(out.String(), "= hexlearn\n\n") {
		t.Fatalf("huge line: %.80q %v", out.String(), err)
	}
	// A cancelled context stops Serve even while it waits for input.
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	defer pw.Close()
	done := make(chan error, 1)
	go func() { done <- e.Serve(ctx, pr, io.Discard) }()
	cancel()
	select {
	case err := <-done:
		if err != context.Canceled {
			t.Fatalf("Serve returned %v after cancel", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not stop after cancel")
	}
}

// TestHandlerPanic: a panicking command answers an error and the engine goes on.
func TestHandlerPanic(t *testing.T) {
	e := newSimple()
	e.cmds["boom"] = func(e *Engine, args []string) (string, error) { panic("kaboom") }
	if ok, text := exec(t, e, "boom"); ok || !strings.Contains(text, "kaboom") {
		t.Fatalf("panic answered %v %q", ok, text)
	}
	if ok, _ := exec(t, e, "name"); !ok {
		t.Fatal("engine dead after a panic")
	}
}

// TestGenMovePlayer: the player gets a copy of the board with the colour to move and
// the swap rule of param_game; an illegal choice or an error is refused without a
// change; an engine without a player answers genmove with an error.
func TestGenMovePlayer(t *testing.T) {
	e := newSimple()
	exec(t, e, "boardsize 3", "play b b2")
	var seen hex.Color
	var swapSeen bool
	e.SetPlayer(PlayerFunc(func(_ context.Context, b *hex.Board, swap bool) (hex.Cell, error) {
		seen, swapSeen = b.ToMove(), swap
		b.PlayStone(b.ToMove(), 0) // scribbling on the copy must not matter
		return b.Geometry().ParseCell("b2")
	}))
	if ok, text := exec(t, e, "genmove b"); ok || !strings.Contains(text, "illegal") {
		t.Fatalf("illegal player move answered %v %q", ok, text)
	}
	if seen != hex.Black || swapSeen || e.Board().Ply() != 1 || e.Board().At(0) != hex.Empty {
		t.Fatalf("player saw %v, swap %v; board changed:\n%s", seen, swapSeen, e.Board())
	}
	exec(t, e, "param_game allow_swap 1")
	e.SetPlayer(PlayerFunc(func(_ context.Context, b *hex.Board, swap bool) (hex.Cell, error) {
		swapSeen = swap
		return hex.NoCell, io.ErrUnexpectedEOF
	}))
	if ok, _ := exec(t, e, "genmove w"); ok || e.Board().Ply() != 1 || !swapSeen {
		t.Fatalf("player error not answered as an error (swap seen %v)", swapSeen)
	}
	e.SetPlayer(PlayerFunc(func(context.Context, *hex.Board, bool) (hex.Cell, error) { return hex.Swap, nil }))
	if ok, text := exec(t, e, "genmove w"); !ok || text != "swap-pieces" || e.Board().Ply() != 2 {
		t.Fatalf("swap: %v %q", ok, text)
	}
	e.SetPlayer(nil)
	if ok, text := exec(t, e, "genmove b"); ok || !strings.Contains(text, "no player") {
		t.Fatalf("no player: %v %q", ok, text)
	}
}

// TestParamGame: param_game shows and sets the swap rule, and refuses anything else.
func TestParamGame(t *testing.T) {
	e := newSimple()
	if ok, text := exec(t, e, "param_game"); !ok || text != "[bool] allow_swap 0" {
		t.Fatalf("param_game: %v %q", ok, text)
	}
	exec(t, e, "param_game allow_swap 1")
	if ok, text := exec(t, e, "param_game"); !ok || text != "[bool] allow_swap 1" {
		t.Fatalf("after allow_swap 1: %v %q", ok, text)
	}
	for _, bad := range []string{"param_game allow_swap maybe", "param_game komi 7", "param_game allow_swap"} {
		if ok, text := exec(t, e, bad); ok {
			t.Errorf("%s accepted: %q", bad, text)
		}
	}
}

// paramPlayer is a Parametrized player with two settings.
type paramPlayer struct {
	PlayerFunc
	vals map[string]string
}

func (p *paramPlayer) Params(w, h int) []Param {
	return []Param{{"string", "depth", p.vals["depth"]}, {"bool", "xh", p.vals["xh"]}, {"string", "size", fmt.Sprint(w)}}
}

func (p *paramPlayer) SetParam(name, value string) error {
	if _, ok := p.vals[name]; !ok || value == "bad" {
		return fmt.Errorf("bad %s", name)
	}
	p.vals[name] = value
	return nil
}

// TestParamPlayer: param_player shows every setting of a Parametrized player on the
// current board and sets them; param_search only the search's; a player without
// settings is refused.
func TestParamPlayer(t *testing.T) {
	e := newSimple()
	if ok, _ := exec(t, e, "param_player"); ok {
		t.Fatal("param_player on a player without settings")
	}
	p := &paramPlayer{PlayerFunc: simplePlayer, vals: map[string]string{"depth": "3", "xh": "0"}}
	e.SetPlayer(p)
	exec(t, e, "boardsize 5", "param_player xh 1")
	if ok, text := exec(t, e, "param_player"); !ok || text != "[string] depth 3\n[bool] xh 1\n[string] size 5" {
		t.Fatalf("param_player: %v %q", ok, text)
	}
	exec(t, e, "param_search depth 4")
	if ok, text := exec(t, e, "param_search"); !ok || text != "[string] depth 4" {
		t.Fatalf("param_search: %v %q", ok, text)
	}
	for _, bad := range []string{"param_search xh 1", "param_player depth bad", "param_player depth", "param_player nothing 1"} {
		if ok, text := exec(t, e, bad); ok {
			t.Errorf("%s accepted: %q", bad, text)
		}
	}
}

// TestSimpleGenMoveLegal plays whole games with simplePlayer on every size: every
// move is legal, the game always ends with a winner, and equal positions give equal
// moves.
func TestSimpleGenMoveLegal(t *testing.T) {
	for n := 1; n <= hex.MaxSize; n++ {
		for _, shape := range [][2]int{{n, n}, {n, (n*7)%hex.MaxSize + 1}} {
			e := newSimple()
			b := hex.MustBoard(shape[0], shape[1])
			e.SetBoard(b)
			c := hex.Black
			for i := 0; b.Winner() == hex.Empty; i++ {
				if i > b.Geometry().N {
					t.Fatalf("%dx%d: game did not end", shape[0], shape[1])
				}
				ok, text := exec(t, e, "genmove "+c.String())
				if !ok || text == "resign" {
					t.Fatalf("%dx%d: genmove %v: %v %q\n%s", shape[0], shape[1], c, ok, text, b)
				}
				c = c.Opp()
				b = e.Board()
			}
			// Once the game is decided, the loser resigns.
			loser := b.Winner().Opp()
			if ok, text := exec(t, e, "genmove "+loser.String()); !ok || text != "resign" {
				t.Fatalf("%dx%d: loser answered %q", shape[0], shape[1], text)
			}
		}
	}
}

// FuzzParseLine: the command-line parser and the whole engine accept any line without
// panicking and answer it with one well-formed response (or none for a comment or
// blank line).
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{"name", "1 play b c3", "boardsize 11 11", "play w swap-pieces", "\t# c", "12", "x y z",
		"genmove b", "undo", "showboard", "loadsgf /nonexistent", "known_command play", "play b \x00a1", "boardsize 0"} {
		f.Add(s)
	}
	e := newSimple()
	core := &Engine{cmds: map[string]Handler{}}
	core.registerCore()
	f.Fuzz(func(t *testing.T, line string) {
		cmd, ok := ParseLine(line)
		if ok && cmd.Name == "" && cmd.ID == "" {
			t.Fatalf("ParseLine(%q) = %+v", line, cmd)
		}
		if strings.Contains(line, "\n") {
			return // Serve never passes a newline inside a line
		}
		if cmd.Name == "savesgf" || (e.Known(cmd.Name) && !core.Known(cmd.Name)) {
			return // no files written; other files' commands may search for long
		}
		resp, _ := e.Exec(context.Background(), line)
		if !ok {
			if resp != "" {
				t.Fatalf("line %q with nothing to run answered %q", line, resp)
			}
			return
		}
		parseResponse(t, resp)
		if cmd.ID != "" && cmd.Valid && !strings.HasPrefix(resp[1:], cmd.ID+" ") {
			t.Fatalf("response %q lacks id %s", resp, cmd.ID)
		}
	})
}
