package hex

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// SGF for Hex (GM[11]) as HexGui and Benzene read and write it:
//
//	(;FF[4]GM[11]SZ[11]PB[alice]PW[bob]
//	;B[f6];W[swap-pieces];B[e7];W[resign])
//
// SZ is "n" for an n x n board or "w:h" for a rectangular one. Moves are B[cell] and
// W[cell] with cells named as on the board (a1 is the top-left corner), plus the
// special values swap-pieces (also read: swap) and resign. Setup stones are AB and
// AW, AE empties cells, PL names the side to move. Like HexGui, the reader also
// accepts Little Golem's Go-style points ("cc" for c3).

// SGFProps are the properties of an SGF game's root node other than the ones the
// board itself determines (FF, GM, SZ and the root's setup stones): for example
// PB, PW, RE, DT, EV, AP or C. Keys are SGF property identifiers; values are plain
// text (the writer escapes them, the reader unescapes them).
type SGFProps map[string]string

// ErrSGF is wrapped by every error ReadSGF returns for a malformed or unsupported
// file.
var ErrSGF = errors.New("bad SGF")

// maxSGFBytes bounds what ReadSGF reads; a Hex game is a few kilobytes.
const maxSGFBytes = 16 << 20

// maxSGFDepth bounds the nesting of variations.
const maxSGFDepth = 1000

// ReadSGF reads the main line (the first variation at every branch) of the first game
// of an SGF Hex file and returns the board after it: moves are played as moves, AB and
// AW stones as setup stones, PL sets the side to move. Without SZ the board is 11x11.
// An AE property turns the history so far into setup stones (the board has no way to
// remove a stone otherwise). Errors name the node and the offending value.
func ReadSGF(r io.Reader) (*Board, error) {
	b, _, err := ReadSGFProps(r)
	return b, err
}

// ReadSGFProps is ReadSGF that also returns the root node's other properties (the
// first value of each).
func ReadSGFProps(r io.Reader) (*Board, SGFProps, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxSGFBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrSGF, err)
	}
	if len(data) > maxSGFBytes {
		return nil, nil, fmt.Errorf("%w: file larger than %d bytes", ErrSGF, maxSGFBytes)
	}
	p := &sgfParser{s: data, line: 1}
	nodes, err := p.mainLine()
	if err != nil {
		return nil, nil, err
	}
	return applySGF(nodes)
}

// sgfProp is one property of a node: its identifier and its values.
type sgfProp struct {
	id   string
	vals []string
}

type sgfNode struct {
	line  int
	props []sgfProp
}

func (n *sgfNode) get(id string) *sgfProp {
	for i := range n.props {
		if n.props[i].id == id {
			return &n.props[i]
		}
	}
	return nil
}

type sgfParser struct {
	s    []byte
	i    int
	line int
}

func (p *sgfParser) errorf(format string, a ...any) error {
	return fmt.Errorf("%w: line %d: %s", ErrSGF, p.line, fmt.Sprintf(format, a...))
}

// skipSpace skips white space, counting lines.
func (p *sgfParser) skipSpace() {
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case '\n':
			p.line++
		case ' ', '\t', '\r', '\v', '\f':
		default:
			return
		}
		p.i++
	}
}

func (p *sgfParser) peek() (byte, bool) {
	p.skipSpace()
	if p.i >= len(p.s) {
		return 0, false
	}
	return p.s[p.i], true
}

// mainLine finds the first game tree and returns the nodes of its main line.
func (p *sgfParser) mainLine() ([]sgfNode, error) {
	for p.i < len(p.s) && p.s[p.i] != '(' {
		if p.s[p.i] == '\n' {
			p.line++
		}
		p.i++
	}
	if p.i >= len(p.s) {
		return nil, p.errorf("no game tree (no '(')")
	}
	var nodes []sgfNode
	if err := p.tree(&nodes, true, 0); err != nil {
		return nil, err
	}
	if len(nodes) == 0 {
		return nil, p.errorf("empty game tree")
	}
	return nodes, nil
}

