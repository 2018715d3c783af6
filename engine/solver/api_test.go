package solver

import (
	"context"
	"errors"
	"math/rand"
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
	// a cancelled search stops at its first node (a node on a fresh table can cost a
	// tenth of a second, so a stop every few nodes misses the one-second promise)
	for _, alg := range []Algorithm{DFPN, DFS} {
		cfg := DefaultConfig()
		cfg.Algorithm, cfg.TTBits = alg, 10
		r, err := Solve(ctx, b, cfg)
		if !errors.Is(err, ErrLimit) || r.Stats.Nodes != 1 {
			t.Errorf("%v, cancelled context: %d nodes, err %v; want 1 node and ErrLimit", alg, r.Stats.Nodes, err)
		}
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

func TestAlgorithmNamesAndBadConfig(t *testing.T) {
	if DFPN.String() != "dfpn" || DFS.String() != "dfs" || Algorithm(7).String() != "unknown" {
		t.Fatalf("names: %s %s %s", DFPN, DFS, Algorithm(7))
	}
	b := hex.MustBoard(3, 3)
	_, err := New(Config{Algorithm: Algorithm(7)}).Solve(context.Background(), b)
	if !errors.Is(err, ErrBadConfig) {
		t.Fatalf("unknown algorithm: err %v, want ErrBadConfig", err)
	}
}

// TestDFPNAndDFSAgree solves random 5x5 and 6x6 positions with both algorithms
// (DefaultConfig otherwise) and checks that they agree on the winner, and that a
// reported winning move of the side to move keeps the win (solved again after it).
func TestDFPNAndDFSAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	dfpn := New(DefaultConfig())
	dcfg := DefaultConfig()
	dcfg.Algorithm = DFS
	dfs := New(dcfg)
	n := 120
	if testing.Short() {
		n = 30
	}
	for i := 0; i < n; i++ {
		size := 5 + rng.Intn(2)
		b := randomPosition(rng, size, 4+rng.Intn(size*size/2))
		r1, err := dfpn.Solve(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		r2, err := dfs.Solve(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		if r1.Winner != r2.Winner {
			t.Fatalf("DFPN says %s, DFS says %s\n%s", r1.Winner, r2.Winner, b.Diagram())
		}
		if r1.Winner == b.ToMove() && r1.Move != hex.NoCell {
			c := b.Clone()
			c.PlayStone(c.ToMove(), r1.Move)
			r3, err := dfs.Solve(context.Background(), c)
			if err != nil {
				t.Fatal(err)
			}
			if r3.Winner != r1.Winner {
				t.Fatalf("DFPN's winning move %s loses\n%s", b.Geometry().CellName(r1.Move), b.Diagram())
			}
		}
	}
}
