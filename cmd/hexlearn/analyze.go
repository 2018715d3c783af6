package main

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/analysis"
)

func init() {
	c := &command{
		name:    "analyze",
		summary: "find where recorded games were decided (SGF files, e.g. a ladder's)",
		usage: `hexlearn analyze [--deep] [--fill-in=false] [--json] PATH...

Replays every game (SGF files; a directory is searched for *.sgf files, so a strength
ladder's output directory works) and finds where it was decided by the virtual
connections the players search with: the first position in which H-search after ICE
fill-in, with the edge templates, proves the winner, and the move that made it so. A
move that proves its mover's own win is a find; a move into a position proved lost for
its mover is a blunder, reported with how many of the mover's moves the connections
would not have proved lost (a move outside the mustplay, where the opponent's winning
semi-connections all meet, counts as proved lost). A proved winner that later loses gave its win away, and
each such change is listed. --deep also counts, before each find, the loser's moves
that would have left the winner no reply proved to win (two moves deep; seconds per
11x11 game). The last table sums it all per player name (SGF PB and PW). Proofs are
sound but incomplete: "not proved lost" is an upper bound on the moves that hold.
Games the referee adjudicated after an engine died ('hexlearn match') show
"(adjudicated)" after the winner, games it could not decide "no result" (nobody's
win); the sums then count both per player.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fset := newFlags(c, stdout)
		deep := fset.Bool("deep", false, "before each find, count the loser's moves that stop every proved reply (two moves deep, slow)")
		fill := fset.Bool("fill-in", true, "decide positions after ICE fill-in, as the players do")
		asJSON := fset.Bool("json", false, "print JSON")
		if err := fset.Parse(args); err != nil {
			return err
		}
		if fset.NArg() == 0 {
			return usageErr("give at least one SGF file or directory")
		}
		var files, names []string
		for _, p := range fset.Args() {
			if err := inputPath("", p); err != nil {
				return err
			}
			found, rel, err := sgfFiles(p)
			if err != nil {
				return err
			}
			files, names = append(files, found...), append(names, rel...)
		}
		if len(files) == 0 {
			return fmt.Errorf("no .sgf files in %s", strings.Join(fset.Args(), ", "))
		}
		an, err := analysis.New(analysis.Options{Deep: *deep, NoFillIn: !*fill})
		if err != nil {
			return err
		}
		recs := make([]analysis.Record, 0, len(files))
		for i, f := range files {
			b, props, err := readSGFFile(f)
			if err != nil {
				return err
			}
			r, err := an.GameRecord(ctx, names[i], b, props)
			if err != nil {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				return fmt.Errorf("%s: %w", f, err)
			}
			recs = append(recs, r)
		}
		if *asJSON {
			return analysis.WriteJSON(stdout, recs)
		}
		return analysis.WriteText(stdout, recs)
	}
	register(c)
}

// sgfFiles returns path when it is a file, else the .sgf files under the directory
// path, sorted; names are the paths the reports print (relative to a directory).
func sgfFiles(path string) (files, names []string, err error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if !st.IsDir() {
		return []string{path}, []string{path}, nil
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.EqualFold(filepath.Ext(p), ".sgf") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	for _, f := range files {
		rel, rerr := filepath.Rel(path, f)
		if rerr != nil {
			rel = f
		}
		names = append(names, filepath.ToSlash(rel))
	}
	return files, names, err
}

// readSGFFile reads the main line of an SGF file.
func readSGFFile(path string) (*hex.Board, hex.SGFProps, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b, props, err := hex.ReadSGFProps(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, props, nil
}
