package vc

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// unlimited is DefaultConfig with list limits high enough that most positions of the
// test never reach them: while no limit dropped a connection (Builder.Truncated), the
// connections kept are the minimal elements of the rules' least fixed point, and Play
// must equal Build exactly. (Truly unlimited lists make a few positions take minutes:
// the OR rule combines up to 4 of hundreds of SCs.)
func unlimited() Config {
	c := DefaultConfig()
	c.MaxFull, c.MaxSemi = 40, 40
	return c
}

// connSet returns the connections of bl as canonical sorted lines (endpoints in cell
// order, kind, key, carrier).
func connSet(bl *Builder) []string {
	var out []string
	add := func(kind string) func(x, y hex.Cell, c *Conn) bool {
		return func(x, y hex.Cell, c *Conn) bool {
			if x > y {
				x, y = y, x
			}
			out = append(out, fmt.Sprintf("%d %d %s %d %x", x, y, kind, c.Key, [6]uint64(c.Carrier)))
			return true
		}
	}
	bl.EachFull(add("F"))
	bl.EachSemi(add("S"))
	sort.Strings(out)
	return out
}

// diffSets describes the first differences of two sorted connection lists.
func diffSets(g *hex.Geometry, got, want []string) string {
	gs, ws := map[string]bool{}, map[string]bool{}
	for _, s := range got {
		gs[s] = true
	}
	for _, s := range want {
		ws[s] = true
	}
	var sb strings.Builder
	n := 0
	for _, s := range got {
		if !ws[s] && n < 6 {
			fmt.Fprintf(&sb, "  only in Play:  %s\n", s)
			n++
		}
	}
	for _, s := range want {
		if !gs[s] && n < 12 {
			fmt.Fprintf(&sb, "  only in Build: %s\n", s)
			n++
		}
	}
	return sb.String()
}

// playGame plays a random game from seed on a w x h board (colours alternate, or are
// random when mixed) and calls check after every move with the board and the cell.
func playGame(r *rand.Rand, w, h, moves int, mixed bool, check func(b *hex.Board, p hex.Cell) bool) {
	b := hex.MustBoard(w, h)
	cells := make([]hex.Cell, w*h)
	for i := range cells {
		cells[i] = hex.Cell(i)
	}
	r.Shuffle(len(cells), func(i, j int) { cells[i], cells[j] = cells[j], cells[i] })
	col := hex.Black
	for k := 0; k < moves && k < len(cells); k++ {
		if mixed && r.IntN(2) == 0 {
			col = col.Opp()
		}
		b.PlayStone(col, cells[k])
		col = col.Opp()
		if !check(b, cells[k]) {
			return
		}
	}
}

