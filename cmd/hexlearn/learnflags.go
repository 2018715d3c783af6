package main

import (
	"flag"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/train"
)

// learnFlags are the training flags cv and train share.
type learnFlags struct {
	data, size, target, output string
	perPly                     bool
	plyWidth, batch            int
	lr                         float64
	seed                       uint64
	openOnly                   bool
	playouts                   int
	searchMix                  float64
}

func (l *learnFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&l.data, "data", "", "dataset file or directory of *.arrow files (required)")
	fs.StringVar(&l.size, "size", "", "board size N or WxH (required)")
	fs.StringVar(&l.target, "target", "value", "value (the exact evaluator's value), winner (the solver's true winner), outcome (the self-play game's result, or the proved winner where known), playouts (the share of random playouts Black wins) or search (the player's self-play: its game's result mixed with its search's value, selfplay --mode player)")
	fs.IntVar(&l.playouts, "playouts", train.DefaultPlayouts, "random playouts per row that label the playouts target")
	fs.Float64Var(&l.searchMix, "search-mix", train.DefaultSearchMix, "the search target's weight of the game's result against the search's value (above 0, at most 1)")
	fs.StringVar(&l.output, "output", "", "output unit for a value target: tanh (default) or linear")
	fs.BoolVar(&l.perPly, "per-ply", false, "one network per ply range (the paper's layered partition)")
	fs.IntVar(&l.plyWidth, "ply-width", 1, "plies per range with --per-ply")
	fs.IntVar(&l.batch, "batch", 256, "minibatch size")
	fs.Float64Var(&l.lr, "lr", 0.003, "Adam learning rate")
	fs.Uint64Var(&l.seed, "seed", 1, "seed for folds, initialisation and shuffling")
	fs.BoolVar(&l.openOnly, "open-only", false, "use only open positions (|value| < 20): decided positions carry the circuit's clamped values and are left to VCs and patterns")
}

// config checks the flags and returns the board size and the shared training settings.
func (l *learnFlags) config() (w, h int, cfg train.Config, err error) {
	if l.data == "" {
		return 0, 0, cfg, usageErr("--data is required")
	}
	if err := inputPath("data", l.data); err != nil {
		return 0, 0, cfg, err
	}
	if w, h, err = parseBoardSize(l.size); err != nil {
		return 0, 0, cfg, err
	}
	if _, err := model.ParseTarget(l.target); err != nil {
		return 0, 0, cfg, usageErr("--target must be value, winner, outcome, playouts or search, got %q", l.target)
	}
	if !(l.searchMix > 0 && l.searchMix <= 1) {
		return 0, 0, cfg, usageErr("--search-mix %g: want a weight above 0 and at most 1", l.searchMix)
	}
	if err := intIn("playouts", l.playouts, 1, 1<<16); err != nil {
		return 0, 0, cfg, err
	}
	switch l.output {
	case "", "tanh", "linear":
	default:
		return 0, 0, cfg, usageErr("--output must be tanh or linear, got %q", l.output)
	}
	if l.target != "value" && l.output != "" {
		return 0, 0, cfg, usageErr("--output applies to the value target only (%s uses a logistic output)", l.target)
	}
	if err := intIn("ply-width", l.plyWidth, 1, hex.MaxSize*hex.MaxSize); err != nil {
		return 0, 0, cfg, err
	}
	if err := intIn("batch", l.batch, 1, 1<<20); err != nil {
		return 0, 0, cfg, err
	}
	if !(l.lr > 0) || l.lr > 1 {
		return 0, 0, cfg, usageErr("--lr %g: want a learning rate in (0, 1]", l.lr)
	}
	cfg = train.Config{BatchSize: l.batch, LearnRate: l.lr, Seed: l.seed, Target: model.Target(l.target), Output: model.Output(l.output), Playouts: l.playouts}
	if cfg.Target == model.TargetSearch {
		cfg.SearchMix = l.searchMix
	}
	return w, h, cfg, nil
}

func parseBoardSize(s string) (int, int, error) {
	if s == "" {
		return 0, 0, usageErr("--size is required")
	}
	ws, hs, ok := strings.Cut(strings.ToLower(s), "x")
	if !ok {
		hs = ws
	}
	w, err1 := strconv.Atoi(ws)
	h, err2 := strconv.Atoi(hs)
	if err1 != nil || err2 != nil || w < 1 || h < 1 || w > 19 || h > 19 {
		return 0, 0, usageErr("--size must be N or WxH with sides 1..19, got %q", s)
	}
	return w, h, nil
}

func parseInts(s, flagName string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || v < 1 || v > 100_000 {
			return nil, usageErr("--%s %q: want a comma-separated list of integers 1..100000", flagName, s)
		}
		out = append(out, v)
	}
	return out, nil
}
