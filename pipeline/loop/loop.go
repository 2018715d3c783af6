// Package loop is hexlearn's self-improving training loop (Expert Iteration, Anthony,
// Tian & Barber 2017; AlphaZero's gated variant, Silver et al. 2017): the best network
// so far plays self-play games as the real player (its MCTS and H-search, at a fixed
// number of expansions per move so the games do not depend on the machine), every
// position is logged with the targets of the player's own search (the root's backed-up
// value and visit shares), the game's result and the proved result where H-search
// knows it (or the solver, within a node limit per position: Config.LabelNodes)
// (selfplay.ModePlayer); a candidate network learns from them (the search target,
// model.TargetSearch); and a gate admits it as the next generation only if it beats
// the best network at equal time (an SPRT, Gate).
//
// Everything lives in one directory: loop.json (the configuration and how far the
// loop got, rewritten atomically after every step), iter-NNN/ per iteration
// (selfplay/shard-K/ with the Arrow shards of its self-play and a done marker per
// shard, candidate.model, gate state), gen-NNN.model per generation (its file records
// generation, parent, targets and gate, model.LoopProvenance) and report/ (the Elo of
// every generation with its interval, as a table and a plot). A stopped or crashed
// loop resumes where it stopped: finished shards, trainings and games are kept.
//
// A generation's self-play is cut into shards, each one run of 'hexlearn loop shard'
// (RunShard): on one machine the loop runs them itself; on a cluster it writes a
// Slurm array or a Kubernetes Indexed Job for them and waits for their markers
// (cluster.go).
package loop

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
	"github.com/hexlearn/hexlearn/selfplay"
	"github.com/hexlearn/hexlearn/train"
)

// ErrConfig reports a configuration the loop cannot run, or a directory started with
// another one.
var ErrConfig = errors.New("loop: bad configuration")

// Config configures a loop. The fields with a json name are recorded in loop.json and
// must be the same when the loop resumes; the others may change between runs.
type Config struct {
	// Size is the board's side.
	Size int `json:"size"`
	// Seed seeds the self-play games' openings and explorations, the trainings and
	// the gates' openings: the same seed gives the same first generation's candidate.
	Seed uint64 `json:"seed"`
	// Start is the first generation's network: a model file, or player.BuiltinModel.
	Start string `json:"start"`
	// Games is the number of self-play games per iteration, cut into Shards shards.
	Games  int `json:"games"`
	Shards int `json:"shards"`
	// Expansions is the player's MCTS expansions per self-play move.
	Expansions int `json:"expansions"`
	// Opening is the number of uniformly random moves that start a self-play game;
	// Explore the number of moves after it drawn from the root's visits.
	Opening int `json:"opening"`
	Explore int `json:"explore"`
	// LabelNodes, when positive, has the solver (engine/solver's DFPN, at most
	// LabelNodes nodes per position) label the true winner of every self-play position
	// H-search did not prove; the search target then learns the proved result wherever
	// either knows it. Node limits decide the labels, so they follow from the seed.
	LabelNodes int64 `json:"label_nodes,omitempty"`
	// Solved, when positive, is the number of random positions (selfplay.ModePositions,
	// seeded apart from the self-play) the solver labels once, at most SolvedNodes
	// nodes each (0: DefaultSolvedNodes); the decided ones join every candidate's
	// training with their true winner as the value target (and no policy target), so
	// that the values also learn who wins off the player's own paths.
	Solved      int64 `json:"solved,omitempty"`
	SolvedNodes int64 `json:"solved_nodes,omitempty"`
	// Player holds the player's other settings, as flags give them ("name=value"; the
	// loop sets expansions, time, book none and no solver itself).
	Player []string `json:"player"`
	// Train configures the candidates' training; Window is the number of iterations
	// whose self-play a candidate learns from (the last ones).
	Train  TrainConfig `json:"train"`
	Window int         `json:"window"`
	// Gate configures the gate.
	Gate GateConfig `json:"gate"`

	// Generations is the number of generations after the first to reach; the loop
	// stops there, or after MaxIterations iterations (0: 3 × Generations).
	Generations   int `json:"-"`
	MaxIterations int `json:"-"`
	// Workers is the number of self-play games played at once on this machine (0: all
	// cores); it does not change the games.
	Workers int `json:"-"`
	// Runner runs a generation's self-play shards (nil: Local).
	Runner Runner `json:"-"`
	// Meter receives the progress of every step (one part each).
	Meter progress.Meter `json:"-"`
	// Log, if set, receives a line per finished step.
	Log func(format string, a ...any) `json:"-"`
	// CodeVersion, if set, is recorded as the code version of every network the loop
	// trains instead of the trainer's (internal/version.String()): 'hexlearn models
	// build' sets the release number, so that its files do not depend on the commit.
	CodeVersion string `json:"-"`
}

