package hex

import "testing"

func TestQuickPlayUndoWinner(t *testing.T) {
	b := MustBoard(3, 3)
	h0 := b.Hash()
	ms, err := b.Geometry().ParseMoves("b1 a1 b2 a2 b3")
	if err != nil {
		t.Fatal(err)
	}
	if err := b.PlayMoves(ms); err != nil {
		t.Fatal(err)
	}
	if b.Winner() != Black {
		t.Fatalf("winner %v\n%s", b.Winner(), b)
	}
	for b.Undo() {
	}
	if b.Hash() != h0 || b.Winner() != Empty {
		t.Fatal("undo did not restore")
	}
	d, err := ParseDiagram(MustBoard(4, 4).Diagram())
	if err != nil || d.Width() != 4 || d.Height() != 4 {
		t.Fatal(err)
	}
	b2, _ := ParsePosition(5, 5, "c2 swap-pieces")
	if b2.At(b2.Geometry().At(1, 2)) != White || b2.ToMove() != Black {
		t.Fatalf("swap wrong\n%s", b2)
	}
	b2.Undo()
	if b2.At(b2.Geometry().At(2, 1)) != Black || b2.ToMove() != White {
		t.Fatalf("swap undo wrong\n%s", b2)
	}
}
