package main

import (
	"flag"

	"github.com/hexlearn/hexlearn/pipeline"
)

// mctsFlags are the gtp command's flags for the learned player's Monte Carlo tree
// search.
type mctsFlags struct {
	circuitPriors, playoutWeight, amafPriors float64
	playouts                                 int
	reuse                                    string
}

func (m *mctsFlags) register(fs *flag.FlagSet) {
	fs.Float64Var(&m.circuitPriors, "circuit-priors", -1, "learned player's MCTS: weight 0..1 of the circuit's move ordering in the priors where H-search is asked (-1: the board size's default, 1 above 8x8, else 0)")
	fs.IntVar(&m.playouts, "playouts", -1, "learned player's MCTS: random playouts (bridges answered) from every node it expands (-1: the board size's default, 32 above 8x8, else none, and none over a model of the playouts target; 0: none)")
	fs.Float64Var(&m.amafPriors, "amaf-priors", -1, "learned player's MCTS: weight 0..1 of the playouts' AMAF ranking of the moves in the priors; needs playouts (-1: the board size's default, none)")
	fs.StringVar(&m.reuse, "reuse", "", "learned player's MCTS: on keeps the subtree of the position after the move played and the reply between moves, off starts a fresh tree every move (empty: the board size's default)")
	fs.Float64Var(&m.playoutWeight, "playout-weight", -1, "learned player's MCTS: weight 0..1 of the playouts' mean result in a node's score, the network's value the rest (-1: the default, 0.8)")
}

// apply checks the flags and sets them in cfg.
func (m *mctsFlags) apply(cfg *pipeline.PlayerConfig) error {
	switch w := m.circuitPriors; {
	case w == -1:
	case !(w >= 0 && w <= 1): // NaN too
		return usageErr("--circuit-priors: want a weight from 0 to 1 (or -1), got %g", w)
	case w == 0:
		cfg.CircuitPriors = -1 // none (the config's zero value is the default)
	default:
		cfg.CircuitPriors = w
	}
	switch n := m.playouts; {
	case n == -1:
	case n < 0 || n > 1<<16:
		return usageErr("--playouts: want 0 to 65536 (or -1), got %d", n)
	case n == 0:
		cfg.Playouts = -1 // none (the config's zero value is the default)
	default:
		cfg.Playouts = n
	}
	switch w := m.amafPriors; {
	case w == -1:
	case !(w >= 0 && w <= 1): // NaN too
		return usageErr("--amaf-priors: want a weight from 0 to 1 (or -1), got %g", w)
	case w > 0 && m.playouts == 0:
		return usageErr("--amaf-priors: the AMAF ranking needs playouts (--playouts is 0)")
	case w == 0:
		cfg.AMAFPriors = -1 // none (the config's zero value is the default)
	default:
		cfg.AMAFPriors = w
	}
	switch w := m.playoutWeight; {
	case w == -1:
	case !(w > 0 && w <= 1): // NaN too
		return usageErr("--playout-weight: want a weight above 0 and at most 1 (or -1), got %g", w)
	default:
		cfg.PlayoutWeight = w
	}
	switch m.reuse {
	case "":
	case "on":
		cfg.Reuse = 1
	case "off":
		cfg.Reuse = -1
	default:
		return usageErr("--reuse: want on or off, got %q", m.reuse)
	}
	return nil
}
