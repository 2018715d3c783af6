package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/dataset"
	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/patterns"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/progress"
)

func init() {
	c := &command{
		name:    "patterns",
		writes:  true,
		summary: "build, query and inspect goal-pattern databases (LB-trees)",
		usage: `hexlearn patterns build --from DATASET|GAMES --out DB [--size N] [--finder vc|proof|xh|bridges] [--verify K]
hexlearn patterns query --db DB --size N --moves "a1 b2 ..." [--json]
hexlearn patterns stats --db DB [--json]

build examines every position of a self-play dataset (a directory or .arrow file) or of
a games file (one game per line as a move list, e.g. "c3 b2 d2"), finds each colour's
winning virtual connection (H-search from engine/vc by default; --finder proof uses
the larger limits that prove the empty 6x6 board at depth 3), and stores its
pattern (the stones it uses plus its carrier) with the pattern's symmetric variants
(row translations, 180° rotation) in a limited branching tree; White connections are
stored reflected as Black ones. Patterns with a carrier of at most K cells are proved
by exhaustive search first; patterns containing a stored one are not kept.
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

// isDataset reports whether path names an Arrow dataset (a directory or an Arrow file)
// rather than a games text file.
func isDataset(path string) (bool, error) {
	st, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	if st.IsDir() || strings.HasSuffix(path, dataset.FileExt) {
		return true, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	head := make([]byte, 6)
	n, _ := io.ReadFull(f, head)
	return bytes.Equal(head[:n], []byte("ARROW1")), nil
}

func patternsBuild(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) error {
	var outs outputs
	fs := newFlags(c, stdout)
	outs.addForce(fs)
	from := fs.String("from", "", "self-play dataset (directory or .arrow file) or games file (one move list per line)")
	out := fs.String("out", "", "database file to write")
	size := fs.Int("size", 0, "board size N (N x N); 0: the most common size of the dataset (required for a games file)")
	finder := fs.String("finder", "vc", "winning-connection finder: vc (H-search), proof (H-search with the proof search's larger limits: 20 VCs, 30 SCs per pair), xh (XH-search) or bridges (bridge chains only)")
	verify := fs.Int("verify", 12, "prove patterns with at most this many carrier cells by exhaustive search (0: off, max 24)")
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
		intIn("verify", *verify, 0, patterns.MaxVerifyCarrier)); err != nil {
		return err
	}
	var f patterns.Finder
	switch *finder {
	case "vc", "xh", "proof":
		cfg := vc.DefaultConfig()
		switch *finder {
		case "xh":
			cfg = vc.XHConfig()
		case "proof":
			cfg = circuit.ProofExactConfig().VC
		}
		cfg.StopAtWin = true   // only the winning VC is wanted
		f = vc.NewBuilder(cfg) // a Builder is a patterns.Finder
	case "bridges":
		f = patterns.BridgeFinder{}
	default:
		return usageErr("unknown --finder %q (want vc, proof, xh or bridges)", *finder)
	}
	ds, err := isDataset(*from)
	if err != nil {
		return fmt.Errorf("patterns: %w", err)
	}
	// Collect the positions to examine as boards, one game or dataset row at a time.
	var (
		w, h      int
		positions func(yield func(*hex.Board) error) error
		total     int
	)
	if ds {
		t, err := dataset.ReadPath(*from, nil)
		if err != nil {
			return err
		}
		counts := map[[2]int]int{}
		for i := range t.Rows {
			counts[[2]int{t.Rows[i].Width, t.Rows[i].Height}]++
		}
		if *size > 0 {
			w, h = *size, *size
		} else {
			best := -1
			for k, n := range counts {
				if n > best || n == best && k[0] < w {
					w, h, best = k[0], k[1], n
				}
			}
		}
		total = counts[[2]int{w, h}]
		if total == 0 {
			return fmt.Errorf("patterns: the dataset has no %dx%d positions", w, h)
		}
		positions = func(yield func(*hex.Board) error) error {
			for i := range t.Rows {
				e := &t.Rows[i]
				if e.Width != w || e.Height != h {
					continue
				}
				b, err := e.Board()
				if err != nil {
					return fmt.Errorf("patterns: dataset row %d: %w", i, err)
				}
				if err := yield(b); err != nil {
					return err
				}
			}
			return nil
		}
	} else {
		if *size <= 0 {
			return usageErr("a games file needs --size")
		}
		w, h = *size, *size
		g, err := hex.NewGeometry(w, h)
		if err != nil {
			return usageErr("%v", err)
		}
		fh, err := os.Open(*from)
		if err != nil {
			return fmt.Errorf("patterns: %w", err)
		}
		games, err := patterns.ReadGames(fh, g)
		fh.Close()
		if err != nil {
			return err
		}
		for _, ms := range games {
			total += len(ms)
		}
		positions = func(yield func(*hex.Board) error) error {
			for gi, ms := range games {
				b := hex.NewBoardGeometry(g)
				for i, m := range ms {
					if err := b.Play(m); err != nil {
						return fmt.Errorf("patterns: game %d move %d (%s): %w", gi+1, i+1, g.CellName(m.Cell), err)
					}
					if err := yield(b); err != nil {
						return err
					}
				}
			}
			return nil
		}
	}
	db, err := patterns.New(w, h)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	bl := patterns.NewBuilder(db, f, *verify)
	start := time.Now()
	bar := progress.New(stderr, "patterns build", int64(total), "position")
	err = positions(func(b *hex.Board) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		bar.Add(1)
		bar.SetDetail(progress.Count(int64(db.Len()), "entry"))
		return bl.AddPosition(b)
	})
	bar.Done(err)
	if err != nil {
		return err
	}
	dropped := db.Compact()
	db.Source = fmt.Sprintf("from=%s finder=%s verify=%d positions=%d", *from, *finder, *verify, bl.Stats.Positions)
	if err := db.Save(*out); err != nil {
		return err
	}
	st := bl.Stats
	sum := map[string]any{
		"size": fmt.Sprintf("%dx%d", w, h), "positions": st.Positions, "wins": st.Wins,
		"verified": st.Verified, "rejected": st.Rejected, "inserted": st.Inserted,
		"dropped_by_compact": dropped, "entries": db.Len(), "bytes": db.Bytes(),
		"seconds": time.Since(start).Seconds(), "out": *out,
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(sum)
	}
	fmt.Fprintf(stdout, "%dx%d: %s, %s (%d proved exhaustively, %d rejected)\n",
		w, h, progress.Count(int64(st.Positions), "position"), progress.Count(int64(st.Wins), "winning connection"), st.Verified, st.Rejected)
	fmt.Fprintf(stdout, "%s with symmetric variants inserted, %d dropped as containing another; database: %s; %s\n",
		progress.Count(int64(st.Inserted), "pattern"), dropped, db.Size(), progress.Duration(time.Since(start)))
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

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
