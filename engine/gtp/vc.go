package gtp

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// The virtual-connection commands (engine/vc), with Benzene's names and answer shapes:
//
//	vc-build COLOR                      build COLOR's connections on the current board;
//	                                    answers "full N semi M winning yes|no"
//	vc-between-cells-full COLOR X Y     COLOR's VCs between X and Y (cells or
//	                                    north/south/east/west), one line each:
//	                                    "black north south full or [ c3 d3 ] [ ]"
//	vc-between-cells-semi COLOR X Y     the SCs, same shape, the key in the second bracket
//	vc-get-mustplay COLOR               where COLOR, to move, must play against the
//	                                    opponent's winning SCs and VCs (cells, sorted);
//	                                    empty when the opponent threatens nothing
//	vc-param [NAME VALUE]               show or set the search parameters: xh, max_full,
//	                                    max_semi, max_or, and_over_edge, semi_and,
//	                                    edge_templates, strong_crossing (booleans as
//	                                    0/1); "xh 1" also turns and_over_edge on, as
//	                                    XH-search needs
//
// In full-connection lines the second bracket holds the XH stepping stones (empty
// with H-search), in semi-connection lines the key.
func init() {
	Register("vc-build", cmdVCBuild)
	Register("vc-between-cells-full", func(e *Engine, a []string) (string, error) { return cmdVCBetween(e, a, false) })
	Register("vc-between-cells-semi", func(e *Engine, a []string) (string, error) { return cmdVCBetween(e, a, true) })
	Register("vc-get-mustplay", cmdVCMustplay)
	Register("vc-param", cmdVCParam)
	RegisterAnalyze("none", "VC Build", "vc-build %c")
	RegisterAnalyze("vc", "VC Between Cells Full", "vc-between-cells-full %c %p %p")
	RegisterAnalyze("vc", "VC Between Cells Semi", "vc-between-cells-semi %c %p %p")
	RegisterAnalyze("plist", "VC Get Mustplay", "vc-get-mustplay %c")
	RegisterAnalyze("param", "VC Parameters", "vc-param")
}

// vcState is an engine's connection builder.
type vcState struct {
	b *vc.Builder
}

func vcOf(e *Engine) *vcState {
	return e.State("vc", func() any { return &vcState{b: vc.NewBuilder(vc.DefaultConfig())} }).(*vcState)
}

func vcColor(cmd, s string) (hex.Color, error) {
	c, err := hex.ParseColor(s)
	if err != nil || (c != hex.Black && c != hex.White) {
		return hex.Empty, fmt.Errorf("%s: bad colour %q", cmd, s)
	}
	return c, nil
}

func cmdVCBuild(e *Engine, args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("vc-build: want COLOR, got %d arguments", len(args))
	}
	c, err := vcColor("vc-build", args[0])
	if err != nil {
		return "", err
	}
	st := vcOf(e)
	if err := st.b.Build(e.Board(), c); err != nil {
		return "", err
	}
	nf, ns := st.b.Counts()
	won, _ := st.b.WinningVC()
	w := "no"
	if won {
		w = "yes"
	}
	return fmt.Sprintf("full %d semi %d winning %s", nf, ns, w), nil
}

func cmdVCBetween(e *Engine, args []string, semi bool) (string, error) {
	name := "vc-between-cells-full"
	if semi {
		name = "vc-between-cells-semi"
	}
	if len(args) != 3 {
		return "", fmt.Errorf("%s: want COLOR X Y, got %d arguments", name, len(args))
	}
	c, err := vcColor(name, args[0])
	if err != nil {
		return "", err
	}
	g := e.Board().Geometry()
	x, err := g.ParsePoint(args[1])
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	y, err := g.ParsePoint(args[2])
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	st := vcOf(e)
	if err := st.b.Build(e.Board(), c); err != nil {
		return "", err
	}
	if st.b.PointIndex(x) < 0 || st.b.PointIndex(y) < 0 || st.b.PointIndex(x) == st.b.PointIndex(y) {
		// an opponent stone or edge, or one chain: no connection to list
		return "", nil
	}
	var list []vc.Conn
	if semi {
		list, err = st.b.Semi(x, y)
	} else {
		list, err = st.b.Full(x, y)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %v", name, err)
	}
	kind := "full"
	if semi {
		kind = "semi"
	}
	var sb strings.Builder
	for i := range list {
		cn := &list[i]
		if i > 0 {
			sb.WriteByte('\n')
		}
		fmt.Fprintf(&sb, "%s %s %s %s %s ", strings.ToLower(c.String()), g.CellName(x), g.CellName(y), kind, cn.Rule)
		writeCells(&sb, g, cn.Carrier)
		sb.WriteByte(' ')
		if semi {
			var k hex.Bitset
			if cn.Key != hex.NoCell {
				k.Set(cn.Key)
			}
			writeCells(&sb, g, k)
		} else {
			writeCells(&sb, g, cn.Stones)
		}
	}
	return sb.String(), nil
}