// TrainConfig configures a candidate's training.
type TrainConfig struct {
	Hidden    int            `json:"hidden"`
	Epochs    int            `json:"epochs"`
	LearnRate float64        `json:"learn_rate"`
	Features  model.Features `json:"features"` // "": the start network's
	SearchMix float64        `json:"search_mix"`
	Rotate    bool           `json:"rotate"` // also learn every row turned by 180°
	// Continue starts a candidate from the best network's weights (fine-tuning)
	// where it has the same inputs and hidden units, instead of from random ones.
	Continue bool `json:"continue"`
	// Policy also trains the network's policy head on the search's visit shares (the
	// MCTS's priors; 0 weight: train.DefaultPolicyWeight).
	Policy       bool    `json:"policy"`
	PolicyWeight float64 `json:"policy_weight"`
}

// DefaultConfig returns the loop's defaults for a size x size board (measured on
// 8x8: docs/results.md).
func DefaultConfig(size int) Config {
	return Config{
		Size: size, Seed: 1, Start: player.BuiltinModel,
		Games: 200, Shards: 4, Expansions: 200, Opening: 1, Explore: size,
		Train:  TrainConfig{Hidden: 64, Epochs: 20, LearnRate: 0.001, SearchMix: train.DefaultSearchMix, Rotate: true, Continue: true, Policy: true},
		Window: 2, Gate: DefaultGate(), Generations: 6,
	}
}

// Validate reports a configuration that cannot run.
func (c *Config) Validate() error {
	switch {
	case c.Size < 2 || c.Size > 19:
		return fmt.Errorf("%w: board size %d (want 2..19)", ErrConfig, c.Size)
	case c.Start == "":
		return fmt.Errorf("%w: no start network", ErrConfig)
	case c.Games < 1 || c.Shards < 1 || c.Shards > c.Games:
		return fmt.Errorf("%w: %d games in %d shards (want 1 <= shards <= games)", ErrConfig, c.Games, c.Shards)
	case c.Expansions < 1:
		return fmt.Errorf("%w: %d expansions per move (want >= 1)", ErrConfig, c.Expansions)
	case c.Opening < 0 || c.Explore < 0:
		return fmt.Errorf("%w: negative opening or exploration", ErrConfig)
	case c.LabelNodes < 0 || c.Solved < 0 || c.SolvedNodes < 0:
		return fmt.Errorf("%w: negative solver nodes per label or solved positions", ErrConfig)
	case c.Window < 1:
		return fmt.Errorf("%w: a window of %d iterations (want >= 1)", ErrConfig, c.Window)
	case c.Generations < 0 || c.MaxIterations < 0 || c.Workers < 0:
		return fmt.Errorf("%w: negative generations, iterations or workers", ErrConfig)
	case c.Train.Hidden < 1 || c.Train.Epochs < 1 || !(c.Train.LearnRate > 0) || !(c.Train.SearchMix > 0 && c.Train.SearchMix <= 1) || !(c.Train.PolicyWeight >= 0):
		return fmt.Errorf("%w: training %d hidden, %d epochs, learning rate %g, search mix %g", ErrConfig, c.Train.Hidden, c.Train.Epochs, c.Train.LearnRate, c.Train.SearchMix)
	}
	if _, err := c.settings(); err != nil {
		return err
	}
	return c.Gate.Validate()
}

