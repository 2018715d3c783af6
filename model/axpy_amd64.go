package model

// add4SSE is add4 on the first n hidden units (n a multiple of 4) in SSE, part of the
// amd64 baseline (axpy_amd64.s).
//
//go:noescape
func add4SSE(acc *float32, n int, xs *[4]float32, a, b, c, d *float32)

// add4 adds xs[0]·a + xs[1]·b + xs[2]·c + xs[3]·d to acc, term by term in that order
// for every hidden unit (the same float32 as adding one input at a time).
func add4(acc []float32, xs [4]float32, a, b, c, d []float32) {
	n := len(acc) &^ 3
	a, b, c, d = a[:len(acc)], b[:len(acc)], c[:len(acc)], d[:len(acc)]
	if n > 0 {
		add4SSE(&acc[0], n, &xs, &a[0], &b[0], &c[0], &d[0])
	}
	add4Go(acc[n:], xs, a[n:], b[n:], c[n:], d[n:])
}
