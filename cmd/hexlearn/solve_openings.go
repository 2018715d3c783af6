package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/internal/fileutil"
)

func solveOpenings(ctx context.Context, mk func() solver.Config, opt solver.OpeningsOptions, checkpoint string, b *hex.Board, asJSON bool, stdout, stderr io.Writer) error {
	g := b.Geometry()
	var done []solver.Opening
	if checkpoint != "" {
		var err error
		if done, err = readCheckpoint(checkpoint, g); err != nil {
			return err
		}
	}
	if cfg := mk(); cfg.TTBits > 0 {
		mib := float64(solver.TableBytes(cfg.Algorithm, g.N, cfg.TTBits)) / (1 << 20)
		fmt.Fprintf(stderr, "transposition table: 2^%d entries per worker (%.4g MiB each)\n", cfg.TTBits, mib)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		decided  []openingJSON // searched or resumed and decided: the checkpoint
		writeErr error
		mu       sync.Mutex
	)
	start := time.Now()
	progress := func(o solver.Opening) {
		res := "loses"
		switch {
		case o.Unknown:
			res = "unknown"
		case o.BlackWins:
			res = "wins"
		}
		name := g.CellName(o.Cell)
		switch {
		case o.Rotated:
			fmt.Fprintf(stderr, "opening %-4s %-7s for black  (180° rotation of %s)\n", name, res, g.CellName(g.Rotate180(o.Cell)))
		case o.Resumed:
			fmt.Fprintf(stderr, "opening %-4s %-7s for black  nodes %-9d %v (from the checkpoint)\n", name, res, o.Nodes, o.Elapsed.Round(time.Millisecond))
		default:
			fmt.Fprintf(stderr, "opening %-4s %-7s for black  nodes %-9d %-10v proofs: %d hits, %d stored\n", name, res, o.Nodes, o.Elapsed.Round(time.Millisecond), o.ProofHits, o.StoredProofs)
		}
		if checkpoint == "" || o.Rotated || o.Unknown {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		decided = append(decided, openingJSONOf(g, o))
		if o.Resumed || writeErr != nil {
			return
		}
		cp := openingsJSON{Width: g.W, Height: g.H, BlackWinning: []string{}, Openings: decided}
		data, err := json.MarshalIndent(cp, "", "  ")
		if err == nil {
			err = fileutil.WriteFileAtomic(checkpoint, append(data, '\n'))
		}
		if err != nil {
			writeErr = fmt.Errorf("solve: checkpoint: %w", err)
			cancel()
		}
	}
	opt.Done, opt.Progress = done, progress
	ops, err := solver.SolveOpeningsWith(ctx, g.W, g.H, mk, opt)
	mu.Lock()
	werr := writeErr
	mu.Unlock()
	if werr != nil {
		return werr
	}
	if err != nil {
		return err
	}
	elapsed := time.Since(start)
	var nodes int64
	var wins, unknown hex.Bitset
	out := openingsJSON{Width: g.W, Height: g.H, BlackWinning: []string{}}
	for _, o := range ops {
		nodes += o.Nodes
		switch {
		case o.Unknown:
			unknown.Set(o.Cell)
		case o.BlackWins:
			wins.Set(o.Cell)
		}
		out.Openings = append(out.Openings, openingJSONOf(g, o))
	}
	out.BlackWinning = cellList(g, wins)
	if !unknown.IsEmpty() {
		out.Unknown = cellList(g, unknown)
	}
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
			switch c := g.At(x, y); {
			case unknown.Has(c):
				ch = "?"
			case wins.Has(c):
				ch = "B"
			}
			sb.WriteString(ch + " ")
		}
		fmt.Fprintf(&sb, "%d\n", y+1)
	}
	fmt.Fprintf(stdout, "win map of one-stone openings on %dx%d (B: Black's first stone there wins, W: it loses)\n", g.W, g.H)
	fmt.Fprint(stdout, sb.String())
	fmt.Fprintf(stdout, "black wins with: %s\n", strings.Join(out.BlackWinning, " "))
	if len(out.Unknown) > 0 {
		fmt.Fprintf(stdout, "unknown (?, the limit was reached first): %s\n", strings.Join(out.Unknown, " "))
	}
	// the time per opening, one row per board row
	sb.Reset()
	sb.WriteString("   ")
	for x := 0; x < g.W; x++ {
		fmt.Fprintf(&sb, "%7c", 'a'+x)
	}
	sb.WriteByte('\n')
	for y := 0; y < g.H; y++ {
		fmt.Fprintf(&sb, "%2d ", y+1)
		for x := 0; x < g.W; x++ {
			o := ops[g.At(x, y)]
			if o.Rotated {
				o = ops[g.Rotate180(o.Cell)]
			}
			t := fmt.Sprintf("%.1f", o.Elapsed.Seconds())
			if o.Unknown {
				t = ">" + t
			}
			fmt.Fprintf(&sb, "%7s", t)
		}
		sb.WriteByte('\n')
	}
	fmt.Fprintf(stdout, "seconds per opening (a 180° rotation shows its partner's search; >: limit reached):\n")
	fmt.Fprint(stdout, sb.String())
	fmt.Fprintf(stdout, "openings: %d  nodes: %d  time: %v\n", len(ops), nodes, elapsed.Round(time.Millisecond))
	return nil
}
