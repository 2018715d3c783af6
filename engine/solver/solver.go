// Package solver computes the game-theoretic value of Hex positions, after Henderson,
// Arneson & Hayward 2009, "Solving 8x8 Hex" (section 3, inferior cell analysis;
// section 4, the solver: virtual connections, mustplay, proof sets and transposition
// deductions; section 5, proof-set reduction).
//
// Two search algorithms share the node evaluation (Config.Algorithm):
//
//   - DFPN (the default, dfpn.go): depth-first proof-number search (Nagai 2002) with
//     the 1+ε threshold trick (Pawlewicz & Lew 2007), as in Benzene's solver. Proof and
//     disproof numbers replace move ordering: a node's proof number is its children's
//     smallest disproof number, its disproof number the sum of their proof numbers, so
//     moves that leave the opponent a small mustplay are searched first. With
//     progressive widening (Config.WideningBase and WideningFactor; DefaultConfig:
//     1 + ceil(n/2) of n children) both numbers take only a window of the node's
//     unrefuted children, the first in move order, which stay in the window once
//     admitted; the next enter as earlier ones are refuted. A node's mustplay,
//     children, widening window and ICE fill-in are kept in the transposition
//     table, so entering a node again costs no H-search.
//   - DFS: the depth-first search of the 2009 paper, with a 1-ply Connector lookahead
//     (mustplay size after the move) and a two-way distance score as move ordering.
//
// At every node the solver fills in dead and captured cells (engine/ice), looks the
// position up in a transposition table keyed by its Zobrist hash (the 180° rotated
// position is probed too; DFPN also probes the filled position), stops at once when the
// side to move connects in one move or a Connector reports a winning virtual
// connection, restricts the moves to the mustplay region (the opponent's one-move
// wins, or a Connector's mustplay), drops moves to vulnerable cells and, unless the
// Config turns them off (DefaultConfig does), to capture-dominated cells and to border
// cells dominated by an adjacent candidate (engine/ice LocalDominated), and searches
// the remaining moves. Every result carries a proof set: empty
// cells such that the winner still wins when every other empty cell is given to the
// loser. When a move loses, the loser's remaining candidates shrink to the winner's
// proof set (proof-set pruning: any move outside it loses too). DFPN also keeps its
// proofs of lost positions as goal patterns (engine/patterns; Config.ProofPatterns,
// proofs.go) and decides any later node a stored proof covers: the 2009 paper's
// proof-set transpositions.
//
// Among moves of equal proof numbers (at a fresh node: all of them), and for the
// widening window, both algorithms try first the killer moves (the last two moves
// that won a node at the same ply), then moves that often won for the side to move
// in this search (a history table, cleared at the start of each Solve), then the
// two-way distance order. SolveParallel splits one
// position's root moves between several solvers sharing one table, SolveShared has
// them search its whole tree together (parallel DFPN with virtual proof numbers); SolveOpeningsWith
// solves every opening of a board (hardest-looking first, the workers sharing one
// table, each taking an opening or, with OpeningsOptions.Split, all splitting one)
// with per-opening limits and resumption from a checkpoint. On boards of up to 64 cells the DFPN table stores its sets as single
// words (table.go). Labeler labels datasets (pipeline.Label).
//
// The default Connector is engine/vc's compact H-search (vc.Compact, any board; the
// one-word engine instance up to 64 cells); VCConnector adapts engine/vc's full
// Builder.
package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"time"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/ice"
	"github.com/hexlearn/hexlearn/engine/patterns"
)

// ErrLimit is returned (wrapped) when the node or time limit stops the search before
// the position is solved.
var ErrLimit = errors.New("solver: search limit reached")

// ErrBadConfig is returned (wrapped) for an unusable configuration.
var ErrBadConfig = errors.New("solver: bad configuration")

// ErrBadPosition is returned (wrapped) for a position the solver cannot take.
var ErrBadPosition = errors.New("solver: bad position")

// Connector is the virtual-connection oracle the solver consumes (engine/vc can
// satisfy it through a small adapter). All sets are cells of b.
type Connector interface {
	// WinningVC reports whether colour c connects its two edges on b even with the
	// opponent to move, with a carrier: empty cells c needs (c wins when every other
	// empty cell is given to the opponent).
	WinningVC(b *hex.Board, c hex.Color) (carrier hex.Bitset, ok bool)
	// WinningSC reports whether colour c, moving first, connects its edges by playing
	// key, with the carrier (key included) as the proof.
	WinningSC(b *hex.Board, c hex.Color) (key hex.Cell, carrier hex.Bitset, ok bool)
	// Mustplay returns, for the side x to move, a set of empty cells outside which
	// every x-move loses because the opponent then connects, together with a proof:
	// the empty cells the opponent needs for those wins. ok is false when the
	// opponent has no known winning connection.
	Mustplay(b *hex.Board, x hex.Color) (must, proof hex.Bitset, ok bool)
}

