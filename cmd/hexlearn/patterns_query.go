package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
)

// patternsQuery is "hexlearn patterns query": is a position decided by a stored pattern?
func patternsQuery(c *command, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(c, stdout)
	dbPath := fs.String("db", "", "database file")
	size := fs.Int("size", 0, "board size N (N x N)")
	moves := fs.String("moves", "", "the position as a move list from the empty board, e.g. \"c3 b2\"")
	asJSON := fs.Bool("json", false, "print the answer as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected arguments %q", fs.Args())
	}
	if *dbPath == "" {
		return usageErr("query needs --db and --size")
	}
	if err := checkAll(inputPath("db", *dbPath), intIn("size", *size, 1, hex.MaxSize)); err != nil {
		return err
	}
	db, _, err := patterns.Load(*dbPath)
	if err != nil {
		return err
	}
	g := db.Geometry()
	if g.W != *size || g.H != *size {
		return fmt.Errorf("patterns: the database is for %dx%d boards, not %dx%d", g.W, g.H, *size, *size)
	}
	b, err := hex.ParsePosition(*size, *size, *moves)
	if err != nil {
		return usageErr("--moves: %v", err)
	}
	start := time.Now()
	winner := db.Decided(b)
	elapsed := time.Since(start)
	var match patterns.Pattern
	if winner != hex.Empty {
		match, _ = db.Match(b, winner)
	}
	if *asJSON {
		out := map[string]any{"decided": winner != hex.Empty, "winner": strings.ToLower(winner.String()), "lookup_ns": elapsed.Nanoseconds()}
		if winner != hex.Empty {
			out["pattern"] = match.Diagram(g)
			out["frame"] = "black" // White matches are shown reflected
		}
		return json.NewEncoder(stdout).Encode(out)
	}
	fmt.Fprint(stdout, b.Diagram())
	if winner == hex.Empty {
		fmt.Fprintf(stdout, "not decided by the database (%s; lookup %v)\n", db.Size(), elapsed)
		return nil
	}
	fmt.Fprintf(stdout, "decided: %s wins (lookup %v); matching pattern", strings.ToLower(winner.String()), elapsed)
	if winner == hex.White {
		fmt.Fprint(stdout, " (reflected: White's connection drawn as Black's)")
	}
	fmt.Fprintf(stdout, ", B stone, + carrier:\n%s", match.Diagram(g))
	return nil
}

// patternsStats is "hexlearn patterns stats": what a database holds.
func patternsStats(c *command, args []string, stdout, stderr io.Writer) error {
	fs := newFlags(c, stdout)
	dbPath := fs.String("db", "", "database file")
	asJSON := fs.Bool("json", false, "print the statistics as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected arguments %q", fs.Args())
	}
	if *dbPath == "" {
		return usageErr("stats needs --db")
	}
	if err := inputPath("db", *dbPath); err != nil {
		return err
	}
	db, h, err := patterns.Load(*dbPath)
	if err != nil {
		return err
	}
	es := db.Entries()
	stones := make([]int, len(es))
	carrier := make([]int, len(es))
	for i := range es {
		stones[i], carrier[i] = es[i].Stones.Count(), es[i].Carrier.Count()
	}
	mm := func(v []int) (lo, med, hi int, mean float64) {
		if len(v) == 0 {
			return
		}
		s := append([]int(nil), v...)
		sort.Ints(s)
		sum := 0
		for _, x := range s {
			sum += x
		}
		return s[0], s[len(s)/2], s[len(s)-1], float64(sum) / float64(len(s))
	}
	sl, sm, sh, smean := mm(stones)
	cl, cm, ch, cmean := mm(carrier)
	t := db.Tree()
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{
			"format_version": h.Version, "size": fmt.Sprintf("%dx%d", h.Width, h.Height),
			"code_version": h.CodeVersion, "source": h.Source, "entries": db.Len(),
			"tree_nodes": t.Nodes(), "tree_bytes": t.Bytes(), "bytes": db.Bytes(),
			"stones":  map[string]any{"min": sl, "median": sm, "max": sh, "mean": smean},
			"carrier": map[string]any{"min": cl, "median": cm, "max": ch, "mean": cmean},
		})
	}
	fmt.Fprintf(stdout, "pattern database %s: format %d, %dx%d, written by hexlearn %s\n", *dbPath, h.Version, h.Width, h.Height, h.CodeVersion)
	fmt.Fprintf(stdout, "source: %s\n", h.Source)
	fmt.Fprintf(stdout, "size: %s (Black north-south patterns incl. symmetric variants; LB-tree and entry list)\n", db.Size())
	fmt.Fprintf(stdout, "LB-tree alone: %d nodes, %d bytes (%.1f bytes per pattern)\n",
		t.Nodes(), t.Bytes(), float64(t.Bytes())/float64(max(1, db.Len())))
	fmt.Fprintf(stdout, "stones per pattern:        min %d, median %d, mean %.1f, max %d\n", sl, sm, smean, sh)
	fmt.Fprintf(stdout, "carrier cells per pattern: min %d, median %d, mean %.1f, max %d\n", cl, cm, cmean, ch)
	return nil
}
