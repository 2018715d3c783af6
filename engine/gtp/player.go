package gtp

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
)

// Player chooses the moves of genmove. The engine knows no policy of its own: package
// player's Player, hexlearn's one player, is the one 'hexlearn gtp' serves.
type Player interface {
	// GenMove returns the move for the side to move of b, which it must leave
	// unchanged: an empty cell of b, or hex.Swap when swap (the swap rule is on) and
	// the player takes the opening stone over. b is not finished and has an empty
	// cell.
	GenMove(ctx context.Context, b *hex.Board, swap bool) (hex.Cell, error)
}

// PlayerFunc is a function as a Player.
type PlayerFunc func(ctx context.Context, b *hex.Board, swap bool) (hex.Cell, error)

// GenMove implements Player.
func (f PlayerFunc) GenMove(ctx context.Context, b *hex.Board, swap bool) (hex.Cell, error) {
	return f(ctx, b, swap)
}

// Param is one of a player's settings as param_player shows it: Benzene's param
// format, "[TYPE] NAME VALUE", which HexGui edits.
type Param struct {
	Type, Name, Value string
}

// Parametrized is implemented by players whose settings param_player shows and
// changes, and param_search for the search's limits.
type Parametrized interface {
	// Params returns the settings on a w x h board.
	Params(w, h int) []Param
	// SetParam changes one setting (its name as Params gives it).
	SetParam(name, value string) error
}

// Analyst is implemented by players whose connections eval-resist follows (its
// exact evaluator; circuit.DefaultExactConfig otherwise).
type Analyst interface {
	AnalysisConfig() circuit.ExactConfig
}

// SetPlayer sets the player genmove asks (nil: none; genmove then fails).
func (e *Engine) SetPlayer(p Player) {
	e.player = p
	delete(e.state, "eval")
}

// Player returns the engine's player (nil when none is set).
func (e *Engine) Player() Player { return e.player }

// The player's commands (this file):
//
//	param_player                 the player's settings, one "[TYPE] name value" a line
//	param_player NAME VALUE      changes one (the names of 'hexlearn gtp' flags with
//	                             '_' for '-': time, depth, k, solve_share, ...)
//	param_search [NAME VALUE]    the same for the search's limits only: depth, k,
//	                             root_k, time and vc_plies
//	param_game [NAME VALUE]      the game's rules: allow_swap (0 or 1, default 0),
//	                             as Benzene's param_game
func init() {
	Register("param_player", func(e *Engine, args []string) (string, error) { return paramCmd(e, "param_player", nil, args) })
	Register("param_search", func(e *Engine, args []string) (string, error) {
		return paramCmd(e, "param_search", []string{"depth", "k", "root_k", "time", "vc_plies"}, args)
	})
	Register("param_game", cmdParamGame)
	RegisterAnalyze("param", "Player Parameters", "param_player")
	RegisterAnalyze("param", "Search Parameters", "param_search")
	RegisterAnalyze("param", "Game Parameters", "param_game")
}

// paramCmd shows or sets the player's settings (only those of names, when given).
func paramCmd(e *Engine, cmd string, names []string, args []string) (string, error) {
	p, ok := e.player.(Parametrized)
	if !ok {
		return "", fmt.Errorf("%s: the engine's player has no settings", cmd)
	}
	shown := func(name string) bool {
		for _, n := range names {
			if n == name {
				return true
			}
		}
		return names == nil
	}
	switch len(args) {
	case 0:
		params := p.Params(e.board.Width(), e.board.Height())
		var lines []string
		line := func(q Param) { lines = append(lines, fmt.Sprintf("[%s] %s %s", q.Type, q.Name, q.Value)) }
		if names == nil {
			for _, q := range params {
				line(q)
			}
		}
		for _, n := range names { // in the order of names
			for _, q := range params {
				if q.Name == n {
					line(q)
				}
			}
		}
		return strings.Join(lines, "\n"), nil
	case 2:
	default:
		return "", fmt.Errorf("%s: want no arguments or NAME VALUE, got %d arguments", cmd, len(args))
	}
	name := strings.ToLower(args[0])
	if !shown(name) {
		return "", fmt.Errorf("%s: unknown parameter %q (want %s)", cmd, args[0], strings.Join(names, ", "))
	}
	if err := p.SetParam(name, args[1]); err != nil {
		return "", fmt.Errorf("%s: %v", cmd, errText(err))
	}
	delete(e.state, "eval")
	return "", nil
}

func cmdParamGame(e *Engine, args []string) (string, error) {
	switch len(args) {
	case 0:
		return "[bool] allow_swap " + map[bool]string{false: "0", true: "1"}[e.allowSwap], nil
	case 2:
	default:
		return "", fmt.Errorf("param_game: want no arguments or NAME VALUE, got %d arguments", len(args))
	}
	if strings.ToLower(args[0]) != "allow_swap" {
		return "", fmt.Errorf("param_game: unknown parameter %q (want allow_swap)", args[0])
	}
	v, err := strconv.ParseBool(args[1])
	if err != nil {
		return "", fmt.Errorf("param_game: allow_swap wants 0 or 1, got %q", args[1])
	}
	e.allowSwap = v
	return "", nil
}

// SetAllowSwap sets the swap rule of genmove (param_game allow_swap).
func (e *Engine) SetAllowSwap(on bool) { e.allowSwap = on }
