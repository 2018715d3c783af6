package gtp

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/circuit"
)

// The evaluation command (this file):
//
//	eval-resist COLOR            " res R rew Rw reb Rb" as Benzene: rew = ln R_W,
//	                             reb = ln R_B, res = rew - reb (positive favours
//	                             Black), from the exact evaluator (H-search + circuit)
//	                             of the player's connections (Analyst). COLOR is
//	                             required for Benzene compatibility; the values are
//	                             always from Black's point of view.
func init() {
	Register("eval-resist", cmdEvalResist)
	RegisterAnalyze("string", "Eval Resist", "eval-resist %c")
}

// evalState is an engine's exact evaluator for eval-resist.
type evalState struct {
	cfg   circuit.ExactConfig
	exact *circuit.Exact
}

func cmdEvalResist(e *Engine, args []string) (string, error) {
	if err := NArgs(args, 1, 1); err != nil {
		return "", err
	}
	if _, err := ArgColor(args, 0); err != nil {
		return "", err
	}
	cfg := circuit.DefaultExactConfig()
	if a, ok := e.player.(Analyst); ok {
		cfg = a.AnalysisConfig()
	}
	st, _ := e.State("eval", func() any { return (*evalState)(nil) }).(*evalState)
	if st == nil || st.cfg != cfg {
		x, err := circuit.NewExact(cfg)
		if err != nil {
			return "", fmt.Errorf("eval: cannot set up the evaluator: %v", errText(err))
		}
		st = &evalState{cfg: cfg, exact: x}
		e.state["eval"] = st
	}
	a, err := st.exact.Analyse(e.Board())
	if err != nil {
		return "", err
	}
	return fmt.Sprintf(" res %.4f rew %.4f reb %.4f", a.LogRW-a.LogRB, a.LogRW, a.LogRB), nil
}
