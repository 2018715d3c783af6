package gtp

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// The core commands (the Hex dialect of HexGui and Benzene):
//
//	protocol_version             2
//	name                         hexlearn
//	version                      the code version
//	known_command NAME           true or false
//	list_commands                one command per line
//	quit                         answers, then the engine stops
//	boardsize N | boardsize W H  a new empty N x N or W x H board (1..19)
//	clear_board                  empties the board (same size)
//	play COLOR MOVE              COLOR is b, black, w or white; MOVE a cell (c3),
//	                             swap-pieces or resign
//	undo                         takes back the last move
//	showboard                    the board as a text diagram
//	genmove COLOR                chooses a move for COLOR, plays it, answers it
//	loadsgf FILE [N]             the main line of an SGF file; with N, only its first
//	                             N-1 moves and setup stones
//	savesgf FILE                 writes the game so far as SGF
//	final_score                  B+ or W+ when the game is decided
//	all_legal_moves COLOR        the legal moves of COLOR
//	hexgui-analyze_commands      HexGui's analyze menu
func (e *Engine) registerCore() {
	core := map[string]Handler{
		"protocol_version": func(e *Engine, args []string) (string, error) {
			return "2", NArgs(args, 0, 0)
		},
		"name": func(e *Engine, args []string) (string, error) { return e.name, nil },
		"version": func(e *Engine, args []string) (string, error) {
			return e.version, nil
		},
		"known_command": func(e *Engine, args []string) (string, error) {
			if err := NArgs(args, 1, 1); err != nil {
				return "", err
			}
			return strconv.FormatBool(e.Known(args[0])), nil
		},
		"list_commands": func(e *Engine, args []string) (string, error) {
			return strings.Join(e.Commands(), "\n"), nil
		},
		"quit": func(e *Engine, args []string) (string, error) {
			e.quit = true
			return "", nil
		},
		"boardsize":               cmdBoardsize,
		"clear_board":             cmdClearBoard,
		"play":                    cmdPlay,
		"undo":                    cmdUndo,
		"showboard":               cmdShowboard,
		"genmove":                 cmdGenmove,
		"loadsgf":                 cmdLoadSGF,
		"savesgf":                 cmdSaveSGF,
		"final_score":             cmdFinalScore,
		"all_legal_moves":         cmdAllLegalMoves,
		"hexgui-analyze_commands": cmdAnalyzeCommands,
	}
	for name, h := range core {
		e.cmds[name] = h
	}
	e.analyze = append(e.analyze,
		"string/Show Board/showboard",
		"plist/All Legal Moves/all_legal_moves %c",
		"string/Final Score/final_score",
	)
}

// NArgs checks that there are between min and max arguments (max < 0: no limit).
func NArgs(args []string, min, max int) error {
	switch {
	case len(args) < min && min == max:
		return fmt.Errorf("want %d argument%s, got %d", min, plural(min), len(args))
	case len(args) < min:
		return fmt.Errorf("want at least %d argument%s, got %d", min, plural(min), len(args))
	case max >= 0 && len(args) > max && min == max:
		return fmt.Errorf("want %d argument%s, got %d", max, plural(max), len(args))
	case max >= 0 && len(args) > max:
		return fmt.Errorf("want at most %d argument%s, got %d", max, plural(max), len(args))
	}
	return nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ArgColor parses args[i] as a colour (b, black, w, white).
func ArgColor(args []string, i int) (hex.Color, error) {
	if i >= len(args) {
		return hex.Empty, fmt.Errorf("missing colour (argument %d)", i+1)
	}
	c, err := hex.ParseColor(args[i])
	if err != nil {
		return hex.Empty, fmt.Errorf("bad colour %q (want b, black, w or white)", args[i])
	}
	return c, nil
}

// ArgInt parses args[i] as an integer.
func ArgInt(args []string, i int) (int, error) {
	if i >= len(args) {
		return 0, fmt.Errorf("missing number (argument %d)", i+1)
	}
	n, err := strconv.Atoi(args[i])
	if err != nil {
		return 0, fmt.Errorf("bad number %q", args[i])
	}
	return n, nil
}

// ArgFloat parses args[i] as a number.
func ArgFloat(args []string, i int) (float64, error) {
	if i >= len(args) {
		return 0, fmt.Errorf("missing number (argument %d)", i+1)
	}
	f, err := strconv.ParseFloat(args[i], 64)
	if err != nil {
		return 0, fmt.Errorf("bad number %q", args[i])
	}
	return f, nil
}

// ArgCell parses args[i] as a cell of the current board.
func (e *Engine) ArgCell(args []string, i int) (hex.Cell, error) {
	if i >= len(args) {
		return hex.NoCell, fmt.Errorf("missing cell (argument %d)", i+1)
	}
	return e.board.Geometry().ParseCell(args[i])
}

// ArgPoint parses args[i] as a cell or an edge (north, south, west, east) of the
// current board.
func (e *Engine) ArgPoint(args []string, i int) (hex.Cell, error) {
	if i >= len(args) {
		return hex.NoCell, fmt.Errorf("missing cell or edge (argument %d)", i+1)
	}
	return e.board.Geometry().ParsePoint(args[i])
}

// FormatSet lists the points of s by name, in increasing order, separated by spaces.
func (e *Engine) FormatSet(s hex.Bitset) string { return e.board.Geometry().FormatCells(s) }

func cmdBoardsize(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 2); err != nil {
		return "", err
	}
	if len(args) == 1 { // also accept "11x11"
		if w, h, ok := strings.Cut(strings.ToLower(args[0]), "x"); ok && w != "" && h != "" {
			args = []string{w, h}
		}
	}
	w, err := ArgInt(args, 0)
	if err != nil {
		return "", err
	}
	h := w
	if len(args) == 2 {
		if h, err = ArgInt(args, 1); err != nil {
			return "", err
		}
	}
	b, err := hex.NewBoard(w, h)
	if err != nil {
		return "", fmt.Errorf("unacceptable size %dx%d (sides must be 1..%d)", w, h, hex.MaxSize)
	}
	e.board = b
	return "", nil
}