// writeCells writes "[ a1 b2 ]" ("[ ]" when empty).
func writeCells(sb *strings.Builder, g *hex.Geometry, s hex.Bitset) {
	sb.WriteString("[ ")
	if !s.IsEmpty() {
		sb.WriteString(g.FormatCells(s))
		sb.WriteByte(' ')
	}
	sb.WriteByte(']')
}

func cmdVCMustplay(e *Engine, args []string) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("vc-get-mustplay: want COLOR, got %d arguments", len(args))
	}
	c, err := vcColor("vc-get-mustplay", args[0])
	if err != nil {
		return "", err
	}
	st := vcOf(e)
	if err := st.b.Build(e.Board(), c.Opp()); err != nil {
		return "", err
	}
	must, threatened := st.b.Mustplay()
	if !threatened {
		return "", nil
	}
	return e.Board().Geometry().FormatCells(must), nil
}

func cmdVCParam(e *Engine, args []string) (string, error) {
	st := vcOf(e)
	cfg := st.b.Config()
	b01 := func(v bool) string {
		if v {
			return "1"
		}
		return "0"
	}
	if len(args) == 0 {
		return fmt.Sprintf("[bool] xh %s\n[bool] strong_crossing %s\n[bool] and_over_edge %s\n[bool] semi_and %s\n[bool] edge_templates %s\n[string] max_full %d\n[string] max_semi %d\n[string] max_or %d",
			b01(cfg.XH), b01(cfg.StrongCrossing), b01(cfg.AndOverEdge), b01(cfg.SemiAnd), b01(cfg.EdgeTemplates), cfg.MaxFull, cfg.MaxSemi, cfg.MaxOr), nil
	}
	if len(args) != 2 {
		return "", fmt.Errorf("vc-param: want no arguments or NAME VALUE, got %d arguments", len(args))
	}
	name, val := args[0], args[1]
	boolVal := func() (bool, error) {
		switch val {
		case "1", "true":
			return true, nil
		case "0", "false":
			return false, nil
		}
		return false, fmt.Errorf("vc-param: %s wants 0 or 1, got %q", name, val)
	}
	var err error
	switch name {
	case "xh":
		cfg.XH, err = boolVal()
		if cfg.XH {
			cfg.AndOverEdge = true // XH-search needs edges as stepping stones
		}
	case "strong_crossing":
		cfg.StrongCrossing, err = boolVal()
	case "and_over_edge":
		cfg.AndOverEdge, err = boolVal()
	case "semi_and":
		cfg.SemiAnd, err = boolVal()
	case "edge_templates":
		cfg.EdgeTemplates, err = boolVal()
	case "max_full", "max_semi", "max_or":
		n, perr := strconv.Atoi(val)
		if perr != nil {
			return "", fmt.Errorf("vc-param: %s wants an integer, got %q", name, val)
		}
		switch name {
		case "max_full":
			cfg.MaxFull = n
		case "max_semi":
			cfg.MaxSemi = n
		default:
			cfg.MaxOr = n
		}
	default:
		return "", fmt.Errorf("vc-param: unknown parameter %q", name)
	}
	if err != nil {
		return "", err
	}
	if err := st.b.SetConfig(cfg); err != nil {
		return "", fmt.Errorf("vc-param: %v", err)
	}
	return "", nil
}
