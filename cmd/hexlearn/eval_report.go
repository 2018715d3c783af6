package main

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// learnedReport is one learned evaluator's value in the --json output of hexlearn eval.
type learnedReport struct {
	Model   string  `json:"model"`
	Value   float64 `json:"value"`
	Seconds float64 `json:"seconds"`
}

// evalReport is the --json output of hexlearn eval.
type evalReport struct {
	Size         int            `json:"size"`
	Moves        string         `json:"moves"`
	ToMove       string         `json:"to_move"`
	RB           jsonFloat      `json:"r_b"`
	RW           jsonFloat      `json:"r_w"`
	LnRB         float64        `json:"ln_r_b"`
	LnRW         float64        `json:"ln_r_w"`
	E            float64        `json:"e"`
	Value        float64        `json:"value"`
	Winner       string         `json:"winner"`
	BlackVC      bool           `json:"black_vc"`
	WhiteVC      bool           `json:"white_vc"`
	BlackCarrier []string       `json:"black_carrier,omitempty"`
	WhiteCarrier []string       `json:"white_carrier,omitempty"`
	Mustplay     []string       `json:"mustplay,omitempty"`
	BlackFull    int            `json:"black_vcs"`
	BlackSemi    int            `json:"black_scs"`
	WhiteFull    int            `json:"white_vcs"`
	WhiteSemi    int            `json:"white_scs"`
	VCMode       string         `json:"vc_mode"`
	XH           bool           `json:"xh"`
	Seconds      float64        `json:"seconds"`
	Learned      *learnedReport `json:"learned,omitempty"`
}

// jsonFloat encodes +Inf as the string "inf" (JSON has no infinity).
type jsonFloat float64

func (f jsonFloat) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(f), 1) {
		return []byte(`"inf"`), nil
	}
	return json.Marshal(float64(f))
}

func fmtR(r float64) string {
	if math.IsInf(r, 1) {
		return "inf"
	}
	return fixed4(r)
}

// fixed4 formats v with 4 decimals, never as "-0.0000" (a value that rounds to zero
// is shown without a sign).
func fixed4(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	if s == "-0.0000" {
		return "0.0000"
	}
	return s
}

func colorName(c hex.Color) string {
	if c == hex.Empty {
		return ""
	}
	return c.String()
}

func cellNames(g *hex.Geometry, s hex.Bitset) []string {
	out := []string{}
	for p := s.First(); p != hex.NoCell; p = s.Next(p + 1) {
		out = append(out, g.CellName(p))
	}
	return out
}

func vcText(ok bool, carrier []string) string {
	if !ok {
		return "none"
	}
	return fmt.Sprintf("yes (carrier %v)", carrier)
}

// decidedText says who has won or has a proved win, and why.
func decidedText(b *hex.Board, w hex.Color, blackVC, whiteVC bool) string {
	switch {
	case w == hex.Empty:
		return "no"
	case b.Winner() == w:
		return w.String() + " has won (a chain joins its edges)"
	case w == hex.Black && blackVC || w == hex.White && whiteVC:
		return w.String() + " wins (a winning virtual connection)"
	case w == b.ToMove():
		return w.String() + " wins (a winning semi-connection: " + w.String() + " moves next)"
	}
	return w.String() + " wins"
}
