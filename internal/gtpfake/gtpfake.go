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
//
// It also answers protocol_version (and says "fake engine MODE ready" on errw),
// known_command (false), boardsize, clear_board, play, and param_fake ARGS (echoed on
// errw).
func Serve(mode string, in io.Reader, out, errw io.Writer) {
	var b *hex.Board
	games := 0
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
			reply(true, "")
		case "play":
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
			reply(true, b.Geometry().CellName(p))
		default:
			reply(false, "unknown command")
		}
	}
}
