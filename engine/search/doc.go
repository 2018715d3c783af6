// Package search holds hexlearn's game-tree searches: the alpha-beta searcher (Kahl,
// Edelkamp & Hildebrand 2007, sections 2 and 6; Anshelevich 2002, section 6;
// Henderson, Arneson & Hayward 2009, "Solving 8x8 Hex", section 2 for the mustplay)
// and a Monte Carlo tree search guided by an evaluator's values (mcts.go), whose node
// scores may mix in random playouts with bridge answers (playout.go; Arneson, Hayward &
// Henderson 2010, "Monte Carlo Tree Search in Hex", its playout policy) and whose
// priors may mix in the playouts' AMAF ranking (Gelly & Silver 2007, "Combining Online
// and Offline Knowledge in UCT"). It declares the Evaluator interface both consume.
//
// Searcher is a negamax alpha-beta search with iterative deepening (depth 1, 2, ...,
// Params.Depth), a fixed-size transposition table indexed by the board's Zobrist hash
// (which includes the side to move; always-replace unless a deeper entry of the same
// position is stored; win scores are stored relative to the node; each entry also
// caches the position's evaluation and its ordered best moves, so iterative deepening,
// transpositions and the 1-ply ordering evaluate a position once), mate-distance
// pruning, and the k-best
// successor limit of Kahl et al.: at every node only the Params.K best moves by a cheap
// ordering are searched (Params.RootK may widen the root).
//
// Every node is evaluated (that is how winning connections are found):
//
//   - a finished chain ends the line with ±(WinScore − ply), so shorter wins and longer
//     losses are preferred; Result.Winner (a proof, the game not finished) ends it with
//     ±(WinScore − ply − ProvedMargin), so that a move that finishes the game is
//     preferred to one that only keeps a proved win;
//   - Result.HasMustplay restricts the moves to Result.Mustplay (the cells where the side
//     to move can still stop the opponent's winning semi-connections); an empty mustplay
//     is a loss;
//   - at depth 0 the score is Result.Value from the mover's point of view.
//
// At the root a decided evaluation does not end the search, so a move is always
// returned (Outcome.Winner reports the decision).
//
// Move ordering: the transposition-table move first, then the evaluator's scores when it
// implements Orderer (for the exact evaluator: the energy dissipated at each cell in both
// resistor circuits, Anshelevich's ordering), otherwise the evaluator's value of each
// successor (a 1-ply lookahead, one evaluation per candidate). Ties go to the lower cell
// index, so searches are deterministic.
//
// The search plays and undoes stones on the caller's board (hex.Board.PlayStone/Undo),
// calls the Tracker hooks when the evaluator implements Tracker, and allocates nothing
// per node: move lists and scores live in per-ply arrays of the Searcher.
//
// MCTS (mcts.go) is the learned player's search: PUCT selection (the mean backed-up
// score plus an exploration term weighted by a prior, as in AlphaZero, Silver et al.
// 2018) without playouts. Each simulation expands one node with one evaluation (its
// value, tanh-scaled, is backed up) and the evaluator's move ordering (Orderer) as
// the priors of its children, by rank; the tactics evaluator (H-search) is asked near
// the root and at nodes visited often, as MoHex does with its knowledge threshold
// (Arneson, Hayward & Henderson 2010); proved wins and losses propagate up the tree
// (MCTS-solver, Winands, Björnsson & Saito 2008). Its nodes live in one pool reused
// between searches.
package search