// Config holds the solver's parameters. The zero value is usable: DFPN, no limits, ICE
// and inferior-cell pruning on, a 2^18-entry transposition table (2^20 for DFS), no
// Connector, no progressive widening. Every field applies to both algorithms except
// NoLookahead (DFS only: DFPN has no lookahead), which Validate rejects for DFPN, and
// WideningBase and WideningFactor (DFPN only), which DFS ignores.
type Config struct {
	MaxNodes int64         // stop after this many nodes (0: no limit; not negative)
	Timeout  time.Duration // stop after this long (0: no limit; not negative)
	// TTBits is log2 of the transposition table entries (0: 20 for DFS, 18 for DFPN;
	// at most 26; no effect with NoTT).
	TTBits int
	NoICE  bool // disable fill-in of dead and captured cells (and with it NoInferior and NoReduce)
	// NoInferior disables vulnerable and capture-dominated pruning.
	NoInferior bool
	// NoDominated disables capture-dominated pruning only (vulnerable cells are still
	// pruned): the analysis costs more time than the nodes it saves on 7x7.
	NoDominated bool
	// NoLocalDominated disables local-domination pruning (engine/ice LocalDominated):
	// otherwise a candidate on the board's border is dropped when a local brute
	// force proves an adjacent candidate at least as good for the side to move.
	// DefaultConfig sets it: the pruning does not pay on 8x8 (docs/history.md, "Local domination").
	NoLocalDominated bool
	NoTT             bool // disable the transposition table
	NoReduce         bool // disable proof-set reduction (section 5 of the paper)
	// NoLookahead (DFS only) disables the 1-ply Connector lookahead (a move after
	// which the mover has a winning VC wins at once; the other moves are ordered by
	// the size of the opponent's mustplay after them). DFPN orders moves by proof
	// numbers and has no lookahead: Validate rejects NoLookahead with DFPN.
	NoLookahead bool
	Connector   Connector // optional virtual-connection oracle
	// Algorithm is the search algorithm (zero value: DFPN).
	Algorithm Algorithm
	// NoMoverVC skips the side to move's own winning SC and VC tests at a node (its
	// winning SCs are then found one ply later); the opponent's connections and
	// the mustplay are still built.
	NoMoverVC bool
	// Energy orders a node's children by circuit energy (engine/circuit, both
	// colours) instead of the two-way distance score (DFPN: the order breaks ties
	// between children of equal proof and disproof numbers; DFS: it comes after the
	// lookahead key).
	Energy bool
	// NoKillers turns off the killer moves: by default a node's move order tries
	// first the last two moves that won a node at the same ply (a refutation found in
	// one branch is usually one in the next), before the other keys.
	NoKillers bool
	// WideningBase and WideningFactor turn on progressive widening in DFPN: a
	// node's proof and disproof numbers, and its choice of child, take only k of
	// its n unrefuted children, k = WideningBase + ceil(WideningFactor × n) (all n
	// when k ≥ n or n < 2), so the disproof number sums the most promising children
	// only and the search stays on them. The window is sticky: the children
	// admitted once (kept in the table entry) stay in it, and when fewer than k of
	// them are unrefuted the next ones in the move order are admitted, so the
	// window does not follow the killer moves' changes between entries. Widening
	// never changes a value: a node is lost only when every child is refuted, won
	// as soon as any child is. Both zero (the zero value): no widening.
	// WideningBase must not be negative and WideningFactor must lie in [0, 1]; DFS
	// has no proof numbers and ignores both (so that DefaultConfig with Algorithm
	// set to DFS stays valid).
	WideningBase   int
	WideningFactor float64
	// WeakPN, in [0, 1], moves DFPN's disproof number of a node from the sum of its
	// children's proof numbers (0, the zero value: standard DFPN) towards the weak
	// proof number of Ueda, Hashimoto, Hashimoto & Iida 2008 (1): the largest
	// child's proof number plus one per other child. In between, the node counts
	// that largest value, one per other child and the share 1 − WeakPN of the rest.
	// The sum counts a subtree reached by transpositions once per path into it, and
	// in Hex the opponent's replies lead to the same positions over and over, so the
	// sum makes a winning move with many replies look expensive and DFPN leaves it
	// too early. The proof number (the smallest child's disproof number) is not
	// changed, nor is any value: only the order of work. DFS ignores it.
	WeakPN float64
	// RootRank, when positive, steers SolveParallel's root split towards the first
	// moves of the root's move order. A worker picks the next root move by its
	// position's disproof number after its last search (DFPN's choice at the root)
	// times 1 + rank/RootRank, rank being the move's index in the move order; a move
	// not yet searched counts with the smallest disproof number of the searched
	// moves. So the workers dig into the best-ordered few moves instead of giving
	// every move of the widening window a first search, which decides roots won by
	// one hard move (an 8x8 opening on White's edge, answered in the centre).
	// Zero: the plain smallest disproof number (unsearched moves first). Finite
	// and not negative; DFPN's root split only (a single Solver, SolveShared and
	// DFS ignore it).
	RootRank float64
	// ProofPatterns, when positive, has DFPN keep up to that many of its proofs of
	// lost positions as goal patterns (engine/patterns: the winner's stones on a chain
	// through the proof set, and the proof set, of the filled position) and look every
	// node up in them before expanding it: a position matching a stored proof for the
	// opponent of the side to move is lost with that proof, one matching for the side
	// to move is won. This finds the 2009 paper's proof-set transpositions (section 6:
	// the loser's stones outside a proof set do not matter) by a subset query instead
	// of enumerating them. Square boards only; DFS ignores it; not negative.
	ProofPatterns int
	// Decompositions fills, at every node after the ICE fill-in, the empty regions
	// that the opponent of the side to move captures by a combinatorial
	// decomposition (the 2009 paper's section 4; vc.Builder.Decomposition gives the
	// rule and its proof): regions that only two of its chains touch, with a VC
	// between them inside. The Connector must implement Decomposer (vc.Compact
	// does); otherwise the setting does nothing. Needs ICE (NoICE turns it off).
	Decompositions bool
	// RootProgress, when not nil, is called each time a move of the root's side to
	// move is decided: a move that wins (the search then ends) or a move proved
	// losing (refuted). Moves dropped because they lie outside a refutation's proof
	// set are not reported one by one, and nothing is reported after a win.
	// A single Solver reports with DFPN only (DFS ignores it); SolveParallel's root
	// split reports with either algorithm; the solvers of SolveParallel and
	// SolveShared call it one at a time; SolveOpenings and SolveOpeningsWith do not
	// use it. It must not block for long: the search waits for it.
	RootProgress func(RootMove)
	// Table, when not nil, is the DFPN transposition table of every solver made with
	// this Config, in place of one of their own (TTBits and the parallel solvers'
	// table sizing are then ignored): a table that outlives the solvers, shared by
	// all of them and saved or loaded between runs (Table.WriteTo, ReadTable), so
	// that a long solve resumes from the positions an earlier run solved. DFS
	// ignores it; Solver.Reset clears it for every solver that uses it. Every
	// configuration using one Table must have the same pruning settings (NoICE,
	// NoInferior, NoDominated, NoLocalDominated): the first one validated (or
	// ReadTable's) fixes them, and Validate refuses another. Solvers on one Table
	// may run at once (it locks its buckets).
	Table *Table
}

