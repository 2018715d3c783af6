package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/pipeline"
)

func init() {
	c := &command{
		name:    "patterns",
		writes:  true,
		summary: "build, query and inspect goal-pattern databases (LB-trees)",
		usage: `hexlearn patterns build --from DATASET|GAMES --out DB [--size N] [--finder vc|proof|xh|bridges|solver[:T]] [--verify K] [--min-stones S]
hexlearn patterns query --db DB --size N --moves "a1 b2 ..." [--json]
hexlearn patterns stats --db DB [--json]

build examines every position of a self-play dataset (a directory or .arrow file) or of
a games file (one game per line as a move list, e.g. "c3 b2 d2"), finds each colour's
winning virtual connection (H-search from engine/vc by default; --finder proof uses
the larger limits that prove the empty 6x6 board at depth 3; --finder solver takes the
DFPN solver's proof sets, at most T (default 10s) per question, and also stores the
position after each winning move it finds, an opening book), and stores its
pattern (the stones it uses plus its carrier) with the pattern's symmetric variants
(row translations, 180° rotation) in a limited branching tree; White connections are
stored reflected as Black ones. Patterns with a carrier of at most K cells are proved
by exhaustive search first; patterns containing a stored one are not kept; positions
with fewer than S stones are skipped.
query reports whether a position is decided by a stored pattern; stats describes a
database.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runPatterns(ctx, c, args, stdout, stderr)
	}
	register(c)
}

func runPatterns(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usageErr("patterns needs an action: build, query or stats")
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprintf(stdout, "%s\n\nRun 'hexlearn patterns ACTION --help' for an action's flags.\n", strings.TrimSpace(c.usage))
		return flag.ErrHelp
	case "build":
		return patternsBuild(ctx, c, args[1:], stdout, stderr)
	case "query":
		return patternsQuery(c, args[1:], stdout, stderr)
	case "stats":
		return patternsStats(c, args[1:], stdout, stderr)
	}
	return usageErr("unknown patterns action %q (want build, query or stats)", args[0])
}

func patternsBuild(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	var outs outputs
	fs := newFlags(c, stdout)
	outs.addForce(fs)
	from := fs.String("from", "", "self-play dataset (directory or .arrow file) or games file (one move list per line)")
	out := fs.String("out", "", "database file to write")
	size := fs.Int("size", 0, "board size N (N x N); 0: the most common size of the dataset (required for a games file)")
	finder := fs.String("finder", "vc", "winning-connection finder: vc (H-search), proof (H-search with the proof search's larger limits: 20 VCs, 30 SCs per pair), xh (XH-search), bridges (bridge chains only) or solver[:T] (the DFPN solver's proofs, T per question, default 10s)")
	verify := fs.Int("verify", 12, "prove patterns with at most this many carrier cells by exhaustive search (0: off, max 24)")
	minStones := fs.Int("min-stones", 0, "skip positions with fewer stones")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *from == "" || *out == "" {
		return usageErr("build needs --from and --out")
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected arguments %q", fs.Args())
	}
	if err := checkAll(inputPath("from", *from), outs.file("out", *out), intIn("size", *size, 0, hex.MaxSize),
		intIn("verify", *verify, 0, patterns.MaxVerifyCarrier), intIn("min-stones", *minStones, 0, hex.MaxCells)); err != nil {
		return err
	}
	if _, err := pipeline.NewFinder(*finder); err != nil {
		return usageErr("unknown --finder %q (want vc, proof, xh, bridges or solver[:DURATION])", *finder)
	}
	ds, err := pipeline.IsDataset(*from)
	if err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	if !ds {
		if *size <= 0 {
			return usageErr("a games file needs --size")
		}
		if _, err := hex.NewGeometry(*size, *size); err != nil {
			return usageErr("%v", err)
		}
	}
	res, err := pipeline.BuildPatterns(ctx, pipeline.PatternsConfig{From: *from, Size: *size, Finder: *finder, Verify: *verify, MinStones: *minStones, Out: *out,
		Meter: &progress.Bars{W: stderr, Desc: "patterns build"}})
	if err != nil {
		return err
	}
	w, h, db, dropped := res.Width, res.Height, res.DB, res.Dropped
	st := res.Stats
	sum := map[string]any{
		"size": fmt.Sprintf("%dx%d", w, h), "positions": st.Positions, "wins": st.Wins,
		"verified": st.Verified, "rejected": st.Rejected, "inserted": st.Inserted,
		"dropped_by_compact": dropped, "entries": db.Len(), "bytes": db.Bytes(),
		"seconds": res.Elapsed.Seconds(), "out": *out,
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(sum)
	}
	fmt.Fprintf(stdout, "%dx%d: %s, %s (%d proved exhaustively, %d rejected)\n",
		w, h, progress.Count(int64(st.Positions), "position"), progress.Count(int64(st.Wins), "winning connection"), st.Verified, st.Rejected)
	fmt.Fprintf(stdout, "%s with symmetric variants inserted, %d dropped as containing another; database: %s; %s\n",
		progress.Count(int64(st.Inserted), "pattern"), dropped, db.Size(), progress.Duration(res.Elapsed))
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}
