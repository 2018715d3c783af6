package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/progress"
)

// winnerWord names a solved winner; Empty (a search limit reached first) is "unknown".
func winnerWord(c hex.Color) string {
	if c == hex.Empty {
		return "unknown"
	}
	return c.String()
}

// solveJSON is the --json output for one position.
type solveJSON struct {
	Width    int      `json:"width"`
	Height   int      `json:"height"`
	Moves    string   `json:"moves"`
	ToMove   string   `json:"to_move"`
	Winner   string   `json:"winner"`
	Move     string   `json:"move,omitempty"` // a winning move of the side to move
	Proof    []string `json:"proof"`
	Nodes    int64    `json:"nodes"`
	TTHits   int64    `json:"tt_hits"`
	Expanded int64    `json:"expanded"`
	Pruned   int64    `json:"pruned"`
	// Candidates sums the moves left to search at the undecided evaluated nodes.
	Candidates int64 `json:"candidates"`
	// ProofHits counts the nodes decided by stored proofs (--proof-patterns).
	ProofHits int64 `json:"proof_hits"`
	// StoredProofs is the number of proofs the solvers held at the end.
	StoredProofs int `json:"stored_proofs"`
	// Decompositions counts the regions filled by decomposition (--decompositions).
	Decompositions int64   `json:"decompositions"`
	MaxDepth       int     `json:"max_depth"`
	ElapsedMS      float64 `json:"elapsed_ms"`
	// TTBits is log2 of the transposition table's entries per worker.
	TTBits int `json:"tt_bits"`
}

func cellList(g *hex.Geometry, s hex.Bitset) []string {
	out := []string{}
	for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
		out = append(out, g.CellName(p))
	}
	return out
}

func printSolve(b *hex.Board, r solver.Result, ttBits int, asJSON bool, stdout io.Writer) error {
	g := b.Geometry()
	ms := b.Moves()
	if asJSON {
		out := solveJSON{Width: g.W, Height: g.H, Moves: g.FormatMoves(ms), ToMove: r.ToMove.String(),
			Winner: winnerWord(r.Winner), Proof: cellList(g, r.Proof), Nodes: r.Stats.Nodes,
			TTHits: r.Stats.TTHits, Expanded: r.Stats.Expanded, Pruned: r.Stats.Pruned, Candidates: r.Stats.Candidates, ProofHits: r.Stats.ProofHits, StoredProofs: r.Stats.StoredProofs, Decompositions: r.Stats.Decompositions, MaxDepth: r.Stats.MaxDepth,
			ElapsedMS: float64(r.Stats.Elapsed.Microseconds()) / 1000, TTBits: ttBits}
		if r.Move != hex.NoCell {
			out.Move = g.CellName(r.Move)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprint(stdout, b.Diagram())
	fmt.Fprintf(stdout, "\n%s to move\nwinner: %s\n", r.ToMove, winnerWord(r.Winner))
	if r.Move != hex.NoCell {
		fmt.Fprintf(stdout, "winning move: %s\n", g.CellName(r.Move))
	}
	fmt.Fprintf(stdout, "proof set (%s): %s\n", progress.Count(int64(r.Proof.Count()), "cell"), strings.Join(cellList(g, r.Proof), " "))
	fmt.Fprintf(stdout, "nodes: %d  expanded: %d  tt hits: %d  pruned moves: %d  time: %v\n", r.Stats.Nodes,
		r.Stats.Expanded, r.Stats.TTHits, r.Stats.Pruned, r.Stats.Elapsed.Round(time.Millisecond))
	return nil
}

// withRootProgress makes mk's solvers print each decided root move of b (--progress)
// to w: "root move e4  refuted  nodes 167173  75.0s".
func withRootProgress(mk func() solver.Config, b *hex.Board, w io.Writer) func() solver.Config {
	g := b.Geometry()
	return func() solver.Config {
		cfg := mk()
		cfg.RootProgress = func(rm solver.RootMove) {
			word := "refuted"
			if rm.Wins {
				word = "wins"
			}
			fmt.Fprintf(w, "root move %-4s %-7s  nodes %-9d %.1fs\n", g.CellName(rm.Move), word, rm.Nodes, rm.Elapsed.Seconds())
		}
		return cfg
	}
}

// solvePosition solves b with workers solvers (the root split, or the shared tree)
// and prints the result; a node or time limit answers winner "unknown".
func solvePosition(ctx context.Context, b *hex.Board, workers int, shared bool, mk func() solver.Config, tt int, asJSON bool, stdout io.Writer) error {
	solve := solver.SolveParallel
	if shared {
		solve = solver.SolveShared
	}
	r, err := solve(ctx, b, workers, mk)
	if errors.Is(err, solver.ErrLimit) && ctx.Err() == nil {
		// A node or time limit: the value is unknown, which is an answer, not a
		// failure (Benzene answers "unknown" too).
		r.Winner, r.ToMove, r.Move, r.Proof = hex.Empty, b.ToMove(), hex.NoCell, hex.Bitset{}
		return printSolve(b, r, tt, asJSON, stdout)
	}
	if err != nil {
		return err
	}
	return printSolve(b, r, tt, asJSON, stdout)
}