// RootMove is a decided root move (Config.RootProgress).
type RootMove struct {
	Move hex.Cell
	// Wins is set for a move that wins for the root's side to move; otherwise the
	// move is refuted (the opponent wins after it).
	Wins bool
	// Nodes are the nodes searched below the move in this call (SolveParallel: by
	// every worker that took it up; SolveShared: by the worker that reports it only;
	// 0 when a table or a stored proof decided it).
	Nodes int64
	// Elapsed is the time since the call began.
	Elapsed time.Duration
}

// Decomposer is implemented by a Connector that finds combinatorial decompositions
// (Config.Decompositions): Decomposition returns a VC carrier of colour c on b and
// the empty region around it that c captures (filling either with c's stones leaves
// the winner unchanged, and a proof of a c win on the filled board, with the filled
// cells added, is one of b), and whether there is one.
type Decomposer interface {
	Decomposition(b *hex.Board, c hex.Color) (carrier, region hex.Bitset, ok bool)
}

// window returns how many of a DFPN node's n unrefuted children (in move order)
// its proof and disproof numbers take (Config.WideningBase and WideningFactor).
func (c *Config) window(n int) int {
	if n < 2 || (c.WideningBase == 0 && c.WideningFactor == 0) {
		return n
	}
	return min(n, c.WideningBase+int(math.Ceil(c.WideningFactor*float64(n))))
}

// sumKeep is the share of the children's proof numbers beyond the weak proof number
// that a DFPN node's disproof number counts (Config.WeakPN), in 256ths.
func (c *Config) sumKeep() uint64 {
	return uint64(math.Round((1 - c.WeakPN) * 256))
}