func cmdClearBoard(e *Engine, args []string) (string, error) {
	e.board.Reset()
	return "", nil
}

func cmdPlay(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 2, 2); err != nil {
		return "", err
	}
	c, err := ArgColor(args, 0)
	if err != nil {
		return "", err
	}
	p, err := e.board.Geometry().ParseMoveCell(args[1])
	if err != nil {
		return "", fmt.Errorf("illegal move: %v", errText(err))
	}
	if err := e.board.Play(hex.Move{Color: c, Cell: p}); err != nil {
		return "", fmt.Errorf("illegal move: %s %s: %v", c, args[1], errText(err))
	}
	return "", nil
}

func cmdUndo(e *Engine, args []string) (string, error) {
	if !e.board.Undo() {
		return "", fmt.Errorf("cannot undo: no moves")
	}
	return "", nil
}

func cmdShowboard(e *Engine, args []string) (string, error) {
	return "\n" + strings.TrimRight(e.board.Diagram(), "\n"), nil
}

func cmdLoadSGF(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 2); err != nil {
		return "", err
	}
	limit := -1
	if len(args) == 2 {
		n, err := ArgInt(args, 1)
		if err != nil || n < 1 {
			return "", fmt.Errorf("bad move number %q", args[1])
		}
		limit = n - 1
	}
	f, err := os.Open(args[0])
	if err != nil {
		return "", fmt.Errorf("cannot read %s: %v", args[0], err)
	}
	defer f.Close()
	b, err := hex.ReadSGF(f)
	if err != nil {
		return "", fmt.Errorf("cannot load %s: %v", args[0], errText(err))
	}
	for limit >= 0 && b.Ply() > limit {
		b.Undo()
	}
	e.board = b
	return "", nil
}

func cmdSaveSGF(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 1); err != nil {
		return "", err
	}
	f, err := os.Create(args[0])
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %v", args[0], err)
	}
	err = hex.WriteSGF(f, e.board, hex.SGFProps{"AP": e.name + ":" + e.version})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("cannot write %s: %v", args[0], err)
	}
	return "", nil
}

func cmdFinalScore(e *Engine, args []string) (string, error) {
	if c := e.board.Resigned(); c != hex.Empty {
		return c.Opp().Letter() + "+R", nil
	}
	if c := e.board.Winner(); c != hex.Empty {
		return c.Letter() + "+", nil
	}
	return "", fmt.Errorf("game not over")
}

func cmdAllLegalMoves(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 0, 1); err != nil {
		return "", err
	}
	c := e.board.ToMove()
	if len(args) == 1 {
		var err error
		if c, err = ArgColor(args, 0); err != nil {
			return "", err
		}
	}
	s := e.FormatSet(e.board.EmptyCells())
	if e.board.Legal(hex.Move{Color: c, Cell: hex.Swap}) == nil {
		s = strings.TrimSpace(s + " swap-pieces")
	}
	return s, nil
}

func cmdAnalyzeCommands(e *Engine, args []string) (string, error) {
	return strings.Join(e.analyze, "\n"), nil
}