// tree parses "(" sequence {tree} ")". When keep is set, the nodes of the sequence and
// of the first sub-tree are appended to nodes; other variations are parsed and dropped.
func (p *sgfParser) tree(nodes *[]sgfNode, keep bool, depth int) error {
	if depth > maxSGFDepth {
		return p.errorf("variations nested deeper than %d", maxSGFDepth)
	}
	if c, ok := p.peek(); !ok || c != '(' {
		return p.errorf("expected '('")
	}
	p.i++
	seen := 0
	for {
		c, ok := p.peek()
		if !ok {
			return p.errorf("game tree not closed (missing ')')")
		}
		switch c {
		case ';':
			if seen > 0 {
				return p.errorf("node after a variation")
			}
			p.i++
			n, err := p.node()
			if err != nil {
				return err
			}
			if keep {
				*nodes = append(*nodes, n)
			}
		case '(':
			if err := p.tree(nodes, keep && seen == 0, depth+1); err != nil {
				return err
			}
			seen++
		case ')':
			p.i++
			return nil
		default:
			return p.errorf("unexpected %q", c)
		}
	}
}

// node parses the properties after a ';'.
func (p *sgfParser) node() (sgfNode, error) {
	n := sgfNode{line: p.line}
	for {
		c, ok := p.peek()
		if !ok || c == ';' || c == '(' || c == ')' {
			return n, nil
		}
		if !isLetter(c) {
			return n, p.errorf("unexpected %q in a node", c)
		}
		var id strings.Builder
		for p.i < len(p.s) && isLetter(p.s[p.i]) {
			if c := p.s[p.i]; c >= 'A' && c <= 'Z' { // FF[3] lower-case letters are ignored
				id.WriteByte(c)
			}
			p.i++
		}
		if id.Len() == 0 {
			return n, p.errorf("property identifier without capital letters")
		}
		prop := sgfProp{id: id.String()}
		for {
			if c, ok := p.peek(); !ok || c != '[' {
				break
			}
			p.i++
			v, err := p.value()
			if err != nil {
				return n, err
			}
			prop.vals = append(prop.vals, v)
		}
		if len(prop.vals) == 0 {
			return n, p.errorf("property %s has no value", prop.id)
		}
		if n.get(prop.id) != nil {
			return n, p.errorf("property %s twice in one node", prop.id)
		}
		n.props = append(n.props, prop)
	}
}

// value reads a property value after its '[' up to the closing ']', resolving
// escapes and soft line breaks.
func (p *sgfParser) value() (string, error) {
	start := p.line
	var sb strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch c {
		case ']':
			return sb.String(), nil
		case '\\':
			if p.i >= len(p.s) {
				break
			}
			e := p.s[p.i]
			p.i++
			switch e {
			case '\n': // soft line break
				p.line++
				if p.i < len(p.s) && p.s[p.i] == '\r' {
					p.i++
				}
			case '\r':
				if p.i < len(p.s) && p.s[p.i] == '\n' {
					p.i++
				}
				p.line++
			default:
				sb.WriteByte(e)
			}
		case '\n':
			p.line++
			sb.WriteByte(c)
		default:
			sb.WriteByte(c)
		}
	}
	return "", fmt.Errorf("%w: line %d: property value not closed (missing ']')", ErrSGF, start)
}

func isLetter(c byte) bool { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') }

// applySGF builds the board from the main line's nodes.
func applySGF(nodes []sgfNode) (*Board, SGFProps, error) {
	root := &nodes[0]
	props := SGFProps{}
	w, h := 11, 11
	for _, pr := range root.props {
		v := strings.TrimSpace(pr.vals[0])
		switch pr.id {
		case "GM":
			if v != "11" {
				return nil, nil, fmt.Errorf("%w: GM[%s] is not Hex (GM[11])", ErrSGF, v)
			}
		case "FF":
			if n, err := strconv.Atoi(v); err != nil || n < 1 || n > 4 {
				return nil, nil, fmt.Errorf("%w: unsupported FF[%s]", ErrSGF, v)
			}
		case "SZ":
			var err error
			if w, h, err = parseSGFSize(v); err != nil {
				return nil, nil, err
			}
		case "B", "W", "AB", "AW", "AE", "PL":
		default:
			props[pr.id] = pr.vals[0]
		}
	}
	b, err := NewBoard(w, h)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %v", ErrSGF, err)
	}
	for i := range nodes {
		if err := applySGFNode(b, &nodes[i], i == 0); err != nil {
			return nil, nil, fmt.Errorf("%w: node %d (line %d): %v", ErrSGF, i+1, nodes[i].line, err)
		}
	}
	return b, props, nil
}

