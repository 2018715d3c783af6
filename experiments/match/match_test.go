package match

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/gtpfake"
)

// TestMain turns the test binary into a fake GTP engine (internal/gtpfake) when asked.
func TestMain(m *testing.M) {
	gtpfake.Main()
	os.Exit(m.Run())
}

func fake(t *testing.T, name, mode string) *Client {
	t.Helper()
	c, err := Start(name, gtpfake.Command(mode), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func TestWilson(t *testing.T) {
	for _, tc := range []struct {
		k, n   int
		lo, hi float64
	}{
		{50, 100, 0.4038, 0.5962},
		{0, 10, 0, 0.2775},
		{10, 10, 0.7225, 1},
	} {
		lo, hi := Wilson(tc.k, tc.n)
		if math.Abs(lo-tc.lo) > 1e-3 || math.Abs(hi-tc.hi) > 1e-3 {
			t.Errorf("Wilson(%d,%d) = %.4f..%.4f, want %.4f..%.4f", tc.k, tc.n, lo, hi, tc.lo, tc.hi)
		}
	}
}

func TestOpeningCells(t *testing.T) {
	if n := len(OpeningCells(5, 0, 1)); n != 25 {
		t.Fatalf("all openings: %d cells", n)
	}
	a, b := OpeningCells(7, 6, 42), OpeningCells(7, 6, 42)
	if fmt.Sprint(a) != fmt.Sprint(b) || len(a) != 6 {
		t.Fatalf("seeded openings differ or wrong count: %v %v", a, b)
	}
	seen := map[hex.Cell]bool{}
	for _, c := range a {
		if seen[c] || c < 0 || c >= 49 {
			t.Fatalf("bad opening list %v", a)
		}
		seen[c] = true
	}
}

func TestMatchPlaysEveryOpeningBothColours(t *testing.T) {
	ctx := context.Background()
	var games []Game
	cfg := Config{Size: 3, GameDone: func(g Game) { games = append(games, g) }}
	r, err := Run(ctx, cfg, fake(t, "first", "first"), fake(t, "last", "last"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 18 || len(games) != 18 || r.WinsA+r.WinsB != 18 || r.Forfeits != 0 {
		t.Fatalf("result %+v, %d games", r, len(games))
	}
	g := hex.MustGeometry(3, 3)
	for i, gm := range games {
		// Replay each record and check the referee's verdict.
		b := hex.NewBoardGeometry(g)
		for _, m := range gm.Moves {
			if err := b.Play(m); err != nil {
				t.Fatalf("game %d: replay: %v", i, err)
			}
		}
		if b.Winner() != gm.Winner || gm.Reason != "connection" {
			t.Fatalf("game %d: recorded winner %v (%s), board says %v", i, gm.Winner, gm.Reason, b.Winner())
		}
		if gm.Moves[0].Cell != hex.Cell(i/2) || gm.Moves[0].Color != hex.Black {
			t.Fatalf("game %d opening %v", i, gm.Moves[0])
		}
		wantBlack := "first"
		if i%2 == 1 {
			wantBlack = "last"
		}
		if gm.Black != wantBlack {
			t.Fatalf("game %d: black is %s, want %s", i, gm.Black, wantBlack)
		}
	}
	// Same engines, same match: same result.
	r2, err := Run(ctx, Config{Size: 3}, fake(t, "first", "first"), fake(t, "last", "last"))
	if err != nil || r2.WinsA != r.WinsA {
		t.Fatalf("not deterministic: %v vs %v (%v)", r2, r, err)
	}
}

func TestForfeits(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		mode  string
		grace time.Duration
	}{
		{"illegal", 0},
		{"resign", 0},
		{"slow", 300 * time.Millisecond},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			// Adjudication is on: it must not change these losses.
			cfg := Config{Size: 2, Openings: 1, Seed: 3, Grace: tc.grace, Adjudicate: Adjudication{Time: time.Minute}}
			r, err := Run(ctx, cfg, fake(t, "good", "first"), fake(t, tc.mode, tc.mode))
			if err != nil {
				t.Fatal(err)
			}
			// "illegal" may be legal by luck when a1 is empty and it is its turn; every
			// game must still be decided and the faulty engine must win none it forfeited.
			if r.Games != 2 {
				t.Fatalf("games %d", r.Games)
			}
			if tc.mode != "illegal" && r.WinsA != 2 {
				t.Fatalf("%s engine should lose every game: %v", tc.mode, r)
			}
			if tc.mode == "illegal" && r.Forfeits == 0 {
				t.Fatalf("no forfeit recorded: %v", r)
			}
			if tc.mode == "slow" && (r.Forfeits != 2 || r.Adjudicated+r.NoResult != 0) {
				t.Fatalf("time-outs are forfeits: %v", r)
			}
		})
	}
}

func TestWriteGameSGFRoundTrip(t *testing.T) {
	var games []Game
	cfg := Config{Size: 3, Openings: 2, Seed: 9, GameDone: func(g Game) { games = append(games, g) }}
	if _, err := Run(context.Background(), cfg, fake(t, "first", "first"), fake(t, "last", "last")); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	g := hex.MustGeometry(3, 3)
	for _, gm := range games {
		if err := WriteGameSGF(dir, g, gm); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(fmt.Sprintf("%s/game-%04d.sgf", dir, gm.Index+1))
		if err != nil {
			t.Fatal(err)
		}
		b, props, err := hex.ReadSGFProps(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if b.Winner() != gm.Winner || props["PB"] != gm.Black || len(b.Moves()) != len(gm.Moves) {
			t.Fatalf("game %d: SGF gives winner %v, PB %q, %d moves; want %v %q %d",
				gm.Index, b.Winner(), props["PB"], len(b.Moves()), gm.Winner, gm.Black, len(gm.Moves))
		}
	}
}

func TestDeadEngineIsReportedAtOnce(t *testing.T) {
	c, err := Start("ghost", "exit 3", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	_, err = c.Send(context.Background(), "protocol_version", 20*time.Second)
	if !errors.Is(err, ErrEngineDied) {
		t.Fatalf("got %v, want ErrEngineDied", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v to notice a dead engine", d)
	}
}

// TestRestartAfterCrash: an engine that dies during a game loses that game and is
// started again (with its setup hook) for the next one, so one crash costs one game.
func TestRestartAfterCrash(t *testing.T) {
	hooks := 0
	cfg := Config{Size: 3, Openings: 2, Seed: 1, Restarted: func(c *Client) error {
		hooks++
		_, err := c.Send(context.Background(), "protocol_version", 10*time.Second)
		return err
	}}
	var reasons []string
	cfg.GameDone = func(g Game) { reasons = append(reasons, g.Reason) }
	r, err := Run(context.Background(), cfg, fake(t, "good", "first"), fake(t, "crash", "crash"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 4 || r.WinsA != 4 || r.Restarts != 3 || hooks != 3 {
		t.Fatalf("games %d, good wins %d, restarts %d, hooks %d: %+v", r.Games, r.WinsA, r.Restarts, hooks, r)
	}
	for i, why := range reasons {
		if strings.Contains(why, "setup") {
			t.Errorf("game %d never started: %s", i+1, why)
		}
	}
}
