package gtp

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// tinyModel returns a 3x3 network with seeded random weights.
func tinyModel() *model.Model {
	r := rand.New(rand.NewPCG(1, 2))
	n := model.Net{MinPly: 0, MaxPly: 9, Hidden: 4, W1: make([]float32, 36), B1: make([]float32, 4), W2: make([]float32, 4)}
	for i := range n.W1 {
		n.W1[i] = float32(r.NormFloat64() / 3)
	}
	for i := range n.W2 {
		n.W2[i] = float32(r.NormFloat64() / 2)
	}
	return &model.Model{W: 3, H: 3, Target: model.TargetValue, Output: model.OutputTanh,
		Scaling: model.Scaling{Scale: 1}, Nets: []model.Net{n}}
}

// onlyCell declares every non-empty board won for Black when Black holds cell c and
// won for White otherwise: a verdict that contradicts both evaluators.
type onlyCell hex.Cell

func (c onlyCell) Decided(b *hex.Board) hex.Color {
	switch {
	case b.NumStones() == 0:
		return hex.Empty
	case b.At(hex.Cell(c)) == hex.Black:
		return hex.Black
	}
	return hex.White
}

func TestLearnedPlayerGenmove(t *testing.T) {
	e := New()
	e.SetPlayer(Player{Model: tinyModel(), Params: search.Params{Depth: 2, K: 4}})
	for _, c := range []string{"boardsize 3", "clear_board"} {
		if ok, ans := exec(t, e, c); !ok {
			t.Fatalf("%s: %s", c, ans)
		}
	}
	ok, ans := exec(t, e, "genmove b")
	if !ok {
		t.Fatalf("genmove: %s", ans)
	}
	if _, err := e.Board().Geometry().ParseCell(ans); err != nil {
		t.Fatalf("genmove answered %q", ans)
	}
	// Another board size is refused with the model's error, and the engine keeps serving.
	exec(t, e, "boardsize 4")
	ok, ans = exec(t, e, "genmove b")
	if ok || !strings.Contains(ans, "another board size") {
		t.Fatalf("genmove on 4x4 with a 3x3 model: ok=%v %q", ok, ans)
	}
	if ok, _ := exec(t, e, "name"); !ok {
		t.Fatal("engine stopped serving")
	}
}

func TestPlayerTerminalDecides(t *testing.T) {
	// a1 loses 3x3 for Black, but the terminal test says it is the only win: a depth-1
	// search for Black must follow the terminal test, whatever the evaluator thinks.
	g := hex.MustGeometry(3, 3)
	a1, _ := g.ParseCell("a1")
	for _, p := range []Player{
		{Model: tinyModel(), Terminal: onlyCell(a1), Params: search.Params{Depth: 1}},
		{Terminal: onlyCell(a1), Params: search.Params{Depth: 1}},
	} {
		e := New()
		e.SetPlayer(p)
		exec(t, e, "boardsize 3")
		ok, ans := exec(t, e, "genmove b")
		if !ok || ans != "a1" {
			t.Errorf("%s: genmove b = %v %q, want a1", p.Describe(), ok, ans)
		}
	}
}

func TestPlayerDescribeAndCheck(t *testing.T) {
	m := tinyModel()
	if d := (Player{XH: true}).Describe(); !strings.Contains(d, "XH") {
		t.Errorf("describe: %q", d)
	}
	if d := (Player{Model: m}).Describe(); !strings.Contains(d, "learned") {
		t.Errorf("describe: %q", d)
	}
	err := Player{Model: m}.checkBoard(hex.MustBoard(5, 5))
	if !errors.Is(err, model.ErrWrongSize) {
		t.Errorf("checkBoard: %v", err)
	}
	if v := m.ValueOf(0); math.IsNaN(v) {
		t.Error("model value NaN")
	}
}
