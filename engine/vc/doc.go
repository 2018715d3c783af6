// Package vc computes virtual connections for one colour of a Hex position:
// Anshelevich's H-search ("A hierarchical approach to computer Hex", Artificial
// Intelligence 134, 2002, sections 2–4 and appendix A) and its XH-search extension by
// Henderson, Arneson and Hayward ("Hex, braids, the crossing rule, and XH-search",
// 2009, sections 2–5).
//
// # Points, connections, carriers
//
// The points of a colour are its chains (maximal groups of its stones; the colour's two
// edges are permanently its stones, so a chain touching an edge is that edge's group) and
// the empty cells. A chain is named by its union-find root (hex.Board.Find); an edge
// point given to a query is mapped to its group automatically. Opponent stones and the
// opponent's edges are not points.
//
// A full connection (VC, Anshelevich's virtual connection, definition 2) between two
// points x, y with carrier A (a set of empty cells not containing x or y) is a subgame
// the colour wins even when the opponent moves first inside A. A semi connection (SC,
// definition 3) is one it wins moving first; its key is the first move (the key is in
// the carrier). Only minimal carriers are kept: a connection whose carrier is a superset
// of another one's with the same ends is dropped, and an SC whose carrier contains a VC
// carrier with the same ends is dropped.
//
// # Rules
//
//   - base: adjacent points have a VC with the empty carrier (remark 1 of section 2);
//     with Config.EdgeTemplates also every placement of an edge template (the ziggurat,
//     template IIIa of Anshelevich's appendix B, and eight templates with a support stone;
//     both mirror images, both edges; on in DefaultConfig, off in AnshelevichConfig and
//     XHConfig) whose supports hold the colour's stones and whose
//     region holds no opponent stone is a VC between its anchor and the edge, carrying
//     the region's empty cells (templates.go draws them as text; the tests prove each
//     with the brute-force oracle, brute.Carrier.Prove);
//   - AND (section 3): VCs x–u and u–y with disjoint carriers, x not in the second and
//     y not in the first, give a VC x–y when u is a chain and an SC x–y keyed at u when u
//     is empty; with Config.SemiAnd also an SC x–u and a VC u–y through a chain u give an
//     SC x–y with the same key (XH paper, Lemma 4). Config.AndOverEdge allows an edge
//     group as midpoint (Melis's extension used by Six and Wolve).
//   - OR (section 3 and appendix A's recursive procedure): SCs x–y whose carriers have an
//     empty common intersection give a VC x–y carrying their union; at most
//     Config.MaxOr SCs are combined (Hexy's K; default 6). With Config.GreedyOr the
//     OR rule is instead the FastVC search's (Pawlewicz, Hayward, Henderson and
//     Arneson, "Stronger Virtual Connections in Hex", 2015): greedy unions of any
//     number of SCs, one for each cell it can take out of the intersection of the
//     pair's VC carriers, worked on from a queue of their own when the AND rule's
//     queue is empty.
//   - Crossing Rule and Strong Crossing Rule (XH paper, section 3), with Config.XH:
//     three pairwise disjoint SCs between empty cells x, y whose stepping-stone sets
//     differ give an SC between each pair of differing stepping stones; the strong form
//     lets their pairwise overlaps lie in the captured carrier of an edge bridge of
//     the key.
//
// Stepping stones are the SS* sets of the XH paper (Lemmas 1–4 and 6): empty for base
// VCs, OR VCs and crossing SCs, the union of both parts for AND, plus the midpoint when
// it is a chain. They are only computed with Config.XH.
//
// At most Config.MaxFull VCs and Config.MaxSemi SCs are kept per endpoint pair (Hexy's M;
// defaults 6 and 16, AnshelevichConfig uses Hexy's 20), the smallest carriers first;
// with Config.ReduceFull a VC is kept only when it shrinks the intersection of its
// pair's carriers or replaces a superset (FastVC's soft limit; FastVCConfig). The search runs over a work queue of endpoint pairs
// (XH paper, section 5) until no new connection is produced or, with Config.StopAtWin,
// as soon as the winning VC between the colour's edges is found (section 4).
//
// Of SCs with equal carriers between the same points only the one with the smallest key
// is kept. With no list limits, and without ReduceFull and GreedyOr, the connections kept are then the minimal elements of
// the least fixed point of the rules, independent of the order of deduction; this is
// what makes the incremental update exact.
//
// # Deciding a position
//
// Decide reports what both colours' connections decide: a winner, or the mustplay of the
// side to move. FillDecider decides a copy of the position after inferior cell analysis
// (engine/ice fill-in of dead and captured cells, which keeps the game value), so that
// connections may run through captured cells; on the solved 8x8 set of the tests it
// decides 141 of 200 positions where Decide decides 132, in about 0.4 times the time
// (TestSolvedSet asserts the counts, BenchmarkSolvedDecide times them; docs/results.md).
// circuit.ExactConfig.FillIn uses it.
//
// # A quick test
//
// Quick is a far cheaper, sound and incomplete test for the same decisions (about a
// microsecond on 8x8, for every node of a search): greedy links through two free common
// cells and ziggurats with pairwise disjoint carriers, and one-move SCs over them. See
// its documentation.
//
// # Incremental update
//
// Builder.Play updates the connections after one stone (of either colour) is played,
// as Hexy keeps its lists across moves: an opponent stone removes exactly the
// connections through its cell; an own stone merges its cell and the adjacent chains
// into one chain, takes the cell out of every carrier (an SC keyed there becomes a VC),
// unites the merged pairs' lists and reruns the rules from what changed. Without list
// limits the result equals a Build of the new position (TestPlayEqualsBuild); with
// limits it is sound but may keep other connections. Edge templates keep it exact (an
// opponent stone in a template's region removes it, an own stone leaves its carrier).
// With XH, StopAtWin, MaxWork, or (without AndOverEdge) an own stone joining an edge group,
// Play rebuilds. PlayUndoable is Play that saves the state first; Undo restores it
// exactly (TestPlayUndoRestores), so a search can take moves back without rebuilding.
//
// # One engine, generated per carrier width
//
// The deduction engine (work queue, AND, OR and crossing rules, minimality) is written
// once, in internal/gen/hsearch.go.tmpl, and generated for one-word carriers (boards of
// at most 64 cells) in lists of 16-byte records of its own (hsearch_w1.go, packed.go;
// H-search) and in the Builder's Conn lists (hsearch_w1c.go; XH-search, and Play after
// a Build), two-word carriers (at most 128, hsearch_w2.go) and whole bitsets
// (hsearch_wn.go) by "go generate ./engine/vc"; TestGeneratedFilesUpToDate fails while
// a generated file is stale. The queries convert the one-word records to Conns when
// asked. Compact, the solver's edge-to-edge H-search, is a thin layer over the
// Builder (the one-word instance on boards of up to 64 cells; compact.go).
//
// # Use
//
// A Builder owns every buffer; reuse it. The first Build on a board size sizes every
// buffer for that size (with the list limits of the configuration: one arena holds
// MaxFull VCs and MaxSemi SCs for every possible endpoint pair); after it, H-search
// Builds and Plays allocate nothing (TestZeroAlloc). Query results (slices of Conn)
// belong to the Builder and stay valid until the next Build or Play.
//
//	bl := vc.NewBuilder(vc.DefaultConfig())
//	if err := bl.Build(board, hex.Black); err != nil { ... }
//	won, carrier := bl.WinningVC()
//	must := bl.Mustplay() // where White, to move, must play
//	board.PlayStone(hex.White, p)
//	if err := bl.Play(board, p); err != nil { ... } // same as bl.Build(board, hex.Black)
package vc