// maxTTBits is the largest Config.TTBits.
const maxTTBits = 26

// Validate reports a configuration the solver cannot honour: an unknown algorithm, a
// negative limit, TTBits outside 0..26, a widening setting out of range, or
// NoLookahead with DFPN. The error wraps ErrBadConfig and names the field.
func (c Config) Validate() error {
	switch {
	case c.Algorithm != DFPN && c.Algorithm != DFS:
		return fmt.Errorf("%w: unknown algorithm %d", ErrBadConfig, c.Algorithm)
	case c.MaxNodes < 0:
		return fmt.Errorf("%w: MaxNodes is negative (%d)", ErrBadConfig, c.MaxNodes)
	case c.Timeout < 0:
		return fmt.Errorf("%w: Timeout is negative (%v)", ErrBadConfig, c.Timeout)
	case c.TTBits < 0 || c.TTBits > maxTTBits:
		return fmt.Errorf("%w: TTBits must be 0..%d, got %d", ErrBadConfig, maxTTBits, c.TTBits)
	case c.NoLookahead && c.Algorithm == DFPN:
		return fmt.Errorf("%w: NoLookahead is a DFS setting (DFPN has no lookahead)", ErrBadConfig)
	case c.WideningBase < 0:
		return fmt.Errorf("%w: WideningBase is negative (%d)", ErrBadConfig, c.WideningBase)
	case !(c.WideningFactor >= 0 && c.WideningFactor <= 1): // NaN too
		return fmt.Errorf("%w: WideningFactor must be in [0, 1], got %v", ErrBadConfig, c.WideningFactor)
	case !(c.WeakPN >= 0 && c.WeakPN <= 1): // NaN too
		return fmt.Errorf("%w: WeakPN must be in [0, 1], got %v", ErrBadConfig, c.WeakPN)
	case !(c.RootRank >= 0) || math.IsInf(c.RootRank, 1): // NaN too
		return fmt.Errorf("%w: RootRank must be a finite number ≥ 0, got %v", ErrBadConfig, c.RootRank)
	case c.ProofPatterns < 0:
		return fmt.Errorf("%w: ProofPatterns is negative (%d)", ErrBadConfig, c.ProofPatterns)
	case c.Table != nil && c.Algorithm == DFPN && !c.Table.claim(c.pruning()):
		// the first configuration validated with the table (or ReadTable's) fixes
		// its settings: open entries are only valid under the settings that made them
		return fmt.Errorf("%w: Table holds positions searched with other pruning settings (NoICE, NoInferior, NoDominated, NoLocalDominated)", ErrBadConfig)
	}
	return nil
}

// Stats are counters of one Solve call.
type Stats struct {
	Nodes    int64 // nodes searched (DFS: positions expanded; DFPN: entries into a position)
	TTHits   int64 // transposition table hits (rotations included)
	Expanded int64 // DFPN: nodes expanded (Connector and inferior analysis run)
	Pruned   int64 // moves dropped as vulnerable, capture-dominated or locally dominated
	// Candidates sums the moves left to search at the nodes evaluated without a
	// decision (Candidates / Expanded is the mean candidates per DFPN expansion).
	Candidates int64
	// ProofHits counts the nodes decided by a stored proof (Config.ProofPatterns).
	ProofHits int64
	// StoredProofs is the number of proofs the solver's proof database
	// (Config.ProofPatterns) held when the call ended (SolveParallel: summed over the
	// workers); it carries over between calls until Reset.
	StoredProofs int
	// Decompositions counts the regions filled by decomposition
	// (Config.Decompositions).
	Decompositions int64
	MaxDepth       int           // deepest ply reached
	Elapsed        time.Duration // wall time
}

// add adds the counters of r, a search one ply below (depth) or beside (depth 0)
// this one, to st: the counts are summed and MaxDepth is the deeper of the two.
// Elapsed and StoredProofs are left to the caller.
func (st *Stats) add(r Stats, depth int) {
	st.Nodes += r.Nodes
	st.TTHits += r.TTHits
	st.ProofHits += r.ProofHits
	st.Decompositions += r.Decompositions
	st.Expanded += r.Expanded
	st.Pruned += r.Pruned
	st.Candidates += r.Candidates
	st.MaxDepth = max(st.MaxDepth, r.MaxDepth+depth)
}

// Result is the solved value of a position.
type Result struct {
	Winner hex.Color // the colour that wins with perfect play
	ToMove hex.Color // the side to move in the solved position
	// Move is a winning move for the side to move when it wins, else hex.NoCell (also
	// NoCell when the position was decided without search, e.g. already connected).
	Move hex.Cell
	// Proof is a proof set: empty cells such that Winner still wins when every other
	// empty cell is filled with the loser's stones.
	Proof hex.Bitset
	Stats Stats
}

