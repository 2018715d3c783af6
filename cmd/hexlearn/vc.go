package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

func init() {
	c := &command{
		name:    "vc",
		summary: "compute virtual connections (H-search / XH-search) of a position",
		usage: `hexlearn vc --size N [--moves "a1 b2 ..."] [--color black|white] [--xh | --fastvc]
           [--max-full M] [--max-semi M] [--max-or K] [--no-templates]
           [--incremental] [--json]

Builds the virtual connections of a position with Anshelevich's H-search, the edge
templates among its base connections unless --no-templates (or, with --xh,
Henderson/Arneson/Hayward's XH-search, which has no templates; with --fastvc, the
FastVC rules of Pawlewicz et al. as Benzene's builder uses them: VC lists that keep
what shrinks the intersection of a pair's carriers and greedy ORs over any number of
SCs, vc.FastVCConfig), and prints, for each
colour (or the one given with --color): the numbers of full (VC) and semi (SC)
connections, whether it has a winning VC (with its smallest carrier), the mustplay of
its opponent, and the build time. With --incremental the connections are kept up to
date move by move from the empty board with the incremental update (Builder.Play), as
an engine following a game does, and the time is that of the whole replay.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", 0, "board side")
		moves := fs.String("moves", "", "moves from the empty board, Black first")
		color := fs.String("color", "", "only this colour (black or white)")
		xh := fs.Bool("xh", false, "use XH-search (stepping stones, crossing rules, AND over edges)")
		fast := fs.Bool("fastvc", false, "use the FastVC rules (vc.FastVCConfig: intersection-shrinking VC lists, greedy ORs over any number of SCs)")
		def := vc.DefaultConfig()
		maxFull := fs.Int("max-full", def.MaxFull, "VCs kept per endpoint pair")
		maxSemi := fs.Int("max-semi", def.MaxSemi, "SCs kept per endpoint pair")
		maxOr := fs.Int("max-or", def.MaxOr, "most SCs combined by one OR (XH-search: 5)")
		noTemplates := fs.Bool("no-templates", false, "leave the edge templates out of the base connections (Anshelevich's rules alone)")
		jsonOut := fs.Bool("json", false, "print JSON")
		incremental := fs.Bool("incremental", false, "update the connections move by move from the empty board (Builder.Play) instead of building once")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() > 0 {
			return usageErr("unexpected arguments %q", fs.Args())
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("max-full", *maxFull, 1, 10000),
			intIn("max-semi", *maxSemi, 1, 10000), intIn("max-or", *maxOr, 2, 16)); err != nil {
			return err
		}
		b, err := hex.ParsePosition(*size, *size, *moves)
		if err != nil {
			return usageErr("--moves: %v", err)
		}
		cols := []hex.Color{hex.Black, hex.White}
		if *color != "" {
			col, err := hex.ParseColor(*color)
			if err != nil {
				return usageErr("--color: %v", err)
			}
			cols = []hex.Color{col}
		}
		if *xh && *fast {
			return usageErr("--xh and --fastvc exclude each other")
		}
		cfg := def
		if *fast {
			cfg = vc.FastVCConfig()
		}
		if *xh {
			cfg = vc.XHConfig() // XH-search with AND over edges, as the XH paper uses it
		}
		// only the limits given on the command line replace the chosen configuration's
		// (XHConfig keeps ORs of 5)
		fs.Visit(func(f *flag.Flag) {
			switch f.Name {
			case "max-full":
				cfg.MaxFull = *maxFull
			case "max-semi":
				cfg.MaxSemi = *maxSemi
			case "max-or":
				cfg.MaxOr = *maxOr
			}
		})
		if *noTemplates {
			cfg.EdgeTemplates = false
		}
		if err := cfg.Validate(); err != nil {
			return usageErr("%v", err)
		}
		type colourReport struct {
			Color      string   `json:"color"`
			Full       int      `json:"full"`
			Semi       int      `json:"semi"`
			Winning    bool     `json:"winning_vc"`
			Carrier    []string `json:"winning_carrier,omitempty"`
			Threatened bool     `json:"threatens"`
			Mustplay   []string `json:"opponent_mustplay"`
			BuildMs    float64  `json:"build_ms"`
		}
		type report struct {
			Size        int            `json:"size"`
			Moves       string         `json:"moves"`
			Search      string         `json:"search"`
			Incremental bool           `json:"incremental"`
			Colors      []colourReport `json:"colors"`
		}
		g := b.Geometry()
		names := func(s hex.Bitset) []string {
			out := []string{}
			for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
				out = append(out, g.CellName(p))
			}
			return out
		}
		rep := report{Size: *size, Moves: g.FormatMoves(b.Moves()), Search: "H-search", Incremental: *incremental}
		if *xh {
			rep.Search = "XH-search"
		}
		if *fast {
			rep.Search = "H-search (FastVC)"
		}
		bl := vc.NewBuilder(cfg)
		for _, col := range cols {
			if err := ctx.Err(); err != nil {
				return err
			}
			t0 := time.Now()
			build := bl.Build
			if *incremental {
				build = bl.BuildByPlays
			}
			if err := build(b, col); err != nil {
				return err
			}
			d := time.Since(t0)
			nf, ns := bl.Counts()
			won, car := bl.WinningVC()
			must, thr := bl.Mustplay()
			cr := colourReport{Color: col.String(), Full: nf, Semi: ns, Winning: won, Threatened: thr,
				Mustplay: names(must), BuildMs: float64(d.Microseconds()) / 1000}
			if won {
				cr.Carrier = names(car)
			}
			rep.Colors = append(rep.Colors, cr)
		}
		if *jsonOut {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		fmt.Fprintf(stdout, "%dx%d %s, moves: %s\n", *size, *size, rep.Search, rep.Moves)
		how := "built"
		if *incremental {
			how = "updated move by move"
		}
		for _, cr := range rep.Colors {
			fmt.Fprintf(stdout, "%s: %d full, %d semi, %s in %.3f ms\n", cr.Color, cr.Full, cr.Semi, how, cr.BuildMs)
			if cr.Winning {
				fmt.Fprintf(stdout, "  winning VC, carrier [ %s ]\n", strings.Join(cr.Carrier, " "))
			} else {
				fmt.Fprintf(stdout, "  no winning VC\n")
			}
			opp := "white"
			if cr.Color == "white" {
				opp = "black"
			}
			if cr.Winning {
				fmt.Fprintf(stdout, "  %s to move is lost (mustplay [ %s ])\n", opp, strings.Join(cr.Mustplay, " "))
			} else if cr.Threatened {
				fmt.Fprintf(stdout, "  %s to move must play in [ %s ]\n", opp, strings.Join(cr.Mustplay, " "))
			} else {
				fmt.Fprintf(stdout, "  no winning SC: %s is not forced\n", opp)
			}
		}
		return nil
	}
	register(c)
}
