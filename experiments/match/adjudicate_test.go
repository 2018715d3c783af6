package match

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
	"github.com/hexlearn/hexlearn/internal/gtpfake"
)

// TestAdjudicateOracle: on random unfinished 4x4 positions the verdict is the brute
// force's winner, with the side to move taken from the last move's colour.
func TestAdjudicateOracle(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	memo := map[uint64]bool{}
	for i := 0; i < 60; i++ {
		// at most DieEmpty empty cells: a quick brute force
		b := brute.RandomPosition(rng, 4, 16-gtpfake.DieEmpty+rng.Intn(6))
		moves := b.Moves()
		v, err := Adjudicate(context.Background(), 4, moves, Adjudication{Time: time.Minute})
		if err != nil {
			t.Fatal(err)
		}
		want := b.ToMove()
		if !brute.Wins(b, memo) {
			want = want.Opp()
		}
		if v.ToMove != moves[len(moves)-1].Color.Opp() || v.Winner != want {
			t.Fatalf("after %v: verdict %+v, want %v to move and winner %v", moves, v, moves[len(moves)-1].Color.Opp(), want)
		}
	}
	// Unsolved within a tiny node limit on a large board: no winner, no error.
	v, err := Adjudicate(context.Background(), 11, []hex.Move{{Color: hex.Black, Cell: 60}}, Adjudication{MaxNodes: 1})
	if err != nil || v.Winner != hex.Empty || v.ToMove != hex.White {
		t.Fatalf("11x11 with 1 node: %+v, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Adjudicate(ctx, 11, []hex.Move{{Color: hex.Black, Cell: 60}}, Adjudication{Time: time.Minute}); err != context.Canceled {
		t.Fatalf("cancelled: %v", err)
	}
	if err := (Adjudication{Time: -1}).Validate(); err == nil {
		t.Fatal("negative time accepted")
	}
}

// finalPosition replays a game's moves.
func finalPosition(t *testing.T, size int, moves []hex.Move) *hex.Board {
	t.Helper()
	b := hex.MustBoard(size, size)
	for _, m := range moves {
		if err := b.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestDeadEngineAdjudicated: engines that die in won positions, in lost positions and
// while told the opponent's move are credited with the final position's true winner
// (the brute force's), never with a forfeit.
func TestDeadEngineAdjudicated(t *testing.T) {
	memo := map[uint64]bool{}
	for _, mode := range []string{"diewon", "dielost", "dieplay"} {
		t.Run(mode, func(t *testing.T) {
			var games []Game
			cfg := Config{Size: 4, Openings: 4, Seed: 2, Adjudicate: Adjudication{Time: time.Minute},
				GameDone: func(g Game) { games = append(games, g) }}
			r, err := Run(context.Background(), cfg, fake(t, "good", "first"), fake(t, mode, mode))
			if err != nil {
				t.Fatal(err)
			}
			died := 0
			for _, g := range games {
				if g.Died == hex.Empty {
					if g.End != EndConnection {
						t.Errorf("game %d: %s without a death", g.Index+1, g.Describe())
					}
					continue
				}
				died++
				dier := g.Black
				if g.Died == hex.White {
					dier = g.White
				}
				b := finalPosition(t, 4, g.Moves)
				if dier != mode || b.ToMove() != g.Died || g.Verdict.ToMove != g.Died {
					t.Fatalf("game %d: %s died (%s to move, verdict %v to move)", g.Index+1, dier, b.ToMove(), g.Verdict.ToMove)
				}
				want := g.Died
				if !brute.Wins(b, memo) {
					want = g.Died.Opp()
				}
				switch {
				case mode == "diewon" && want != g.Died, mode == "dielost" && want == g.Died:
					t.Fatalf("game %d: the fake died in the wrong position", g.Index+1)
				case mode == "dieplay" && !strings.Contains(g.Failure, `during "play `):
					t.Fatalf("game %d: the fake died on %s", g.Index+1, g.Failure)
				case g.End != EndAdjudicated || g.Winner != want:
					t.Errorf("game %d: %s, want a win for %v", g.Index+1, g.Describe(), want)
				case !strings.Contains(g.Describe(), want.Letter()+"+ ("+title(g.Died)+" died, adjudicated: solved win for "+title(want)+")"):
					t.Errorf("game %d: %q", g.Index+1, g.Describe())
				}
			}
			if died == 0 || r.Adjudicated != died || r.NoResult != 0 || r.Forfeits != 0 || r.Decided() != r.Games {
				t.Fatalf("%d deaths, result %+v", died, r)
			}
			t.Logf("%s: %d of %d games adjudicated", mode, died, r.Games)
			if !strings.Contains(r.String(), "adjudicated ") {
				t.Errorf("summary %q", r.String())
			}
		})
	}
}

// TestDeadEngineUnsolved: a death in a position the solver does not decide within its
// limit is no result: counted in Games and NoResult, in neither side's wins nor in the
// win rate, and written as RE[Void].
func TestDeadEngineUnsolved(t *testing.T) {
	var games []Game
	cfg := Config{Size: 11, Openings: 1, Seed: 1, Adjudicate: Adjudication{MaxNodes: 1},
		GameDone: func(g Game) { games = append(games, g) }}
	r, err := Run(context.Background(), cfg, fake(t, "good", "first"), fake(t, "crash", "crash"))
	if err != nil {
		t.Fatal(err)
	}
	if r.Games != 2 || r.NoResult != 2 || r.WinsA+r.WinsB != 0 || r.Decided() != 0 || r.WinRate() != 0 || r.Lo != 0 || r.Hi != 1 {
		t.Fatalf("result %+v", r)
	}
	if !strings.Contains(r.String(), "adjudicated 0, no result 2") {
		t.Errorf("summary %q", r.String())
	}
	dir := t.TempDir()
	g := hex.MustGeometry(11, 11)
	for _, gm := range games {
		if gm.End != EndNoResult || gm.Winner != hex.Empty || gm.Result() != "Void" ||
			!strings.HasPrefix(gm.Describe(), "no result (") || !strings.Contains(gm.Reason, "unsolved within 1 node") {
			t.Errorf("game %d: %s", gm.Index+1, gm.Describe())
		}
		if err := WriteGameSGF(dir, g, gm); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, "game-0001.sgf"))
		if err != nil {
			t.Fatal(err)
		}
		_, props, err := hex.ReadSGFProps(f)
		f.Close()
		if err != nil || props["RE"] != "Void" || !strings.Contains(props["C"], "crash) died: match: engine died") {
			t.Fatalf("SGF: %v %v", props, err)
		}
		if e, ok := SGFEnd(props); !ok || e != EndNoResult {
			t.Errorf("SGFEnd: %v %v", e, ok)
		}
	}
}

// TestAdjudicationOff: with no limits set, the old rule holds and an engine that dies
// loses the game it died in, even a won one. (TestForfeits checks that a time-out
// stays a loss with adjudication on.)
func TestAdjudicationOff(t *testing.T) {
	var games []Game
	cfg := Config{Size: 4, Openings: 4, Seed: 2, GameDone: func(g Game) { games = append(games, g) }}
	r, err := Run(context.Background(), cfg, fake(t, "good", "first"), fake(t, "diewon", "diewon"))
	if err != nil {
		t.Fatal(err)
	}
	died := 0
	for _, g := range games {
		if g.Died != hex.Empty {
			died++
			if g.End != EndForfeit || g.Winner != g.Died.Opp() || !strings.HasPrefix(g.Reason, "engine failure: ") {
				t.Errorf("game %d: %s", g.Index+1, g.Describe())
			}
		}
	}
	if died == 0 || r.Forfeits != died || r.Adjudicated != 0 || r.NoResult != 0 {
		t.Fatalf("%d deaths, result %+v", died, r)
	}
}

// TestSGFEnd: every ending written to SGF reads back as itself.
func TestSGFEnd(t *testing.T) {
	g := hex.MustGeometry(3, 3)
	dir := t.TempDir()
	base := Game{Black: "x", White: "y", Moves: []hex.Move{{Color: hex.Black, Cell: 4}}}
	for i, gm := range []Game{
		{End: EndResign, Winner: hex.White, Reason: "resign"},
		{End: EndForfeit, Winner: hex.Black, Reason: "time-out"},
		{End: EndAdjudicated, Winner: hex.Black, Died: hex.White, Reason: "White died" + adjudicatedMark + "Black", Failure: "gone",
			Verdict: Verdict{ToMove: hex.White, Winner: hex.Black, Nodes: 3}},
		{End: EndNoResult, Died: hex.White, Reason: "White died, no result: unsolved within 1 s", Failure: "gone"},
	} {
		gm.Black, gm.White, gm.Moves, gm.Index = base.Black, base.White, base.Moves, i
		if err := WriteGameSGF(dir, g, gm); err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, "game-000"+string(rune('1'+i))+".sgf"))
		if err != nil {
			t.Fatal(err)
		}
		_, props, err := hex.ReadSGFProps(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if e, ok := SGFEnd(props); !ok || e != gm.End || props["RE"] != gm.Result() {
			t.Errorf("%s: read back %v (%v), RE %q", gm.Describe(), e, ok, props["RE"])
		}
	}
	if e, ok := SGFEnd(hex.SGFProps{"RE": "B+"}); !ok || e != EndConnection {
		t.Errorf("plain B+: %v %v", e, ok)
	}
	if _, ok := SGFEnd(hex.SGFProps{}); ok {
		t.Error("no RE read as known")
	}
}
