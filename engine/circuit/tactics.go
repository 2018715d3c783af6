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
	fd     *vc.FillDecider // decide after ICE fill-in (NewTacticsFill)
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

// NewTacticsFill is NewTactics deciding after inferior cell analysis when fill is set
// (vc.FillDecider; ExactConfig.FillIn).
func NewTacticsFill(cfg vc.Config, fill bool) (*Tactics, error) {
	t, err := NewTactics(cfg)
	if err == nil && fill {
		t.fd = vc.NewFillDecider()
	}
	return t, err
}

// Evaluate implements search.Evaluator.
func (t *Tactics) Evaluate(b *hex.Board) search.Result {
	r, _ := decide(b, t.vb, t.vw, t.fd)
	return r
}

// decide is what the connections of both colours, built by vb (Black) and vw (White),
// decide about b (after fill-in with fd when fd is not nil): a result with the winner
// (Value ±MaxValue) or the side to move's mustplay. open reports that the game is open
// and both builders hold the connections of b (of fd.Filled() with fd), so the
// circuits can be solved next.
func decide(b *hex.Board, vb, vw *vc.Builder, fd *vc.FillDecider) (r search.Result, open bool) {
	if w := b.Winner(); w != hex.Empty {
		return search.Result{Value: WinValue(w), Winner: w}, false
	}
	mine, theirs := vb, vw
	if b.ToMove() == hex.White {
		mine, theirs = vw, vb
	}
	var d vc.Decision
	var err error
	if fd != nil {
		d, err = fd.Decide(b, mine, theirs)
	} else {
		d, err = vc.Decide(b, mine, theirs)
	}
	if err != nil { // only for an invalid configuration or board, which New rejects
		return search.Result{}, false
	}
	if d.Winner != hex.Empty {
		return search.Result{Value: WinValue(d.Winner), Winner: d.Winner}, false
	}
	return search.Result{HasMustplay: d.HasMustplay, Mustplay: d.Mustplay}, true
}

var _ search.Evaluator = (*Tactics)(nil)
