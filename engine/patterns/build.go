package patterns

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Finder finds a winning connection: WinningCarrier reports whether colour c has a
// virtual connection between its edges on b and, if so, its carrier (empty cells; empty
// when the edges are joined by stones). H-search (engine/vc) is the intended finder;
// BridgeFinder is a simple built-in one. It must not change b.
type Finder interface {
	WinningCarrier(b *hex.Board, c hex.Color) (carrier hex.Bitset, ok bool, err error)
}

// MoveFinder is a Finder that can also name a winning move of the side to move
// (such as a solver): the Builder then also examines the position after that move,
// where the mover's win no longer needs the move, so that a search finds the move by
// the pattern of its result.
type MoveFinder interface {
	Finder
	WinningMove(b *hex.Board) (move hex.Cell, ok bool, err error)
}

// BridgeFinder is a small sound Finder: it looks for a chain from one edge of the
// colour to the other through its groups, consecutive links being bridges (two common
// empty neighbours) with pairwise disjoint carriers. Edges count as groups, so
// template II (a stone on the second row) is a bridge to the edge. It finds fewer
// connections than H-search but needs nothing else.
type BridgeFinder struct {
	// MaxNodes bounds the depth-first search (default 20000 expansions).
	MaxNodes int
}

// WinningCarrier implements Finder.
func (f BridgeFinder) WinningCarrier(b *hex.Board, c hex.Color) (hex.Bitset, bool, error) {
	if c != hex.Black && c != hex.White {
		return hex.Bitset{}, false, fmt.Errorf("%w: colour %v", ErrBadPattern, c)
	}
	g := b.Geometry()
	e1, e2 := hex.EdgesOf(c)
	r1, r2 := b.Find(e1), b.Find(e2)
	if r1 == r2 {
		return hex.Bitset{}, true, nil
	}
	// Nodes: the groups (roots) of colour c, the edges among them.
	roots := []hex.Cell{r1, r2}
	own := b.Stones(c)
	for p := own.First(); p != hex.NoCell; p = own.Next(p + 1) {
		r := b.Find(p)
		dup := false
		for _, q := range roots {
			if q == r {
				dup = true
				break
			}
		}
		if !dup {
			roots = append(roots, r)
		}
	}
	if len(roots) > 64 {
		roots = roots[:64]
	}
	empty := b.EmptyCells()
	nbr := make([]hex.Bitset, len(roots))
	for p := own.First(); p != hex.NoCell; p = own.Next(p + 1) {
		r := b.Find(p)
		for i, q := range roots {
			if q == r {
				nbr[i] = nbr[i].Or(*g.NeighbourSet(p))
			}
		}
	}
	nbr[0] = nbr[0].Or(*g.NeighbourSet(e1))
	nbr[1] = nbr[1].Or(*g.NeighbourSet(e2))
	for i := range nbr {
		nbr[i] = nbr[i].And(empty)
	}
	limit := f.MaxNodes
	if limit <= 0 {
		limit = 20000
	}
	s := bridgeSearch{nbr: nbr, budget: limit}
	if s.dfs(0, 1, hex.Bitset{}) {
		return s.carrier, true, nil
	}
	return hex.Bitset{}, false, nil
}

type bridgeSearch struct {
	nbr     []hex.Bitset
	visited uint64
	budget  int
	carrier hex.Bitset
}

// dfs extends a chain at node i towards node goal with the carrier used so far.
func (s *bridgeSearch) dfs(i, goal int, used hex.Bitset) bool {
	if s.budget <= 0 {
		return false
	}
	s.budget--
	s.visited |= 1 << i
	defer func() { s.visited &^= 1 << i }()
	for j := range s.nbr {
		if s.visited&(1<<j) != 0 {
			continue
		}
		common := s.nbr[i].And(s.nbr[j]).AndNot(used)
		if common.Count() < 2 {
			continue
		}
		a := common.First()
		bb := common.Next(a + 1)
		u := used
		u.Set(a)
		u.Set(bb)
		if j == goal {
			s.carrier = u
			return true
		}
		if s.dfs(j, goal, u) {
			return true
		}
	}
	return false
}

