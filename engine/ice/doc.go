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
// patterns) plus the captured patterns of the pattern file. FillIn fills dead and
// captured cells repeatedly until nothing changes (a fixed point).
//
// Every fill-in preserves the game value; the tests check this against a brute-force
// minimax on thousands of random 3x3 to 5x5 positions.
package ice
