package gtp

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/version"
)

// DefaultSize is the side of the board a new Engine starts with.
const DefaultSize = 11

// Engine is a Hex GTP engine: one board, the core commands, the commands registered
// with Register and the Player that answers genmove (SetPlayer). One Engine serves
// one client; it is not safe for concurrent use.
type Engine struct {
	name, version string
	board         *hex.Board
	cmds          map[string]Handler
	analyze       []string
	player        Player
	allowSwap     bool // the swap rule of genmove (param_game allow_swap)
	ctx           context.Context
	quit          bool
	state         map[string]any // extension state, see State
}

// New returns an engine with an empty DefaultSize x DefaultSize board, named
// "hexlearn" with hexlearn's version. It knows the core commands and every command
// registered with Register (a registered command of a core command's name replaces
// it); genmove asks the player SetPlayer sets.
func New() *Engine {
	e := &Engine{
		name:    "hexlearn",
		version: version.String(),
		board:   hex.MustBoard(DefaultSize, DefaultSize),
		cmds:    map[string]Handler{},
		ctx:     context.Background(),
	}
	e.registerCore()
	extMu.Lock()
	for name, h := range extensions {
		e.cmds[name] = h
	}
	e.analyze = append(e.analyze, analyzeLines...)
	extMu.Unlock()
	return e
}

// SetIdentity sets the answers of name and version.
func (e *Engine) SetIdentity(name, version string) { e.name, e.version = name, version }

// Board returns the current board. Commands such as boardsize and loadsgf replace it,
// so do not keep the pointer across commands.
func (e *Engine) Board() *hex.Board { return e.board }

// SetBoard replaces the current board.
func (e *Engine) SetBoard(b *hex.Board) { e.board = b }

// Context returns the context of the command being run (the one given to Serve, Exec
// or Run); long handlers should stop when it is done.
func (e *Engine) Context() context.Context { return e.ctx }

// Known reports whether the engine has the command name.
func (e *Engine) Known(name string) bool { _, ok := e.cmds[name]; return ok }