// BuildStats counts what a Builder did.
type BuildStats struct {
	Positions int // distinct positions examined
	Wins      int // winning connections found (per colour)
	Verified  int // patterns proved by exhaustive search (carrier within VerifyMax)
	Rejected  int // connections whose pattern failed a check (not inserted)
	Inserted  int // entries inserted (variants included)
}

// Builder fills a DB from positions: for each colour with a winning connection (found
// by Finder) it extracts the pattern (FromBoard), checks that the pattern alone joins
// the edges, proves it by exhaustive search when its carrier has at most VerifyMax
// cells, and adds it with its symmetric variants.
type Builder struct {
	DB        *DB
	Finder    Finder
	VerifyMax int
	Stats     BuildStats
	seen      map[uint64]struct{}
}

// NewBuilder returns a Builder filling d with connections found by f.
func NewBuilder(d *DB, f Finder, verifyMax int) *Builder {
	return &Builder{DB: d, Finder: f, VerifyMax: verifyMax, seen: map[uint64]struct{}{}}
}

// AddPosition examines b (skipping positions seen before) for both colours, and, when
// the Finder is a MoveFinder that names a winning move of b's side to move, the
// position after that move too. White connections need a square board and are
// skipped otherwise.
func (bl *Builder) AddPosition(b *hex.Board) error {
	if err := bl.addPosition(b); err != nil {
		return err
	}
	mf, ok := bl.Finder.(MoveFinder)
	if !ok || b.Winner() != hex.Empty {
		return nil
	}
	m, ok, err := mf.WinningMove(b)
	if err != nil || !ok {
		return err
	}
	c := b.Clone()
	c.PlayStone(b.ToMove(), m)
	return bl.addPosition(c)
}

// addPosition is AddPosition without the winning move's position.
func (bl *Builder) addPosition(b *hex.Board) error {
	g := bl.DB.Geometry()
	if b.Width() != g.W || b.Height() != g.H {
		return fmt.Errorf("%w: position is %dx%d, database %dx%d", ErrBadPattern, b.Width(), b.Height(), g.W, g.H)
	}
	if _, ok := bl.seen[b.Hash()]; ok {
		return nil
	}
	bl.seen[b.Hash()] = struct{}{}
	bl.Stats.Positions++
	for _, c := range []hex.Color{hex.Black, hex.White} {
		if c == hex.White && g.W != g.H {
			continue
		}
		carrier, ok, err := bl.Finder.WinningCarrier(b, c)
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		bl.Stats.Wins++
		p, err := FromBoard(b, c, carrier)
		if errors.Is(err, ErrNotConnected) || errors.Is(err, ErrBadPattern) {
			bl.Stats.Rejected++
			continue
		}
		if err != nil {
			return err
		}
		if bl.VerifyMax > 0 && p.Carrier.Count() <= bl.VerifyMax {
			won, err := Verify(g, p, bl.VerifyMax)
			if err != nil && !errors.Is(err, ErrTooLarge) {
				return err
			}
			if err == nil {
				if !won {
					bl.Stats.Rejected++
					continue
				}
				bl.Stats.Verified++
			}
		}
		n, err := bl.DB.Add(p)
		if err != nil {
			return err
		}
		bl.Stats.Inserted += n
	}
	return nil
}

// AddGame plays the moves on an empty board of the database's size and examines every
// position after a move.
func (bl *Builder) AddGame(moves []hex.Move) error {
	g := bl.DB.Geometry()
	b := hex.NewBoardGeometry(g)
	for i, m := range moves {
		if err := b.Play(m); err != nil {
			return fmt.Errorf("patterns: move %d (%s): %w", i+1, g.CellName(m.Cell), err)
		}
		if err := bl.AddPosition(b); err != nil {
			return err
		}
	}
	return nil
}

// ReadGames reads a games file: one game per line as a move list (hex.ParseMoves
// syntax, e.g. "a1 b2 c3"); blank lines and lines starting with '#' are skipped. Errors
// name the line.
func ReadGames(r io.Reader, g *hex.Geometry) ([][]hex.Move, error) {
	var games [][]hex.Move
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for ln := 1; sc.Scan(); ln++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		ms, err := g.ParseMoves(line)
		if err != nil {
			return nil, fmt.Errorf("patterns: games line %d: %w", ln, err)
		}
		games = append(games, ms)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("patterns: read games: %w", err)
	}
	return games, nil
}
