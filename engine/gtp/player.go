package gtp

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// Player chooses what the searching genmove plays with. Set it with SetPlayer before
// the first search or evaluation command; the zero value is the exact evaluator with
// H-search and SearchDefaults.
type Player struct {
	// Model, when set, makes genmove search with the learned evaluator. It plays only on
	// boards of the model's size; genmove on another size answers an error.
	Model *model.Model
	// Terminal, when set, decides positions before the evaluator is asked (the
	// goal-pattern database of engine/patterns). It must be for the model's board size.
	Terminal search.Terminal
	// XH makes the exact evaluator use XH-search (stepping stones and the crossing rule).
	XH bool
	// Params are the initial search parameters (zero: SearchDefaults()).
	Params search.Params
}

// SetPlayer sets the player of the searching genmove and drops any search state built
// for the previous one.
func (e *Engine) SetPlayer(p Player) {
	if e.state == nil {
		e.state = map[string]any{}
	}
	e.state["player"] = p
	delete(e.state, "eval")
}

// playerOf returns the engine's player (the zero Player when none was set).
func playerOf(e *Engine) Player {
	p, _ := e.State("player", func() any { return Player{} }).(Player)
	return p
}

// Describe names the player for logs and match reports.
func (p Player) Describe() string {
	s := "exact (H-search"
	if p.XH {
		s = "exact (XH-search"
	}
	s += " + circuit)"
	if p.Model != nil {
		s = fmt.Sprintf("learned (%dx%d, %d networks)", p.Model.W, p.Model.H, len(p.Model.Nets))
	}
	if p.Terminal != nil {
		s += " + patterns"
	}
	return s
}

// learnedEvaluator builds the search evaluator of a learned player.
func (p Player) learnedEvaluator() (search.Evaluator, error) {
	le, err := model.NewEvaluator(p.Model, p.Model.W, p.Model.H)
	if err != nil {
		return nil, err
	}
	if p.Terminal != nil {
		return &search.WithTerminal{Inner: le, Term: p.Terminal}, nil
	}
	return le, nil
}

// checkBoard refuses a board the learned player cannot evaluate.
func (p Player) checkBoard(b *hex.Board) error {
	if p.Model != nil {
		if err := p.Model.CheckSize(b.Width(), b.Height()); err != nil {
			return err
		}
	}
	return nil
}