func parseSGFSize(v string) (w, h int, err error) {
	ws, hs, rect := strings.Cut(v, ":")
	w, err1 := strconv.Atoi(strings.TrimSpace(ws))
	h, err2 := w, error(nil)
	if rect {
		h, err2 = strconv.Atoi(strings.TrimSpace(hs))
	}
	if err1 != nil || err2 != nil || w < 1 || h < 1 || w > MaxSize || h > MaxSize {
		return 0, 0, fmt.Errorf("%w: SZ[%s] (want n or w:h with sides 1..%d)", ErrSGF, v, MaxSize)
	}
	return w, h, nil
}

func applySGFNode(b *Board, n *sgfNode, isRoot bool) error {
	if !isRoot {
		for _, id := range []string{"SZ", "GM"} {
			if n.get(id) != nil {
				return fmt.Errorf("%s outside the root node", id)
			}
		}
	}
	if ae := n.get("AE"); ae != nil {
		empty := make([]Cell, 0, len(ae.vals))
		for _, v := range ae.vals {
			p, err := parseSGFPoint(b.g, v)
			if err != nil {
				return fmt.Errorf("AE: %v", err)
			}
			empty = append(empty, p)
		}
		removeStones(b, empty)
	}
	for _, set := range []struct {
		id string
		c  Color
	}{{"AB", Black}, {"AW", White}} {
		pr := n.get(set.id)
		if pr == nil {
			continue
		}
		for _, v := range pr.vals {
			p, err := parseSGFPoint(b.g, v)
			if err != nil {
				return fmt.Errorf("%s: %v", set.id, err)
			}
			if err := b.PlaySetup(set.c, p); err != nil {
				return fmt.Errorf("%s[%s]: %v", set.id, v, err)
			}
		}
	}
	if pl := n.get("PL"); pl != nil {
		c, err := ParseColor(pl.vals[0])
		if err != nil {
			return fmt.Errorf("PL: %v", err)
		}
		b.SetToMove(c)
	}
	mb, mw := n.get("B"), n.get("W")
	if mb != nil && mw != nil {
		return fmt.Errorf("both B and W in one node")
	}
	for _, mv := range []struct {
		pr *sgfProp
		c  Color
	}{{mb, Black}, {mw, White}} {
		if mv.pr == nil {
			continue
		}
		id := mv.c.Letter()
		if len(mv.pr.vals) != 1 {
			return fmt.Errorf("%s has %d values", id, len(mv.pr.vals))
		}
		v := mv.pr.vals[0]
		p, err := parseSGFMove(b.g, v)
		if err != nil {
			return fmt.Errorf("%s: %v", id, err)
		}
		if err := b.Play(Move{Color: mv.c, Cell: p}); err != nil {
			return fmt.Errorf("%s[%s]: %v", id, v, err)
		}
	}
	return nil
}

// removeStones empties cells: the stones that remain are placed again as setup
// stones on the emptied board, keeping the side to move.
func removeStones(b *Board, cells []Cell) {
	var gone Bitset
	for _, p := range cells {
		gone.Set(p)
	}
	stones := [3]Bitset{b.stones[0], b.stones[Black].AndNot(gone), b.stones[White].AndNot(gone)}
	toMove := b.toMove
	b.Reset()
	for c := Black; c <= White; c++ {
		for p := stones[c].First(); p != NoCell; p = stones[c].Next(p + 1) {
			b.play(Move{Color: c, Cell: p}, true)
		}
	}
	b.SetToMove(toMove)
}

// parseSGFPoint parses a cell as "c3" or, like HexGui, Go-style "cc".
func parseSGFPoint(g *Geometry, v string) (Cell, error) {
	t := strings.ToLower(strings.TrimSpace(v))
	if len(t) == 2 && t[0] >= 'a' && t[0] <= 'z' && t[1] >= 'a' && t[1] <= 'z' {
		x, y := int(t[0]-'a'), int(t[1]-'a')
		if x >= g.W || y >= g.H {
			return NoCell, fmt.Errorf("%w: %q is off the %dx%d board", ErrBadCell, v, g.W, g.H)
		}
		return g.At(x, y), nil
	}
	return g.ParseCell(t)
}

