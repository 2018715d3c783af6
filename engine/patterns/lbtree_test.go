package patterns

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
)

// linearSets is the oracle: a plain list of sets as bitsets, scanned in full.
type linearSets struct {
	u    int
	sets []Bits
}

func (l *linearSets) add(p []Elem) {
	b := NewBits(l.u)
	b.SetAll(p)
	for _, s := range l.sets {
		if slices.Equal(s, b) {
			return
		}
	}
	l.sets = append(l.sets, b)
}

func (l *linearSets) containsSubsetOf(q Bits) bool {
	for _, s := range l.sets {
		ok := true
		for i := range s {
			if s[i]&^q[i] != 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (l *linearSets) containsSuperset(q Bits) bool {
	for _, s := range l.sets {
		ok := true
		for i := range s {
			if q[i]&^s[i] != 0 {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// randomSet returns a sorted random subset of {0..u-1} of size about k.
func randomSet(r *rand.Rand, u, k int) []Elem {
	seen := map[Elem]bool{}
	for i := 0; i < k; i++ {
		seen[Elem(r.IntN(u))] = true
	}
	out := make([]Elem, 0, len(seen))
	for e := range seen {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

func sortedOf(b Bits, u int) []Elem {
	var out []Elem
	for e := 0; e < u; e++ {
		if b.Has(Elem(e)) {
			out = append(out, Elem(e))
		}
	}
	return out
}

// TestTreeAgainstLinearScan: on random set families and random queries the LB-tree
// answers containment and subset queries exactly as a linear scan, and Walk returns
// exactly the inserted sets.
func TestTreeAgainstLinearScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 200; trial++ {
		u := 1 + r.IntN(70)
		tr, err := NewTree(u)
		if err != nil {
			t.Fatal(err)
		}
		lin := &linearSets{u: u}
		nsets := r.IntN(60)
		k := 1 + r.IntN(8)
		for i := 0; i < nsets; i++ {
			p := randomSet(r, u, r.IntN(k+1))
			before := len(lin.sets)
			lin.add(p)
			added, err := tr.Insert(p)
			if err != nil {
				t.Fatal(err)
			}
			if added != (len(lin.sets) > before) {
				t.Fatalf("trial %d: Insert(%v) reported added=%v, linear scan disagrees", trial, p, added)
			}
		}
		if tr.Len() != len(lin.sets) {
			t.Fatalf("trial %d: Len %d, want %d", trial, tr.Len(), len(lin.sets))
		}
		if trial%2 == 0 {
			tr.Optimize() // the layout changes, the answers must not
			// Inserting after Optimize keeps working.
			p := randomSet(r, u, k)
			lin.add(p)
			tr.Insert(p)
		}
		var walked int
		tr.Walk(func(p []Elem) bool {
			b := NewBits(u)
			b.SetAll(p)
			if !slices.ContainsFunc(lin.sets, func(s Bits) bool { return slices.Equal(s, b) }) {
				t.Fatalf("trial %d: Walk returned %v, never inserted", trial, p)
			}
			walked++
			return true
		})
		if walked != tr.Len() {
			t.Fatalf("trial %d: Walk gave %d sets, want %d", trial, walked, tr.Len())
		}
		q := NewBits(u)
		for j := 0; j < 100; j++ {
			qs := randomSet(r, u, r.IntN(u+1))
			q.SetAll(qs)
			if got, want := tr.ContainsSubsetOf(q), lin.containsSubsetOf(q); got != want {
				t.Fatalf("trial %d: ContainsSubsetOf(%v) = %v, linear scan %v", trial, qs, got, want)
			}
			// FindSubsetOf: the same answer, and the set it names is stored and inside q
			found, ok := tr.FindSubsetOf(q, nil)
			if ok != lin.containsSubsetOf(q) {
				t.Fatalf("trial %d: FindSubsetOf(%v) found=%v, ContainsSubsetOf disagrees", trial, qs, ok)
			}
			if ok {
				fb := NewBits(u)
				fb.SetAll(found)
				if !slices.IsSorted(found) || !slices.ContainsFunc(lin.sets, func(s Bits) bool { return slices.Equal(s, fb) }) {
					t.Fatalf("trial %d: FindSubsetOf(%v) named %v, never inserted", trial, qs, found)
				}
				for _, e := range found {
					if !q.Has(e) {
						t.Fatalf("trial %d: FindSubsetOf(%v) named %v, not inside the query", trial, qs, found)
					}
				}
			}
			qs = randomSet(r, u, r.IntN(4))
			q.SetAll(qs)
			got, err := tr.ContainsSuperset(qs)
			if err != nil {
				t.Fatal(err)
			}
			if want := lin.containsSuperset(q); got != want {
				t.Fatalf("trial %d: ContainsSuperset(%v) = %v, linear scan %v", trial, qs, got, want)
			}
		}
	}
}

func TestTreeExamples(t *testing.T) {
	tr, _ := NewTree(10)
	for _, p := range [][]Elem{{1, 3, 5}, {1, 3, 6}, {1, 4}, {2, 3}} {
		if ok, err := tr.Insert(p); !ok || err != nil {
			t.Fatalf("Insert(%v) = %v, %v", p, ok, err)
		}
	}
	if ok, _ := tr.Insert([]Elem{1, 3, 5}); ok {
		t.Error("duplicate insert reported new")
	}
	if ok, _ := tr.Insert([]Elem{1, 3}); !ok {
		t.Error("prefix insert (splits a node) not reported new")
	}
	tests := []struct {
		q    []Elem
		want bool
	}{
		{[]Elem{1, 3}, true},
		{[]Elem{1, 5, 6}, false},
		{[]Elem{1, 4, 9}, true},
		{[]Elem{0, 2, 3}, true},
		{[]Elem{2, 4, 5, 6}, false},
		{nil, false},
	}
	q := NewBits(10)
	for _, tc := range tests {
		q.SetAll(tc.q)
		if got := tr.ContainsSubsetOf(q); got != tc.want {
			t.Errorf("ContainsSubsetOf(%v) = %v, want %v", tc.q, got, tc.want)
		}
	}
	if got, _ := tr.ContainsSuperset([]Elem{3, 6}); !got {
		t.Error("ContainsSuperset({3,6}) = false, want true ({1,3,6})")
	}
	if got, _ := tr.ContainsSuperset([]Elem{4, 5}); got {
		t.Error("ContainsSuperset({4,5}) = true, want false")
	}
	if tr.Len() != 5 || tr.Nodes() == 0 || tr.Bytes() == 0 {
		t.Errorf("Len %d Nodes %d Bytes %d", tr.Len(), tr.Nodes(), tr.Bytes())
	}
	// The empty set is contained in everything.
	if ok, _ := tr.Insert(nil); !ok {
		t.Error("empty set insert not new")
	}
	q.Clear()
	if !tr.ContainsSubsetOf(q) {
		t.Error("empty set stored but empty query not matched")
	}
}

func TestTreeBadInput(t *testing.T) {
	if _, err := NewTree(0); err == nil {
		t.Error("NewTree(0) succeeded")
	}
	if _, err := NewTree(MaxUniverse + 1); err == nil {
		t.Error("NewTree(MaxUniverse+1) succeeded")
	}
	tr, _ := NewTree(8)
	for _, p := range [][]Elem{{3, 2}, {1, 1}, {8}, {0, 100}} {
		if _, err := tr.Insert(p); !errors.Is(err, ErrBadSet) {
			t.Errorf("Insert(%v) error %v, want ErrBadSet", p, err)
		}
		if _, err := tr.ContainsSuperset(p); !errors.Is(err, ErrBadSet) {
			t.Errorf("ContainsSuperset(%v) error %v, want ErrBadSet", p, err)
		}
	}
	if tr.Len() != 0 {
		t.Errorf("bad inserts changed Len to %d", tr.Len())
	}
}

func TestTreeLookupAllocatesNothing(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	tr, _ := NewTree(200)
	for i := 0; i < 1000; i++ {
		tr.Insert(randomSet(r, 200, 12))
	}
	q := NewBits(200)
	q.SetAll(randomSet(r, 200, 150))
	qs := randomSet(r, 200, 2)
	if a := testing.AllocsPerRun(100, func() {
		tr.ContainsSubsetOf(q)
		tr.ContainsSuperset(qs)
	}); a != 0 {
		t.Errorf("lookups allocate %v times", a)
	}
}

// FuzzTree: sets and queries derived from fuzz bytes; the tree must agree with the
// linear scan.
func FuzzTree(f *testing.F) {
	f.Add([]byte{3, 1, 2, 0, 5, 6, 7, 0, 1, 2, 5, 6, 7})
	f.Add([]byte{0, 0, 0})
	f.Add([]byte{40, 1, 2, 3, 0, 4, 5, 0, 1, 2, 3, 4, 5, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		const u = 48
		tr, _ := NewTree(u)
		lin := &linearSets{u: u}
		// Bytes form sets separated by 0; the last set is the query.
		var sets [][]Elem
		cur := NewBits(u)
		for _, b := range data {
			if b == 0 {
				sets = append(sets, sortedOf(cur, u))
				cur.Clear()
				continue
			}
			cur.Add(Elem(int(b) % u))
		}
		query := cur
		for _, p := range sets {
			if _, err := tr.Insert(p); err != nil {
				t.Fatal(err)
			}
			lin.add(p)
		}
		if len(data)%2 == 0 {
			tr.Optimize()
		}
		if got, want := tr.ContainsSubsetOf(query), lin.containsSubsetOf(query); got != want {
			t.Fatalf("ContainsSubsetOf = %v, linear scan %v (sets %v, query %v)", got, want, sets, sortedOf(query, u))
		}
		got, err := tr.ContainsSuperset(sortedOf(query, u))
		if err != nil {
			t.Fatal(err)
		}
		if want := lin.containsSuperset(query); got != want {
			t.Fatalf("ContainsSuperset = %v, linear scan %v", got, want)
		}
		if tr.Len() != len(lin.sets) {
			t.Fatalf("Len %d, want %d", tr.Len(), len(lin.sets))
		}
	})
}

func TestTreeShortQuery(t *testing.T) {
	tr, _ := NewTree(200)
	tr.Insert([]Elem{3, 150})
	tr.Insert([]Elem{5})
	if !tr.ContainsSubsetOf(Bits{1 << 5}) {
		t.Error("short query containing {5} not matched")
	}
	if tr.ContainsSubsetOf(Bits{1 << 3}) {
		t.Error("short query: missing words must count as empty")
	}
	if tr.ContainsSubsetOf(nil) {
		t.Error("nil query matched")
	}
}
