package solver

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		ok   bool
	}{
		{"zero", Config{}, true},
		{"default", DefaultConfig(), true},
		{"default dfs", Config{Algorithm: DFS, NoMoverVC: true, Energy: true, NoLookahead: true}, true},
		{"max tt", Config{TTBits: 26}, true},
		{"unknown algorithm", Config{Algorithm: Algorithm(7)}, false},
		{"negative nodes", Config{MaxNodes: -1}, false},
		{"negative timeout", Config{Timeout: -time.Second}, false},
		{"tt too big", Config{TTBits: 27}, false},
		{"tt negative", Config{TTBits: -1}, false},
		{"lookahead dfpn", Config{NoLookahead: true}, false},
		{"root rank", Config{RootRank: 4}, true},
		{"root rank negative", Config{RootRank: -1}, false},
		{"root rank NaN", Config{RootRank: math.NaN()}, false},
		{"root rank infinite", Config{RootRank: math.Inf(1)}, false},
	}
	b := hex.MustBoard(3, 3)
	for _, tc := range tests {
		err := tc.cfg.Validate()
		if (err == nil) != tc.ok || (err != nil && !errors.Is(err, ErrBadConfig)) {
			t.Errorf("%s: Validate() = %v, want ok=%v", tc.name, err, tc.ok)
		}
		if tc.ok {
			continue
		}
		if _, err := New(tc.cfg).Solve(context.Background(), b); !errors.Is(err, ErrBadConfig) {
			t.Errorf("%s: Solve err %v, want ErrBadConfig", tc.name, err)
		}
	}
}

// countingConnector counts the Connector calls about the side to move's own
// connections.
type countingConnector struct {
	Connector
	moverVC, moverSC int
}

func (c *countingConnector) WinningVC(b *hex.Board, col hex.Color) (hex.Bitset, bool) {
	if col == b.ToMove() {
		c.moverVC++
	}
	return c.Connector.WinningVC(b, col)
}

func (c *countingConnector) WinningSC(b *hex.Board, col hex.Color) (hex.Cell, hex.Bitset, bool) {
	if col == b.ToMove() {
		c.moverSC++
	}
	return c.Connector.WinningSC(b, col)
}

// TestNoMoverVCHonoured checks that both algorithms skip the mover's own connection
// tests with NoMoverVC and make them without it.
func TestNoMoverVCHonoured(t *testing.T) {
	for _, algo := range []Algorithm{DFPN, DFS} {
		for _, noMover := range []bool{false, true} {
			cn := &countingConnector{Connector: vc.NewCompact()}
			s := New(Config{Algorithm: algo, Connector: cn, NoMoverVC: noMover, TTBits: 14})
			if _, err := s.SolveOpenings(context.Background(), 4, 4, nil); err != nil {
				t.Fatal(err)
			}
			calls := cn.moverVC + cn.moverSC
			if noMover && calls != 0 {
				t.Errorf("%s with NoMoverVC: %d calls for the mover's connections, want 0", algo, calls)
			}
			if !noMover && cn.moverSC == 0 {
				t.Errorf("%s without NoMoverVC: no WinningSC call for the mover", algo)
			}
		}
	}
}
