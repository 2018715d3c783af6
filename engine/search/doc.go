// Package search is hexlearn's alpha-beta searcher (Kahl, Edelkamp & Hildebrand 2007,
// sections 2 and 6; Anshelevich 2002, section 6; Henderson, Arneson & Hayward 2009,
// "Solving 8x8 Hex", section 2 for the mustplay). It declares the Evaluator interface it
// consumes.
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
package search
