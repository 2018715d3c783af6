// Package hex is the Hex core of hexlearn: board geometry for any W x H board up to
// 19x19, cells and colours, a fixed-size bitset for stone sets and connection carriers,
// stones with exact play/undo (board, groups and Zobrist hash), groups by union-find
// with the four edges as members, the winner test, the swap (pie) rule, notation,
// text diagrams, SGF and the true symmetries of the board.
//
// Conventions follow Benzene and HexGui (see docs/design.md): Black moves first and joins
// NORTH (row 1) to SOUTH (row H); White joins WEST (column a) to EAST. Cells are named
// letter-column, number-row; a1 is the top-left, acute corner. The neighbours of
// (x, y) are (x±1, y), (x, y±1), (x+1, y−1) and (x−1, y+1).
//
// Background: Anshelevich (2002), "A hierarchical approach to computer Hex",
// section 2 (rules, and the fact that a filled board has exactly one winner).
package hex
