// Package circuit evaluates Hex positions with Anshelevich's electrical resistor
// circuits (Anshelevich 2002, "A hierarchical approach to computer Hex", section 5;
// the energy move ordering of section 6).
//
// Each colour has its own circuit. In Black's circuit a cell has resistance 0 when it
// holds a black stone, 1 when it is empty, and +inf (it is removed) when it holds a
// white stone; two neighbouring points are joined by a link of resistance r(c1)+r(c2).
// Black's two edges (North and South) are the terminals and have resistance 0. White's
// circuit is the same with the colours exchanged and West/East as terminals. Stones of
// one group (and the edge that group touches) are joined by links of resistance 0, so
// the solver merges them into one node.
//
// Virtual connections discovered by H-search are added in one of the two ways the
// paper describes (see VCMode): as extra links between the ends of each connection
// (LinkEnds, with a resistance higher than a neighbour link), or by treating the empty
// neighbours of one end of a connection between two stones as neighbours of the other
// end (ShareNeighbours).
//
// R_B and R_W are the total resistances between each colour's edges, obtained by
// solving Kirchhoff's equations with the two terminals held at potentials 1 and 0.
// Anshelevich's evaluation is E = log(R_B/R_W): it is negative when Black is closer to
// connecting. hexlearn reports values from Black's point of view everywhere, so
//
//	Value = ln(R_W/R_B) = -E      (positive favours Black).
//
// Degenerate circuits are clamped so values are always finite: a colour whose edges are
// already joined has R = 0 and ln R is taken as -LogClamp; a colour that is cut off has
// R = +inf and ln R is taken as +LogClamp. Values therefore lie in [-MaxValue,
// MaxValue] (MaxValue = 2*LogClamp) and are never NaN.
//
// The grounded Laplacian is sparse, symmetric and positive definite. Nodes are
// numbered in cell order (a group at its last cell), which gives a narrow profile
// (about the board width W), and the system is solved by an envelope (skyline)
// Cholesky factorisation with reusable buffers; a dense gonum Cholesky and a
// Jacobi-preconditioned conjugate gradient are kept as alternatives (Config.Solver)
// and as test oracles. See the benchmarks in circuit_bench_test.go.
//
// Exact combines the circuit with H-search virtual connections (package vc) into the
// exact evaluator consumed by package search.
package circuit
