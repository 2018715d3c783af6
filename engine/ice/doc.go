// Package ice implements inferior cell analysis for Hex (Henderson, Arneson & Hayward
// 2009, "Solving 8x8 Hex", section 3 "Inferior cell analysis"; Björnsson et al. 2007).
//
// A cell is dead if it lies on no minimal winning path: its colour never decides the
// game, so it may be filled with either colour. A set of empty cells is P-captured if
// P has a second-player strategy inside the set that leaves every cell dead or with a
// P-stone; filling it with P-stones keeps the game value. An empty cell c is
// P-vulnerable (to killer k) if after a Q-stone at k the cell c is dead; a P-move to c
// is then no better than a P-move to k. An empty cell c is P-capture-dominated by d if a
// P-stone at d makes c part of a P-captured set; a P-move to c is then no better than
// a P-move to d.
//
// Dead cells are found three ways: by the neighbourhood-clique rule (the P-neighbours
// of c, with P's groups contracted, are pairwise adjacent, so any path through c can be
// shortened: c is on no minimal P-path and hence dead), by the clique-cutset rule of
// section 3 (the empty neighbours of a P-group form a clique; cells that the clique
// cuts off from P's edges are on no minimal P-path), and by the local patterns of the
// embedded pattern file patterns.txt (see ParsePatterns for its syntax; every pattern
// is proved by brute force in the tests). Captured sets are cell pairs whose mutual
// replies kill the intruder (this covers the classic edge and bridge-pocket captured
// patterns) plus the captured patterns of the pattern file. The pattern file's
// inferior patterns add cells that are permanently inferior for the opponent: filling
// them with the owner's stones keeps the value while the pattern's empty cells (its
// support, Result.Support) hold no opponent stone; a proof of the owner's win on the filled board
// needs the support as well. FillIn fills dead, captured and inferior cells
// repeatedly until nothing changes (a fixed point).
//
// Local domination (LocalDominated). A P-move at a dominates a P-move at b (P to move)
// when the value after P plays a is at least the value after P plays b. Let R be a, b
// and their neighbours, with a and b adjacent; the ring is the cells next to R; cells
// off the board stand for the edge they lie across. Outside R only the ring's stones
// are known. A port of a set C of R-cells is a ring cell next to C that is empty or a
// P-stone, or one of P's edges next to C. Two rules are proved by brute force over the
// colourings of R's other empty cells (stones stay fixed):
//
//   - Rule 1 (completion domination). For every colouring, let fill2 = (b: P, a:
//     opponent) and fill1 = (a: P, b: opponent); let C be fill2's P-component of R
//     through b. Every two ports p, q of C must be adjacent, or joined through fill1's
//     sure P points: P-cells of R under fill1, the ring's P-stones and P's edges (a
//     set of such points, connected, containing or next to both). Then every
//     completed board P wins under fill2 P wins under fill1: a minimal winning path
//     meets C (the other fill2 components of R lie inside fill1 ones) between two
//     ports p and q, both P on that board, and the stretch through C can be replaced
//     by the fill1 join. P after playing a copies a winning strategy for the position
//     after b, answering the opponent's move at b as if it were at a (and playing b
//     where the strategy plays a); the final boards differ only by swapping a and b,
//     or not at all. (A cell b that is dead once P holds a passes this rule.)
//   - Rule 2 (capture after a). For some empty c next to both a and b, with a: P, for every colouring
//     of the rest, the P-component through b of (b: P, c: P) has its ports joined as
//     above under (b: opponent, c: P), and the component through c likewise under (c:
//     opponent, b: P). Then after P plays a the pair {b, c} is P-captured (P answers a
//     move into it with the other cell; either outcome wins every board (b: P, c: P)
//     wins), so P at a is worth P at a, b and c, which is worth P at b (extra own
//     stones never hurt in Hex).
//
// Both rules hold whatever happens outside R and whatever R's other empty cells
// become, so a domination stays valid when other empty cells are filled (proof sets
// need only the dominator). Domination is a preorder: LocalDominated reports a cell
// only when a dominator is still unreported, so following dominators never loops. The
// verdict per region (P's colour, the direction from a to b and the contents of the
// 22 other positions of R and the ring) is memoised in a table shared by all
// analyzers.
//
// Every fill-in preserves the game value; the tests check this against a brute-force
// minimax on thousands of random 3x3 to 5x5 positions.
package ice
