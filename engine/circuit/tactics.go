package circuit

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// Tactics is the virtual-connection half of the exact evaluator without the circuits:
// it answers only what the connections decide (a proved winner, the mustplay region of
// the side to move; see vc.Decide). A search consults it near the root
// (search.Searcher.SetTactics) while a cheaper evaluator, such as the learned one,
// scores the leaves. Value is ±2·LogClamp for a decided position and 0 otherwise. It
// is a reusable workspace, not safe for concurrent use.
type Tactics struct {
	vb, vw *vc.Builder
}

// NewTactics returns a Tactics evaluator with H-search (or XH-search) configured by
// cfg; StopAtWin is forced off (the mustplay needs every winning connection).
func NewTactics(cfg vc.Config) (*Tactics, error) {
	cfg.StopAtWin = false
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Tactics{vb: vc.NewBuilder(cfg), vw: vc.NewBuilder(cfg)}, nil
}

// Evaluate implements search.Evaluator.
func (t *Tactics) Evaluate(b *hex.Board) search.Result {
	if w := b.Winner(); w != hex.Empty {
		return search.Result{Value: WinValue(w), Winner: w}
	}
	mine, theirs := t.vb, t.vw
	if b.ToMove() == hex.White {
		mine, theirs = t.vw, t.vb
	}
	d, err := vc.Decide(b, mine, theirs)
	if err != nil {
		return search.Result{}
	}
	r := search.Result{Winner: d.Winner, HasMustplay: d.HasMustplay, Mustplay: d.Mustplay}
	if d.Winner != hex.Empty {
		r.Value = WinValue(d.Winner)
	}
	return r
}

var _ search.Evaluator = (*Tactics)(nil)
