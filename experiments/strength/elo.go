package strength

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrFit is returned when the Elo fit cannot be computed (bad input, no convergence).
var ErrFit = errors.New("strength: elo fit")

// eloScale converts the Bradley–Terry strength θ (natural log of the odds) to Elo
// points: P(i beats j) = 1 / (1 + 10^((r_j-r_i)/400)) = 1 / (1 + e^(θ_j-θ_i)).
const eloScale = 400 / math.Ln10

// z95 is the two-sided 95% quantile of the normal distribution.
const z95 = 1.959963984540054

// Outcome is one decisive game: player Winner beat player Loser (indices). Hex has no
// draws; forfeits count as wins for the other side.
type Outcome struct{ Winner, Loser int }

// Rating is one player's fitted Elo.
type Rating struct {
	Fitted bool    `json:"fitted"` // false: no chain of games links the player to the anchor
	Elo    float64 `json:"elo"`    // Elo relative to the anchor (0 for the anchor)
	SE     float64 `json:"se"`     // standard error of Elo - anchor, from the Fisher information
	Lo     float64 `json:"lo"`     // 95% interval: Elo ± 1.96 SE
	Hi     float64 `json:"hi"`
	Games  int     `json:"games"`
	Wins   int     `json:"wins"`
}

// Fit is a maximum-likelihood Bradley–Terry (Elo) fit over all games.
type Fit struct {
	Ratings []Rating `json:"ratings"`
	Anchor  int      `json:"anchor"` // the player whose Elo is fixed at 0
	// Prior is the number of virtual drawn games added to every pair that played, only
	// when the plain maximum-likelihood estimate does not exist (some group of players
	// won, or lost, every game against the rest, which would put them at ±infinity).
	Prior float64 `json:"prior"`
}

// FitElo fits Elo ratings to the games between n players by maximum likelihood,
// anchored so that player anchor has Elo 0. The 95% intervals come from the inverse of
// the observed Fisher information. Players not linked to the anchor by games are left
// unfitted. When the plain estimate would be infinite (the "beat" graph of the linked
// players is not strongly connected), one virtual draw per played pair is added and
// Fit.Prior says so.
func FitElo(n int, games []Outcome, anchor int) (Fit, error) {
	if n < 1 || anchor < 0 || anchor >= n {
		return Fit{}, fmt.Errorf("%w: %d players, anchor %d", ErrFit, n, anchor)
	}
	wins := make([][]float64, n) // wins[i][j]: games i won against j
	for i := range wins {
		wins[i] = make([]float64, n)
	}
	fit := Fit{Ratings: make([]Rating, n), Anchor: anchor}
	for _, g := range games {
		if g.Winner < 0 || g.Winner >= n || g.Loser < 0 || g.Loser >= n || g.Winner == g.Loser {
			return Fit{}, fmt.Errorf("%w: bad game %d beats %d among %d players", ErrFit, g.Winner, g.Loser, n)
		}
		wins[g.Winner][g.Loser]++
		fit.Ratings[g.Winner].Games++
		fit.Ratings[g.Winner].Wins++
		fit.Ratings[g.Loser].Games++
	}
	// The players linked to the anchor by games.
	in := reach(n, anchor, func(i, j int) bool { return wins[i][j]+wins[j][i] > 0 })
	var idx []int // fitted players, anchor first
	idx = append(idx, anchor)
	for i := 0; i < n; i++ {
		if in[i] && i != anchor {
			idx = append(idx, i)
		}
	}
	fit.Ratings[anchor].Fitted = true
	if len(idx) == 1 {
		return fit, nil
	}
	if !stronglyConnected(idx, wins) {
		fit.Prior = 1
		for _, i := range idx {
			for _, j := range idx {
				if i != j && wins[i][j]+wins[j][i] > 0 {
					wins[i][j] += fit.Prior / 2
				}
			}
		}
	}
	theta, cov, err := newtonBT(idx, wins)
	if err != nil {
		return Fit{}, err
	}
	for k, i := range idx {
		r := &fit.Ratings[i]
		r.Fitted = true
		r.Elo = eloScale * theta[k]
		if k > 0 {
			r.SE = eloScale * math.Sqrt(cov.At(k-1, k-1))
		}
		r.Lo, r.Hi = r.Elo-z95*r.SE, r.Elo+z95*r.SE
	}
	return fit, nil
}

