package gtp

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// DefaultSolveTimeout is the time limit of dfs-solve-state and dfs-solver-find-winning
// until "param_dfs timeout S" changes it (0: no limit). Without a limit a solve of an
// 11x11 position runs for hours and a GUI user has no way to stop it.
const DefaultSolveTimeout = 30 * time.Second

// Unknown is the answer of dfs-solve-state when a limit stops the solver first (the
// winner is not known), as Benzene answers.
const Unknown = "unknown"

// solverState is the per-engine state of the solver commands: the parameters and a
// solver whose transposition table is kept between commands.
type solverState struct {
	maxNodes int64
	timeout  time.Duration
	useVC    bool
	algo     solver.Algorithm
	s        *solver.Solver
	last     solver.Stats
}

func (st *solverState) solver() *solver.Solver {
	if st.s == nil {
		cfg := solver.DefaultConfig()
		if !st.useVC {
			cfg.Connector = nil
		}
		cfg.MaxNodes = st.maxNodes
		cfg.Timeout = st.timeout
		cfg.Algorithm = st.algo
		st.s = solver.New(cfg)
	}
	return st.s
}

func getSolverState(e *Engine) *solverState {
	return e.State("solver", func() any { return &solverState{useVC: true, timeout: DefaultSolveTimeout} }).(*solverState)
}

func init() {
	Register("dfs-solve-state", cmdDFSSolveState)
	Register("dfs-solver-find-winning", cmdDFSFindWinning)
	Register("param_dfs", cmdParamDFS)
	RegisterAnalyze("string", "Solve State", "dfs-solve-state %c")
	RegisterAnalyze("plist", "Solver Winning Moves", "dfs-solver-find-winning %c")
	RegisterAnalyze("param", "Solver Parameters", "param_dfs")
}

// solverBoard returns a copy of the current board with colour args[0] (optional; the
// side to move by default) to move.
func solverBoard(e *Engine, args []string) (*hex.Board, error) {
	if err := NArgs(args, 0, 1); err != nil {
		return nil, err
	}
	b := e.Board().Clone()
	if len(args) == 1 {
		c, err := ArgColor(args, 0)
		if err != nil {
			return nil, err
		}
		b.SetToMove(c)
	}
	if w := b.Winner(); w != hex.Empty {
		return nil, fmt.Errorf("the game is over (%s has won)", w)
	}
	return b, nil
}

func solverErr(err error) error {
	if errors.Is(err, solver.ErrLimit) {
		return fmt.Errorf("unknown: %v (param_dfs max_nodes and timeout set the limits)", err)
	}
	return err
}

// cmdDFSSolveState answers "dfs-solve-state [COLOR]": the winner ("black" or "white")
// with COLOR (default: the side to move) to move, as Benzene does, or "unknown" when
// the node or time limit (param_dfs) stops the solver first.
func cmdDFSSolveState(e *Engine, args []string) (string, error) {
	b, err := solverBoard(e, args)
	if err != nil {
		return "", err
	}
	st := getSolverState(e)
	ctx := e.Context()
	r, err := st.solver().Solve(ctx, b)
	st.last = r.Stats
	if errors.Is(err, solver.ErrLimit) && (ctx == nil || ctx.Err() == nil) {
		return Unknown, nil
	}
	if err != nil {
		return "", solverErr(err)
	}
	return r.Winner.String(), nil
}

// cmdDFSFindWinning answers "dfs-solver-find-winning [COLOR]": the cells where COLOR
// (default: the side to move) wins by moving, space-separated (empty if none). When a
// limit stops the solver before every move is decided the answer is an error starting
// with "unknown", since an incomplete list would read as "no other move wins".
func cmdDFSFindWinning(e *Engine, args []string) (string, error) {
	b, err := solverBoard(e, args)
	if err != nil {
		return "", err
	}
	st := getSolverState(e)
	wins, _, stats, err := st.solver().WinningMoves(e.Context(), b)
	st.last = stats
	if err != nil {
		return "", solverErr(err)
	}
	var s hex.Bitset
	for _, c := range wins {
		s.Set(c)
	}
	return e.FormatSet(s), nil
}

// cmdParamDFS answers "param_dfs [NAME VALUE]": without arguments it lists the solver
// parameters (max_nodes, timeout in seconds, use_vc 0/1, algorithm dfpn/dfs) and the
// statistics of the last solve; with a name and a value it sets that parameter.
func cmdParamDFS(e *Engine, args []string) (string, error) {
	st := getSolverState(e)
	if len(args) == 0 {
		vcFlag := 0
		if st.useVC {
			vcFlag = 1
		}
		return fmt.Sprintf("[string] max_nodes %d\n[string] timeout %g\n[bool] use_vc %d\n[list/dfpn/dfs] algorithm %s\n[string] last_nodes %d\n[string] last_time %g",
			st.maxNodes, st.timeout.Seconds(), vcFlag, st.algo, st.last.Nodes, st.last.Elapsed.Seconds()), nil
	}
	if err := NArgs(args, 2, 2); err != nil {
		return "", err
	}
	switch strings.ToLower(args[0]) {
	case "max_nodes":
		n, err := strconv.ParseInt(args[1], 10, 64)
		if err != nil || n < 0 {
			return "", fmt.Errorf("bad max_nodes %q (want a count >= 0, 0 = no limit)", args[1])
		}
		st.maxNodes = n
	case "timeout":
		f, err := strconv.ParseFloat(args[1], 64)
		if err != nil || f < 0 {
			return "", fmt.Errorf("bad timeout %q (want seconds >= 0, 0 = no limit)", args[1])
		}
		st.timeout = time.Duration(f * float64(time.Second))
	case "use_vc":
		switch args[1] {
		case "1", "true":
			st.useVC = true
		case "0", "false":
			st.useVC = false
		default:
			return "", fmt.Errorf("bad use_vc %q (want 0 or 1)", args[1])
		}
	case "algorithm":
		switch strings.ToLower(args[1]) {
		case "dfpn":
			st.algo = solver.DFPN
		case "dfs":
			st.algo = solver.DFS
		default:
			return "", fmt.Errorf("bad algorithm %q (want dfpn or dfs)", args[1])
		}
	default:
		return "", fmt.Errorf("unknown parameter %q (want max_nodes, timeout, use_vc or algorithm)", args[0])
	}
	st.s = nil // rebuilt with the new parameters
	return "", nil
}