type ttEntry struct {
	key   uint64
	proof hex.Bitset
	best  hex.Cell
	win   bool // the side to move wins
	used  bool
}

// Solver solves positions; it keeps its transposition table between calls on boards
// of the same size. It is not safe for concurrent use.
type Solver struct {
	cfg  Config
	an   *ice.Analyzer
	tt   []ttEntry
	mask uint64
	pn   *pnTable // DFPN's table (nil: none)
	// busy, when not nil, counts the workers searching below each position
	// (solveShared): DFPN steers away from a child another worker is in
	busy *busyTable
	// warmed keeps the sum of the words pnTable.warm loaded (so that the loads
	// stay in the program); nothing reads it
	warmed uint64
	circ   *circuit.Circuit // for Config.Energy
	g      *hex.Geometry
	zob    [3][]uint64 // keys per colour and cell, for the current geometry
	zmove  uint64
	// border holds the cells on the board's border (local-domination pruning
	// looks at these only)
	border hex.Bitset

	b        *hex.Board
	stats    Stats
	aborted  bool
	ctx      context.Context
	deadline time.Time
	plies    []plyBuf
	hist     [3][]int32 // per colour and cell: nodes won by a move there in this Solve (history heuristic)
	// rootPN and rootDN are the root's proof and disproof numbers at the last step
	// of a DFPN search (SolveParallel orders the root's moves by them)
	rootPN, rootDN uint32
	// keep is cfg.sumKeep(): the disproof number's share of the children's proof
	// numbers beyond the weak proof number, in 256ths
	keep uint64
	// rootOpen is set when a DFPN search expanded its root and left it unsolved;
	// rootKids then holds the root's remaining candidate moves (RootCandidates).
	rootOpen bool
	rootKids hex.Bitset
	// rootStart, rootSpent and rootDone serve Config.RootProgress: the call's start,
	// the nodes searched below each root move, the root moves already reported
	rootStart time.Time
	rootSpent []int64
	rootDone  hex.Bitset
	// proofs holds the proofs of lost positions as goal patterns
	// (Config.ProofPatterns; nil: off)
	proofs *patterns.DB
}

// RootCandidates returns, after a Solve that stopped at a limit before deciding its
// position, the moves of the side to move the DFPN search had not refuted: if the
// side to move wins, one of them wins. The moves left out were proved losing, or lie
// outside the mustplay or a refutation's proof set, or are inferior (dead, captured,
// vulnerable, dominated: a winning move, if there is one, lies elsewhere). ok is
// false when the last Solve decided its position, ran DFS, or stopped before its
// root was expanded.
func (s *Solver) RootCandidates() (moves hex.Bitset, ok bool) {
	return s.rootKids, s.rootOpen
}

// reportRoot reports the root move m decided (Config.RootProgress), once per call.
func (s *Solver) reportRoot(m hex.Cell, wins bool) {
	if s.cfg.RootProgress == nil || s.rootDone.Has(m) {
		return
	}
	s.rootDone.Set(m)
	s.cfg.RootProgress(RootMove{Move: m, Wins: wins, Nodes: s.rootSpent[m], Elapsed: time.Since(s.rootStart)})
}

// addHistory counts a node won by the side to move's move m.
func (s *Solver) addHistory(m hex.Cell) {
	if h := s.hist[s.b.ToMove()]; h != nil {
		h[m]++
	}
}

type plyBuf struct {
	moves   []hex.Cell
	score   []int32
	primary []int32    // lookahead ordering key per cell
	dom     []hex.Cell // dominator (killer) per cell, NoCell if not pruned
	dom2    []hex.Cell // scratch: capture-dominators
	part    []hex.Cell // partner cell that must stay empty for the domination
	dist    [4][]int32
	queue   []hex.Cell
	result  ice.Result
	entry   pnEntry    // DFPN: the node's table entry
	cpn     []uint32   // DFPN: children's proof numbers per cell
	cdn     []uint32   // DFPN: children's disproof numbers per cell
	win     []hex.Cell // DFPN: the children of the widening window
	energy  []float64
	// killers are the last two moves that won a node at this ply (most recent
	// first); the move order tries them first.
	killers [2]hex.Cell
	// localPruned is the number of candidates the last pruneInferior at this ply
	// dropped by local domination
	localPruned int
	nodes0      int64  // DFPN: the node count when the node at this ply was entered
	work0       uint32 // DFPN: the work of its table entry then
}

// addKiller records m as the latest move that won a node at this ply.
func (pb *plyBuf) addKiller(m hex.Cell) {
	if pb.killers[0] != m {
		pb.killers[1], pb.killers[0] = pb.killers[0], m
	}
}

