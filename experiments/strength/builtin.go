package strength

import (
	"github.com/hexlearn/hexlearn/player"
)

// BuiltinNames lists the players that name the hexlearn binary's own GTP engine:
// learned ('hexlearn gtp --player learned'), exact (H-search and the resistance
// evaluator) and exact-xh (XH-search).
var BuiltinNames = []string{"learned", "exact", "exact-xh"}

// Builtin returns the built-in player name started from the hexlearn binary bin (its
// command line ends with --time TimePlaceholder), and false for any other name. Depth
// 32 is the search's maximum, so iterative deepening runs until the clock stops.
func Builtin(bin, name string) (Entrant, bool) {
	var s player.Settings
	switch name {
	case "learned":
		s.Kind = player.Set(player.Learned)
	case "exact":
		s.Kind = player.Set(player.Exact)
	case "exact-xh":
		s.Kind, s.XH = player.Set(player.Exact), player.Set(true)
	default:
		return Entrant{}, false
	}
	return Entrant{Name: name, Cmd: s.CommandLine(bin) + " --time " + TimePlaceholder}, true
}