// settings returns the player's settings of the loop (without the per-use ones).
func (c *Config) settings() (player.Settings, error) {
	var s player.Settings
	for _, kv := range c.Player {
		name, value, ok := cut(kv)
		if !ok {
			return s, fmt.Errorf("%w: player setting %q (want name=value)", ErrConfig, kv)
		}
		if err := s.Set(name, value); err != nil {
			return s, fmt.Errorf("%w: %w", ErrConfig, err)
		}
	}
	s.Model = player.Set(player.BuiltinModel) // the loop hands the player its network
	s.Book, s.SolveShare = player.Set(player.BookNone), player.Set(0.0)
	return s, nil
}

// cut splits "name=value".
func cut(kv string) (string, string, bool) {
	for i := 0; i < len(kv); i++ {
		if kv[i] == '=' {
			return kv[:i], kv[i+1:], i > 0
		}
	}
	return "", "", false
}

// selfPlaySettings are the settings of the self-play player: a fixed number of MCTS
// expansions per move and no time limit.
func (c *Config) selfPlaySettings() (player.Settings, error) {
	s, err := c.settings()
	s.Expansions, s.Time = player.Set(c.Expansions), player.Set(time.Duration(0))
	return s, err
}

// gateSettings are the settings of the gate's players: the gate's time per move, or
// its fixed number of expansions per move.
func (c *Config) gateSettings() (player.Settings, error) {
	s, err := c.settings()
	s.Time = player.Set(c.Gate.Time)
	if c.Gate.Expansions > 0 {
		s.Expansions, s.Time = player.Set(c.Gate.Expansions), player.Set(time.Duration(0))
	}
	return s, err
}

// State is loop.json: the configuration and how far the loop got.
type State struct {
	Format      string       `json:"format"`
	Config      Config       `json:"config"`
	Generations []Generation `json:"generations"`
	Iterations  []Iteration  `json:"iterations"`
	// Solved is the number of decided positions in the solved set (Config.Solved),
	// once it is complete.
	Solved int `json:"solved,omitempty"`
}

// stateFormat names loop.json's format.
const stateFormat = "hexlearn-loop-1"

// Generation is one accepted network.
type Generation struct {
	Index     int    `json:"index"`
	Model     string `json:"model"`     // the file, relative to the loop's directory
	Hash      string `json:"hash"`      // sha256 of the file
	Iteration int    `json:"iteration"` // the iteration that made it (-1: the start network)
	Parent    int    `json:"parent"`    // -1 for the start network
	// Elo is its rating relative to the start network (0), chained through the
	// gates; EloLo and EloHi the chained 95% interval.
	Elo, EloLo, EloHi float64
}

// Iteration is one round of self-play, training and gate.
type Iteration struct {
	Index int `json:"index"`
	Best  int `json:"best"` // the generation that played the self-play
	// Shards marks the finished self-play shards; Games and Rows count them.
	Shards []bool `json:"shards"`
	Games  int    `json:"games"`
	Rows   int64  `json:"rows"`
	// Candidate is the trained candidate's file ("" until trained), Trained what its
	// training reported.
	Candidate string `json:"candidate"`
	Trained   string `json:"trained"`
	// Gate is the gate's result so far (nil before it starts).
	Gate *GateResult `json:"gate"`
	// Generation is the generation the candidate became (-1: rejected or not yet).
	Generation int `json:"generation"`
}

// dirs of an iteration.
func iterDir(dir string, i int) string { return filepath.Join(dir, fmt.Sprintf("iter-%03d", i)) }
func shardDir(dir string, i, k int) string {
	return filepath.Join(iterDir(dir, i), "selfplay", fmt.Sprintf("shard-%03d", k))
}
func doneMarker(dir string, i, k int) string { return shardDir(dir, i, k) + ".done" }

// statePath is loop.json of a loop directory.
func statePath(dir string) string { return filepath.Join(dir, "loop.json") }

