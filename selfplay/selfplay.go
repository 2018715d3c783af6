// Package selfplay generates hexlearn's training corpora: self-play games between
// alpha-beta players using the exact evaluator, and games of such a player against a
// uniformly random mover, logging every board the evaluator evaluates — the game
// positions and every node of the searches — to Arrow dataset files. This is how Kahl,
// Edelkamp & Hildebrand 2007 (section 3) built their training sets: "During self- and
// random play of Six we were able to capture every evaluated board".
//
// Runs are deterministic: a game's moves depend only on the seed and the game's
// global index (each game has its own random stream and a freshly cleared
// transposition table), games are written in index order whatever the number of
// workers, and files carry no timestamps. Measured evaluation times (Config.Timings)
// are the one exception and are therefore off by default. Sharding splits the games
// by index (game g belongs to shard g mod n), so with a game count the shards
// together hold exactly the rows of the unsharded run.
package selfplay

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/player"
)

// Mode selects the kind of games.
type Mode int

// The modes.
const (
	// ModeSelf: both colours search with the evaluator.
	ModeSelf Mode = iota
	// ModeRandom: one colour (drawn per game) moves uniformly at random, the other
	// searches, as in "random play of Six".
	ModeRandom
	// ModeMixed: even-numbered games are self-play, odd-numbered games random play.
	ModeMixed
	// ModePositions: every game is one random position, recorded as one row: uniformly
	// random moves for both colours, their number drawn uniformly from 1..cells/2
	// (drawn again while a chain is complete), the distribution of experiment 9's
	// test positions (internal/positions). No search is run; with Config.NewLabeler
	// the solver labels the position. It makes training data for the winner target
	// on the kind of position the winner predictions are measured on, drawn from
	// another seed (positions with few stones recur in both; unlike
	// internal/positions, repeats are kept).
	ModePositions
	// ModePlayer: both colours are the player Config.NewPlayer makes (the learned
	// player's MCTS at a fixed number of expansions, for games that do not depend on
	// the machine), and only the game's positions are recorded: each with the exact
	// evaluator's value and proofs, and with the targets of the player's own search
	// (dataset.SearchTargets: the root's backed-up value and visit shares). The
	// TempPlies moves after the opening are drawn from the root's visits raised to
	// the power 1/Temperature (Temperature 0: 1), as Expert Iteration and AlphaZero
	// explore; the rest are the player's moves. This is the self-play of the loop in
	// which the network learns from its own searches (Anthony, Tian & Barber 2017).
	ModePlayer
)

// String names the mode as the command line does.
func (m Mode) String() string {
	switch m {
	case ModeSelf:
		return "self"
	case ModeRandom:
		return "random"
	case ModeMixed:
		return "mixed"
	case ModePositions:
		return "positions"
	case ModePlayer:
		return "player"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// ParseMode parses self, random, mixed or positions.
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "self":
		return ModeSelf, nil
	case "random":
		return ModeRandom, nil
	case "mixed":
		return ModeMixed, nil
	case "positions":
		return ModePositions, nil
	case "player":
		return ModePlayer, nil
	}
	return 0, fmt.Errorf("%w: mode %q (want self, random, mixed, positions or player)", ErrConfig, s)
}

// ErrConfig reports an invalid configuration.
var ErrConfig = errors.New("selfplay: bad configuration")

