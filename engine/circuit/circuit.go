package circuit

import (
	"errors"
	"fmt"
	"math"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// LogClamp bounds ln R: a colour whose edges are joined (R = 0) gets ln R = -LogClamp
// and a colour that is cut off (R = +inf) gets ln R = +LogClamp. Real circuits on
// boards up to 19x19 stay far inside this range (|ln R| < 10).
const LogClamp = 20.0

// MaxValue bounds a position's value ln(RW/RB): both ln R lie in [-LogClamp,
// LogClamp], so the value lies in [-MaxValue, MaxValue], and a decided position gets
// ±MaxValue (WinValue).
const MaxValue = 2 * LogClamp

// VCMode selects how discovered virtual connections enter the circuit (Anshelevich
// 2002, section 5).
type VCMode uint8

const (
	// NoVCs uses the neighbour links only; Links passed to Solve are ignored.
	NoVCs VCMode = iota
	// LinkEnds (the paper's first approach) adds a link between the two ends x, y of
	// every virtual connection with resistance r(x) + r(y) + Config.VCResistance, so a
	// virtual connection conducts less than a real neighbour link. Pairs that are
	// already neighbours keep their (stronger) neighbour link.
	LinkEnds
	// ShareNeighbours (the paper's second approach) applies to connections between two
	// stones or edges x and y of the circuit's colour: every empty neighbour c of x's
	// group is also linked to y (and vice versa) like a real neighbour, with resistance
	// r(c) + r(y) = 1. Connections with an empty end are ignored in this mode.
	ShareNeighbours
)

// String names the mode as the command-line flags do.
func (m VCMode) String() string {
	switch m {
	case NoVCs:
		return "none"
	case LinkEnds:
		return "ends"
	case ShareNeighbours:
		return "share"
	}
	return fmt.Sprintf("VCMode(%d)", uint8(m))
}

// ParseVCMode parses "none", "ends" or "share".
func ParseVCMode(s string) (VCMode, error) {
	for m := NoVCs; m <= ShareNeighbours; m++ {
		if m.String() == s {
			return m, nil
		}
	}
	return 0, fmt.Errorf("%w: vc mode %q (want none, ends or share)", ErrConfig, s)
}

// Solver selects the linear solver for Kirchhoff's equations.
type Solver uint8

const (
	// Skyline is an envelope Cholesky factorisation of the grounded Laplacian (the
	// default and the fastest measured, see the package benchmarks).
	Skyline Solver = iota
	// CG is the Jacobi-preconditioned conjugate gradient method (relative residual
	// 1e-13).
	CG
	// Dense is gonum's dense Cholesky factorisation (slowest; a test oracle).
	Dense
)

// String names the solver.
func (s Solver) String() string {
	switch s {
	case Skyline:
		return "skyline"
	case CG:
		return "cg"
	case Dense:
		return "dense"
	}
	return fmt.Sprintf("Solver(%d)", uint8(s))
}

// Config configures a circuit.
type Config struct {
	// Mode is how virtual connections are added.
	Mode VCMode
	// VCResistance is the resistance added to r(x)+r(y) for a LinkEnds link; it must
	// be positive so that a virtual connection is weaker than a neighbour link.
	VCResistance float64
	// Solver is the linear solver.
	Solver Solver
}

// DefaultConfig is LinkEnds with VCResistance 0.5 and the skyline solver.
func DefaultConfig() Config {
	return Config{Mode: LinkEnds, VCResistance: 0.5, Solver: Skyline}
}

var (
	// ErrConfig reports an invalid Config.
	ErrConfig = errors.New("circuit: bad config")
	// ErrLink reports a Link naming a point that is not on the board.
	ErrLink = errors.New("circuit: bad link")
	// ErrSingular reports a system the solver could not solve (it should not happen:
	// the grounded Laplacian of a connected component is positive definite).
	ErrSingular = errors.New("circuit: singular system")
)

// Validate reports whether c is usable.
func (c Config) Validate() error {
	if c.Mode > ShareNeighbours {
		return fmt.Errorf("%w: unknown vc mode %d", ErrConfig, c.Mode)
	}
	if c.Solver > Dense {
		return fmt.Errorf("%w: unknown solver %d", ErrConfig, c.Solver)
	}
	if c.Mode == LinkEnds && !(c.VCResistance > 0 && !math.IsInf(c.VCResistance, 1)) {
		return fmt.Errorf("%w: vc resistance %v must be positive and finite", ErrConfig, c.VCResistance)
	}
	return nil
}

// Link is a virtual connection of the circuit's colour between two points (cells or
// edges), as discovered by H-search. A link whose end holds an opponent stone or is an
// opponent edge is ignored.
type Link struct{ A, B hex.Cell }

// Side is the solution of one colour's circuit.
type Side struct {
	// R is the total resistance between the colour's edges (0 when they are joined,
	// +Inf when they are cut off).
	R float64
	// LogR is ln R clamped to [-LogClamp, LogClamp].
	LogR float64
	// Connected is set when the edges are joined by stones; CutOff when no path of
	// empty cells and own stones joins them.
	Connected, CutOff bool
}

// LogR returns ln r clamped to [-LogClamp, LogClamp] (0 gives -LogClamp, +Inf gives
// +LogClamp).
func LogR(r float64) float64 {
	if !(r > 0) {
		return -LogClamp
	}
	l := math.Log(r)
	if l > LogClamp {
		return LogClamp
	}
	if l < -LogClamp {
		return -LogClamp
	}
	return l
}

// Circuit is a reusable workspace solving one colour's circuit at a time. After the
// first few calls it allocates nothing (buffers grow to the largest board seen). It is
// not safe for concurrent use.
type Circuit struct {
	cfg Config

	// last solved position
	g           *hex.Geometry
	n           int // nodes: unknown-capable nodes first, then source, sink
	src, sink   int32
	solved      bool // potentials are valid (neither connected nor cut off)
	totalPower  float64
	nodeOf      [hex.NumPoints]int32
	lastCell    [hex.NumPoints]hex.Cell
	groupNode   [hex.NumPoints]int32
	nodeR       []float64 // resistance of the node's cell: 1 empty, 0 own stones/edge
	nodeCell    []hex.Cell
	la, lb      []int32 // links
	lg          []float64
	rowStart    []int32 // CSR adjacency (deduplicated)
	adj         []int32
	adjG        []float64
	stamp       []uint32
	where       []int32
	gen         uint32
	inComp      []bool
	queue       []int32
	unk         []int32 // node -> unknown index or -1
	unkNode     []int32 // unknown index -> node
	pot         []float64
	first, off  []int32
	val, rhs, x []float64
	// CG buffers
	cgR, cgZ, cgP, cgQ, cgD []float64
	// dense buffers
	dense []float64
}

// New returns a circuit workspace with the given configuration.
func New(cfg Config) (*Circuit, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	return &Circuit{cfg: cfg}, nil
}

// Config returns the configuration.
func (c *Circuit) Config() Config { return c.cfg }

func growI32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n, n+n/2)
	}
	return s[:n]
}

