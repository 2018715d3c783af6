package vc

import (
	"github.com/hexlearn/hexlearn/engine/hex"
)

// Compact is this package's H-search specialised for solvers: only the connections
// between a colour's two edges are answered (WinningVC, WinningSC, Mustplay; the
// methods of engine/solver's Connector interface), and on boards of at most 64 cells
// the Builder runs its one-word engine instance on 16-byte records (hsearch_w1.go,
// packed.go; larger boards take the general instance). It is a
// thin layer over one Builder per colour with the configuration Config gives:
// Anshelevich's rules (no AND over edges, no XH), at most MaxFull VCs and MaxSemi SCs
// per pair, OR over at most MaxOr SCs, SemiAnd and EdgeTemplates as set, stopping at
// the first winning VC (Config.StopAtWin) and after MaxWork added connections
// (Config.MaxWork). The last result of each colour is kept (keyed by
// the board's Zobrist hash), so asking several questions about one position builds
// once. It is not safe for concurrent use.
type Compact struct {
	MaxFull int // VCs kept per point pair (default 16)
	MaxSemi int // SCs kept per point pair (default 24)
	MaxOr   int // most SCs one OR deduction combines (default 4)
	// MaxWork bounds the connections added per build (default 20000); the answer
	// stays sound when the bound cuts the search short, only weaker.
	MaxWork int
	// SemiAnd also chains an SC and a VC through a stone group into an SC.
	SemiAnd bool
	// EdgeTemplates adds the edge templates as base connections (Config.EdgeTemplates).
	EdgeTemplates bool

	// one Builder and one saved answer per colour, so that both colours' answers
	// stay available
	bs    [3]*Builder
	saved [3]compactSaved
}

// compactSaved records which position a colour's Builder holds.
type compactSaved struct {
	hash uint64
	g    *hex.Geometry
	ok   bool // the Builder holds the position (hash, g)
}

// NewCompact returns a compact H-search with the solver's limits: 16 VCs and 24 SCs
// per pair, OR over up to 4 SCs, 20,000 added connections per build, SemiAnd off, the
// edge templates on (21% less CPU time on four 8x8 openings, docs/history.md, "Edge templates with a
// support stone").
func NewCompact() *Compact {
	return &Compact{MaxFull: 16, MaxSemi: 24, MaxOr: 4, MaxWork: 20000, EdgeTemplates: true}
}

// config returns the Builder configuration Compact runs with its limits
// (out-of-range limits replaced by the defaults of NewCompact).
func (h *Compact) config() Config {
	if h.MaxFull <= 0 || h.MaxFull > 255 {
		h.MaxFull = 16
	}
	if h.MaxSemi <= 0 || h.MaxSemi > 255 {
		h.MaxSemi = 24
	}
	if h.MaxOr < 2 || h.MaxOr > 16 {
		h.MaxOr = 4
	}
	if h.MaxWork <= 0 {
		h.MaxWork = 20000
	}
	return Config{MaxFull: h.MaxFull, MaxSemi: h.MaxSemi, MaxOr: h.MaxOr, SemiAnd: h.SemiAnd,
		EdgeTemplates: h.EdgeTemplates, StopAtWin: true, MaxWork: h.MaxWork}
}

// run builds colour c's connections on b with the Builder of that colour.
func (h *Compact) run(b *hex.Board, c hex.Color) *Builder {
	cfg := h.config()
	bl := h.bs[c]
	if bl == nil {
		bl = NewBuilder(cfg)
		h.bs[c] = bl
	} else if bl.cfg != cfg {
		bl.cfg = cfg // valid: Config keeps every limit in range
	}
	if bl.Build(b, c) != nil {
		return nil
	}
	return bl
}

// result returns colour c's Builder holding position b (building it unless the last
// build for c was of the same position), or nil when there is no answer: a colour
// that is neither black nor white.
func (h *Compact) result(b *hex.Board, c hex.Color) *Builder {
	if c != hex.Black && c != hex.White {
		return nil
	}
	g := b.Geometry()
	sv := &h.saved[c]
	hash := b.Hash()
	if sv.ok && sv.hash == hash && sv.g == g {
		return h.bs[c]
	}
	sv.ok = false
	bl := h.run(b, c)
	if bl == nil {
		return nil
	}
	sv.hash, sv.g, sv.ok = hash, g, true
	return bl
}

// WinningVC reports whether colour c connects its edges even with the opponent to
// move, with the smallest such carrier found (empty when the edges are joined by
// stones).
func (h *Compact) WinningVC(b *hex.Board, c hex.Color) (hex.Bitset, bool) {
	bl := h.result(b, c)
	if bl == nil {
		return hex.Bitset{}, false
	}
	won, car := bl.WinningVC()
	return car, won
}

// WinningSC reports whether colour c, moving first, connects its edges (and has
// no winning VC), with the key and the carrier (key included) of the smallest such SC.
func (h *Compact) WinningSC(b *hex.Board, c hex.Color) (hex.Cell, hex.Bitset, bool) {
	bl := h.result(b, c)
	if bl == nil {
		return hex.NoCell, hex.Bitset{}, false
	}
	if won, _ := bl.WinningVC(); won {
		return hex.NoCell, hex.Bitset{}, false
	}
	semis := bl.WinningSemis()
	if len(semis) == 0 {
		return hex.NoCell, hex.Bitset{}, false
	}
	return semis[0].Key, semis[0].Carrier, true
}

// Mustplay returns, for the side x to move, the intersection of the opponent's
// edge-to-edge SC carriers (keys included): outside it every x-move leaves the
// opponent a winning connection. proof is their union. ok is false when the opponent
// has no such SC or already a winning VC.
func (h *Compact) Mustplay(b *hex.Board, x hex.Color) (must, proof hex.Bitset, ok bool) {
	bl := h.result(b, x.Opp())
	if bl == nil {
		return must, proof, false
	}
	if won, _ := bl.WinningVC(); won {
		return must, proof, false
	}
	semis := bl.WinningSemis()
	if len(semis) == 0 {
		return must, proof, false
	}
	must = semis[0].Carrier
	for k := range semis {
		must = must.And(semis[k].Carrier)
		proof = proof.Or(semis[k].Carrier)
	}
	return must, proof, true
}

// Decomposition returns a carrier that colour c captures on b by a combinatorial
// decomposition (Builder.Decomposition: a VC between two of c's chains inside empty
// regions no other chain of c touches), with those regions, building c's connections
// unless the last build for c was of b.
func (h *Compact) Decomposition(b *hex.Board, c hex.Color) (carrier, region hex.Bitset, ok bool) {
	bl := h.result(b, c)
	if bl == nil {
		return carrier, region, false
	}
	return bl.Decomposition(b)
}