// New returns a solver with configuration cfg. An invalid configuration (see
// Config.Validate) gets no tables: Solve returns the validation error.
func New(cfg Config) *Solver {
	s := &Solver{cfg: cfg, an: ice.NewAnalyzer(), keep: cfg.sumKeep()}
	if cfg.NoTT || cfg.Validate() != nil {
		return s
	}
	bitsN := cfg.ttBits()
	switch {
	case cfg.Algorithm == DFPN && cfg.Table != nil:
		s.pn = cfg.Table.t
	case cfg.Algorithm == DFPN:
		s.pn = newPNTable(bitsN) // allocated for the first board's size by setup
	default:
		s.tt = make([]ttEntry, 1<<bitsN)
		s.mask = 1<<bitsN - 1
	}
	return s
}

// ttBits returns log2 of the table entries: TTBits, or its default (20 for DFS, 18
// for DFPN).
func (c Config) ttBits() int {
	switch {
	case c.TTBits != 0:
		return c.TTBits
	case c.Algorithm == DFPN:
		return 18
	}
	return 20
}

// Reset forgets everything the solver learnt from earlier calls: the transposition
// table, the history table and the killer moves. A solver reset before each batch of
// positions searches the batch as a fresh solver would (the same nodes and results).
func (s *Solver) Reset() {
	clear(s.tt)
	if s.pn != nil {
		s.pn.clear()
	}
	for c := range s.hist {
		clear(s.hist[c])
	}
	for i := range s.plies {
		s.plies[i].killers = [2]hex.Cell{hex.NoCell, hex.NoCell}
	}
	if s.proofs != nil {
		s.proofs = s.newProofs(s.g)
	}
}

// Config returns the solver's configuration.
func (s *Solver) Config() Config { return s.cfg }

// SetMaxNodes sets the node limit of the following Solve calls (0: none; a negative
// limit is an invalid configuration), keeping the tables: engine/book gives the root
// of its lines a larger limit than the positions below it.
func (s *Solver) SetMaxNodes(n int64) { s.cfg.MaxNodes = n }

// setup prepares geometry-dependent state.
func (s *Solver) setup(g *hex.Geometry) {
	if s.g == g {
		return
	}
	if s.g != nil { // a fresh table is already empty
		clear(s.tt)
	}
	if s.pn != nil {
		s.pn.reset(g)
	}
	s.g = g
	s.proofs = s.newProofs(g)
	s.zob, s.zmove = zobrist(g)
	s.border = hex.Bitset{}
	for y := 0; y < g.H; y++ {
		for x := 0; x < g.W; x++ {
			if x == 0 || y == 0 || x == g.W-1 || y == g.H-1 {
				s.border.Set(g.At(x, y))
			}
		}
	}
	s.hist[hex.Black], s.hist[hex.White] = make([]int32, g.N), make([]int32, g.N)
	s.plies = make([]plyBuf, g.N+2)
	for i := range s.plies {
		p := &s.plies[i]
		p.moves = make([]hex.Cell, 0, g.N)
		p.score = make([]int32, g.N)
		p.primary = make([]int32, g.N)
		p.dom = make([]hex.Cell, g.N)
		p.dom2 = make([]hex.Cell, g.N)
		p.part = make([]hex.Cell, g.N)
		for k := range p.dist {
			p.dist[k] = make([]int32, hex.NumPoints)
		}
		p.queue = make([]hex.Cell, 0, hex.NumPoints)
		p.cpn = make([]uint32, g.N)
		p.cdn = make([]uint32, g.N)
		p.win = make([]hex.Cell, 0, g.N)
		p.energy = make([]float64, g.N)
		p.killers = [2]hex.Cell{hex.NoCell, hex.NoCell}
	}
}

// zobrist returns the Zobrist keys of g's board: per colour and cell, and the key of
// White to move. They depend on the board's shape only, so the keys of a table saved
// by one process (Table) are those of every other.
func zobrist(g *hex.Geometry) (zob [3][]uint64, zmove uint64) {
	x := hex.SplitMix64(0x2545F4914F6CDD1D ^ uint64(g.W*131+g.H))
	next := x.Next
	for c := 1; c < 3; c++ {
		zob[c] = make([]uint64, g.N)
		for i := range zob[c] {
			zob[c][i] = next()
		}
	}
	return zob, next()
}