// reach returns the players reachable from start along edge(i, j).
func reach(n, start int, edge func(i, j int) bool) []bool {
	seen := make([]bool, n)
	seen[start] = true
	stack := []int{start}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := 0; j < n; j++ {
			if !seen[j] && edge(i, j) {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	return seen
}

// stronglyConnected reports whether, among the players idx, every player can be
// reached from the first along "beat" edges and the first from every player: the
// condition (Zermelo, Ford) for a finite maximum-likelihood estimate.
func stronglyConnected(idx []int, wins [][]float64) bool {
	n := len(wins)
	member := make([]bool, n)
	for _, i := range idx {
		member[i] = true
	}
	fwd := reach(n, idx[0], func(i, j int) bool { return member[i] && member[j] && wins[i][j] > 0 })
	back := reach(n, idx[0], func(i, j int) bool { return member[i] && member[j] && wins[j][i] > 0 })
	for _, i := range idx {
		if !fwd[i] || !back[i] {
			return false
		}
	}
	return true
}

// newtonBT maximises the Bradley–Terry log-likelihood over the players idx with
// θ[idx[0]] fixed at 0, by Newton's method with step halving (the log-likelihood is
// concave). It returns θ for idx and the covariance (inverse observed information) of
// the free θ's.
func newtonBT(idx []int, wins [][]float64) ([]float64, *mat.SymDense, error) {
	m := len(idx)
	theta := make([]float64, m)
	loglik := func(th []float64) float64 {
		var ll float64
		for a := 0; a < m; a++ {
			for b := 0; b < m; b++ {
				if w := wins[idx[a]][idx[b]]; w > 0 {
					ll -= w * math.Log1p(math.Exp(th[b]-th[a]))
				}
			}
		}
		return ll
	}
	// gradHess returns the gradient and the negative Hessian over the free θ's.
	gradHess := func(th []float64) ([]float64, *mat.SymDense) {
		g := make([]float64, m)
		h := mat.NewSymDense(m-1, nil)
		for a := 0; a < m; a++ {
			for b := a + 1; b < m; b++ {
				wab, wba := wins[idx[a]][idx[b]], wins[idx[b]][idx[a]]
				nab := wab + wba
				if nab == 0 {
					continue
				}
				p := 1 / (1 + math.Exp(th[b]-th[a])) // P(a beats b)
				g[a] += wab - nab*p
				g[b] += wba - nab*(1-p)
				info := nab * p * (1 - p)
				if a > 0 {
					h.SetSym(a-1, a-1, h.At(a-1, a-1)+info)
				}
				if b > 0 {
					h.SetSym(b-1, b-1, h.At(b-1, b-1)+info)
				}
				if a > 0 && b > 0 {
					h.SetSym(a-1, b-1, h.At(a-1, b-1)-info)
				}
			}
		}
		return g[1:], h
	}
	ll := loglik(theta)
	for iter := 0; iter < 200; iter++ {
		g, h := gradHess(theta)
		var chol mat.Cholesky
		if !chol.Factorize(h) {
			return nil, nil, fmt.Errorf("%w: information matrix not positive definite", ErrFit)
		}
		var step mat.VecDense
		if err := chol.SolveVecTo(&step, mat.NewVecDense(m-1, g)); err != nil {
			return nil, nil, fmt.Errorf("%w: %v", ErrFit, err)
		}
		maxStep := 0.0
		for k := 0; k < m-1; k++ {
			maxStep = math.Max(maxStep, math.Abs(step.AtVec(k)))
		}
		if maxStep < 1e-12 {
			break
		}
		for t := 1.0; ; t /= 2 {
			next := append([]float64(nil), theta...)
			for k := 1; k < m; k++ {
				next[k] += t * step.AtVec(k-1)
			}
			if nl := loglik(next); nl >= ll-1e-12 || t < 1e-10 {
				theta, ll = next, nl
				break
			}
		}
	}
	_, h := gradHess(theta)
	var chol mat.Cholesky
	if !chol.Factorize(h) {
		return nil, nil, fmt.Errorf("%w: information matrix not positive definite", ErrFit)
	}
	var cov mat.SymDense
	if err := chol.InverseTo(&cov); err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrFit, err)
	}
	return theta, &cov, nil
}
