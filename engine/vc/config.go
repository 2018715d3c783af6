package vc

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// Errors returned by the package; callers may test them with errors.Is.
var (
	ErrConfig  = errors.New("vc: bad configuration")
	ErrColor   = errors.New("vc: colour must be black or white")
	ErrNoBoard = errors.New("vc: no board")
	ErrPoint   = errors.New("vc: not a point of this colour")
)

// Rule names the deduction that produced a connection.
type Rule uint8

// The deduction rules.
const (
	RuleBase  Rule = iota // adjacent points
	RuleAnd               // AND rule (series)
	RuleOr                // OR rule (parallel)
	RuleCross             // (Strong) Crossing Rule of XH-search
)

// String returns the rule name as Benzene prints it: base, and, or, cross.
func (r Rule) String() string {
	switch r {
	case RuleBase:
		return "base"
	case RuleAnd:
		return "and"
	case RuleOr:
		return "or"
	case RuleCross:
		return "cross"
	}
	return "unknown"
}

// Conn is one full or semi connection between two points.
//
// The small fields come first so that the size and the first carrier words, which the
// minimality checks read, usually share a cache line.
type Conn struct {
	Key     hex.Cell   // the key of an SC; hex.NoCell for a VC
	Rule    Rule       // the rule that produced it
	done    bool       // already combined by the AND rule
	size    int16      // number of carrier cells
	ored    bool       // an SC already seen by the greedy OR rule (Config.GreedyOr)
	Carrier hex.Bitset // empty cells of the carrier (for an SC the key is included)
	Stones  hex.Bitset // stepping stones SS* (chain roots); only computed with Config.XH
}

// Config holds the limits and switches of the search. DefaultConfig documents the
// defaults.
type Config struct {
	// MaxFull is the most VCs kept per endpoint pair (Hexy's M; Anshelevich found M = 20
	// best on 10x10). Smallest carriers are kept.
	MaxFull int
	// MaxSemi is the most SCs kept per endpoint pair.
	MaxSemi int
	// MaxOr is the most SCs one OR deduction combines (Hexy's K, "4 to 5").
	MaxOr int
	// AndOverEdge allows an edge group as AND midpoint (Melis; needed by XH-search).
	AndOverEdge bool
	// SemiAnd also combines an SC and a VC through a chain midpoint into an SC (XH
	// paper, Lemma 4; Benzene does the same).
	SemiAnd bool
	// XH enables XH-search: stepping stones and the Crossing Rule.
	XH bool
	// StrongCrossing also applies the Strong Crossing Rule with edge bridges as the
	// captured sets (only with XH).
	StrongCrossing bool
	// EdgeTemplates adds the edge templates (templates.go: the ziggurat and eight
	// templates with a support stone) as base VCs between a point and an edge.
	EdgeTemplates bool
	// StopAtWin stops the search as soon as the winning VC is found (Anshelevich,
	// section 4). Leave it false to get every connection (e.g. for the circuit).
	StopAtWin bool
	// ReduceFull keeps a new minimal VC only when it adds knowledge to its pair's list:
	// when it replaces a kept VC whose carrier contains its own, or when its carrier
	// leaves out a cell that every kept VC carrier of the pair holds, so that the
	// intersection of the pair's carriers (the cells the opponent must play in to cut
	// the pair) shrinks. This is the soft limit of the FastVC search (Pawlewicz,
	// Hayward, Henderson and Arneson, "Stronger Virtual Connections in Hex", 2015);
	// MaxFull stays a hard limit. The connections kept then depend on the order of
	// deduction (Truncated reports a refused one).
	ReduceFull bool
	// GreedyOr replaces the OR rule's enumeration of up to MaxOr SCs (MaxOr is then
	// unused) by FastVC's: once the SCs of a pair have an empty common intersection,
	// for every cell a of the intersection of the pair's VC carriers (every empty cell
	// when it has none) the SCs avoiding a are united greedily, the smallest first and
	// at least one not seen by an earlier OR of the pair, until their intersection is
	// empty; each such union is a VC without a, so every result shrinks the
	// intersection. An OR may combine any number of SCs. The pairs wait in a queue
	// of their own that is worked on when the AND rule's queue is empty, so that
	// one OR sees many new SCs.
	GreedyOr bool
	// MaxWork bounds the connections added per Build (0: no bound). When more have
	// been added the work queue is abandoned: the connections kept are sound, only
	// fewer (Compact uses it to bound the cost of a solver node). Play rebuilds from
	// scratch when it is set.
	MaxWork int
}

