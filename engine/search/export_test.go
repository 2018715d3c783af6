package search

// UnconsultedNearRoot counts the nodes of m's tree that are expanded, open, under
// open nodes only and less than VCPlies plies from the root but were never shown to the tactics evaluator: a
// fresh search leaves none, and neither must a kept subtree.
func UnconsultedNearRoot(m *MCTS) int {
	n := 0
	var walk func(idx int32, ply int)
	walk = func(idx int32, ply int) {
		nd := &m.pool[idx]
		if ply >= m.p.VCPlies || nd.first < 0 {
			return
		}
		if nd.proven != 0 {
			return // decided: its children are never searched
		}
		if !nd.tact {
			n++
		}
		for i := nd.first; i < nd.first+nd.n; i++ {
			walk(i, ply+1)
		}
	}
	if len(m.pool) > 0 {
		walk(0, 0)
	}
	return n
}