// Load reads a loop directory's state.
func Load(dir string) (*State, error) {
	data, err := os.ReadFile(statePath(dir))
	if err != nil {
		return nil, err
	}
	var st State
	if err := json.Unmarshal(data, &st); err != nil || st.Format != stateFormat {
		return nil, fmt.Errorf("loop: %s is not a loop state file (%v)", statePath(dir), err)
	}
	return &st, nil
}

// save writes the state atomically.
func (st *State) save(dir string) error {
	data, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	return fileutil.WriteFileAtomic(statePath(dir), append(data, '\n'))
}

// sameLoop reports how a resumed loop's configuration differs from the recorded one.
func sameLoop(a, b Config) error {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		return fmt.Errorf("%w: the directory holds a loop started with another configuration\n recorded %s\n given    %s", ErrConfig, jb, ja)
	}
	return nil
}

// Run runs the loop in dir (created if needed) until it has cfg.Generations
// generations after the first or has run cfg.MaxIterations iterations, resuming
// what dir holds, and writes the report. It returns the state.
func Run(ctx context.Context, dir string, cfg Config) (*State, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil { // nothing written for a run stopped before it began
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("loop: %w", err)
	}
	st, err := Load(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		st = &State{Format: stateFormat, Config: cfg}
	case err != nil:
		return nil, err
	default:
		if err := sameLoop(cfg, st.Config); err != nil {
			return nil, err
		}
	}
	if len(st.Generations) == 0 {
		if err := st.start(dir); err != nil {
			return nil, err
		}
	}
	if err := st.solve(ctx, dir, &cfg); err != nil {
		return st, err
	}
	maxIter := cfg.MaxIterations
	if maxIter == 0 {
		maxIter = 3 * max(1, cfg.Generations)
	}
	runner := cfg.Runner
	if runner == nil {
		runner = Local{}
	}
	for len(st.Generations)-1 < cfg.Generations {
		it := st.current()
		if it == nil {
			if len(st.Iterations) >= maxIter {
				break
			}
			st.Iterations = append(st.Iterations, Iteration{Index: len(st.Iterations), Best: len(st.Generations) - 1,
				Shards: make([]bool, cfg.Shards), Generation: -1})
			it = &st.Iterations[len(st.Iterations)-1]
			if err := st.save(dir); err != nil {
				return st, err
			}
		}
		if err := st.step(ctx, dir, &cfg, runner, it); err != nil {
			return st, err
		}
	}
	return st, WriteReport(dir, st)
}

// start records the first generation: the start network, copied into the directory.
func (st *State) start(dir string) error {
	var data []byte
	var err error
	if st.Config.Start == player.BuiltinModel {
		var m *model.Model
		if m, err = player.Builtin(st.Config.Size, st.Config.Size); err == nil {
			data, err = m.MarshalBinary()
		}
	} else {
		data, err = os.ReadFile(st.Config.Start)
	}
	if err != nil {
		return fmt.Errorf("loop: start network: %w", err)
	}
	m, err := model.Load(bytesReader(data))
	if err != nil {
		return fmt.Errorf("loop: start network %s: %w", st.Config.Start, err)
	}
	if err := m.CheckSize(st.Config.Size, st.Config.Size); err != nil {
		return fmt.Errorf("%w: start network %s: %w", ErrConfig, st.Config.Start, err)
	}
	name := "gen-000.model"
	if err := fileutil.WriteFileAtomic(filepath.Join(dir, name), data); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	st.Generations = []Generation{{Index: 0, Model: name, Hash: hashOf(data), Iteration: -1, Parent: -1}}
	return st.save(dir)
}

// current is the last iteration if it is not finished (nil otherwise).
func (st *State) current() *Iteration {
	if n := len(st.Iterations); n > 0 {
		it := &st.Iterations[n-1]
		if it.Gate == nil || !it.Gate.Done {
			return it
		}
	}
	return nil
}

