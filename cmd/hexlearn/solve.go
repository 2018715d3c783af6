package main

import (
	"context"
	"io"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/solver"
	"github.com/hexlearn/hexlearn/engine/vc"
)

func init() {
	c := &command{
		name:    "solve",
		summary: "solve a small-board position or every one-stone opening (true values)",
		usage: `hexlearn solve --size N --moves "a1 b2 ..." [--to-move COLOR] [--workers W] [--timeout D] [--table FILE [--table-every D]] [--progress] [--json]
hexlearn solve --openings --size N [--workers W] [--timeout D] [--checkpoint FILE] [--table FILE [--table-every D]] [--json]

Solves a position exactly (engine/solver: depth-first proof-number search by
default, --algorithm dfs for plain depth-first search; ICE fill-in, combinatorial
decompositions, H-search connections, mustplay, proof sets, transposition table). Prints the winner,
a winning move for the side to move when it wins, the proof set (empty cells the
winner needs), nodes and time. Moves alternate from Black; --to-move overrides the
side to move. A --timeout or --max-nodes limit reached first answers winner
"unknown" (exit status 0). --workers W splits the root's moves between W solvers
sharing one table (each move's search gets a node budget that doubles each time it
is taken up again; DFPN takes the move with the smallest disproof number times
1 + rank/--root-rank, rank in the move order, so the workers dig into the first
moves; a refuted move prunes the others to its proof set); with --shared they all
search the whole tree from the root on that table instead, a worker counting a child
another worker is in at twice its disproof number plus one (a virtual proof number),
so that they spread over the best few children. DFPN uses progressive widening: a
node's proof numbers count only a window of base + ceil(factor x n) of its n
unrefuted children in move order (--widen-base 1 --widen-factor 0.5; 0 and 0 count
all); a node's disproof number is damped from the sum of its children's proof
numbers towards the weak proof number (see --weak-pn). --local-dominated also prunes border moves that a local brute force proves no
better than an adjacent candidate (off by default: it does not pay).

With --openings, every first Black stone on the empty N x N board is solved (White
to move, no swap): each opening's result, nodes and time are printed to standard
error as it finishes, then the win map (B where the opening wins for Black, W where
it loses, ? where the limit was reached) and the seconds per opening. --timeout and --max-nodes apply to each opening: one that
reaches them is reported unknown and the run goes on. Of each pair of openings
related by the 180° rotation (same value) only one is searched; the hardest-looking
openings (on White's edges, near the middle row) go first, or with --order easy the
easiest first (the hard ones then find the easy ones' proofs in the table). --workers W searches W
openings in parallel, sharing one transposition table (2^tt-bits entries per
worker); with --split they take one opening at a time and split its root, so each
opening has every worker for its --timeout (--shared: the workers search it together,
as for one position). --checkpoint FILE records every decided opening in FILE (rewritten
through a temporary file after each one) and skips the openings FILE already
holds, so a run stopped with Ctrl-C resumes where it was; unknown openings are
searched again. --table FILE keeps the DFPN transposition table between runs: read
when FILE exists, written (through a temporary file) when the run ends, decided,
at a limit or interrupted, and with --table-every D also every D during the search,
so a long solve resumes where it stopped (a file of another board, or one the table
would keep only in part, is refused). Ctrl-C or SIGTERM stops the search.`,
	}
	c.run = func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs := newFlags(c, stdout)
		size := fs.Int("size", 5, "board side (n x n)")
		width := fs.Int("width", 0, "board width (columns a..), overrides --size")
		height := fs.Int("height", 0, "board height (rows 1..), overrides --size")
		moves := fs.String("moves", "", "moves from the empty board, e.g. \"c3 d2\"")
		toMove := fs.String("to-move", "", "side to move (black or white; default: from the moves)")
		openings := fs.Bool("openings", false, "solve every one-stone opening and print the win map")
		maxNodes := fs.Int64("max-nodes", 0, "node limit (0: none; with --openings, per opening)")
		timeout := fs.Duration("timeout", 0, "time limit, e.g. 30s (0: none; with --openings, per opening)")
		noVC := fs.Bool("no-vc", false, "do not use H-search connections (ICE and proof sets only)")
		ttBits := fs.Int("tt-bits", 0, "log2 of the transposition table entries per worker, 10..26 (0: sized to a quarter of the available memory, at most 2^23 entries up to 8x8)")
		algo := fs.String("algorithm", "dfpn", "search algorithm: dfpn or dfs")
		asJSON := fs.Bool("json", false, "print JSON")
		workers := fs.Int("workers", 1, "solvers in parallel (one shared table): with --openings, openings searched at once (see --split); else the root's moves are split between them")
		shared := fs.Bool("shared", false, "with --workers W > 1 on one position (or one opening at a time, --split): the workers search the whole tree together on their shared table, spread over each node's best children by virtual proof numbers, instead of splitting the root's moves")
		split := fs.Bool("split", false, "with --openings and --workers W > 1: one opening at a time, its root's moves split between the W workers (each opening gets every core for its --timeout)")
		order := fs.String("order", "hard", "with --openings: hard (hardest-looking openings first) or easy (easiest first, so the hard ones find the easy ones' proofs in the table)")
		checkpoint := fs.String("checkpoint", "", "with --openings: file of decided openings, read to skip them and rewritten after each")
		table := fs.String("table", "", "DFPN table file: read when it exists, written when the run ends (decided, at a limit or interrupted), so a long solve resumes")
		tableEvery := fs.Duration("table-every", 0, "with --table: also write the table this often during the search, e.g. 10m (0: only at the end)")
		def := solver.DefaultConfig()
		widenBase := fs.Int("widen-base", def.WideningBase, "DFPN progressive widening: children counted at a node = base + ceil(factor x unrefuted children); both 0: all (no effect with dfs)")
		widenFactor, weakPN := fs.Float64("widen-factor", def.WideningFactor, "DFPN progressive widening factor in [0, 1] (see --widen-base)"), fs.Float64("weak-pn", def.WeakPN, "DFPN: in [0, 1], how far a node's disproof number moves from the sum of its children's proof numbers (0) towards the weak proof number, largest plus one per other child (1); 0.75 counts a quarter of the sum beyond it")
		rootRank, energy := fs.Float64("root-rank", def.RootRank, "with --workers W > 1 (DFPN, root split): weight a root move's disproof number by 1 + rank/K (rank in the move order), so the workers dig into the first moves (0: off)"),
			fs.Bool("energy", false, "order a node's children by circuit energy instead of the two-way distance")
		noKillers := fs.Bool("no-killers", false, "no killer moves or history in the move order (a fixed order per position)")
		localDom := fs.Bool("local-dominated", false, "prune border candidates that a local brute force proves dominated by an adjacent candidate")
		noTemplates := fs.Bool("no-templates", false, "no edge templates as base connections in the solver's H-search")
		proofPatterns := fs.Int("proof-patterns", def.ProofPatterns, "DFPN: keep up to this many proofs of lost positions as goal patterns and decide new positions by them (0: off)")
		decomp := fs.Bool("decompositions", def.Decompositions, "fill the regions the opponent captures by combinatorial decompositions at every node (--decompositions=false: off)")
		rootProgress := fs.Bool("progress", false, "without --openings: print each root move to standard error as the search decides it (refuted or winning, nodes, time; with --algorithm dfs only when --workers > 1)")
		if err := fs.Parse(args); err != nil {
			return err
		}
		if fs.NArg() != 0 {
			return usageErr("unexpected argument %q", fs.Arg(0))
		}
		if err := checkAll(intIn("size", *size, 1, hex.MaxSize), intIn("width", *width, 0, hex.MaxSize), intIn("height", *height, 0, hex.MaxSize),
			intIn("max-nodes", *maxNodes, 0, 1e15), intIn("workers", *workers, 1, 64), intIn("proof-patterns", *proofPatterns, 0, 1<<26),
			intIn("widen-base", *widenBase, 0, hex.MaxSize*hex.MaxSize), floatIn("widen-factor", *widenFactor, 0, 1), floatIn("weak-pn", *weakPN, 0, 1), floatIn("root-rank", *rootRank, 0, 1e6)); err != nil {
			return err
		}
		if *ttBits != 0 && (*ttBits < 10 || *ttBits > 26) {
			return usageErr("--tt-bits %d: want 0 (sized to memory) or 10..26", *ttBits)
		}
		if *timeout < 0 || *timeout > time.Duration(maxSeconds)*time.Second {
			return usageErr("--timeout %v: want 0 (no limit) up to %v", *timeout, time.Duration(maxSeconds)*time.Second)
		}
		w, h := *size, *size
		if *width != 0 {
			w = *width
		}
		if *height != 0 {
			h = *height
		}
		b, err := hex.NewBoard(w, h)
		if err != nil {
			return usageErr("%v", err)
		}
		alg := solver.DFPN
		switch *algo {
		case "dfpn":
		case "dfs":
			alg = solver.DFS
		default:
			return usageErr("--algorithm must be dfpn or dfs, got %q", *algo)
		}
		tt := solveTTBits(*ttBits, alg, w*h, *workers)
		// mk gives every solver its own Connector (they are not safe for concurrent use).
		mk := func() solver.Config {
			cfg := solver.DefaultConfig()
			cfg.WideningBase, cfg.WideningFactor, cfg.RootRank, cfg.WeakPN = *widenBase, *widenFactor, *rootRank, *weakPN
			cfg.Algorithm = alg
			if *noVC {
				cfg.Connector = nil
			} else if c, ok := cfg.Connector.(*vc.Compact); ok && *noTemplates {
				c.EdgeTemplates = false
			}
			cfg.MaxNodes, cfg.Timeout, cfg.TTBits = *maxNodes, *timeout, tt
			cfg.Energy, cfg.NoKillers = *energy, *noKillers
			cfg.ProofPatterns = *proofPatterns
			cfg.Decompositions = *decomp
			cfg.NoLocalDominated = !*localDom
			return cfg
		}
		if err := mk().Validate(); err != nil {
			return usageErr("%v", err)
		}
		st, err := tableFlags(*table, *tableEvery, alg, tableBits(tt, *workers), mk(), w, h, stderr)
		if err != nil {
			return err
		}
		mk = st.with(mk)
		if *openings {
			if *moves != "" || *toMove != "" {
				return usageErr("--openings solves the empty board: drop --moves and --to-move")
			}
			if *shared && !*split {
				return usageErr("--shared goes with --split (or with --moves)")
			}
			if *order != "hard" && *order != "easy" {
				return usageErr("--order must be hard or easy, got %q", *order)
			}
			if *rootProgress {
				return usageErr("--progress goes with --moves (--openings prints each opening as it finishes)")
			}
			return st.run(func() error {
				return solveOpenings(ctx, mk, solver.OpeningsOptions{Workers: *workers, Split: *split, Shared: *shared, EasyFirst: *order == "easy"}, *checkpoint, b, *asJSON, stdout, stderr)
			})
		}
		if *checkpoint != "" {
			return usageErr("--checkpoint goes with --openings")
		}
		if *split {
			return usageErr("--split goes with --openings (--workers alone splits the root of --moves)")
		}
		if *order != "hard" {
			return usageErr("--order goes with --openings")
		}
		ms, err := b.Geometry().ParseMoves(*moves)
		if err != nil {
			return err
		}
		if err := b.PlayMoves(ms); err != nil {
			return err
		}
		if *toMove != "" {
			col, err := hex.ParseColor(*toMove)
			if err != nil {
				return usageErr("--to-move: %v", err)
			}
			b.SetToMove(col)
		}
		if *rootProgress {
			mk = withRootProgress(mk, b, stderr)
		}
		return st.run(func() error { return solvePosition(ctx, b, *workers, *shared, mk, tt, *asJSON, stdout) })
	}
	register(c)
}