// TestPlayEqualsBuild is the acceptance test of the incremental update: along random
// games (alternating and mixed colours) on 3x3 to 6x6 boards, with no list limits,
// with and without AND over edges, the connections after every Play (both colours'
// Builders follow every move) are exactly those of a fresh Build, and so are the
// winning VC and the mustplay.
func TestPlayEqualsBuild(t *testing.T) {
	type run struct {
		w, h, games int
		edge, tmpl  bool
	}
	runs := []run{{3, 3, 20, false, false}, {4, 4, 20, false, false}, {5, 5, 12, false, false}, {4, 3, 6, false, false},
		{6, 6, 12, false, false}, {3, 3, 10, true, false}, {4, 4, 10, true, false}, {5, 4, 6, true, false}, {5, 5, 3, true, false},
		{5, 5, 10, false, true}, {6, 5, 6, false, true}, {6, 6, 8, false, true}, {5, 5, 3, true, true}}
	if testing.Short() {
		runs = runs[:3]
	}
	r := rand.New(rand.NewPCG(3, 17))
	plays, rebuilt, skipped := 0, 0, 0
	for _, ru := range runs {
		t0 := time.Now()
		p0 := plays
		cfg := unlimited()
		cfg.AndOverEdge = ru.edge
		cfg.EdgeTemplates = ru.tmpl
		inc := [3]*Builder{nil, NewBuilder(cfg), NewBuilder(cfg)}
		fresh := NewBuilder(cfg)
		for n := 0; n < ru.games; n++ {
			empty := hex.MustBoard(ru.w, ru.h)
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := inc[c].Build(empty, c); err != nil {
					t.Fatal(err)
				}
			}
			playGame(r, ru.w, ru.h, ru.w*ru.h, n%3 == 2, func(b *hex.Board, p hex.Cell) bool {
				for _, c := range []hex.Color{hex.Black, hex.White} {
					before := inc[c].rebuilds
					if err := inc[c].Play(b, p); err != nil {
						t.Fatal(err)
					}
					rebuilt += inc[c].rebuilds - before
					if err := fresh.Build(b, c); err != nil {
						t.Fatal(err)
					}
					if inc[c].Truncated() || fresh.Truncated() {
						// a limit dropped connections: resynchronise
						skipped++
						if err := inc[c].Build(b, c); err != nil {
							t.Fatal(err)
						}
						continue
					}
					plays++
					got, want := connSet(inc[c]), connSet(fresh)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Fatalf("%dx%d edge=%v templates=%v game %d, %v after %s (%s): Play has %d connections, Build %d\n%s%s",
							ru.w, ru.h, ru.edge, ru.tmpl, n, c, b.Geometry().CellName(p), b.At(p), len(got), len(want),
							diffSets(b.Geometry(), got, want), b.Diagram())
					}
					w1, _ := inc[c].WinningVC()
					w2, _ := fresh.WinningVC()
					m1, t1 := inc[c].Mustplay()
					m2, t2 := fresh.Mustplay()
					if w1 != w2 || m1 != m2 || t1 != t2 {
						t.Fatalf("%dx%d game %d, %v: WinningVC/Mustplay differ after Play", ru.w, ru.h, n, c)
					}
				}
				return b.Winner() == hex.Empty || r.IntN(3) > 0
			})
		}
		t.Logf("%dx%d edge=%v templates=%v: %d plays in %v", ru.w, ru.h, ru.edge, ru.tmpl, plays-p0, time.Since(t0))
	}
	t.Logf("%d Plays equal to a fresh Build (%d of them rebuilt: own stone joining an edge group without AND over edges); %d skipped (a list limit was reached)", plays, rebuilt, skipped)
	if plays < 10*skipped {
		t.Errorf("too many positions reached the list limits: %d compared, %d skipped", plays, skipped)
	}
}

// TestPlayLimits plays random games on 8x8 (and 6x6) with the default limits, with
// Hexy's M = 20 and with FastVCConfig (whose rules depend on the order of deduction,
// so that Play cannot equal Build exactly): every connection Play keeps is sound
// (brute-force oracle on a sample with small carriers), and the winning-VC answer is
// compared with a fresh Build.
func TestPlayLimits(t *testing.T) {
	games := 6
	if testing.Short() {
		games = 2
	}
	r := rand.New(rand.NewPCG(9, 4))
	for _, cfg := range []Config{DefaultConfig(), AnshelevichConfig(), FastVCConfig()} {
		inc := [3]*Builder{nil, NewBuilder(cfg), NewBuilder(cfg)}
		fresh := NewBuilder(cfg)
		plays, winDiff, incOnly, connDiff, checked := 0, 0, 0, 0, 0
		for n := 0; n < games; n++ {
			size := 8
			if n%2 == 1 {
				size = 6
			}
			empty := hex.MustBoard(size, size)
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := inc[c].Build(empty, c); err != nil {
					t.Fatal(err)
				}
			}
			playGame(r, size, size, size*size, n%3 == 2, func(b *hex.Board, p hex.Cell) bool {
				for _, c := range []hex.Color{hex.Black, hex.White} {
					if err := inc[c].Play(b, p); err != nil {
						t.Fatal(err)
					}
					if err := fresh.Build(b, c); err != nil {
						t.Fatal(err)
					}
					plays++
					w1, _ := inc[c].WinningVC()
					w2, _ := fresh.WinningVC()
					if w1 != w2 {
						winDiff++
						if w1 {
							incOnly++
						}
					}
					if strings.Join(connSet(inc[c]), "\n") != strings.Join(connSet(fresh), "\n") {
						connDiff++
					}
					ck, _ := checkSound(t, r, b, c, inc[c], 10, 4)
					checked += ck
					if t.Failed() {
						t.Fatalf("unsound connection after Play %s", b.Geometry().CellName(p))
					}
				}
				return b.Winner() == hex.Empty
			})
		}
		t.Logf("MaxFull %d MaxSemi %d: %d Plays, %d connections checked sound; connection lists differ from a Build after %d, winning VC differs after %d (%d found only by Play)",
			cfg.MaxFull, cfg.MaxSemi, plays, checked, connDiff, winDiff, incOnly)
	}
}