// Config configures a run.
type Config struct {
	Width, Height int
	Mode          Mode
	// Games is the total number of games of the (unsharded) run; each shard plays the
	// games whose index is congruent to Shard modulo Shards. Exactly one of Games and
	// Positions must be positive.
	Games int
	// Positions is the number of rows to write: the run plays games in index order
	// and stops when this many rows are written (the last game is cut). With shards,
	// shard i writes its share P/n (+1 for i < P mod n) from its own games, so the
	// union has P rows but is not the unsharded run's (use Games for that).
	Positions int64
	// Search holds the alpha-beta parameters (Depth and K matter; Time must be 0 for
	// deterministic output).
	Search search.Params
	// Opening is the number of uniformly random moves that start every game.
	Opening int
	// Temperature > 0 samples the TempPlies moves after the opening from a softmax
	// over the 1-ply values of all moves (mover's point of view, divided by
	// Temperature) instead of searching; those evaluations are recorded too.
	Temperature float64
	TempPlies   int
	// StopAtProof ends a game (after the opening) as soon as the evaluator proves a
	// winner, as Six did; by default games are played out until a chain is complete,
	// which logs the searches of the decided phase too.
	StopAtProof bool
	Seed        uint64
	// Workers is the number of games played in parallel (0: all cores). It does not
	// change the output.
	Workers       int
	Shard, Shards int // this shard and the number of shards (0 and 1 when not sharded)
	// Timings records measured evaluation times in cost_us (non-deterministic).
	Timings bool
	// GamesPerFile starts a new file after this many games (0: 1000), so an
	// interrupted run keeps its completed files.
	GamesPerFile int
	// NewEvaluator returns a fresh evaluator for one worker (evaluators are
	// workspaces, not safe for concurrent use).
	NewEvaluator func() (search.Evaluator, error)
	// NewLabeler, if set, is called once per game and returns a function giving the
	// game-theoretic winner of a position (side to move b.ToMove()); rows whose
	// true_winner the evaluator did not prove are labelled with it. The function
	// returns ok false when it cannot decide (for example a node limit); it must be
	// deterministic given the positions of the game in order.
	NewLabeler func() func(ctx context.Context, b *hex.Board) (winner hex.Color, ok bool, err error)
	// NewPlayer returns a fresh player for one worker (ModePlayer; players are not
	// safe for concurrent use). Its moves must not depend on the machine: MCTS with
	// an expansion limit and no time limit, no solver.
	NewPlayer func() (*player.Player, error)
	// EvaluatorInfo describes the evaluator (and labeler, and player) for the file
	// metadata.
	EvaluatorInfo map[string]string
	// Meter, if set, receives the progress of the run (one part): with Positions, the
	// rows written out of this shard's share, counting the games beside them; with
	// Games, the games written out of this shard's, counting the rows beside them.
	Meter progress.Meter
}

// Result summarises a finished run.
type Result struct {
	Files []string
	Games int
	Rows  int64
}

