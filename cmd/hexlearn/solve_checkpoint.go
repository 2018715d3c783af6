package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// openingsJSON is the --json output of --openings, and (openings searched or resumed
// only, no rotations, no unknowns) the checkpoint file.
type openingsJSON struct {
	Width        int           `json:"width"`
	Height       int           `json:"height"`
	BlackWinning []string      `json:"black_winning_openings"`
	Unknown      []string      `json:"unknown_openings,omitempty"`
	Openings     []openingJSON `json:"openings"`
	Nodes        int64         `json:"nodes"`
	ElapsedMS    float64       `json:"elapsed_ms"`
}

type openingJSON struct {
	Cell      string  `json:"cell"`
	BlackWins bool    `json:"black_wins"`
	Unknown   bool    `json:"unknown,omitempty"` // the per-opening limit was reached
	Rotated   bool    `json:"rotated,omitempty"` // the value of the 180° rotation (not searched)
	Resumed   bool    `json:"resumed,omitempty"` // taken from the checkpoint
	Nodes     int64   `json:"nodes"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

// errCheckpoint is returned (wrapped) for a checkpoint file that cannot be used.
var errCheckpoint = errors.New("solve: bad checkpoint")

// readCheckpoint returns the decided openings of a checkpoint file written by an
// earlier run on the same board; a missing file is an empty checkpoint.
func readCheckpoint(path string, g *hex.Geometry) ([]solver.Opening, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("solve: %w", err)
	}
	var cp openingsJSON
	if err := json.Unmarshal(data, &cp); err != nil {
		return nil, fmt.Errorf("%w %s: %v", errCheckpoint, path, err)
	}
	if cp.Width != g.W || cp.Height != g.H {
		return nil, fmt.Errorf("%w %s: it is for %dx%d, this run is %dx%d", errCheckpoint, path, cp.Width, cp.Height, g.W, g.H)
	}
	var out []solver.Opening
	for _, o := range cp.Openings {
		c, err := g.ParseCell(o.Cell)
		if err != nil {
			return nil, fmt.Errorf("%w %s: %v", errCheckpoint, path, err)
		}
		if o.Unknown {
			continue
		}
		out = append(out, solver.Opening{Cell: c, BlackWins: o.BlackWins, Nodes: o.Nodes,
			Elapsed: time.Duration(o.ElapsedMS * float64(time.Millisecond))})
	}
	return out, nil
}

func openingJSONOf(g *hex.Geometry, o solver.Opening) openingJSON {
	return openingJSON{Cell: g.CellName(o.Cell), BlackWins: o.BlackWins && !o.Unknown, Unknown: o.Unknown,
		Rotated: o.Rotated, Resumed: o.Resumed, Nodes: o.Nodes, ElapsedMS: float64(o.Elapsed.Microseconds()) / 1000}
}