// step runs what iteration it still needs: its self-play shards, the candidate's
// training and the gate.
func (st *State) step(ctx context.Context, dir string, cfg *Config, runner Runner, it *Iteration) error {
	logf := cfg.Log
	if logf == nil {
		logf = func(string, ...any) {}
	}
	meter := progress.Or(cfg.Meter)
	if !allDone(it.Shards) {
		var todo []int
		for k, done := range it.Shards {
			if !done {
				todo = append(todo, k)
			}
		}
		runErr := runner.RunShards(ctx, dir, cfg, it.Index, todo)
		for _, k := range todo { // the shards that finished, also when the run stopped
			var d shardDone
			if err := readJSON(doneMarker(dir, it.Index, k), &d); err != nil {
				continue
			}
			it.Shards[k] = true
			it.Games += d.Games
			it.Rows += d.Rows
		}
		if err := st.save(dir); err != nil {
			return err
		}
		if runErr != nil {
			return runErr
		}
		for k, done := range it.Shards {
			if !done {
				return fmt.Errorf("loop: iteration %d shard %d did not finish", it.Index, k)
			}
		}
		logf("iteration %d: self-play of generation %d: %d games, %d positions", it.Index, it.Best, it.Games, it.Rows)
	}
	if it.Candidate == "" {
		if err := st.train(ctx, dir, cfg, it, meter); err != nil {
			return err
		}
		logf("iteration %d: candidate trained: %s", it.Index, it.Trained)
	}
	return st.gate(ctx, dir, cfg, it, meter, logf)
}

// train trains iteration it's candidate on the self-play of the last cfg.Window
// iterations.
func (st *State) train(ctx context.Context, dir string, cfg *Config, it *Iteration, meter progress.Meter) error {
	var tab dataset.Table
	var iters []int
	for i := max(0, it.Index-cfg.Window+1); i <= it.Index; i++ {
		for k := 0; k < cfg.Shards; k++ {
			t, err := dataset.ReadPath(shardDir(dir, i, k), nil)
			if err != nil {
				return fmt.Errorf("loop: iteration %d's self-play: %w", i, err)
			}
			tab.Rows = append(tab.Rows, t.Rows...)
		}
		iters = append(iters, i)
	}
	solved, err := st.solvedRows(dir)
	if err != nil {
		return err
	}
	tab.Rows = append(tab.Rows, solved...)
	ex, err := train.FromTable(&tab, cfg.Size, cfg.Size)
	if err != nil {
		return err
	}
	best, err := st.model(dir, it.Best)
	if err != nil {
		return err
	}
	feat := cfg.Train.Features
	if feat == "" {
		feat = best.Features
	}
	if cfg.Train.Rotate {
		ex = ex.WithRotations()
	}
	tc := train.Config{Hidden: cfg.Train.Hidden, Epochs: cfg.Train.Epochs, LearnRate: cfg.Train.LearnRate, Seed: cfg.Seed + uint64(it.Index),
		Target: model.TargetSearch, SearchMix: cfg.Train.SearchMix, Features: feat, Policy: cfg.Train.Policy, PolicyWeight: cfg.Train.PolicyWeight,
		Meter: progress.Part(meter, fmt.Sprintf("iteration %d training", it.Index))}
	if cfg.Train.Continue && len(best.Nets) == 1 && best.Nets[0].Hidden == cfg.Train.Hidden && best.Features == feat {
		tc.Init = best
	}
	m, err := train.Train(ctx, ex, tc)
	if err != nil {
		return err
	}
	if cfg.CodeVersion != "" {
		m.Provenance.CodeVersion = cfg.CodeVersion
	}
	parent := st.Generations[it.Best]
	m.Provenance.Loop = &model.LoopProvenance{Generation: -1, Parent: parent.Index, ParentHash: parent.Hash, Iteration: it.Index,
		Data: fmt.Sprintf("%d rows of the self-play of iterations %v (%d games each, %d expansions per move%s)%s", ex.Rows(), iters, cfg.Games, cfg.Expansions, labelled(cfg.LabelNodes), solvedData(len(solved), cfg))}
	name := filepath.Join(filepath.Base(iterDir(dir, it.Index)), "candidate.model")
	if err := m.WriteFile(filepath.Join(dir, name)); err != nil {
		return err
	}
	it.Candidate = name
	from := "random weights"
	if tc.Init != nil {
		from = fmt.Sprintf("generation %d's weights", it.Best)
	}
	if feat == "" {
		feat = model.FeaturesCells
	}
	heads := "value"
	if cfg.Train.Policy {
		heads = "value and policy"
	}
	it.Trained = fmt.Sprintf("%d-%d (%s inputs; %s) from %s on %d rows", m.Inputs(), cfg.Train.Hidden, feat, heads, from, ex.Rows())
	return st.save(dir)
}

