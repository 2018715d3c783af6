package selfplay

import (
	"math"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// Detail is what an evaluator may report about its last evaluation beyond
// search.Result: the circuit resistances and each colour's winning-VC flag.
type Detail struct {
	RBlack, RWhite   float64 // NaN when unknown
	BlackVC, WhiteVC bool
	// WinnerProved vouches that a Result.Winner of this evaluation is proved (a
	// finished chain, a winning VC, a winning SC for the side to move, or an empty
	// mustplay), so it is recorded as the position's true (game-theoretic) winner.
	WinnerProved bool
}

// Detailer is implemented by evaluators that report a Detail for the position they
// evaluated last (the exact evaluator adapter of this package does). Evaluators
// without it get NaN resistances and VC flags derived from Result.Winner.
type Detailer interface {
	LastDetail() Detail
}

// Recorder is a logging decorator around a search.Evaluator: every board it
// evaluates — the game positions and every node of the alpha-beta search, as Kahl et
// al. captured "every evaluated board" of Six — becomes a dataset row. A position seen
// twice in one game is recorded once (the first evaluation; it is marked played if it
// occurs in the game). Use Wrap to obtain an evaluator that also forwards the
// search.Orderer and search.Tracker hooks of the wrapped evaluator.
type Recorder struct {
	inner    search.Evaluator
	detailer Detailer
	timings  bool

	gameID  uint64
	played  bool // the next evaluation is of a game position
	rows    []dataset.Example
	index   map[uint64]int
	results []search.Result // results[i] is the evaluation of rows[i]
	scratch []int8
	// lastInner is the hash of the board the inner evaluator evaluated last (its
	// Orderer answers for that board only).
	lastInner uint64
	haveInner bool  // lastInner is valid
	evals     int64 // inner evaluations
	// scores caches the Orderer's move scores per position (this game).
	scores map[uint64][]float64
}

// NewRecorder returns a recorder around ev. With timings, each row's cost_us is the
// measured wall time of the evaluation (which makes repeated runs differ byte for
// byte); otherwise cost_us is null.
func NewRecorder(ev search.Evaluator, timings bool) *Recorder {
	r := &Recorder{inner: ev, timings: timings, index: map[uint64]int{}, scores: map[uint64][]float64{}}
	r.detailer, _ = ev.(Detailer)
	return r
}

// Wrap returns an evaluator that records through r and exposes the Orderer and
// Tracker hooks of r's inner evaluator exactly when it has them (the search detects
// them by type assertion).
func (r *Recorder) Wrap() search.Evaluator {
	o, isO := r.inner.(search.Orderer)
	t, isT := r.inner.(search.Tracker)
	if isO {
		o = &orderer{r: r, o: o}
	}
	switch {
	case isO && isT:
		return struct {
			*Recorder
			search.Orderer
			search.Tracker
		}{r, o, t}
	case isO:
		return struct {
			*Recorder
			search.Orderer
		}{r, o}
	case isT:
		return struct {
			*Recorder
			search.Tracker
		}{r, t}
	}
	return r
}

// orderer forwards MoveScores, first re-evaluating the board with the inner
// evaluator when the Recorder answered the last evaluation from its cache.
type orderer struct {
	r *Recorder
	o search.Orderer
}

func (o *orderer) MoveScores(b *hex.Board, scores []float64) {
	h := b.Hash()
	n := min(b.Width()*b.Height(), len(scores))
	if sc, ok := o.r.scores[h]; ok {
		copy(scores[:n], sc)
		return
	}
	if !o.r.haveInner || o.r.lastInner != h {
		o.r.inner.Evaluate(b)
		o.r.lastInner, o.r.haveInner = h, true
		o.r.evals++
	}
	o.o.MoveScores(b, scores)
	o.r.scores[h] = append([]float64(nil), scores[:n]...)
}

// StartGame clears the recorded rows and starts game id.
func (r *Recorder) StartGame(id uint64) {
	r.gameID = id
	r.rows = r.rows[:0]
	r.results = r.results[:0]
	clear(r.index)
	clear(r.scores)
	r.haveInner = false
}

// Evals returns the number of evaluations the inner evaluator has performed.
func (r *Recorder) Evals() int64 { return r.evals }

// EvaluatePlayed evaluates a game position: it is recorded (or its earlier record
// marked) as played.
func (r *Recorder) EvaluatePlayed(b *hex.Board) search.Result {
	r.played = true
	res := r.Evaluate(b)
	r.played = false
	return res
}

// Evaluate implements search.Evaluator: it evaluates b with the inner evaluator and
// records the board. A board already evaluated in this game is answered from the
// recorded result (evaluators are deterministic functions of the position), which
// saves the re-evaluations of iterative deepening and transpositions.
func (r *Recorder) Evaluate(b *hex.Board) search.Result {
	h := b.Hash()
	if i, ok := r.index[h]; ok {
		if r.played {
			r.rows[i].Played = true
		}
		return r.results[i]
	}
	var start time.Time
	if r.timings {
		start = time.Now()
	}
	res := r.inner.Evaluate(b)
	r.lastInner, r.haveInner = h, true
	r.evals++
	var cost int64 = dataset.NoCost
	if r.timings {
		cost = time.Since(start).Microseconds()
	}
	e := dataset.Example{
		GameID: r.gameID,
		Width:  b.Width(), Height: b.Height(),
		Ply:    b.NumStones(),
		ToMove: b.ToMove(),
		Value:  res.Value,
		RBlack: math.NaN(), RWhite: math.NaN(),
		CostUS: cost,
		Played: r.played,
		Hash:   h,
	}
	r.scratch = dataset.EncodeCells(b, r.scratch)
	e.Cells = append([]int8(nil), r.scratch...)
	if r.detailer != nil {
		d := r.detailer.LastDetail()
		e.RBlack, e.RWhite = d.RBlack, d.RWhite
		e.BlackWinsVC, e.WhiteWinsVC = d.BlackVC, d.WhiteVC
		if d.WinnerProved {
			e.TrueWinner = res.Winner
		}
	} else {
		e.BlackWinsVC = res.Winner == hex.Black
		e.WhiteWinsVC = res.Winner == hex.White
	}
	if w := b.Winner(); w != hex.Empty {
		e.TrueWinner = w // a finished game is decided whatever the evaluator
	}
	r.index[h] = len(r.rows)
	r.rows = append(r.rows, e)
	r.results = append(r.results, res)
	return res
}

// SetSearch gives the recorded row of b's position the targets of a search that ran
// there (it must have been evaluated in this game); the targets are not copied.
func (r *Recorder) SetSearch(b *hex.Board, t *dataset.SearchTargets) {
	if i, ok := r.index[b.Hash()]; ok {
		r.rows[i].Search = t
	}
}

// finish sets the game's winner on every recorded row and returns the rows (owned by
// the caller).
func (r *Recorder) finish(winner hex.Color) []dataset.Example {
	out := make([]dataset.Example, len(r.rows))
	copy(out, r.rows)
	for i := range out {
		out[i].Winner = winner
	}
	return out
}
