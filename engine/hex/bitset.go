package hex

import "math/bits"

// bitsetWords is the number of 64-bit words in a Bitset: 6*64 = 384 bits, enough for
// the 361 cells of a 19x19 board plus the four edge points.
const bitsetWords = 6

// Bitset is a fixed-size set of points (cells and edges). It is a value type: copying
// it copies the set, and no operation allocates. The zero value is the empty set.
type Bitset [bitsetWords]uint64

// Set adds p to the set.
func (s *Bitset) Set(p Cell) { s[p>>6] |= 1 << (uint(p) & 63) }

// Clear removes p from the set.
func (s *Bitset) Clear(p Cell) { s[p>>6] &^= 1 << (uint(p) & 63) }

// Has reports whether p is in the set.
func (s *Bitset) Has(p Cell) bool { return s[p>>6]&(1<<(uint(p)&63)) != 0 }

// And returns the intersection of s and t.
func (s Bitset) And(t Bitset) Bitset {
	for i := range s {
		s[i] &= t[i]
	}
	return s
}

// Or returns the union of s and t.
func (s Bitset) Or(t Bitset) Bitset {
	for i := range s {
		s[i] |= t[i]
	}
	return s
}

// AndNot returns s minus t.
func (s Bitset) AndNot(t Bitset) Bitset {
	for i := range s {
		s[i] &^= t[i]
	}
	return s
}

// Xor returns the symmetric difference of s and t.
func (s Bitset) Xor(t Bitset) Bitset {
	for i := range s {
		s[i] ^= t[i]
	}
	return s
}

// IsEmpty reports whether the set has no element.
func (s Bitset) IsEmpty() bool {
	return s[0]|s[1]|s[2]|s[3]|s[4]|s[5] == 0
}

// Intersects reports whether s and t share an element.
func (s *Bitset) Intersects(t *Bitset) bool {
	return s[0]&t[0]|s[1]&t[1]|s[2]&t[2]|s[3]&t[3]|s[4]&t[4]|s[5]&t[5] != 0
}

// SubsetOf reports whether every element of s is in t.
func (s *Bitset) SubsetOf(t *Bitset) bool {
	return s[0]&^t[0]|s[1]&^t[1]|s[2]&^t[2]|s[3]&^t[3]|s[4]&^t[4]|s[5]&^t[5] == 0
}

// Count returns the number of elements.
func (s Bitset) Count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// First returns the smallest element, or NoCell if the set is empty.
func (s *Bitset) First() Cell { return s.Next(0) }

// Next returns the smallest element >= p, or NoCell if there is none. Iterate with
//
//	for p := s.First(); p != NoCell; p = s.Next(p + 1) { ... }
func (s *Bitset) Next(p Cell) Cell {
	if p < 0 {
		p = 0
	}
	i := int(p) >> 6
	if i >= bitsetWords {
		return NoCell
	}
	w := s[i] & (^uint64(0) << (uint(p) & 63))
	for {
		if w != 0 {
			return Cell(i<<6 + bits.TrailingZeros64(w))
		}
		i++
		if i >= bitsetWords {
			return NoCell
		}
		w = s[i]
	}
}

// AppendCells appends the elements in increasing order to dst and returns it.
func (s Bitset) AppendCells(dst []Cell) []Cell {
	for i, w := range s {
		for w != 0 {
			dst = append(dst, Cell(i<<6+bits.TrailingZeros64(w)))
			w &= w - 1
		}
	}
	return dst
}
