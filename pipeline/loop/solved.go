package loop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/selfplay"
)

// DefaultSolvedNodes is Config.SolvedNodes when none is given: on 8x8 the solver
// decides about four in five random positions within it (docs/results.md).
const DefaultSolvedNodes = 500

// solvedSeed sets the solved set's positions apart from the self-play's seeds.
const solvedSeed = 0x50_1f_ed_5e_7c_0d_e5_01

// solvedDir is the directory of the loop's solved set, solvedMarker its done marker.
func solvedDir(dir string) string    { return filepath.Join(dir, "solved") }
func solvedMarker(dir string) string { return solvedDir(dir) + ".done" }

// solve makes the loop's solved set (Config.Solved random positions labelled by the
// solver) unless it is done or not asked for: selfplay.ModePositions with the solver
// as labeler, at most SolvedNodes nodes per position; node limits decide the labels,
// so the set follows from the seed whatever the number of workers.
func (st *State) solve(ctx context.Context, dir string, cfg *Config) error {
	if cfg.Solved == 0 {
		return nil
	}
	if _, err := os.Stat(solvedMarker(dir)); err == nil {
		return nil
	}
	out := solvedDir(dir)
	if err := os.RemoveAll(out); err != nil { // the files of an unfinished run
		return fmt.Errorf("loop: %w", err)
	}
	nodes := cfg.SolvedNodes
	if nodes == 0 {
		nodes = DefaultSolvedNodes
	}
	exact := circuit.DefaultExactConfig()
	sc := selfplay.Config{
		Width: cfg.Size, Height: cfg.Size, Mode: selfplay.ModePositions, Positions: cfg.Solved, Search: search.DefaultParams(),
		Seed: cfg.Seed ^ solvedSeed, Workers: cfg.Workers, Shards: 1, GamesPerFile: 2000,
		NewEvaluator: func() (searchEvaluator, error) { return selfplay.NewExact(exact) },
		NewLabeler: func() func(context.Context, *hex.Board) (hex.Color, bool, error) {
			return selfplay.SolverLabeler(nodes)
		},
		EvaluatorInfo: map[string]string{"labeler": "solver", "labeler.max_nodes": fmt.Sprint(nodes),
			"loop.solved": fmt.Sprint(cfg.Solved)},
		Meter: progress.Part(progress.Or(cfg.Meter), "solved positions"),
	}
	if _, err := selfplay.Run(ctx, out, sc); err != nil {
		return err
	}
	rows, err := readSolved(out)
	if err != nil {
		return err
	}
	if err := writeJSON(solvedMarker(dir), shardDone{Games: int(cfg.Solved), Rows: int64(len(rows))}); err != nil {
		return err
	}
	st.Solved = len(rows)
	if cfg.Log != nil {
		cfg.Log("solved set: %d of %d random positions decided within %d nodes", len(rows), cfg.Solved, nodes)
	}
	return st.save(dir)
}

// solvedRows returns the decided rows of the loop's solved set (none when the loop
// has none).
func (st *State) solvedRows(dir string) ([]dataset.Example, error) {
	if st.Config.Solved == 0 {
		return nil, nil
	}
	if _, err := os.Stat(solvedMarker(dir)); err != nil {
		return nil, fmt.Errorf("loop: the solved set is not complete: %w", err)
	}
	return readSolved(solvedDir(dir))
}

// readSolved reads the rows of a solved set whose true winner the solver decided.
func readSolved(path string) ([]dataset.Example, error) {
	t, err := dataset.ReadPath(path, nil)
	if err != nil {
		return nil, fmt.Errorf("loop: the solved set: %w", err)
	}
	rows := t.Rows[:0]
	for _, r := range t.Rows {
		if r.TrueWinner != hex.Empty {
			rows = append(rows, r)
		}
	}
	return rows, nil
}

// solvedData describes the solved set's rows for a model's provenance.
func solvedData(n int, cfg *Config) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" and %d random positions with the solver's winners (of %d drawn)", n, cfg.Solved)
}
