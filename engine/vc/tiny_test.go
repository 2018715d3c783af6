package vc

import (
	"math/rand/v2"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// TestTinyAndFinished: tiny and rectangular boards, and finished games, build without
// error; a colour whose edges are joined reports a winning VC with an empty carrier,
// and a colour that reports a winning VC is never the loser of a finished game.
func TestTinyAndFinished(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	bl := NewBuilder(DefaultConfig())
	xh := NewBuilder(XHConfig())
	for n := 0; n < 400; n++ {
		w, h := 1+r.IntN(4), 1+r.IntN(4)
		b := randomPosition(r, w, h, r.IntN(w*h+1))
		for _, c := range []hex.Color{hex.Black, hex.White} {
			for _, x := range []*Builder{bl, xh} {
				if err := x.Build(b, c); err != nil {
					t.Fatal(err)
				}
				won, car := x.WinningVC()
				switch b.Winner() {
				case c:
					if !won || !car.IsEmpty() {
						t.Fatalf("%v has won but WinningVC = %v %v\n%s", c, won, car, b.Diagram())
					}
				case c.Opp():
					if won {
						t.Fatalf("%v has lost but WinningVC = true\n%s", c, b.Diagram())
					}
				}
				if won && b.Winner() == hex.Empty && !isVC(b, c, firstEdge(c), secondEdge(c), car) {
					t.Fatalf("unsound winning VC %v\n%s", cellList(b.Geometry(), car), b.Diagram())
				}
			}
		}
	}
}

func firstEdge(c hex.Color) hex.Cell  { a, _ := hex.EdgesOf(c); return a }
func secondEdge(c hex.Color) hex.Cell { _, b := hex.EdgesOf(c); return b }