// hashes returns the Zobrist hash of b and of its 180° rotation (side to move
// included).
func (s *Solver) hashes(b *hex.Board) (h, hr uint64) {
	n := hex.Cell(s.g.N - 1)
	for c := hex.Black; c <= hex.White; c++ {
		st := b.StonesPtr(c)
		z := s.zob[c]
		for p := st.First(); p != hex.NoCell; p = st.Next(p + 1) {
			h ^= z[p]
			hr ^= z[n-p]
		}
	}
	if b.ToMove() == hex.White {
		h ^= s.zmove
		hr ^= s.zmove
	}
	return h, hr
}

func (s *Solver) rotate(p hex.Bitset) hex.Bitset {
	var r hex.Bitset
	if s.g.N <= 64 { // cell c goes to N-1-c: reverse the first word
		r[0] = bits.Reverse64(p[0]) >> (64 - s.g.N)
		return r
	}
	n := hex.Cell(s.g.N - 1)
	for c := p.First(); c != hex.NoCell; c = p.Next(c + 1) {
		r.Set(n - c)
	}
	return r
}

// probe looks the position up; rot reports a hit on the rotated key (proof and move
// returned already rotated back).
func (s *Solver) probe(h, hr uint64) (win bool, proof hex.Bitset, best hex.Cell, ok bool) {
	if s.tt == nil {
		return
	}
	if e := &s.tt[h&s.mask]; e.used && e.key == h {
		return e.win, e.proof, e.best, true
	}
	if e := &s.tt[hr&s.mask]; e.used && e.key == hr {
		best = e.best
		if best >= 0 {
			best = hex.Cell(s.g.N-1) - best
		}
		return e.win, s.rotate(e.proof), best, true
	}
	return
}

func (s *Solver) store(h uint64, win bool, proof hex.Bitset, best hex.Cell) {
	if s.tt == nil {
		return
	}
	s.tt[h&s.mask] = ttEntry{key: h, proof: proof, best: best, win: win, used: true}
}

// checkPosition rejects a position without a side to move or ended by resignation
// (ErrBadPosition) and reports done, with res.Winner set, for a finished game.
func checkPosition(b *hex.Board, res *Result) (done bool, err error) {
	if b.ToMove() != hex.Black && b.ToMove() != hex.White {
		return false, fmt.Errorf("%w: no side to move", ErrBadPosition)
	}
	if w := b.Winner(); w != hex.Empty {
		res.Winner = w
		return true, nil
	}
	if b.Resigned() != hex.Empty {
		return false, fmt.Errorf("%w: the game ended by resignation", ErrBadPosition)
	}
	return false, nil
}

// Solve solves b for the side to move (b.ToMove()); b is not modified. It returns
// ErrLimit (wrapped) when a limit or ctx stops it first. The limits and ctx are looked
// at as each node is entered, before its evaluation: a cancelled ctx or a passed
// Timeout stops the search at its next node, even a root its connections would
// decide (a finished game is still answered).
func (s *Solver) Solve(ctx context.Context, b *hex.Board) (Result, error) {
	start := time.Now()
	res := Result{ToMove: b.ToMove(), Move: hex.NoCell}
	if err := s.cfg.Validate(); err != nil {
		return res, err
	}
	if done, err := checkPosition(b, &res); done || err != nil {
		return res, err
	}
	s.setup(b.Geometry())
	s.b = b.Clone()
	s.stats = Stats{}
	// The history counts only this search's wins: counts carried over from other
	// positions (a whole-board run's earlier openings) rank cells that won there,
	// and on 8x8 cost a fifth more nodes (docs/history.md, "The history heuristic per search").
	for c := range s.hist {
		clear(s.hist[c])
	}
	s.rootPN, s.rootDN = 1, 1
	s.rootOpen, s.rootKids = false, hex.Bitset{}
	if s.cfg.RootProgress != nil {
		s.rootStart, s.rootDone = start, hex.Bitset{}
		s.rootSpent = append(s.rootSpent[:0], make([]int64, b.Geometry().N)...)
	}
	s.aborted = false
	s.ctx = ctx
	s.deadline = time.Time{}
	if s.cfg.Timeout > 0 {
		s.deadline = start.Add(s.cfg.Timeout)
	}
	var win bool
	var proof hex.Bitset
	var best hex.Cell
	if s.cfg.Algorithm == DFS {
		win, proof, best = s.solve(0)
	} else {
		win, proof, best = s.solveDFPN()
	}
	s.stats.Elapsed = time.Since(start)
	if s.proofs != nil {
		s.stats.StoredProofs = s.proofs.Len()
	}
	res.Stats = s.stats
	s.b = nil
	if !s.aborted {
		s.rootOpen = false
	} else if s.rootOpen {
		s.rootKids = s.plies[0].entry.kids
	}
	if s.aborted {
		if err := ctx.Err(); err != nil { // stopped by ctx: callers see ctx's error too
			return res, fmt.Errorf("%w after %d nodes (%v): %w", ErrLimit, s.stats.Nodes, s.stats.Elapsed.Round(time.Millisecond), err)
		}
		return res, fmt.Errorf("%w after %d nodes (%v)", ErrLimit, s.stats.Nodes, s.stats.Elapsed.Round(time.Millisecond))
	}
	if win {
		res.Winner = res.ToMove
		res.Move = best
	} else {
		res.Winner = res.ToMove.Opp()
	}
	res.Proof = proof
	return res, nil
}

