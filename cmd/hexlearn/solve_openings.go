package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
)

// openingsJSON is the --json output of --openings.
type openingsJSON struct {
	Width        int           `json:"width"`
	Height       int           `json:"height"`
	BlackWinning []string      `json:"black_winning_openings"`
	Openings     []openingJSON `json:"openings"`
	Nodes        int64         `json:"nodes"`
	ElapsedMS    float64       `json:"elapsed_ms"`
}

type openingJSON struct {
	Cell      string  `json:"cell"`
	BlackWins bool    `json:"black_wins"`
	Nodes     int64   `json:"nodes"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

func solveOpenings(ctx context.Context, mk func() solver.Config, workers int, b *hex.Board, asJSON bool, stdout, stderr io.Writer) error {
	g := b.Geometry()
	start := time.Now()
	ops, err := solver.SolveOpeningsParallel(ctx, g.W, g.H, workers, mk, func(o solver.Opening) {
		res := "loses"
		if o.BlackWins {
			res = "wins"
		}
		if o.Rotated {
			fmt.Fprintf(stderr, "opening %-4s %-5s for black  (180° rotation of %s)\n", g.CellName(o.Cell), res, g.CellName(g.Rotate180(o.Cell)))
			return
		}
		fmt.Fprintf(stderr, "opening %-4s %-5s for black  nodes %-8d %v\n", g.CellName(o.Cell), res, o.Nodes, o.Elapsed.Round(time.Millisecond))
	})
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	var nodes int64
	var wins hex.Bitset
	out := openingsJSON{Width: g.W, Height: g.H, BlackWinning: []string{}}
	for _, o := range ops {
		nodes += o.Nodes
		if o.BlackWins {
			wins.Set(o.Cell)
		}
		out.Openings = append(out.Openings, openingJSON{Cell: g.CellName(o.Cell), BlackWins: o.BlackWins,
			Nodes: o.Nodes, ElapsedMS: float64(o.Elapsed.Microseconds()) / 1000})
	}
	out.BlackWinning = cellList(g, wins)
	out.Nodes = nodes
	out.ElapsedMS = float64(elapsed.Microseconds()) / 1000
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	// the win map as a diagram
	var sb strings.Builder
	sb.WriteString("  ")
	for x := 0; x < g.W; x++ {
		fmt.Fprintf(&sb, " %c", 'a'+x)
	}
	sb.WriteByte('\n')
	for y := 0; y < g.H; y++ {
		fmt.Fprintf(&sb, "%s%2d ", strings.Repeat(" ", y), y+1)
		for x := 0; x < g.W; x++ {
			ch := "W"
			if wins.Has(g.At(x, y)) {
				ch = "B"
			}
			sb.WriteString(ch + " ")
		}
		fmt.Fprintf(&sb, "%d\n", y+1)
	}
	fmt.Fprintf(stdout, "win map of one-stone openings on %dx%d (B: Black's first stone there wins, W: it loses)\n", g.W, g.H)
	fmt.Fprint(stdout, sb.String())
	fmt.Fprintf(stdout, "black wins with: %s\n", strings.Join(out.BlackWinning, " "))
	fmt.Fprintf(stdout, "openings: %d  nodes: %d  time: %v\n", len(ops), nodes, elapsed.Round(time.Millisecond))
	return nil
}
