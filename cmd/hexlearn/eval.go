package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
)

func init() {
	c := &command{
		name:    "eval",
		summary: "evaluate a position: resistances R_B, R_W, E, winning VCs (and a learned model)",
		usage: `hexlearn eval --size N --moves "c3 d4 ..." [--json] [--model FILE|builtin] [--vc-mode ends|share|none] [--xh]

Evaluates the position reached by the moves (Black first, alternating; "w:b2" forces a
colour) with the exact evaluator: H-search virtual connections for both colours plus
Anshelevich's resistor circuits. Prints R_B and R_W (total resistance between each
colour's edges), E = ln(R_B/R_W) (Anshelevich; negative favours Black), value =
ln(R_W/R_B) = -E (hexlearn's convention: positive favours Black), each colour's winning
VC if H-search finds one, the mustplay of the side to move, and the time taken.
ln R is clamped to [-20, 20] (0 for a colour already connected, +inf when cut off).

With --model FILE the learned evaluator's value is printed next to the exact one
(--model builtin: the model built into the binary for the board size, 5x5 to 11x11); a
model trained for another board size is refused.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", gtp.DefaultSize, "side of the board (1..19)")
		moves := fs.String("moves", "", "the moves from the empty board, e.g. \"c3 d4\"")
		asJSON := fs.Bool("json", false, "print one JSON object")
		modelPath := fs.String("model", "", "a learned model file (or 'builtin') to evaluate alongside the exact evaluator")
		mode := fs.String("vc-mode", circuit.DefaultConfig().Mode.String(), "how VCs enter the circuit: ends (links between VC ends), share (shared neighbours) or none")
		xh := fs.Bool("xh", false, "use XH-search (crossing rule) instead of H-search")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), optionalModel(*modelPath)); err != nil {
			return err
		}
		b, err := hex.ParsePosition(*size, *size, *moves)
		if err != nil {
			return usageErr("--moves: %v", err)
		}
		cfg := circuit.DefaultExactConfig()
		if cfg.Circuit.Mode, err = circuit.ParseVCMode(*mode); err != nil {
			return usageErr("--vc-mode: %v", err)
		}
		if *xh {
			cfg.VC.XH, cfg.VC.StrongCrossing = true, true
		}
		var learned *model.Evaluator
		if *modelPath != "" {
			m, err := loadModelFor(*modelPath, *size, *size)
			if err != nil {
				return err
			}
			if learned, err = model.NewEvaluator(m, *size, *size); err != nil {
				return err
			}
		}
		x, err := circuit.NewExact(cfg)
		if err != nil {
			return err
		}
		start := time.Now()
		a, err := x.Analyse(b)
		if err != nil {
			return err
		}
		elapsed := time.Since(start)
		rep := evalReport{
			Size: *size, Moves: b.Geometry().FormatMoves(b.Moves()), ToMove: b.ToMove().String(),
			RB: jsonFloat(a.RB), RW: jsonFloat(a.RW), LnRB: a.LogRB, LnRW: a.LogRW, E: a.E, Value: a.Value,
			Winner: colorName(a.Winner), BlackVC: a.BlackVC, WhiteVC: a.WhiteVC,
			BlackFull: a.BlackFull, BlackSemi: a.BlackSemi, WhiteFull: a.WhiteFull, WhiteSemi: a.WhiteSemi,
			Seconds: elapsed.Seconds(), VCMode: cfg.Circuit.Mode.String(), XH: cfg.VC.XH,
		}
		g := b.Geometry()
		if a.BlackVC {
			rep.BlackCarrier = cellNames(g, a.BlackCarrier)
		}
		if a.WhiteVC {
			rep.WhiteCarrier = cellNames(g, a.WhiteCarrier)
		}
		if a.HasMustplay {
			rep.Mustplay = cellNames(g, a.Mustplay)
		}
		if learned != nil {
			ls := time.Now()
			v := learned.Evaluate(b).Value
			rep.Learned = &learnedReport{Model: *modelPath, Value: v, Seconds: time.Since(ls).Seconds()}
		}
		if *asJSON {
			enc := json.NewEncoder(stdout)
			enc.SetIndent("", "  ")
			return enc.Encode(rep)
		}
		fmt.Fprintf(stdout, "%s", b.Diagram())
		fmt.Fprintf(stdout, "%dx%d, %s, %v to move\n", *size, *size, progress.Count(int64(b.NumStones()), "stone"), b.ToMove())
		fmt.Fprintf(stdout, "R_B   %-10s ln R_B %8s\n", fmtR(a.RB), fixed4(a.LogRB))
		fmt.Fprintf(stdout, "R_W   %-10s ln R_W %8s\n", fmtR(a.RW), fixed4(a.LogRW))
		fmt.Fprintf(stdout, "E     = ln(R_B/R_W) = %8s  (Anshelevich; negative favours Black)\n", fixed4(a.E))
		fmt.Fprintf(stdout, "value = ln(R_W/R_B) = %8s  (positive favours Black)\n", fixed4(a.Value))
		if learned != nil {
			fmt.Fprintf(stdout, "learned value        %8s  (%s, %.3f ms)\n", fixed4(rep.Learned.Value), *modelPath, rep.Learned.Seconds*1e3)
		}
		fmt.Fprintf(stdout, "winning VC: black %s, white %s\n", vcText(a.BlackVC, rep.BlackCarrier), vcText(a.WhiteVC, rep.WhiteCarrier))
		fmt.Fprintf(stdout, "decided: %s\n", decidedText(b, a.Winner, a.BlackVC, a.WhiteVC))
		if a.HasMustplay {
			fmt.Fprintf(stdout, "mustplay for %v: %v\n", b.ToMove(), rep.Mustplay)
		}
		fmt.Fprintf(stdout, "connections: black %d VCs %d SCs, white %d VCs %d SCs (vc-mode %s)\n",
			a.BlackFull, a.BlackSemi, a.WhiteFull, a.WhiteSemi, cfg.Circuit.Mode)
		fmt.Fprintf(stdout, "time: %.3f ms\n", elapsed.Seconds()*1e3)
		return nil
	}
	register(c)
}