// FuzzPlay plays the fuzzed move sequence (cells and colours from the bytes) on a small
// board and checks Play against a fresh Build after every move, as TestPlayEqualsBuild.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{4, 0, 5, 10, 3, 7, 129, 2})
	f.Add([]byte{5, 12, 140, 7, 17, 3, 22, 200, 1})
	f.Add([]byte{3, 4, 132, 0, 8})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		size := 3 + int(data[0])%3
		cfg := unlimited()
		cfg.AndOverEdge = data[0]&0x80 != 0
		b := hex.MustBoard(size, size)
		inc := [3]*Builder{nil, NewBuilder(cfg), NewBuilder(cfg)}
		fresh := NewBuilder(cfg)
		for _, c := range []hex.Color{hex.Black, hex.White} {
			if err := inc[c].Build(b, c); err != nil {
				t.Fatal(err)
			}
		}
		for _, d := range data[1:] {
			p := hex.Cell(int(d&0x7f) % (size * size))
			col := hex.Black
			if d&0x80 != 0 {
				col = hex.White
			}
			if b.At(p) != hex.Empty {
				continue
			}
			b.PlayStone(col, p)
			for _, c := range []hex.Color{hex.Black, hex.White} {
				if err := inc[c].Play(b, p); err != nil {
					t.Fatal(err)
				}
				if err := fresh.Build(b, c); err != nil {
					t.Fatal(err)
				}
				if inc[c].Truncated() || fresh.Truncated() {
					return
				}
				if got, want := connSet(inc[c]), connSet(fresh); strings.Join(got, "\n") != strings.Join(want, "\n") {
					t.Fatalf("%v after %s: Play differs from Build\n%s%s", c, b.Geometry().CellName(p),
						diffSets(b.Geometry(), got, want), b.Diagram())
				}
			}
		}
	})
}

// TestPlayErrors: Play refuses boards that are not the built position plus one stone.
func TestPlayErrors(t *testing.T) {
	bl := NewBuilder(DefaultConfig())
	b := hex.MustBoard(4, 4)
	if err := bl.Play(b, 0); err == nil {
		t.Error("Play before Build accepted")
	}
	if err := bl.Build(b, hex.Black); err != nil {
		t.Fatal(err)
	}
	if err := bl.Play(nil, 0); err == nil {
		t.Error("nil board accepted")
	}
	if err := bl.Play(b, 0); !errors.Is(err, ErrPlay) {
		t.Errorf("empty cell: %v", err)
	}
	b.PlayStone(hex.Black, 5)
	b.PlayStone(hex.White, 6)
	if err := bl.Play(b, 5); !errors.Is(err, ErrPlay) {
		t.Errorf("two stones: %v", err)
	}
	if err := bl.Play(b, 99); !errors.Is(err, ErrPlay) {
		t.Errorf("off-board cell: %v", err)
	}
	if err := bl.Play(hex.MustBoard(5, 5), 0); !errors.Is(err, ErrPlay) {
		t.Errorf("other size: %v", err)
	}
	b.Undo()
	if err := bl.Play(b, 5); err != nil {
		t.Fatal(err)
	}
	if err := bl.Play(b, 5); !errors.Is(err, ErrPlay) {
		t.Errorf("same stone twice: %v", err)
	}
}