// checkLimits sets s.aborted when a limit has been reached.
func (s *Solver) checkLimits() {
	if s.cfg.MaxNodes > 0 && s.stats.Nodes >= s.cfg.MaxNodes {
		s.aborted = true
		return
	}
	// A node costs a millisecond or so (ICE and H-search), and the first nodes of a
	// search on a fresh table much more (their children's buckets are first touches
	// of the table's pages: up to 0.3 s a node on 9x9 at 2^23 entries), so the
	// context and the clock are looked at every node: both cost nanoseconds.
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.aborted = true
		return
	}
	if s.ctx != nil && s.ctx.Err() != nil {
		s.aborted = true
	}
}

// solve returns whether the side to move wins, the proof set (empty cells of the
// current position) and a winning move when it wins.
func (s *Solver) solve(ply int) (bool, hex.Bitset, hex.Cell) {
	var none hex.Bitset
	s.stats.Nodes++
	if ply > s.stats.MaxDepth {
		s.stats.MaxDepth = ply
	}
	s.checkLimits()
	if s.aborted {
		return false, none, hex.NoCell
	}
	b := s.b
	x := b.ToMove()
	o := x.Opp()
	pb := &s.plies[ply]
	fr := &pb.result
	*fr = ice.Result{}
	if !s.cfg.NoICE {
		s.an.FillIn(b, o, fr)
		s.decompose(b, x, fr)
	}
	win, proof, best := s.node(ply, x, o)
	if !s.aborted {
		w := o
		if win {
			w = x
		}
		proof = proof.Or(fr.Captured[w]).Or(fr.Support[w])
	}
	fr.Undo(b)
	return win, proof, best
}

// node searches the (filled-in) position at ply.
func (s *Solver) node(ply int, x, o hex.Color) (bool, hex.Bitset, hex.Cell) {
	var none hex.Bitset
	b := s.b
	if w := b.Winner(); w != hex.Empty {
		return w == x, none, hex.NoCell
	}
	h, hr := s.hashes(b)
	if win, proof, best, ok := s.probe(h, hr); ok {
		s.stats.TTHits++
		return win, proof, best
	}
	ev := s.evaluate(ply, x, o)
	if ev.solved {
		s.store(h, ev.win, ev.proof, ev.best)
		return ev.win, ev.proof, ev.best
	}
	pb := &s.plies[ply]
	must, cand, loss := ev.must, ev.cand, ev.loss
	// 1-ply lookahead with the connector
	look := false
	if cn := s.cfg.Connector; cn != nil && !s.cfg.NoLookahead && cand.Count() > 1 {
		look = true
		for m := cand.First(); m != hex.NoCell; m = cand.Next(m + 1) {
			b.PlayStone(x, m)
			if car, ok := cn.WinningVC(b, x); ok {
				b.Undo()
				car = s.winProof(ply, car, m)
				s.store(h, true, car, m)
				return true, car, m
			}
			score := int32(b.Geometry().N + 1)
			if mp, pr, ok := cn.Mustplay(b, o); ok {
				if mp.IsEmpty() {
					// no reply meets every SC of the mover: it connects next move
					b.Undo()
					pr = s.winProof(ply, pr, m)
					s.store(h, true, pr, m)
					return true, pr, m
				}
				score = int32(mp.Count())
			}
			b.Undo()
			pb.primary[m] = score
		}
	}
	for _, m := range s.orderMoves(b, x, cand, pb, look) {
		if !must.Has(m) {
			continue
		}
		b.PlayStone(x, m)
		cwin, cp, _ := s.solve(ply + 1)
		b.Undo()
		if s.aborted {
			return false, none, hex.NoCell
		}
		if !cwin {
			pb.addKiller(m)
			s.addHistory(m)
			cp = s.winProof(ply, cp, m)
			s.store(h, true, cp, m)
			return true, cp, m
		}
		must = must.And(cp)
		loss = loss.Or(cp)
	}
	// x loses: the proof must keep every pruned inferior cell's dominator empty
	loss = s.lossProof(ply, x, loss)
	s.store(h, false, loss, hex.NoCell)
	return false, loss, hex.NoCell
}