func growF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n, n+n/2)
	}
	return s[:n]
}

func (c *Circuit) addLink(a, b int32, g float64) {
	c.la = append(c.la, a)
	c.lb = append(c.lb, b)
	c.lg = append(c.lg, g)
}

// Solve builds col's circuit for b with the virtual connections links (used according
// to the configured VCMode) and solves it. It does not change b. Potentials and cell
// energies of this solution are available until the next call.
func (c *Circuit) Solve(b *hex.Board, col hex.Color, links []Link) (Side, error) {
	if col != hex.Black && col != hex.White {
		return Side{}, fmt.Errorf("%w: colour %v", hex.ErrBadColor, col)
	}
	g := b.Geometry()
	c.g = g
	c.solved = false
	c.n = 0
	e1, e2 := hex.EdgesOf(col)
	r1, r2 := b.Find(e1), b.Find(e2)
	if r1 == r2 {
		return Side{R: 0, LogR: -LogClamp, Connected: true}, nil
	}
	for _, l := range links {
		if !g.OnBoard(l.A) || !g.OnBoard(l.B) {
			return Side{}, fmt.Errorf("%w: %d-%d is not a pair of points of a %dx%d board", ErrLink, l.A, l.B, g.W, g.H)
		}
	}
	opp := col.Opp()
	own := b.StonesPtr(col)
	for p := own.First(); p != hex.NoCell; p = own.Next(p + 1) {
		c.lastCell[b.Find(p)] = p
	}
	// Number the nodes in cell order; a group takes the place of its last cell.
	n := int32(0)
	for p := hex.Cell(0); int(p) < g.N; p++ {
		switch b.At(p) {
		case hex.Empty:
			c.nodeOf[p] = n
			n++
		case col:
			r := b.Find(p)
			if r != r1 && r != r2 && c.lastCell[r] == p {
				c.groupNode[r] = n
				n++
			}
		}
	}
	c.src, c.sink = n, n+1
	total := int(n) + 2
	c.n = total
	c.nodeR = growF(c.nodeR, total)
	c.nodeCell = c.nodeCell[:0]
	if cap(c.nodeCell) < total {
		c.nodeCell = make([]hex.Cell, 0, total+total/2)
	}
	c.nodeCell = c.nodeCell[:total]
	for p := hex.Cell(0); int(p) < g.N; p++ {
		switch b.At(p) {
		case hex.Empty:
			k := c.nodeOf[p]
			c.nodeR[k] = 1
			c.nodeCell[k] = p
		case opp:
			c.nodeOf[p] = -1
		default:
			r := b.Find(p)
			switch r {
			case r1:
				c.nodeOf[p] = c.src
			case r2:
				c.nodeOf[p] = c.sink
			default:
				k := c.groupNode[r]
				c.nodeOf[p] = k
				c.nodeR[k] = 0
				c.nodeCell[k] = r
			}
		}
	}
	c.nodeOf[e1], c.nodeOf[e2] = c.src, c.sink
	c.nodeR[c.src], c.nodeR[c.sink] = 0, 0
	c.nodeCell[c.src], c.nodeCell[c.sink] = e1, e2
	oe1, oe2 := hex.EdgesOf(opp)
	c.nodeOf[oe1], c.nodeOf[oe2] = -1, -1

	// Neighbour links: only links with an empty end have a nonzero resistance.
	c.la, c.lb, c.lg = c.la[:0], c.lb[:0], c.lg[:0]
	for p := hex.Cell(0); int(p) < g.N; p++ {
		if b.At(p) != hex.Empty {
			continue
		}
		a := c.nodeOf[p]
		for _, q := range g.Neighbours(p) {
			k := c.nodeOf[q]
			if k < 0 {
				continue
			}
			if q.IsEdge() || b.At(q) == col {
				c.addLink(a, k, 1) // r = 1 + 0
			} else if q > p { // empty-empty, once
				c.addLink(a, k, 0.5) // r = 1 + 1
			}
		}
	}
	switch c.cfg.Mode {
	case LinkEnds:
		for _, l := range links {
			x, y := c.nodeOf[l.A], c.nodeOf[l.B]
			if x < 0 || y < 0 || x == y {
				continue
			}
			c.addLink(x, y, 1/(c.nodeR[x]+c.nodeR[y]+c.cfg.VCResistance))
		}
	case ShareNeighbours:
		c.buildCSR()
		for _, l := range links {
			x, y := c.nodeOf[l.A], c.nodeOf[l.B]
			if x < 0 || y < 0 || x == y || c.nodeR[x] != 0 || c.nodeR[y] != 0 {
				continue
			}
			for _, ends := range [2][2]int32{{x, y}, {y, x}} {
				u, v := ends[0], ends[1]
				for i := c.rowStart[u]; i < c.rowStart[u+1]; i++ {
					m := c.adj[i]
					if c.nodeR[m] == 1 { // an empty neighbour of u becomes v's
						c.addLink(m, v, 1)
					}
				}
			}
		}
	}
	c.buildCSR()

	// The component of the source.
	c.inComp = c.inComp[:0]
	for i := 0; i < total; i++ {
		c.inComp = append(c.inComp, false)
	}
	c.queue = append(c.queue[:0], c.src)
	c.inComp[c.src] = true
	for h := 0; h < len(c.queue); h++ {
		u := c.queue[h]
		for i := c.rowStart[u]; i < c.rowStart[u+1]; i++ {
			if m := c.adj[i]; !c.inComp[m] {
				c.inComp[m] = true
				c.queue = append(c.queue, m)
			}
		}
	}
	if !c.inComp[c.sink] {
		return Side{R: math.Inf(1), LogR: LogClamp, CutOff: true}, nil
	}
	c.unk = growI32(c.unk, total)
	c.unkNode = c.unkNode[:0]
	for k := int32(0); k < int32(total); k++ {
		c.unk[k] = -1
		if c.inComp[k] && k != c.src && k != c.sink {
			c.unk[k] = int32(len(c.unkNode))
			c.unkNode = append(c.unkNode, k)
		}
	}
	if err := c.solve(); err != nil {
		return Side{}, err
	}
	c.pot = growF(c.pot, total)
	for k := range c.pot {
		c.pot[k] = 0
	}
	for i, k := range c.unkNode {
		c.pot[k] = c.x[i]
	}
	c.pot[c.src] = 1
	cur := 0.0
	for i := c.rowStart[c.src]; i < c.rowStart[c.src+1]; i++ {
		cur += c.adjG[i] * (1 - c.pot[c.adj[i]])
	}
	if !(cur > 0) {
		return Side{}, fmt.Errorf("%w: no current (%v) between connected terminals", ErrSingular, cur)
	}
	c.totalPower = cur
	c.solved = true
	r := 1 / cur
	return Side{R: r, LogR: LogR(r)}, nil
}