func (c *Config) validate() error {
	switch {
	case c.Width < 1 || c.Width > hex.MaxSize || c.Height < 1 || c.Height > hex.MaxSize:
		return fmt.Errorf("%w: board size %dx%d (want 1..%d)", ErrConfig, c.Width, c.Height, hex.MaxSize)
	case (c.Games > 0) == (c.Positions > 0):
		return fmt.Errorf("%w: give exactly one of a game count and a position count", ErrConfig)
	case c.Games < 0 || c.Positions < 0:
		return fmt.Errorf("%w: negative count", ErrConfig)
	case c.Mode < ModeSelf || c.Mode > ModePlayer:
		return fmt.Errorf("%w: mode %d", ErrConfig, c.Mode)
	case c.Mode == ModePlayer && c.NewPlayer == nil:
		return fmt.Errorf("%w: mode player needs a player", ErrConfig)
	case c.Shards < 1 || c.Shard < 0 || c.Shard >= c.Shards:
		return fmt.Errorf("%w: shard %d of %d (want 0 <= shard < shards)", ErrConfig, c.Shard, c.Shards)
	case c.Opening < 0 || c.TempPlies < 0 || c.Temperature < 0 || math.IsNaN(c.Temperature):
		return fmt.Errorf("%w: negative opening, temperature or temperature plies", ErrConfig)
	case c.Search.Time != 0:
		return fmt.Errorf("%w: a search time limit would make the output depend on the machine", ErrConfig)
	case c.NewEvaluator == nil:
		return fmt.Errorf("%w: no evaluator", ErrConfig)
	case c.Workers < 0 || c.GamesPerFile < 0:
		return fmt.Errorf("%w: negative workers or games per file", ErrConfig)
	}
	if c.Mode == ModePlayer {
		return nil // the player searches; Search is not used
	}
	if err := c.Search.Validate(); err != nil {
		return fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return nil
}

// metadata returns the file metadata for part number part.
func (c *Config) metadata(part int) dataset.Meta {
	m := map[string]string{
		"mode":           c.Mode.String(),
		"games":          strconv.Itoa(c.Games),
		"positions":      strconv.FormatInt(c.Positions, 10),
		"depth":          strconv.Itoa(c.Search.Depth),
		"k":              strconv.Itoa(c.Search.K),
		"root_k":         strconv.Itoa(c.Search.RootK),
		"opening":        strconv.Itoa(c.Opening),
		"temperature":    strconv.FormatFloat(c.Temperature, 'g', -1, 64),
		"temp_plies":     strconv.Itoa(c.TempPlies),
		"stop_at_proof":  strconv.FormatBool(c.StopAtProof),
		"seed":           strconv.FormatUint(c.Seed, 10),
		"shard":          strconv.Itoa(c.Shard),
		"shards":         strconv.Itoa(c.Shards),
		"timings":        strconv.FormatBool(c.Timings),
		"games_per_file": strconv.Itoa(c.GamesPerFile),
		"part":           strconv.Itoa(part),
	}
	for k, v := range c.EvaluatorInfo {
		m[k] = v
	}
	return dataset.Meta{Width: c.Width, Height: c.Height, Generator: "selfplay", Config: m}
}

// FileName is the name of part part of a run's output: it names the board size,
// seed and shard, so the files of all shards can share one directory.
func (c *Config) FileName(part int) string {
	return fmt.Sprintf("hex%dx%d-seed%d-shard%dof%d-part%05d%s", c.Width, c.Height, c.Seed,
		c.Shard, c.Shards, part, dataset.FileExt)
}

// shardGames returns the number of games of this shard in Games mode.
func (c *Config) shardGames() int {
	if c.Games <= c.Shard {
		return 0
	}
	return (c.Games-1-c.Shard)/c.Shards + 1
}

// shardPositions returns this shard's row target in Positions mode.
func (c *Config) shardPositions() int64 {
	p := c.Positions / int64(c.Shards)
	if int64(c.Shard) < c.Positions%int64(c.Shards) {
		p++
	}
	return p
}

// gameResult is one finished game, by shard-local index j.
type gameResult struct {
	j    int
	rows []dataset.Example
	err  error
}

// Run plays the games of cfg's shard with cfg.Workers parallel workers and writes
// them, in game order, into files under dir (created if needed). When ctx is
// cancelled it stops, removes the file being written and returns ctx's error;
// completed files remain.
func Run(ctx context.Context, dir string, cfg Config) (Result, error) {
	if cfg.Shards == 0 {
		cfg.Shards = 1
	}
	if cfg.GamesPerFile == 0 {
		cfg.GamesPerFile = 1000
	}
	if err := cfg.validate(); err != nil {
		return Result{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, fmt.Errorf("selfplay: %w", err)
	}
	workers := cfg.Workers
	if workers == 0 {
		workers = runtime.NumCPU()
	}
	limit := -1 // games of this shard; -1: until the row target
	if cfg.Games > 0 {
		limit = cfg.shardGames()
	}
	target := cfg.shardPositions()
	meter := progress.Or(cfg.Meter)
	if limit < 0 {
		meter.Start("", target, "position")
	} else {
		meter.Start("", int64(limit), "game")
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	// A window of tokens bounds how far workers run ahead of the writer.
	window := make(chan struct{}, 4*workers)
	jobs := make(chan int)
	results := make(chan gameResult, 4*workers)
	var wg sync.WaitGroup
	go func() { // job generator
		defer close(jobs)
		for j := 0; limit < 0 || j < limit; j++ {
			select {
			case window <- struct{}{}:
			case <-runCtx.Done():
				return
			}
			select {
			case jobs <- j:
			case <-runCtx.Done():
				return
			}
		}
	}()
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pl, err := newWorker(&cfg)
			for j := range jobs {
				var r gameResult
				if err != nil {
					r = gameResult{j: j, err: err}
				} else {
					g := uint64(cfg.Shard) + uint64(j)*uint64(cfg.Shards)
					rows, perr := pl.play(runCtx, g)
					r = gameResult{j: j, rows: rows, err: perr}
				}
				select {
				case results <- r:
				case <-runCtx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	res, err := collect(runCtx, dir, &cfg, results, window, limit, target, meter)
	cancel()
	for range results { // let the workers finish
	}
	if err == nil && ctx.Err() != nil {
		err = ctx.Err()
	}
	meter.Done(err)
	return res, err
}

// collect writes games in index order and rolls files every GamesPerFile games.
func collect(ctx context.Context, dir string, cfg *Config, results <-chan gameResult, window chan struct{},
	limit int, target int64, meter progress.Meter) (Result, error) {
	var res Result
	pending := map[int][]dataset.Example{}
	next := 0
	var w *dataset.Writer
	part := -1
	abort := func() {
		if w != nil {
			w.Abort()
			w = nil
		}
	}
	closeFile := func() error {
		if w == nil {
			return nil
		}
		err := w.Close()
		w = nil
		if err != nil {
			return err
		}
		res.Files = append(res.Files, filepath.Join(dir, cfg.FileName(part)))
		return nil
	}
	done := func() bool {
		if limit >= 0 {
			return next >= limit
		}
		return res.Rows >= target
	}
	for !done() {
		var r gameResult
		var ok bool
		select {
		case r, ok = <-results:
		case <-ctx.Done():
			abort()
			return res, ctx.Err()
		}
		if !ok {
			abort()
			if ctx.Err() != nil {
				return res, ctx.Err()
			}
			return res, fmt.Errorf("selfplay: workers stopped early")
		}
		if r.err != nil {
			abort()
			if errors.Is(r.err, context.Canceled) && ctx.Err() != nil {
				return res, ctx.Err()
			}
			return res, fmt.Errorf("selfplay: game %d: %w", uint64(cfg.Shard)+uint64(r.j)*uint64(cfg.Shards), r.err)
		}
		pending[r.j] = r.rows
		for !done() {
			rows, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if p := next / cfg.GamesPerFile; p != part {
				if err := closeFile(); err != nil {
					return res, err
				}
				part = p
				var err error
				w, err = dataset.Create(filepath.Join(dir, cfg.FileName(part)), cfg.metadata(part), nil)
				if err != nil {
					return res, err
				}
			}
			if limit < 0 && res.Rows+int64(len(rows)) > target {
				rows = rows[:target-res.Rows]
			}
			for i := range rows {
				if err := w.Write(&rows[i]); err != nil {
					abort()
					return res, err
				}
			}
			res.Rows += int64(len(rows))
			res.Games++
			next++
			<-window
			if limit < 0 {
				meter.Count(int64(res.Games), "game")
				meter.Set(res.Rows)
			} else {
				meter.Count(res.Rows, "position")
				meter.Set(int64(res.Games))
			}
		}
	}
	if ctx.Err() != nil {
		abort()
		return res, ctx.Err()
	}
	if err := closeFile(); err != nil {
		return res, err
	}
	return res, nil
}

// worker plays games on one worker with its own evaluator, recorder and player (the
// project's one player, searching by alpha-beta over the recording evaluator; in
// ModePlayer the player Config.NewPlayer makes).
type worker struct {
	cfg     *Config
	rec     *Recorder
	ev      search.Evaluator // rec.Wrap()
	tracker search.Tracker
	pl      *player.Player
	game    *player.Player // ModePlayer's player
	b       *hex.Board
	cells   []hex.Cell
	weights []float64
	visits  []float64 // the root's visits of ModePlayer's last search
}

func newWorker(cfg *Config) (*worker, error) {
	ev, err := cfg.NewEvaluator()
	if err != nil {
		return nil, fmt.Errorf("selfplay: evaluator: %w", err)
	}
	rec := NewRecorder(ev, cfg.Timings)
	p := &worker{cfg: cfg, rec: rec, ev: rec.Wrap(), b: hex.MustBoard(cfg.Width, cfg.Height)}
	p.tracker, _ = ev.(search.Tracker)
	if cfg.Mode != ModePlayer {
		p.pl, err = player.New(player.SearchSettings(cfg.Search), player.Options{Evaluator: p.ev})
		if err != nil {
			return nil, fmt.Errorf("selfplay: %w", err)
		}
	} else {
		if p.game, err = cfg.NewPlayer(); err != nil {
			return nil, fmt.Errorf("selfplay: player: %w", err)
		}
		p.visits = make([]float64, cfg.Width*cfg.Height)
	}
	return p, nil
}

// evaluate evaluates the board outside the search (resetting a tracking evaluator).
func (p *worker) evaluate(played bool) search.Result {
	if p.tracker != nil {
		p.tracker.Reset(p.b)
	}
	if played {
		return p.rec.EvaluatePlayed(p.b)
	}
	return p.ev.Evaluate(p.b)
}

// play plays game g and returns its recorded rows.
func (p *worker) play(ctx context.Context, g uint64) ([]dataset.Example, error) {
	cfg := p.cfg
	rng := rand.New(rand.NewPCG(cfg.Seed, g^0x9e3779b97f4a7c15))
	mode := cfg.Mode
	if mode == ModeMixed {
		mode = ModeSelf
		if g%2 == 1 {
			mode = ModeRandom
		}
	}
	randomSide := hex.Empty
	if mode == ModeRandom {
		randomSide = hex.Black
		if rng.IntN(2) == 1 {
			randomSide = hex.White
		}
	}
	b := p.b
	b.Reset()
	p.rec.StartGame(g)
	if mode == ModePositions {
		return p.position(ctx, rng)
	}
	for _, pl := range []*player.Player{p.pl, p.game} { // a game must not depend on the games before it
		if pl != nil {
			pl.NewGame()
		}
	}
	winner := hex.Empty
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := p.evaluate(true)
		if w := b.Winner(); w != hex.Empty {
			winner = w
			break
		}
		if r.Winner != hex.Empty && cfg.StopAtProof && b.NumStones() >= cfg.Opening {
			winner = r.Winner
			break
		}
		empty := b.EmptyCells()
		p.cells = empty.AppendCells(p.cells[:0])
		if len(p.cells) == 0 {
			return nil, fmt.Errorf("full board without a winner")
		}
		ply := b.NumStones()
		me := b.ToMove()
		var mv hex.Cell
		switch {
		case ply < cfg.Opening || me == randomSide:
			mv = p.cells[rng.IntN(len(p.cells))]
		case mode == ModePlayer:
			var err error
			if mv, err = p.playerMove(ctx, rng, ply < cfg.Opening+cfg.TempPlies); err != nil {
				return nil, err
			}
		case cfg.Temperature > 0 && ply < cfg.Opening+cfg.TempPlies:
			mv = p.sample(rng, me)
		default:
			d, err := p.pl.Decide(ctx, b, false)
			if err != nil {
				return nil, err
			}
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			mv = d.Move
		}
		if err := b.Play(hex.Move{Color: me, Cell: mv}); err != nil {
			return nil, fmt.Errorf("move %s: %w", b.Geometry().CellName(mv), err)
		}
	}
	return p.finish(ctx, winner)
}

// playerMove is ModePlayer's move in the game's position: the player decides, its
// search's root statistics become the position's search targets, and with explore
// the move is drawn from the root's visits (raised to 1/Temperature) instead of the
// player's choice.
func (p *worker) playerMove(ctx context.Context, rng *rand.Rand, explore bool) (hex.Cell, error) {
	b := p.b
	d, err := p.game.Decide(ctx, b, false)
	if err != nil {
		return hex.NoCell, err
	}
	if err := ctx.Err(); err != nil {
		return hex.NoCell, err
	}
	value, total, ok := p.game.RootVisits(p.visits)
	if !ok {
		return d.Move, nil // no search: the move came from elsewhere (a book, the solver)
	}
	t := &dataset.SearchTargets{Value: value}
	if b.ToMove() == hex.White {
		t.Value = -value // Black's point of view
	}
	switch {
	case total > 0:
		t.Policy = make([]float32, len(p.visits))
		for c, n := range p.visits {
			t.Policy[c] = float32(n / float64(total))
		}
	case value > 0: // a proved win before any visit: the move that keeps it
		t.Policy = make([]float32, len(p.visits))
		t.Policy[d.Move] = 1
	}
	p.rec.SetSearch(b, t)
	if !explore || total == 0 {
		return d.Move, nil
	}
	temp := p.cfg.Temperature
	if temp == 0 {
		temp = 1
	}
	var sum float64
	for c, n := range p.visits {
		if n > 0 {
			p.visits[c] = math.Pow(n, 1/temp)
			sum += p.visits[c]
		}
	}
	x := rng.Float64() * sum
	for c, w := range p.visits {
		if x -= w; w > 0 && x < 0 {
			return hex.Cell(c), nil
		}
	}
	return d.Move, nil
}

// finish returns the game's rows with the game's winner (Empty: none) and, with a
// labeler, the solver's true winners.
func (p *worker) finish(ctx context.Context, winner hex.Color) ([]dataset.Example, error) {
	rows := p.rec.finish(winner)
	if p.cfg.NewLabeler != nil {
		if err := label(ctx, p.cfg.NewLabeler, rows); err != nil {
			return nil, err
		}
	}
	return rows, nil
}

// position plays ModePositions' game: uniformly random moves, as many as drawn from
// 1..cells/2, drawn again while the position is finished, then one evaluated row.
// The row's winner (the game's result) is unknown: Empty.
func (p *worker) position(ctx context.Context, rng *rand.Rand) ([]dataset.Example, error) {
	b := p.b
	n := b.Geometry().N
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.cells = positions.Draw(b, rng, 1, max(1, n/2), p.cells)
		if b.Winner() == hex.Empty {
			break
		}
	}
	p.evaluate(true)
	return p.finish(ctx, hex.Empty)
}

// label fills the unknown true winners of rows with the answers of a labeler made by
// newLab (made only when a row needs it).
func label(ctx context.Context, newLab func() func(context.Context, *hex.Board) (hex.Color, bool, error), rows []dataset.Example) error {
	var lab func(context.Context, *hex.Board) (hex.Color, bool, error)
	for i := range rows {
		e := &rows[i]
		if e.TrueWinner != hex.Empty {
			continue
		}
		b, err := e.Board()
		if err != nil {
			return err
		}
		if lab == nil {
			lab = newLab()
		}
		w, ok, err := lab(ctx, b)
		if err != nil {
			return fmt.Errorf("labelling a position: %w", err)
		}
		if ok {
			e.TrueWinner = w
		}
	}
	return nil
}

// sample picks a move among p.cells by a softmax over their 1-ply values for the
// mover; a proved win is taken at once.
func (p *worker) sample(rng *rand.Rand, me hex.Color) hex.Cell {
	b := p.b
	p.weights = p.weights[:0]
	best := math.Inf(-1)
	for _, c := range p.cells {
		b.PlayStone(me, c)
		r := p.evaluate(false)
		b.Undo()
		if r.Winner == me || b.Winner() == me {
			return c
		}
		v := r.Value
		if me == hex.White {
			v = -v
		}
		p.weights = append(p.weights, v)
		best = max(best, v)
	}
	var sum float64
	for i, v := range p.weights {
		p.weights[i] = math.Exp((v - best) / p.cfg.Temperature)
		sum += p.weights[i]
	}
	x := rng.Float64() * sum
	for i, wt := range p.weights {
		x -= wt
		if x < 0 {
			return p.cells[i]
		}
	}
	return p.cells[len(p.cells)-1]
}

// ShardFromEnv returns the shard index a batch system assigns when --shard is not
// given: JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) or SLURM_ARRAY_TASK_ID (Slurm
// job arrays, counted from 0), and ok false when neither is set.
func ShardFromEnv(getenv func(string) string) (shard int, source string, ok bool, err error) {
	for _, k := range []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"} {
		v := getenv(k)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 {
			return 0, k, false, fmt.Errorf("%w: %s=%q is not a shard index", ErrConfig, k, v)
		}
		return n, k, true, nil
	}
	return 0, "", false, nil
}