// labelled describes the solver's labels of the self-play for a model's provenance.
func labelled(nodes int64) string {
	if nodes <= 0 {
		return ""
	}
	return fmt.Sprintf(", proved winners labelled by the solver within %d nodes", nodes)
}

// gate plays iteration it's candidate against the best generation; an accepted
// candidate becomes the next generation.
func (st *State) gate(ctx context.Context, dir string, cfg *Config, it *Iteration, meter progress.Meter, logf func(string, ...any)) error {
	if it.Gate != nil && it.Gate.Done {
		return nil
	}
	s, err := cfg.gateSettings()
	if err != nil {
		return err
	}
	cand, err := readModel(filepath.Join(dir, it.Candidate))
	if err != nil {
		return err
	}
	best, err := st.model(dir, it.Best)
	if err != nil {
		return err
	}
	pc, err := player.New(s, player.Options{Model: cand})
	if err != nil {
		return err
	}
	pb, err := player.New(s, player.Options{Model: best})
	if err != nil {
		return err
	}
	g := cfg.Gate
	g.Seed = cfg.Seed ^ uint64(it.Index)<<32
	m := progress.Part(meter, fmt.Sprintf("iteration %d gate", it.Index))
	m.Start("", int64(g.MaxGames), "game")
	res, err := Gate(ctx, cfg.Size, g, pc, pb, it.Gate, func(r GateResult) error {
		it.Gate = &r
		m.Set(int64(len(r.Games)))
		m.Count(int64(r.Wins), "candidate win")
		return st.save(dir)
	})
	m.Done(err)
	if err != nil {
		return err
	}
	it.Gate = &res
	logf("iteration %d: gate %d-%d (%.1f%%, CI %.1f-%.1f%%): %s", it.Index, res.Wins, len(res.Games)-res.Wins,
		100*res.Score(), 100*res.Lo, 100*res.Hi, res.Reason)
	if res.Accepted {
		if err := st.accept(dir, it, cand); err != nil {
			return err
		}
		logf("iteration %d: generation %d", it.Index, it.Generation)
	}
	return st.save(dir)
}

// accept makes iteration it's candidate the next generation, recording its
// generation and gate in its file.
func (st *State) accept(dir string, it *Iteration, cand *model.Model) error {
	parent := st.Generations[it.Best]
	g := len(st.Generations)
	elo, lo, hi := it.Gate.EloDiff()
	cand.Provenance.Loop.Generation = g
	cand.Provenance.Loop.Gate = fmt.Sprintf("%d-%d against generation %d (%.1f%%, CI %.1f-%.1f%%): %s", it.Gate.Wins,
		len(it.Gate.Games)-it.Gate.Wins, parent.Index, 100*it.Gate.Score(), 100*it.Gate.Lo, 100*it.Gate.Hi, it.Gate.Reason)
	data, err := cand.MarshalBinary()
	if err != nil {
		return err
	}
	name := fmt.Sprintf("gen-%03d.model", g)
	if err := fileutil.WriteFileAtomic(filepath.Join(dir, name), data); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	st.Generations = append(st.Generations, Generation{Index: g, Model: name, Hash: hashOf(data), Iteration: it.Index, Parent: parent.Index,
		Elo: parent.Elo + elo, EloLo: parent.Elo + elo - quad(parent.Elo-parent.EloLo, elo-lo), EloHi: parent.Elo + elo + quad(parent.EloHi-parent.Elo, hi-elo)})
	it.Generation = g
	return nil
}