// buildCSR turns the link list into a deduplicated adjacency (parallel links between
// the same two nodes keep the highest conductance, i.e. the shortest link).
func (c *Circuit) buildCSR() {
	n := c.n
	c.rowStart = growI32(c.rowStart, n+1)
	for i := range c.rowStart {
		c.rowStart[i] = 0
	}
	for i := range c.la {
		c.rowStart[c.la[i]+1]++
		c.rowStart[c.lb[i]+1]++
	}
	for i := 1; i <= n; i++ {
		c.rowStart[i] += c.rowStart[i-1]
	}
	m := int(c.rowStart[n])
	c.adj = growI32(c.adj, m)
	c.adjG = growF(c.adjG, m)
	c.where = growI32(c.where, n) // fill cursor per row
	copy(c.where, c.rowStart[:n])
	for i := range c.la {
		a, b, g := c.la[i], c.lb[i], c.lg[i]
		c.adj[c.where[a]], c.adjG[c.where[a]] = b, g
		c.where[a]++
		c.adj[c.where[b]], c.adjG[c.where[b]] = a, g
		c.where[b]++
	}
	// Deduplicate each row in place.
	if cap(c.stamp) < n {
		c.stamp = make([]uint32, n, n+n/2)
		c.gen = 0
	}
	c.stamp = c.stamp[:n]
	out := int32(0)
	for u := 0; u < n; u++ {
		c.gen++
		if c.gen == 0 {
			for i := range c.stamp {
				c.stamp[i] = 0
			}
			c.gen = 1
		}
		start := out
		lo, hi := c.rowStart[u], c.rowStart[u+1]
		for i := lo; i < hi; i++ {
			v, g := c.adj[i], c.adjG[i]
			if c.stamp[v] == c.gen {
				if j := c.where[v]; g > c.adjG[j] {
					c.adjG[j] = g
				}
				continue
			}
			c.stamp[v] = c.gen
			c.where[v] = out
			c.adj[out], c.adjG[out] = v, g
			out++
		}
		c.rowStart[u] = start
	}
	c.rowStart[n] = out
}

