package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hexlearn/hexlearn/engine/gtp"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/pipeline"
	"github.com/hexlearn/hexlearn/player"
)

func init() {
	c := &command{
		name:    "gtp",
		summary: "speak the Hex GTP dialect (HexGui, Benzene) on standard input and output",
		usage: `hexlearn gtp [--player learned|exact] [--size N] [--model MODEL|builtin] [--patterns DB]
            [--book FILE|builtin|none]
            [--xh] [--fill-in=false] [--edge-templates=false] [--depth D] [--k K] [--time S] [--vc-plies P]
            [--leaf-vc=BOOL] [--solve-share F] [--solve-max-empty N] [--solve-parallel=BOOL]
            [--lookahead-depth L] [--order potential|network|mix] [--search mcts|alphabeta]
            [--circuit-priors W] [--playouts N] [--playout-weight W] [--amaf-priors W]
            [--reuse on|off]

Serves the Hex dialect of the Go Text Protocol on standard input and output, as HexGui
and Benzene's tools expect: protocol_version, name, version, known_command,
list_commands, quit, boardsize N | W H, clear_board, play COLOR CELL (b/black, w/white;
c3, swap-pieces, resign), undo, showboard, genmove COLOR, loadsgf FILE [N],
savesgf FILE, final_score, all_legal_moves COLOR, hexgui-analyze_commands, and the
commands later parts of hexlearn register (list_commands shows them all). Errors are
answered with "? message" and the engine keeps serving until quit or end of input.

genmove searches with the player: 'learned' (the default where a model exists for the board
size: --model FILE, or the model built into the binary for 5x5 to 11x11) searches by Monte
Carlo tree search (--search mcts, the default): the network values every node it expands,
the cheap --order gives the priors of its moves, H-search proves wins and finds mustplay
near the root (its children's by updating the root's connections) and at nodes visited
often, proved results propagate; where H-search is asked, the circuit's move ordering (the
exact player's) is mixed into the priors with weight --circuit-priors (by default 1 above
8x8, 0 up to 8x8), and the score of each node it expands mixes the network's value with the
mean result of --playouts N random games played from it to the end (bridge intrusions
answered), with weight --playout-weight W (by default 32 playouts of weight 0.8 above 8x8,
none up to 8x8, and none over a model trained on the playouts, such as the built-in 11x11
one, whose probability stands in for them); --amaf-priors W mixes how the playouts ranked
the moves (AMAF) into the priors (none by default); --reuse on keeps the subtree of the
position after the move played and the reply from one move's search to the next (off by
default). With --search alphabeta it searches by alpha-beta: the network scores the leaves
and H-search proves wins and finds mustplay on the first --vc-plies plies; --leaf-vc adds a
cheap, sound connection test (bridges, edge bridges, ziggurats, one-move threats) at every
node. The learned search orders a node's moves by evaluating every child; with
--lookahead-depth L only the nodes with at least L plies left do, the others use the cheap
--order (two-distance potentials, the network's first-layer change per cell, or the network
with potentials breaking ties; models without two-distance features order by potential).
'exact' scores every node with H-search (XH-search with --xh) plus the resistance circuit.
Both work on the position after ICE fill-in (dead and captured cells filled;
--fill-in=false: on the position itself), and their H-search takes the edge templates as
base connections (--edge-templates=false: without). A learned player on a size without a
model plays as the exact player, with a one-line note on standard error; a boardsize change
switches models. --patterns adds a goal-pattern database as terminal test. --book plays the
move an opening book (hexlearn book build) stores for the position before any solver or
search runs (default: the built-in book of the board size, 8x8, for the learned player; none
for the exact player). With --solve-share F the DFPN solver (its table kept between moves)
first gets that fraction of each move's time, in positions with at most --solve-max-empty
empty cells: a proved win plays its move, else the search gets the rest, and the MCTS
searches only the moves the solver had not refuted (learned default 0.75, exact 0);
--solve-parallel runs the solver beside the search instead, both with the whole time (two
cores). With --time the search deepens until the clock stops (no depth limit unless --depth
is given). param_search changes depth, k, time and vc_plies later.

To use it from HexGui: Program > New Program, command "hexlearn gtp" (a full path to
the binary if it is not on PATH), then Program > Connect.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		cfg, err := gtpPlayerConfig(c, args, stdout)
		if err != nil {
			return err
		}
		cfg.Notes = stderr
		p, err := pipeline.NewPlayer(ctx, cfg)
		if errors.Is(err, pipeline.ErrConfig) {
			return usageErr("%s", strings.TrimPrefix(err.Error(), pipeline.ErrConfig.Error()+": "))
		}
		if err != nil {
			return err
		}
		e, err := p.Engine()
		if err != nil {
			return err
		}
		return e.Serve(ctx, os.Stdin, stdout)
	}
	register(c)
}

// gtpPlayerConfig parses the gtp command's flags into the player's configuration
// (pipeline.PlayerConfig.Args gives flags that parse back into the same one).
func gtpPlayerConfig(c *command, args []string, stdout io.Writer) (pipeline.PlayerConfig, error) {
	fs := newFlags(c, stdout)
	kind := fs.String("player", "", "learned or exact (default: learned if a model exists for the board size, else exact)")
	size := fs.Int("size", gtp.DefaultSize, "side of the board before the first boardsize command (if not given: a --model file's board, else the default)")
	modelPath := fs.String("model", "", "learned player's model file, or 'builtin' (the default)")
	dbPath := fs.String("patterns", "", "goal-pattern database used as the search's terminal test")
	bookPath := fs.String("book", "", "opening book: a book file, builtin or none (default: builtin for the learned player, none for the exact player)")
	xh := fs.Bool("xh", false, "connections by XH-search instead of H-search")
	fillIn := fs.Bool("fill-in", true, "search's connections and circuits on the position after ICE fill-in (exact player, learned player's proofs)")
	templates := fs.Bool("edge-templates", true, "edge templates as base connections in the search's H-search (exact player, learned player's proofs)")
	def := gtp.SearchDefaults()
	depth := fs.Int("depth", 0, "search depth in plies (0: no limit with --time, else 3)")
	k := fs.Int("k", 0, fmt.Sprintf("k-best successor limit (0: the player's default, exact %d, learned %d)", def.K, player.LearnedK))
	secs := fs.Float64("time", def.Time.Seconds(), "seconds per genmove (0: no limit)")
	vcPlies := fs.Int("vc-plies", player.LearnedVCPlies, "learned player: plies from the root where H-search proves wins and finds mustplay (0: none)")
	share := fs.Float64("solve-share", -1, "fraction of each move's time the DFPN solver gets first; a proved win plays its move (0: none; -1: the player's default)")
	maxEmpty := fs.Int("solve-max-empty", player.SolveMaxEmpty, "ask the solver only with at most this many empty cells (0: always)")
	parallel := fs.Bool("solve-parallel", player.SolveParallel, "run the solver beside the search on a second core, each with the whole time per move, instead of before it")
	leafVC := fs.Bool("leaf-vc", player.LearnedLeafVC, "learned player: a cheap, sound connection test at every node (bridges, edge bridges, ziggurats; wins and mustplay)")
	lookahead := fs.Int("lookahead-depth", player.LearnedLookaheadDepth, "learned player: nodes with fewer plies left order moves by --order instead of evaluating every child (0: none)")
	order := fs.String("order", string(player.LearnedOrder), "learned player: the cheap move ordering below --lookahead-depth: potential, network or mix")
	searchKind := fs.String("search", string(player.LearnedSearch), "learned player's search: mcts or alphabeta")
	var mcts mctsFlags
	mcts.register(fs.FlagSet)
	if err := fs.Parse(args); err != nil {
		return pipeline.PlayerConfig{}, err
	}
	if fs.NArg() != 0 {
		return pipeline.PlayerConfig{}, usageErr("unexpected argument %q", fs.Arg(0))
	}
	d, err := seconds("time", *secs, 0)
	if err != nil {
		return pipeline.PlayerConfig{}, err
	}
	if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("depth", *depth, 0, search.MaxDepth),
		intIn("k", *k, 0, hex.MaxCells), intIn("vc-plies", *vcPlies, 0, search.MaxDepth),
		intIn("solve-max-empty", *maxEmpty, 0, hex.MaxCells),
		intIn("lookahead-depth", *lookahead, 0, search.MaxDepth),
		optionalInput("patterns", *dbPath), optionalModel(*modelPath), optionalBook(*bookPath)); err != nil {
		return pipeline.PlayerConfig{}, err
	}
	cfg := pipeline.PlayerConfig{Model: *modelPath, Patterns: *dbPath, Book: *bookPath, XH: *xh, NoFillIn: !*fillIn, NoTemplates: !*templates, Size: *size, Depth: *depth, K: *k,
		Time: d, VCPlies: *vcPlies}
	if *kind != "" {
		if cfg.Kind, err = player.ParseKind(*kind); err != nil {
			return pipeline.PlayerConfig{}, usageErr("--player: %v", err)
		}
	}
	cfg.Size = 0 // without --size: the model file's board, if there is one, else the default
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "size" {
			cfg.Size = *size
		}
	})
	if d == 0 {
		cfg.Time = -1 // no limit (the config's zero value is the engine's default)
	}
	if *vcPlies == 0 {
		cfg.VCPlies = -1 // none (the config's zero value is the default)
	}
	switch {
	case !(*share >= 0 && *share <= 1) && *share != -1: // NaN too
		return pipeline.PlayerConfig{}, usageErr("--solve-share: want a fraction from 0 to 1 (or -1), got %g", *share)
	case *share == 0:
		cfg.SolveShare = -1 // none (the config's zero value is the default)
	case *share > 0:
		cfg.SolveShare = *share
	}
	if *maxEmpty != player.SolveMaxEmpty {
		cfg.SolveMaxEmpty = *maxEmpty
		if *maxEmpty == 0 {
			cfg.SolveMaxEmpty = -1 // always (the config's zero value is the default)
		}
	}
	cfg.SolveParallel = override(*parallel, player.SolveParallel)
	if *lookahead != player.LearnedLookaheadDepth {
		cfg.LookaheadDepth = *lookahead
		if *lookahead == 0 {
			cfg.LookaheadDepth = -1 // none (the config's zero value is the default)
		}
	}
	if mode := model.OrderMode(*order); mode != player.LearnedOrder {
		if cfg.Order, err = model.ParseOrderMode(*order); err != nil {
			return pipeline.PlayerConfig{}, usageErr("--order: %v", err)
		}
	}
	if *searchKind != string(player.LearnedSearch) {
		if cfg.Search, err = player.ParseSearch(*searchKind); err != nil {
			return pipeline.PlayerConfig{}, usageErr("--search: %v", err)
		}
	}
	if err := mcts.apply(&cfg); err != nil {
		return pipeline.PlayerConfig{}, err
	}
	cfg.LeafVC = override(*leafVC, player.LearnedLeafVC)
	return cfg, nil
}
