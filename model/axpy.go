package model

// add4 adds xs[0]·a + xs[1]·b + xs[2]·c + xs[3]·d to acc, term by term in that order
// for every hidden unit (the same float32 as adding one input at a time). It is plain
// Go on every architecture: models run in pure Go.
func add4(acc []float32, xs [4]float32, a, b, c, d []float32) { add4Go(acc, xs, a, b, c, d) }