// Commands returns the names of all commands, sorted.
func (e *Engine) Commands() []string {
	names := make([]string, 0, len(e.cmds))
	for n := range e.cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

var analyzeLines []string

// RegisterAnalyze adds a line to the answer of hexgui-analyze_commands, which fills
// HexGui's analyze menu, for every Engine created afterwards (call it from init next
// to Register): kind is a HexGui analyze type ("string", "plist", "pspairs", "vc",
// "param", "move", "inferior", "none", ...), label the menu entry, and command the
// command line with HexGui's wildcards (%c colour, %p point, %P point list).
func RegisterAnalyze(kind, label, command string) {
	extMu.Lock()
	defer extMu.Unlock()
	analyzeLines = append(analyzeLines, kind+"/"+label+"/"+command)
}

// Command is one parsed command line.
type Command struct {
	ID    string   // the numeric id, or "" when the line had none
	Name  string   // the command name; "" for a line with an id only
	Args  []string // the arguments
	Valid bool     // false for an id that is not a non-negative number
}

// ParseLine parses one line of input as GTP does: control characters other than tab
// and newline are dropped, tabs become spaces, everything from '#' on is a comment.
// It returns ok=false for a line with nothing to run (empty or a comment), which gets
// no answer.
func ParseLine(line string) (cmd Command, ok bool) {
	var sb strings.Builder
	for _, r := range line {
		switch {
		case r == '#':
			goto done
		case r == '\t':
			sb.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			sb.WriteRune(r)
		}
	}
done:
	f := strings.Fields(sb.String())
	if len(f) == 0 {
		return Command{}, false
	}
	cmd.Valid = true
	if c := f[0][0]; c >= '0' && c <= '9' {
		cmd.ID = f[0]
		if _, err := strconv.ParseUint(f[0], 10, 63); err != nil {
			cmd.Valid = false
		}
		f = f[1:]
	}
	if len(f) > 0 {
		cmd.Name, cmd.Args = f[0], f[1:]
	}
	return cmd, true
}

// FormatResponse formats an answer as GTP does: "=ID text\n\n" or "?ID text\n\n". A
// multi-line text keeps its lines except empty ones (an empty line ends a response).
func FormatResponse(id string, ok bool, text string) string {
	var sb strings.Builder
	if ok {
		sb.WriteByte('=')
	} else {
		sb.WriteByte('?')
	}
	sb.WriteString(id)
	sb.WriteByte(' ')
	lines := strings.Split(strings.ReplaceAll(strings.TrimRight(text, "\r\n"), "\r", ""), "\n")
	for i, l := range lines {
		if i > 0 {
			if l == "" {
				continue
			}
			sb.WriteByte('\n')
		}
		sb.WriteString(l)
	}
	sb.WriteString("\n\n")
	return sb.String()
}

// Run runs the command name with args and returns its answer or error, as Serve would
// answer it but without the protocol framing. A panic in a handler becomes an error.
func (e *Engine) Run(ctx context.Context, name string, args ...string) (answer string, err error) {
	h, ok := e.cmds[name]
	if !ok {
		return "", fmt.Errorf("unknown command: %s", name)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	prev := e.ctx
	e.ctx = ctx
	defer func() {
		e.ctx = prev
		if r := recover(); r != nil {
			answer, err = "", fmt.Errorf("internal error in %s: %v", name, r)
		}
	}()
	return h(e, args)
}

// Exec runs one input line and returns the response to write ("" for a line that gets
// none) and whether the engine should stop (after quit).
func (e *Engine) Exec(ctx context.Context, line string) (response string, quit bool) {
	cmd, ok := ParseLine(line)
	if !ok {
		return "", false
	}
	switch {
	case !cmd.Valid:
		return FormatResponse("", false, "bad command id "+strconv.Quote(cmd.ID)), false
	case cmd.Name == "":
		return FormatResponse(cmd.ID, false, "missing command name"), false
	}
	e.quit = false
	answer, err := e.Run(ctx, cmd.Name, cmd.Args...)
	if err != nil {
		return FormatResponse(cmd.ID, false, errText(err)), e.quit
	}
	return FormatResponse(cmd.ID, true, answer), e.quit
}

// errText is an error's message on one line, without the hex package's prefixes.
func errText(err error) string {
	s := strings.ReplaceAll(err.Error(), "hex: ", "")
	return strings.Join(strings.Fields(s), " ")
}

// maxLine is the longest command line Serve accepts.
const maxLine = 1 << 20

// Serve reads commands from r and writes answers to w until quit, the end of r, or
// ctx is done. It returns nil after quit or at the end of the input, ctx.Err() when
// ctx ends it, and a read or write error otherwise. Malformed input never stops it.
func (e *Engine) Serve(ctx context.Context, r io.Reader, w io.Writer) error {
	type line struct {
		s   string
		err error
	}
	lines := make(chan line)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			s, err := readLine(br)
			select {
			case lines <- line{s, err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	bw := bufio.NewWriter(w)
	for {
		var l line
		select {
		case <-ctx.Done():
			return ctx.Err()
		case l = <-lines:
		}
		if l.err != nil && l.s == "" {
			if l.err == io.EOF {
				return nil
			}
			return l.err
		}
		var resp string
		var quit bool
		if len(l.s) > maxLine {
			resp = FormatResponse("", false, fmt.Sprintf("command line longer than %d bytes", maxLine))
		} else {
			resp, quit = e.Exec(ctx, l.s)
		}
		if resp != "" {
			if _, err := bw.WriteString(resp); err != nil {
				return err
			}
			if err := bw.Flush(); err != nil {
				return err
			}
		}
		if quit {
			return nil
		}
		if l.err != nil {
			if l.err == io.EOF {
				return nil
			}
			return l.err
		}
	}
}

// readLine reads one line without its end of line. A line longer than maxLine is
// returned truncated to maxLine+1 bytes (the rest is discarded) so the caller can
// refuse it.
func readLine(br *bufio.Reader) (string, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(buf) <= maxLine {
			buf = append(buf, chunk[:min(len(chunk), maxLine+1-len(buf))]...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		s := strings.TrimRight(string(buf), "\r\n")
		return s, err
	}
}
