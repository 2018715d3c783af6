package solver

import (
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// VCConnector adapts engine/vc's H-search to the Connector interface: a winning VC
// is a full connection between a colour's edges, and the mustplay of the side to move
// is the intersection of the opponent's edge-to-edge semi connections (key included),
// with their union as the proof.
type VCConnector struct {
	bs   [3]*vc.Builder // one builder per colour
	last [3]struct {
		hash uint64
		ok   bool
	}
}

// NewVCConnector returns a connector running H-search with configuration cfg (use
// vc.DefaultConfig() with StopAtWin for speed).
func NewVCConnector(cfg vc.Config) *VCConnector {
	return &VCConnector{bs: [3]*vc.Builder{nil, vc.NewBuilder(cfg), vc.NewBuilder(cfg)}}
}

// build runs H-search for colour c unless the last build was of the same position.
func (v *VCConnector) build(b *hex.Board, c hex.Color) (*vc.Builder, bool) {
	if c != hex.Black && c != hex.White {
		return nil, false
	}
	h := b.Hash()
	l := &v.last[c]
	if l.ok && l.hash == h {
		return v.bs[c], true
	}
	l.ok = false
	if err := v.bs[c].Build(b, c); err != nil {
		return nil, false
	}
	l.hash, l.ok = h, true
	return v.bs[c], true
}

// WinningSC implements Connector.
func (v *VCConnector) WinningSC(b *hex.Board, c hex.Color) (hex.Cell, hex.Bitset, bool) {
	bl, ok := v.build(b, c)
	if !ok {
		return hex.NoCell, hex.Bitset{}, false
	}
	e1, e2 := hex.EdgesOf(c)
	semi, err := bl.Semi(e1, e2)
	if err != nil || len(semi) == 0 || semi[0].Key < 0 {
		return hex.NoCell, hex.Bitset{}, false
	}
	car := semi[0].Carrier
	car.Set(semi[0].Key)
	return semi[0].Key, car, true
}

// WinningVC implements Connector.
func (v *VCConnector) WinningVC(b *hex.Board, c hex.Color) (hex.Bitset, bool) {
	bl, ok := v.build(b, c)
	if !ok {
		return hex.Bitset{}, false
	}
	e1, e2 := hex.EdgesOf(c)
	full, err := bl.Full(e1, e2)
	if err != nil || len(full) == 0 {
		return hex.Bitset{}, false
	}
	return full[0].Carrier, true
}

// Mustplay implements Connector.
func (v *VCConnector) Mustplay(b *hex.Board, x hex.Color) (must, proof hex.Bitset, ok bool) {
	o := x.Opp()
	bl, ok := v.build(b, o)
	if !ok {
		return must, proof, false
	}
	e1, e2 := hex.EdgesOf(o)
	semi, err := bl.Semi(e1, e2)
	if err != nil || len(semi) == 0 {
		return must, proof, false
	}
	must = b.EmptyCells()
	for i := range semi {
		c := semi[i].Carrier
		if semi[i].Key >= 0 {
			c.Set(semi[i].Key)
		}
		must = must.And(c)
		proof = proof.Or(c)
	}
	return must, proof, true
}
