package hex

import "testing"

// FuzzPlayUndo runs a sequence of plays (cells, swaps, resignations, setup stones,
// illegal ones included) and undos decoded from the input on a board whose size the
// first byte picks. After every step the board must agree with the oracles, refused
// moves must change nothing, and every undo must restore the earlier state exactly.
func FuzzPlayUndo(f *testing.F) {
	f.Add([]byte{0x04, 0x10, 0x05, 0x11, 0x00, 0x12, 0x02})
	f.Add([]byte{0x0a, 0x21, 0x3c, 0x01, 0x00, 0x00, 0x00, 0x44, 0x07, 0x00, 0x00})
	f.Add([]byte{0x12, 0xff, 0xfe, 0xfd, 0xfc, 0x08, 0x09, 0x0b, 0x0c, 0x00, 0x00})
	f.Add([]byte{0x00, 0x13, 0x01})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		w := int(data[0])%MaxSize + 1
		h := w
		if data[0] >= 0x80 {
			h = int(data[0]>>2)%MaxSize + 1
		}
		b := MustBoard(w, h)
		var snaps []snapshot
		for i := 1; i+1 < len(data); i += 2 {
			a, c := data[i], data[i+1]
			p := Cell((int(a)<<8 | int(c)) % (b.g.N + 2)) // sometimes off the board
			before := snap(b)
			var err error
			switch a % 8 {
			case 0:
				if b.Undo() {
					want := snaps[len(snaps)-1]
					snaps = snaps[:len(snaps)-1]
					if !snap(b).equal(want) {
						t.Fatalf("undo did not restore the state\n%s", b)
					}
				} else if len(snaps) != 0 {
					t.Fatal("Undo refused with history")
				}
				checkInvariants(t, b)
				continue
			case 1:
				err = b.Play(Move{Color(c % 3), Swap})
			case 2:
				err = b.Play(Move{b.toMove, Resign})
			case 3:
				err = b.PlaySetup(Color(c%3), p)
			default:
				err = b.Play(Move{b.toMove, p})
			}
			if err != nil {
				if !snap(b).equal(before) {
					t.Fatalf("a refused move (%v) changed the board", err)
				}
				continue
			}
			snaps = append(snaps, before)
			checkInvariants(t, b)
		}
	})
}
