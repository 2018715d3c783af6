// Package search is hexlearn's alpha-beta searcher (Kahl, Edelkamp & Hildebrand 2007,
// sections 2 and 6; Anshelevich 2002, section 6). It declares the Evaluator interface it
// consumes.
package search