// Potential returns the potential of point p in the last solution (source edge 1, sink
// edge 0); points outside the solved component, and every point when the last circuit
// was connected or cut off, have potential 0.
func (c *Circuit) Potential(p hex.Cell) float64 {
	if !c.solved || c.g == nil || !c.g.OnBoard(p) {
		return 0
	}
	k := c.nodeOf[p]
	if k < 0 {
		return 0
	}
	return c.pot[k]
}

// CellEnergy returns the power dissipated in the links at empty cell p in the last
// solution, as a fraction of the circuit's total power (so the energies of the two
// circuits are comparable). It is 0 for stones, for cells without current, and when the
// last circuit was connected or cut off.
func (c *Circuit) CellEnergy(p hex.Cell) float64 {
	if !c.solved || c.g == nil || !c.g.IsCell(p) {
		return 0
	}
	k := c.nodeOf[p]
	if k < 0 || c.nodeR[k] != 1 || !c.inComp[k] {
		return 0
	}
	e := 0.0
	for i := c.rowStart[k]; i < c.rowStart[k+1]; i++ {
		d := c.pot[k] - c.pot[c.adj[i]]
		e += c.adjG[i] * d * d
	}
	return e / c.totalPower
}

// Residual returns max |A x - b| of the last solved system, i.e. the largest net
// current leaving an interior node (0 when no system was solved).
func (c *Circuit) Residual() float64 {
	if !c.solved {
		return 0
	}
	worst := 0.0
	for _, k := range c.unkNode {
		// Kirchhoff's current law at node k: the net current leaving it.
		s := 0.0
		for j := c.rowStart[k]; j < c.rowStart[k+1]; j++ {
			s += c.adjG[j] * (c.pot[k] - c.pot[c.adj[j]])
		}
		if a := math.Abs(s); a > worst {
			worst = a
		}
	}
	return worst
}

// Nodes returns the number of unknowns of the last solved system.
func (c *Circuit) Nodes() int { return len(c.unkNode) }
