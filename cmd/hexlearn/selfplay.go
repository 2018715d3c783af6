package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/engine/vc"
	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/selfplay"
)

func init() {
	c := &command{
		name:    "selfplay",
		writes:  true,
		summary: "generate a training corpus by self-play and random play (Arrow datasets)",
		usage: `hexlearn selfplay --size N --positions P | --games G --out DIR [--mode self|random|mixed|positions]
       [--depth D --k K] [--seed S] [--workers W] [--shard i --shards n] [flags]

Plays games between alpha-beta players (depth D, k best moves per node) using the
exact evaluator (H-search + resistance circuit), or such a player against a random
mover, and records every board the evaluator evaluates (game positions and search
nodes) into Arrow IPC dataset files under DIR; --mode positions writes one random
position per game instead (label them with --label-nodes). Same seed and flags give
byte-identical files whatever --workers is. With --shards n, shard i plays games
i, i+n, i+2n, ...; the shard defaults to $JOB_COMPLETION_INDEX (Kubernetes Indexed
Job) or $SLURM_ARRAY_TASK_ID (Slurm array) when --shard is not given. Ctrl-C keeps
only complete files. --timings records measured evaluation times in cost_us (the
files then differ between runs).`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runSelfplay(ctx, c, args, stdout, stderr)
	}
	register(c)
}

func runSelfplay(ctx context.Context, c *command, args []string, stdout, stderr io.Writer) (err error) {
	var outs outputs
	defer func() { outs.cleanup(err) }()
	fs := newFlags(c, stdout)
	outs.addForce(fs)
	defVC, lightVC, defPlay := vc.DefaultConfig(), pipeline.LightVC(), pipeline.DefaultPlay()
	size := fs.String("size", "", "board size N or WxH (required)")
	positions := fs.Int64("positions", 0, "number of positions (rows) to write")
	games := fs.Int("games", 0, "number of games to play (all shards together)")
	out := fs.String("out", "", "output directory (required)")
	mode := fs.String("mode", "self", "self, random (searcher vs uniformly random mover), mixed (alternating) or positions (one random position per game, for --label-nodes)")
	depth := fs.Int("depth", defPlay.Depth, "alpha-beta search depth in plies")
	k := fs.Int("k", defPlay.K, "k-best successors searched per node (0: all)")
	seed := fs.Uint64("seed", 1, "random seed (openings, random movers)")
	workers := fs.Int("workers", 0, "parallel games (0: all cores)")
	shard := fs.Int("shard", -1, "this shard's index (default: $JOB_COMPLETION_INDEX or $SLURM_ARRAY_TASK_ID, else 0)")
	shards := fs.Int("shards", 1, "number of shards")
	opening := fs.Int("opening", defPlay.Opening, "uniformly random moves at the start of each game")
	temp := fs.Float64("temperature", 0, "softmax temperature for the moves after the opening (0: always search)")
	tempPlies := fs.Int("temp-plies", 0, "moves after the opening chosen by temperature sampling")
	stopAtProof := fs.Bool("stop-at-proof", false, "end a game once the evaluator proves a winner (default: play until a chain is complete)")
	timings := fs.Bool("timings", false, "record measured evaluation times in cost_us (not reproducible)")
	perFile := fs.Int("games-per-file", 1000, "games per output file")
	light := fs.Bool("light", false, fmt.Sprintf("lighter H-search limits than the default %d VCs, %d SCs per pair and ORs of %d SCs: %d, %d and %d, no edge templates (faster, fewer connections found)",
		defVC.MaxFull, defVC.MaxSemi, defVC.MaxOr, lightVC.MaxFull, lightVC.MaxSemi, lightVC.MaxOr))
	labelNodes := fs.Int64("label-nodes", 0, "label true_winner with the solver, at most this many nodes per position (0: only proofs by the evaluator)")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageErr("unexpected argument %q", fs.Arg(0))
	}
	w, h, err := selfplayBoardSize(*size)
	if err != nil {
		return err
	}
	if *out == "" {
		return usageErr("--out is required")
	}
	if err := checkAll(intIn("positions", *positions, 0, maxCount), intIn("games", *games, 0, maxCount),
		intIn("depth", *depth, 1, search.MaxDepth), intIn("k", *k, 0, hex.MaxCells),
		intIn("workers", *workers, 0, maxWorkers), intIn("shard", *shard, -1, 1_000_000),
		intIn("shards", *shards, 1, 1_000_000), intIn("opening", *opening, 0, hex.MaxCells),
		floatIn("temperature", *temp, 0, 1000), intIn("temp-plies", *tempPlies, 0, hex.MaxCells),
		intIn("games-per-file", *perFile, 1, maxCount), intIn("label-nodes", *labelNodes, 0, maxCount)); err != nil {
		return err
	}
	if (*positions > 0) == (*games > 0) {
		return usageErr("give exactly one of --positions and --games (positive)")
	}
	m, err := selfplay.ParseMode(*mode)
	if err != nil {
		return usageErr("%v", err)
	}
	shardSrc := "--shard"
	if *shard < 0 {
		n, src, ok, err := selfplay.ShardFromEnv(os.Getenv)
		if err != nil {
			return usageErr("%v", err)
		}
		*shard, shardSrc = 0, "default"
		if ok {
			*shard, shardSrc = n, "$"+src
		}
	}
	if *shard >= *shards {
		return usageErr("shard %d (from %s) is not below --shards %d", *shard, shardSrc, *shards)
	}
	cfg := pipeline.CorpusConfig{
		Width: w, Height: h, Positions: *positions, Games: *games, Mode: m,
		Play: &pipeline.Play{Depth: *depth, K: *k, Opening: *opening, Temperature: *temp, TempPlies: *tempPlies,
			StopAtProof: *stopAtProof},
		Seed: *seed, Workers: *workers, Shard: *shard, Shards: *shards, GamesPerFile: *perFile, Timings: *timings,
		Light: *light, LabelNodes: *labelNodes, Metadata: map[string]string{"evaluator.light": strconv.FormatBool(*light)},
		Meter: &progress.Bars{W: stderr, Desc: "selfplay"},
	}
	if err := outs.dir("out", *out, cfg.FileName(0)); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	start := time.Now()
	res, err := pipeline.Corpus(ctx, *out, cfg)
	if err != nil {
		return err
	}
	el := time.Since(start)
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{
			"files": res.Files, "games": res.Games, "positions": res.Rows,
			"seconds": el.Seconds(), "shard": *shard, "shards": *shards,
		})
	}
	fmt.Fprintf(stdout, "wrote %s from %s into %s in %s (%.0f positions/s), shard %d of %d\n",
		progress.Count(res.Rows, "position"), progress.Count(int64(res.Games), "game"), progress.Count(int64(len(res.Files)), "file"),
		progress.Duration(el), float64(res.Rows)/el.Seconds(), *shard, *shards)
	for _, f := range res.Files {
		fmt.Fprintln(stdout, " ", f)
	}
	return nil
}