// parseSGFMove parses a move value: a point, swap-pieces (or swap), or resign.
func parseSGFMove(g *Geometry, v string) (Cell, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "swap-pieces", "swap":
		return Swap, nil
	case "resign":
		return Resign, nil
	case "":
		return NoCell, fmt.Errorf("%w: empty move (Hex has no pass)", ErrBadCell)
	}
	return parseSGFPoint(g, v)
}

// WriteSGF writes b's history as an SGF Hex game that HexGui and Benzene read: the
// root node carries FF[4], GM[11], SZ, the properties in props (sorted by identifier)
// and the setup stones placed before the first move; then one node per move
// (B[c3], W[swap-pieces], B[resign]) and one node per later run of setup stones. RE is
// added from the board (B+ or W+, W+R or B+R after a resignation) unless props has
// one. PL is written when the side to move is not the one the history implies.
// ReadSGF reads the file back to an identical board.
func WriteSGF(w io.Writer, b *Board, props SGFProps) error {
	bw := bufio.NewWriter(w)
	size := strconv.Itoa(b.g.W)
	if !b.g.Square() {
		size += ":" + strconv.Itoa(b.g.H)
	}
	fmt.Fprintf(bw, "(;FF[4]GM[11]SZ[%s]", size)
	all := SGFProps{}
	for k, v := range props {
		all[k] = v
	}
	if _, ok := all["RE"]; !ok {
		if c := b.Resigned(); c != Empty {
			all["RE"] = c.Opp().Letter() + "+R"
		} else if c := b.Winner(); c != Empty {
			all["RE"] = c.Letter() + "+"
		}
	}
	keys := make([]string, 0, len(all))
	for k := range all {
		switch k {
		case "FF", "GM", "SZ", "B", "W", "AB", "AW", "AE", "PL":
			continue // determined by the board
		}
		if k == "" || strings.IndexFunc(k, func(r rune) bool { return r < 'A' || r > 'Z' }) >= 0 {
			return fmt.Errorf("hex: SGF property identifier %q must be capital letters", k)
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		bw.WriteString(k)
		bw.WriteByte('[')
		bw.WriteString(escapeSGF(all[k]))
		bw.WriteByte(']')
	}

	toMove := Black // the side to move the history implies
	lastSetup := true
	nodes := 0
	for i := 0; i < len(b.hist); {
		r := b.hist[i]
		if r.setup {
			if i > 0 { // the root node takes the setup stones before any move
				bw.WriteString("\n;")
			}
			j := i
			for c := Black; c <= White; c++ {
				first := true
				for k := i; k < len(b.hist) && b.hist[k].setup; k++ {
					if b.hist[k].move.Color != c {
						continue
					}
					if first {
						bw.WriteString("A" + c.Letter())
						first = false
					}
					fmt.Fprintf(bw, "[%s]", b.g.CellName(b.hist[k].move.Cell))
				}
			}
			for j < len(b.hist) && b.hist[j].setup {
				j++
			}
			i = j
			lastSetup = true
			nodes = 0
			continue
		}
		if nodes%10 == 0 {
			bw.WriteByte('\n')
		}
		nodes++
		fmt.Fprintf(bw, ";%s[%s]", r.move.Color.Letter(), b.g.CellName(r.move.Cell))
		toMove = r.move.Color.Opp()
		if r.move.Cell == Swap {
			toMove = Black
		}
		lastSetup = false
		i++
	}
	if toMove != b.toMove {
		if !lastSetup {
			bw.WriteString("\n;")
		}
		fmt.Fprintf(bw, "PL[%s]", b.toMove.Letter())
	}
	bw.WriteString(")\n")
	return bw.Flush()
}

// escapeSGF escapes ']' and '\' in a property value.
func escapeSGF(s string) string {
	if !strings.ContainsAny(s, `]\`) {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == ']' || s[i] == '\\' {
			sb.WriteByte('\\')
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}