// DefaultConfig returns the default H-search settings, chosen for speed (see
// docs/results.md for measurements): MaxFull 6 and MaxSemi 16 (8 is the smallest SC
// limit that still finds Anshelevich's fourth-row edge template; 16 decides 16 more of
// the 200 positions of the solved 8x8 set at about 1.15 times the build time), MaxOr 6
// (ORs of up to 6 SCs; with 5, the edge templates cost two decisions of the solved 8x8
// set before fill-in, which the sixth SC wins back: 132, against 133 with ORs of 6 and
// no templates), no AND over edges (Anshelevich's rules; the extension multiplies the
// number of connections by about four and the time by five to ten), SC-and-VC AND
// through chains on, XH off, the edge templates on (after ICE fill-in they decide 141
// of the solved 8x8 positions instead of 137, at a few per cent of the build time),
// not stopping at the winning VC. XHConfig turns on
// XH-search with AND over edges as the XH paper requires; AnshelevichConfig has Hexy's
// M = 20.
func DefaultConfig() Config {
	return Config{MaxFull: 6, MaxSemi: 16, MaxOr: 6, AndOverEdge: false, SemiAnd: true,
		StrongCrossing: true, EdgeTemplates: true}
}

// AnshelevichConfig returns Anshelevich's rules with Hexy's tournament limit M = 20
// for both VCs and SCs per endpoint pair (section 6) and ORs of up to 5 SCs (Hexy's
// "4 to 5"), without the edge templates: DefaultConfig's other settings, more
// connections, about ten times slower on 11x11.
func AnshelevichConfig() Config {
	c := DefaultConfig()
	c.MaxFull, c.MaxSemi, c.MaxOr, c.EdgeTemplates = 20, 20, 5, false
	return c
}

// XHConfig returns DefaultConfig with XH-search switched on: stepping stones, the
// Crossing Rule and the Strong Crossing Rule, and AND over edges (section 4 of the XH
// paper: the crossing rule needs edges as stepping stones), with the paper's own base
// connections (no edge templates) and ORs of up to 5 SCs.
func XHConfig() Config {
	c := DefaultConfig()
	c.XH = true
	c.AndOverEdge = true
	c.EdgeTemplates, c.MaxOr = false, 5
	return c
}

// FastVCConfig returns DefaultConfig with the FastVC rules of Benzene's builder
// (Pawlewicz et al. 2015): VC lists that keep what shrinks the intersection of the
// pair's carriers (ReduceFull), greedy ORs over any number of SCs (GreedyOr), and,
// as in Benzene, no SC-and-VC AND (SemiAnd off: on the tuning positions of the
// Benzene reference it found no more and cost about a third more time), with hard
// limits of 16 VCs and 128 SCs per pair (64 SCs found 72 of Benzene's 83 winning
// VCs on 13x13, 128 found 77; more found no more). The edge templates stay on.
// On the tuning sets of the Benzene reference (vc.BenzeneReference) it finds 85 of
// Benzene's 88 winning VCs on 8x8, 123 of 127 on 11x11 and 77 of 83 on 13x13, in
// less than half of Benzene's time; docs/results.md has the held-out figures.
// Its arena (see Builder) holds 144 connections per endpoint pair: about 110 MB of
// address space on 11x11 and 220 MB on 13x13, of which only the pages of the pairs
// used are touched.
func FastVCConfig() Config {
	c := DefaultConfig()
	c.ReduceFull, c.GreedyOr, c.SemiAnd = true, true, false
	c.MaxFull, c.MaxSemi = 16, 128
	return c
}

// Validate reports a configuration error.
func (c Config) Validate() error {
	if c.MaxFull < 1 || c.MaxFull > 10000 {
		return fmt.Errorf("%w: MaxFull must be 1..10000, got %d", ErrConfig, c.MaxFull)
	}
	if c.MaxSemi < 1 || c.MaxSemi > 10000 {
		return fmt.Errorf("%w: MaxSemi must be 1..10000, got %d", ErrConfig, c.MaxSemi)
	}
	if c.MaxOr < 2 || c.MaxOr > 16 {
		return fmt.Errorf("%w: MaxOr must be 2..16, got %d", ErrConfig, c.MaxOr)
	}
	if c.GreedyOr && c.MaxSemi < 2 {
		return fmt.Errorf("%w: GreedyOr needs MaxSemi of at least 2 (an OR combines two or more SCs), got %d", ErrConfig, c.MaxSemi)
	}
	if c.MaxWork < 0 {
		return fmt.Errorf("%w: MaxWork must be at least 0, got %d", ErrConfig, c.MaxWork)
	}
	return nil
}
