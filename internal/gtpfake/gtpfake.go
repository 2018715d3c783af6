// Package gtpfake is a tiny scripted Hex GTP engine for the tests of the match referee
// and the strength ladder: a test binary turns itself into one (see Main) and the code
// under test starts it as an engine command line.
package gtpfake

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/brute"
)

// EnvVar is the environment variable that selects the mode; Command builds a command
// line that starts the test binary in a mode.
const EnvVar = "HEXLEARN_GTPFAKE"

// Command returns the shell command line that starts the running test binary as a fake
// engine in mode.
func Command(mode string) string { return fmt.Sprintf("%s=%s %q", EnvVar, mode, os.Args[0]) }

// Main serves GTP in the mode named by EnvVar and exits when it is set; otherwise it
// returns at once. Call it first in a test package's TestMain.
func Main() {
	if mode := os.Getenv(EnvVar); mode != "" {
		Serve(mode, os.Stdin, os.Stdout, os.Stderr)
		os.Exit(0)
	}
}

// Serve answers GTP commands from in on out until quit or the end of in. Modes:
//
//	first   plays the first empty cell in index order
//	last    plays the last empty cell
//	illegal always answers a1
//	slow    sleeps 2 s before each genmove answer
//	slow2   plays like first, but from its third game on sleeps 3 s before each move
//	resign  always resigns
//	crash   exits without answering its first genmove
//	diewon  plays like first, but exits without answering a genmove in a position
//	        with at most DieEmpty empty cells that its colour wins (decided by the
//	        brute force of internal/brute, independent of the solver)
//	dielost plays like first, but exits without answering a genmove in a position
//	        with at most DieEmpty empty cells that its colour loses
//	dieplay plays like first, but exits without answering the first play command
//	        that comes after its own first move of a game
//
// It also answers protocol_version (and says "fake engine MODE ready" on errw),
// known_command (false), boardsize, clear_board, play, and param_fake ARGS (echoed on
// errw).
func Serve(mode string, in io.Reader, out, errw io.Writer) {
	var b *hex.Board
	games := 0
	moved := false // dieplay: it has answered a genmove in this game
	wins := map[uint64]bool{}
	sc := bufio.NewScanner(in)
	w := bufio.NewWriter(out)
	reply := func(ok bool, s string) {
		mark := "="
		if !ok {
			mark = "?"
		}
		fmt.Fprintf(w, "%s %s\n\n", mark, s)
		w.Flush()
	}
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "quit":
			reply(true, "")
			return
		case "protocol_version":
			fmt.Fprintf(errw, "fake engine %s ready\n", mode)
			reply(true, "2")
		case "param_fake":
			fmt.Fprintf(errw, "param_fake %s\n", strings.Join(f[1:], " "))
			reply(true, "")
		case "known_command":
			reply(true, "false")
		case "boardsize":
			n, _ := strconv.Atoi(f[1])
			b = hex.MustBoard(n, n)
			reply(true, "")
		case "clear_board":
			b.Reset()
			games++
			moved = false
			reply(true, "")
		case "play":
			if mode == "dieplay" && moved {
				os.Exit(3)
			}
			c, _ := hex.ParseColor(f[1])
			p, err := b.Geometry().ParseCell(f[2])
			if err == nil {
				err = b.Play(hex.Move{Color: c, Cell: p})
			}
			if err != nil {
				reply(false, err.Error())
				continue
			}
			reply(true, "")
		case "genmove":
			c, _ := hex.ParseColor(f[1])
			cells := b.EmptyCells().AppendCells(nil)
			p := cells[0]
			switch mode {
			case "illegal":
				reply(true, "a1")
				continue
			case "resign":
				reply(true, "resign")
				continue
			case "crash":
				os.Exit(3)
			case "diewon", "dielost":
				b.SetToMove(c)
				if b.EmptyCells().Count() <= DieEmpty && brute.Wins(b, wins) == (mode == "diewon") {
					os.Exit(3)
				}
			case "slow":
				time.Sleep(2 * time.Second)
			case "slow2":
				if games >= 3 {
					time.Sleep(3 * time.Second)
				}
			case "last":
				p = cells[len(cells)-1]
			}
			b.PlayStone(c, p)
			moved = true
			reply(true, b.Geometry().CellName(p))
		default:
			reply(false, "unknown command")
		}
	}
}

// DieEmpty is the most empty cells a position may have for the modes diewon and
// dielost to die in it (the brute force takes milliseconds there).
const DieEmpty = 10
