package solver

import (
	"context"
	"errors"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

func TestTrueWinnerAndLabeler(t *testing.T) {
	tests := []struct {
		moves string
		to    hex.Color
		want  hex.Color
	}{
		{"d1", hex.White, hex.Black},
		{"a1", hex.White, hex.White},
		{"", hex.Black, hex.Black},
		{"", hex.White, hex.White},
	}
	l := NewLabeler(0)
	for _, tc := range tests {
		b, err := hex.ParsePosition(4, 4, tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		b.SetToMove(tc.to)
		got, err := TrueWinner(context.Background(), b, 0)
		if err != nil || got != tc.want {
			t.Errorf("TrueWinner(4x4 %q, %s to move) = %v, %v; want %v", tc.moves, tc.to, got, err, tc.want)
		}
		got, err = l.Winner(context.Background(), b)
		if err != nil || got != tc.want {
			t.Errorf("Labeler(4x4 %q, %s to move) = %v, %v; want %v", tc.moves, tc.to, got, err, tc.want)
		}
	}
	// a node limit too small to solve 7x7 from the empty board without VCs
	b := hex.MustBoard(7, 7)
	if _, err := Solve(context.Background(), b, Config{MaxNodes: 3, TTBits: 10}); !errors.Is(err, ErrLimit) {
		t.Errorf("7x7 with 3 nodes: err = %v, want ErrLimit", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, b, Config{TTBits: 10}); !errors.Is(err, ErrLimit) {
		t.Errorf("cancelled context: err = %v, want ErrLimit", err)
	}
	// a decided position is answered without search
	done, _ := hex.ParsePosition(2, 2, "a1 b1 a2")
	r, err := Solve(context.Background(), done, Config{TTBits: 10})
	if err != nil || r.Winner != hex.Black || r.Move != hex.NoCell {
		t.Errorf("decided position: %+v, %v", r, err)
	}
}

func TestWinningMoves(t *testing.T) {
	s := New(DefaultConfig())
	b := hex.MustBoard(4, 4)
	wins, all, _, err := s.WinningMoves(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range wins {
		got = append(got, b.Geometry().CellName(c))
	}
	if len(all) != 16 || len(got) != 4 || got[0] != "d1" || got[1] != "c2" || got[2] != "b3" || got[3] != "a4" {
		t.Errorf("4x4 winning first moves = %v (of %d), want d1 c2 b3 a4", got, len(all))
	}
}