// quad adds two error margins in quadrature.
func quad(a, b float64) float64 { return sqrt(a*a + b*b) }

// model reads generation g's network.
func (st *State) model(dir string, g int) (*model.Model, error) {
	return readModel(filepath.Join(dir, st.Generations[g].Model))
}

func readModel(path string) (*model.Model, error) {
	m, err := model.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("loop: %w", err)
	}
	return m, nil
}

// hashOf is the sha256 of data, in hex.
func hashOf(data []byte) string { return fmt.Sprintf("%x", sha256.Sum256(data)) }

func allDone(b []bool) bool {
	for _, x := range b {
		if !x {
			return false
		}
	}
	return true
}

// shardDone is a shard's done marker: what it wrote.
type shardDone struct {
	Games int   `json:"games"`
	Rows  int64 `json:"rows"`
}

// RunShard plays self-play shard k of iteration i of the loop in dir (as recorded in
// its loop.json) with the generation the iteration names, and writes the shard's done
// marker when its files are complete. An existing marker means the shard is done: it
// returns at once. A cluster runs one RunShard per task ('hexlearn loop shard').
func RunShard(ctx context.Context, dir string, i, k, workers int, meter progress.Meter) error {
	st, err := Load(dir)
	if err != nil {
		return err
	}
	cfg := st.Config
	if i < 0 || i >= len(st.Iterations) || k < 0 || k >= cfg.Shards {
		return fmt.Errorf("%w: iteration %d shard %d (the loop has %d iterations of %d shards)", ErrConfig, i, k, len(st.Iterations), cfg.Shards)
	}
	if _, err := os.Stat(doneMarker(dir, i, k)); err == nil {
		return nil
	}
	best, err := st.model(dir, st.Iterations[i].Best)
	if err != nil {
		return err
	}
	s, err := cfg.selfPlaySettings()
	if err != nil {
		return err
	}
	out := shardDir(dir, i, k)
	if err := os.RemoveAll(out); err != nil { // the files of an unfinished run
		return fmt.Errorf("loop: %w", err)
	}
	exact := circuit.DefaultExactConfig()
	sc := selfplay.Config{
		Width: cfg.Size, Height: cfg.Size, Mode: selfplay.ModePlayer, Games: cfg.Games,
		Opening: cfg.Opening, TempPlies: cfg.Explore, StopAtProof: true,
		Seed: cfg.Seed + uint64(i)*0x9e3779b97f4a7c15, Workers: workers, Shard: k, Shards: cfg.Shards, GamesPerFile: 50,
		NewEvaluator: func() (searchEvaluator, error) { return selfplay.NewExact(exact) },
		NewPlayer:    func() (*player.Player, error) { return player.New(s, player.Options{Model: best}) },
		EvaluatorInfo: map[string]string{"loop.iteration": fmt.Sprint(i), "loop.generation": fmt.Sprint(st.Iterations[i].Best),
			"loop.generation_hash": st.Generations[st.Iterations[i].Best].Hash, "player": fmt.Sprint(s.Args())},
		Meter: progress.Part(meter, fmt.Sprintf("iteration %d self-play shard %d", i, k)),
	}
	if n := cfg.LabelNodes; n > 0 {
		sc.EvaluatorInfo["labeler"], sc.EvaluatorInfo["labeler.max_nodes"] = "solver", fmt.Sprint(n)
		sc.NewLabeler = func() func(context.Context, *hex.Board) (hex.Color, bool, error) { return selfplay.SolverLabeler(n) }
	}
	res, err := selfplay.Run(ctx, out, sc)
	if err != nil {
		return err
	}
	return writeJSON(doneMarker(dir, i, k), shardDone{Games: res.Games, Rows: res.Rows})
}

func readJSON(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	return fileutil.WriteFileAtomic(path, append(data, '\n'))
}