// TestPlayRebuilds: with XH-search, StopAtWin, or after SetConfig, Play rebuilds, so it
// still equals a fresh Build.
func TestPlayRebuilds(t *testing.T) {
	stop := DefaultConfig()
	stop.StopAtWin = true
	r := rand.New(rand.NewPCG(8, 8))
	for _, cfg := range []Config{XHConfig(), stop, DefaultConfig()} {
		inc, fresh := NewBuilder(cfg), NewBuilder(cfg)
		if err := inc.Build(hex.MustBoard(5, 5), hex.White); err != nil {
			t.Fatal(err)
		}
		changed := !cfg.XH && !cfg.StopAtWin
		if changed {
			other := AnshelevichConfig()
			if err := inc.SetConfig(other); err != nil {
				t.Fatal(err)
			}
			if err := fresh.SetConfig(other); err != nil {
				t.Fatal(err)
			}
		}
		playGame(r, 5, 5, 12, true, func(b *hex.Board, p hex.Cell) bool {
			before := inc.rebuilds
			if err := inc.Play(b, p); err != nil {
				t.Fatal(err)
			}
			if err := fresh.Build(b, hex.White); err != nil {
				t.Fatal(err)
			}
			if (cfg.XH || cfg.StopAtWin) && inc.rebuilds != before+1 {
				t.Fatalf("%+v: Play did not rebuild", cfg)
			}
			if strings.Join(connSet(inc), "\n") != strings.Join(connSet(fresh), "\n") {
				t.Fatalf("%+v: Play differs from Build after %s\n%s", cfg, b.Geometry().CellName(p), b.Diagram())
			}
			// after SetConfig only the first Play rebuilds; later ones are incremental
			// with list limits, which may keep other connections than a Build
			return !changed
		})
		if changed && inc.rebuilds < 1 {
			t.Error("Play after SetConfig did not rebuild")
		}
	}
}

// TestBuildByPlays: replaying a game with Play gives the connections of a Build (with
// limits high enough not to be reached on 4x4), and swaps are refused.
func TestBuildByPlays(t *testing.T) {
	b, err := hex.ParsePosition(4, 4, "b2 c3 a4 b3 d1 c2")
	if err != nil {
		t.Fatal(err)
	}
	inc, fresh := NewBuilder(unlimited()), NewBuilder(unlimited())
	for _, c := range []hex.Color{hex.Black, hex.White} {
		if err := inc.BuildByPlays(b, c); err != nil {
			t.Fatal(err)
		}
		if err := fresh.Build(b, c); err != nil {
			t.Fatal(err)
		}
		if inc.Truncated() || strings.Join(connSet(inc), "\n") != strings.Join(connSet(fresh), "\n") {
			t.Fatalf("%v: BuildByPlays differs from Build", c)
		}
	}
	sw := hex.MustBoard(4, 4)
	if err := sw.Play(hex.Move{Color: hex.Black, Cell: 5}); err != nil {
		t.Fatal(err)
	}
	if err := sw.Play(hex.Move{Color: hex.White, Cell: hex.Swap}); err != nil {
		t.Skipf("swap not playable here: %v", err)
	}
	if err := inc.BuildByPlays(sw, hex.Black); !errors.Is(err, ErrPlay) {
		t.Errorf("swap: %v", err)
	}
	if err := inc.BuildByPlays(nil, hex.Black); err == nil {
		t.Error("nil board accepted")
	}
}
