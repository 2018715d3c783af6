package hex

// SplitMix64 is Steele, Lea & Flood's SplitMix64 generator: a 64-bit state that
// each Next advances by the golden-ratio increment and mixes into an output. It is
// the fixed-seed source of the Zobrist keys here and in engine/solver, and the
// playouts' random numbers in engine/search (hot paths: no allocation, inlined).
type SplitMix64 uint64

// Next advances the state and returns the next pseudo-random number.
func (s *SplitMix64) Next() uint64 {
	*s += 0x9E3779B97F4A7C15
	z := uint64(*s)
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}
