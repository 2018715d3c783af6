// Package patterns is hexlearn's goal-pattern database (Kahl, Edelkamp & Hildebrand
// 2007, "Learning How to Play Hex", section 5).
//
// Tree is the limited branching tree (LB-tree) of section 5.2: a subset dictionary of
// sorted sets over a small universe, one trie per distinct first element (Algorithm 1
// inserts, Algorithm 2 answers containment queries: is some stored set inside the
// query?), here path-compressed in flat arrays so a lookup allocates nothing and takes
// microseconds.
//
// DB adapts it to Hex (section 5.3): a winning pattern is a Black north–south
// connection, its stones plus the empty cells of its carrier, encoded with (cell, state)
// pairs as in Theorem 3 so that matching is monotone (a position matches when every
// pattern stone is Black and no carrier cell is White). Only Black patterns are stored;
// White positions are looked up through the colour-exchanging diagonal reflection. Each
// pattern is inserted with its true symmetric variants (translations along the rows and
// the 180° rotation). Verify is the exhaustive oracle that a pattern really wins; the
// file format is versioned and checksummed.
package patterns
