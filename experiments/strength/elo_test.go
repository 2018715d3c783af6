package strength

import (
	"errors"
	"math"
	"testing"
)

// games returns w games won by a against b.
func games(a, b, w int) []Outcome {
	out := make([]Outcome, w)
	for i := range out {
		out[i] = Outcome{a, b}
	}
	return out
}

func join(gs ...[]Outcome) []Outcome {
	var out []Outcome
	for _, g := range gs {
		out = append(out, g...)
	}
	return out
}

func TestFitEloHandComputed(t *testing.T) {
	// Two players, 3-1: P = 3/4, so 400*log10(3) Elo apart; the information is
	// n p (1-p) = 4 * 3/16 = 0.75, so SE = (400/ln 10) / sqrt(0.75).
	wantDiff := 400 * math.Log10(3)
	wantSE := 400 / math.Ln10 / math.Sqrt(0.75)
	for _, tc := range []struct {
		name   string
		games  []Outcome
		anchor int
		want   [2]float64
	}{
		{"anchor loser", join(games(0, 1, 3), games(1, 0, 1)), 1, [2]float64{wantDiff, 0}},
		{"anchor winner", join(games(0, 1, 3), games(1, 0, 1)), 0, [2]float64{0, -wantDiff}},
		{"swapped", join(games(1, 0, 3), games(0, 1, 1)), 0, [2]float64{0, wantDiff}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FitElo(2, tc.games, tc.anchor)
			if err != nil {
				t.Fatal(err)
			}
			if f.Prior != 0 {
				t.Errorf("prior %v, want 0", f.Prior)
			}
			for i, r := range f.Ratings {
				if !r.Fitted || math.Abs(r.Elo-tc.want[i]) > 1e-6 {
					t.Errorf("player %d: Elo %.4f fitted %v, want %.4f", i, r.Elo, r.Fitted, tc.want[i])
				}
				se := wantSE
				if i == tc.anchor {
					se = 0
				}
				if math.Abs(r.SE-se) > 1e-6 || math.Abs(r.Hi-r.Lo-2*z95*se) > 1e-6 {
					t.Errorf("player %d: SE %.4f interval %.2f..%.2f, want SE %.4f", i, r.SE, r.Lo, r.Hi, se)
				}
			}
		})
	}
	if d := 400 * math.Log10(3); math.Abs(d-190.85) > 0.01 {
		t.Fatalf("400 log10 3 = %v", d)
	}
}

func TestFitEloSymmetry(t *testing.T) {
	// A cycle of equal results gives equal ratings.
	cyc := join(games(0, 1, 2), games(1, 2, 2), games(2, 0, 2), games(1, 0, 1), games(2, 1, 1), games(0, 2, 1))
	f, err := FitElo(3, cyc, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range f.Ratings {
		if math.Abs(r.Elo) > 1e-6 {
			t.Errorf("cycle: player %d Elo %v, want 0", i, r.Elo)
		}
	}
	// Relabelling the players permutes the ratings; differences do not depend on the anchor.
	gs := join(games(0, 1, 5), games(1, 0, 2), games(1, 2, 4), games(2, 1, 3), games(0, 2, 6), games(2, 0, 1))
	f1, err := FitElo(3, gs, 0)
	if err != nil {
		t.Fatal(err)
	}
	perm := []int{2, 0, 1} // old index -> new index
	var pg []Outcome
	for _, g := range gs {
		pg = append(pg, Outcome{perm[g.Winner], perm[g.Loser]})
	}
	f2, err := FitElo(3, pg, perm[1])
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		d1 := f1.Ratings[i].Elo - f1.Ratings[1].Elo
		d2 := f2.Ratings[perm[i]].Elo
		if math.Abs(d1-d2) > 1e-6 {
			t.Errorf("player %d: %v relative to player 1, %v after relabelling", i, d1, d2)
		}
	}
	// SE(0 - 1) is the same whichever of the two is the anchor.
	if se1, se2 := f1.Ratings[1].SE, f2.Ratings[perm[0]].SE; se1 <= 0 || math.Abs(se1-se2) > 1e-6 {
		t.Errorf("SE of player 0 against player 1: %v anchored at 0, %v anchored at 1", se1, se2)
	}
	// The maximum-likelihood equations: every player's expected wins equal its wins.
	for i := 0; i < 3; i++ {
		exp := 0.0
		for _, g := range gs {
			var o int
			switch i {
			case g.Winner:
				o = g.Loser
			case g.Loser:
				o = g.Winner
			default:
				continue
			}
			exp += 1 / (1 + math.Pow(10, (f1.Ratings[o].Elo-f1.Ratings[i].Elo)/400))
		}
		if w := float64(f1.Ratings[i].Wins); math.Abs(exp-w) > 1e-6 {
			t.Errorf("player %d: expected wins %.6f, actual %v", i, exp, w)
		}
	}
}

func TestFitEloDegenerate(t *testing.T) {
	// Player 0 wins everything: the plain estimate is infinite, so one virtual draw per
	// pair is added; player 3 never played and stays unfitted.
	gs := join(games(0, 1, 4), games(0, 2, 4), games(1, 2, 3), games(2, 1, 1))
	f, err := FitElo(4, gs, 1)
	if err != nil {
		t.Fatal(err)
	}
	if f.Prior != 1 {
		t.Errorf("prior %v, want 1", f.Prior)
	}
	r := f.Ratings
	if !(r[0].Elo > r[1].Elo && r[1].Elo > r[2].Elo) || math.IsInf(r[0].Elo, 0) || math.IsNaN(r[0].Elo) {
		t.Errorf("ratings %+v", r)
	}
	if r[3].Fitted || r[3].Games != 0 {
		t.Errorf("player without games: %+v", r[3])
	}
	if f0, _ := FitElo(1, nil, 0); !f0.Ratings[0].Fitted {
		t.Errorf("single player not fitted")
	}
	for _, bad := range []struct {
		n, anchor int
		gs        []Outcome
	}{{0, 0, nil}, {2, 2, nil}, {2, 0, []Outcome{{0, 0}}}, {2, 0, []Outcome{{0, 5}}}} {
		if _, err := FitElo(bad.n, bad.gs, bad.anchor); !errors.Is(err, ErrFit) {
			t.Errorf("FitElo(%d, %v, %d): %v, want ErrFit", bad.n, bad.gs, bad.anchor, err)
		}
	}
}
