package circuit

import (
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// ExactConfig configures the exact evaluator.
type ExactConfig struct {
	// Circuit configures the two resistor circuits (how VCs are added, the solver).
	Circuit Config
	// VC configures H-search (or XH-search) for both colours. StopAtWin is forced off
	// so that the circuit receives every connection.
	VC vc.Config
	// FillIn evaluates the position after inferior cell analysis (vc.FillDecider: dead
	// and captured cells filled, which keeps the game value): the connections, the
	// decision and the circuits are those of the filled position, so connections run
	// through captured cells. The mustplay then holds only unfilled cells, filled
	// cells get energy 0, and Analysis carriers are cells of the filled position
	// (FilledBoard). On engine/vc's solved 8x8 set it decides 14 more of 200 positions
	// and a search-configuration evaluation is about twice as fast (docs/history.md, "Decided share of solved positions").
	// A position won after fill-in is proved won for every move that keeps the
	// captured sets; the search still plays the move that wins at once because it
	// scores a proved win below a finished one (search.ProvedMargin). The
	// configurations here leave it off (the evaluation commands and the corpora work on
	// the position itself); the GTP players turn it on (engine/gtp Player.NoFillIn;
	// measured in games: docs/history.md, "Fill-in in games").
	FillIn bool
}

// DefaultExactConfig is DefaultConfig for the circuits and vc.DefaultConfig (H-search)
// for the connections, without FillIn (which decides more positions, faster; the GTP
// players turn it on, see FillIn).
func DefaultExactConfig() ExactConfig {
	return ExactConfig{Circuit: DefaultConfig(), VC: vc.DefaultConfig()}
}

// SearchExactConfig is the configuration used inside searches: H-search keeps at
// most 8 VCs and 16 SCs per pair and ORs at most 4 SCs, with vc.DefaultConfig's edge
// templates (vc.DefaultConfig keeps 6 VCs and ORs up to 6; ProofExactConfig 20 VCs
// and 30 SCs, no templates). It is much faster than ProofExactConfig, at the price of
// missing some connections.
func SearchExactConfig() ExactConfig {
	c := DefaultExactConfig()
	c.VC.MaxFull, c.VC.MaxSemi, c.VC.MaxOr = 8, 16, 4
	return c
}

// ProofExactConfig keeps Hexy's M = 20 VCs per pair (vc.AnshelevichConfig) and 30
// SCs per pair: slower, but it finds the connections a shallow search needs to prove a
// position. The SC limit is what matters on 6x6: after d3 d4 the winning VC of Black's
// best third stone is an OR over SCs that a 20-SC list has already dropped, and with
// 30 a depth-3 search proves the empty 6x6 board a first-player win (Kahl et al.,
// section 6; TestProvesEmpty6x6AtDepth3 in engine/search).
func ProofExactConfig() ExactConfig {
	c := DefaultExactConfig()
	c.VC = vc.AnshelevichConfig()
	c.VC.MaxSemi = 30
	return c
}

// Analysis is everything the exact evaluator learned about a position.
type Analysis struct {
	Eval
	// Winner is the colour that has won or has a proved win: a finished chain, a
	// winning VC, or a winning SC for the side to move. Empty otherwise.
	Winner hex.Color
	// BlackVC and WhiteVC report a winning VC (edge to edge) of each colour, with the
	// smallest carrier.
	BlackVC, WhiteVC           bool
	BlackCarrier, WhiteCarrier hex.Bitset
	BlackSemis, WhiteSemis     int // number of winning SCs of each colour
	HasMustplay                bool
	Mustplay                   hex.Bitset // for the side to move, when HasMustplay
	BlackFull, BlackSemi       int        // connections H-search found for Black
	WhiteFull, WhiteSemi       int        // and for White
	BlackLinks, WhiteLinks     int        // VC links given to each circuit
}

// Exact is the exact evaluator of hexlearn: H-search connections for both colours
// plus the two resistor circuits with those connections (Anshelevich 2002, sections
// 4-6). It implements search.Evaluator and search.Orderer (cell energies). It is a
// reusable workspace, not safe for concurrent use.
type Exact struct {
	cfg       ExactConfig
	res       *Resistance
	vb, vw    *vc.Builder
	links     []Link
	linkStart int // first link of the colour being collected
	// lastHash and complete describe the last Evaluate: complete when the circuits
	// of that position were solved (MoveScores needs their energies).
	lastHash uint64
	complete bool
	collect  func(x, y hex.Cell, c *vc.Conn) bool
	fd       *vc.FillDecider // with FillIn
	board    *hex.Board      // the position the circuits were solved for (filled with FillIn)
	// filled is the set of cells FillIn filled in board (MoveScores scores them 0).
	filled hex.Bitset
	anchor anchorState // Anchor and EvaluateLine (anchor.go)
}

// NewExact returns an exact evaluator.
func NewExact(cfg ExactConfig) (*Exact, error) {
	cfg.VC.StopAtWin = false
	if err := cfg.VC.Validate(); err != nil {
		return nil, err
	}
	res, err := NewResistance(cfg.Circuit)
	if err != nil {
		return nil, err
	}
	x := &Exact{cfg: cfg, res: res, vb: vc.NewBuilder(cfg.VC), vw: vc.NewBuilder(cfg.VC)}
	if cfg.FillIn {
		x.fd = vc.NewFillDecider()
	}
	x.collect = func(a, b hex.Cell, _ *vc.Conn) bool {
		// EachFull reports every VC of a pair in a row; one link per pair.
		if n := len(x.links); n == x.linkStart || x.links[n-1] != (Link{a, b}) {
			x.links = append(x.links, Link{a, b})
		}
		return true
	}
	return x, nil
}

// Config returns the configuration.
func (x *Exact) Config() ExactConfig { return x.cfg }

// Resistance returns the circuits of the last analysis (for energies and residuals).
func (x *Exact) Resistance() *Resistance { return x.res }

// FilledBoard returns the position the last Analyse or Evaluate worked on: the filled
// copy with FillIn, else the board given (nil before the first analysis).
func (x *Exact) FilledBoard() *hex.Board { return x.board }

// Builders returns the H-search builders of Black and White after the last analysis.
func (x *Exact) Builders() (black, white *vc.Builder) { return x.vb, x.vw }

// Analyse computes the connections of both colours and the circuits (of the filled
// position with FillIn). b is only read.
func (x *Exact) Analyse(b *hex.Board) (Analysis, error) {
	x.complete, x.filled = false, hex.Bitset{}
	if x.fd != nil {
		if b == nil {
			return Analysis{}, fmt.Errorf("circuit: %w", vc.ErrNoBoard)
		}
		b = x.fd.Fill(b)
		x.filled = x.fd.FilledCells()
	}
	if err := x.vb.Build(b, hex.Black); err != nil {
		return Analysis{}, fmt.Errorf("circuit: black connections: %w", err)
	}
	if err := x.vw.Build(b, hex.White); err != nil {
		return Analysis{}, fmt.Errorf("circuit: white connections: %w", err)
	}
	return x.analyseBuilt(b, x.vb, x.vw)
}

// analyseBuilt completes Analyse once the builders vb (Black) and vw (White) hold b's
// connections.
func (x *Exact) analyseBuilt(b *hex.Board, vb, vw *vc.Builder) (Analysis, error) {
	var a Analysis
	x.board = b
	x.links, x.linkStart = x.links[:0], 0
	vb.EachFull(x.collect)
	nb := len(x.links)
	x.linkStart = nb
	vw.EachFull(x.collect)
	bl, wl := x.links[:nb:nb], x.links[nb:]
	e, err := x.res.Eval(b, bl, wl)
	if err != nil {
		return a, err
	}
	a.Eval = e
	a.BlackLinks, a.WhiteLinks = len(bl), len(wl)
	a.BlackFull, a.BlackSemi = vb.Counts()
	a.WhiteFull, a.WhiteSemi = vw.Counts()
	a.BlackVC, a.BlackCarrier = vb.WinningVC()
	a.WhiteVC, a.WhiteCarrier = vw.WinningVC()
	a.BlackSemis, a.WhiteSemis = len(vb.WinningSemis()), len(vw.WinningSemis())
	me := b.ToMove()
	theirs, mySemis := vw, a.BlackSemis
	if me == hex.White {
		theirs, mySemis = vb, a.WhiteSemis
	}
	switch {
	case b.Winner() != hex.Empty:
		a.Winner = b.Winner()
	case a.BlackVC:
		a.Winner = hex.Black
	case a.WhiteVC:
		a.Winner = hex.White
	case mySemis > 0:
		a.Winner = me // play the key: a winning VC
	default:
		if must, threatened := theirs.Mustplay(); threatened {
			a.HasMustplay, a.Mustplay = true, must
			if must.IsEmpty() {
				a.Winner = me.Opp()
			}
		}
	}
	return a, nil
}

// Evaluate implements search.Evaluator: Value is ln(R_W/R_B) (positive favours Black;
// ±MaxValue for a decided position), Winner as in Analysis, and the mustplay of the
// side to move when the opponent has winning semi-connections.
//
// Decided positions are recognised early: the side to move's connections are built
// first, and when they already decide the game (a winning VC or SC), the opponent's
// connections and the circuits are skipped; likewise when the opponent has a winning
// VC. MoveScores then completes the analysis if it is asked for the energies.
func (x *Exact) Evaluate(b *hex.Board) search.Result {
	x.lastHash, x.complete, x.board, x.filled = b.Hash(), false, b, hex.Bitset{}
	r, open := decide(b, x.vb, x.vw, x.fd)
	if x.fd != nil && b.Winner() == hex.Empty {
		x.board, x.filled = x.fd.Filled(), x.fd.FilledCells()
	}
	if !open {
		return r
	}
	r, err := x.circuits(x.board, x.vb, x.vw)
	if err != nil { // only for an invalid configuration or board, which New rejects
		return search.Result{}
	}
	return r
}

// circuits completes the evaluation of an open position b whose connections vb
// (Black) and vw (White) hold: the circuits are solved (MoveScores then reads their
// energies) and the value, winner and mustplay returned.
func (x *Exact) circuits(b *hex.Board, vb, vw *vc.Builder) (search.Result, error) {
	a, err := x.analyseBuilt(b, vb, vw)
	if err != nil {
		return search.Result{}, err
	}
	x.complete = true
	r := search.Result{Value: a.Value, Winner: a.Winner, HasMustplay: a.HasMustplay, Mustplay: a.Mustplay}
	if a.Winner != hex.Empty {
		r.Value = WinValue(a.Winner)
	}
	return r, nil
}

// MoveScores implements search.Orderer with the cell energies of both circuits of the
// last evaluation (see Resistance.Energy); when that evaluation stopped early at a
// decided position, the circuits are solved first.
func (x *Exact) MoveScores(b *hex.Board, scores []float64) {
	if !x.complete || x.lastHash != b.Hash() {
		if _, err := x.Analyse(b); err != nil {
			return
		}
		x.lastHash, x.complete = b.Hash(), true
	}
	if x.fd != nil {
		filled := x.filled
		for p := filled.First(); p != hex.NoCell; p = filled.Next(p + 1) {
			if int(p) < len(scores) {
				scores[p] = 0
			}
		}
		b = x.board
	}
	fillEnergies(b, scores, x.res.Energy)
}
