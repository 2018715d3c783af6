package match

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// WriteGameSGF writes game g as dir/game-NNNN.sgf (HexGui-compatible, GM[11]) with the
// players, the result (Game.Result: RE[B+], RE[W+R] after a resignation, RE[W+F] after
// a forfeit, RE[B+] after an adjudication, RE[Void] for no result) and as a comment the
// referee's reason and, for an engine that died, its error and the solver's verdict.
func WriteGameSGF(dir string, geo *hex.Geometry, g Game) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("match: %w", err)
	}
	b := hex.NewBoardGeometry(geo)
	for _, m := range g.Moves {
		if err := b.Play(m); err != nil {
			return fmt.Errorf("match: game %d: replaying %s %s: %w", g.Index+1, m.Color, geo.CellName(m.Cell), err)
		}
	}
	comment := "referee: " + g.Reason
	if g.Died != hex.Empty {
		comment += fmt.Sprintf("\n%s (%s) died: %s", title(g.Died), g.player(g.Died), g.Failure)
	}
	if g.End == EndAdjudicated || g.End == EndNoResult {
		v := g.Verdict
		comment += fmt.Sprintf("\nsolver (DFPN): %s to move, %d nodes in %.3f s", title(v.ToMove), v.Nodes, v.Elapsed.Seconds())
	}
	props := hex.SGFProps{"PB": g.Black, "PW": g.White, "RE": g.Result(), "C": comment, "AP": "hexlearn match"}
	path := filepath.Join(dir, fmt.Sprintf("game-%04d.sgf", g.Index+1))
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return hex.WriteSGF(w, b, props) })
}

// player returns the name of colour c's engine.
func (g Game) player(c hex.Color) string {
	if c == hex.White {
		return g.White
	}
	return g.Black
}

// SGFEnd reads how a game ended from the root properties of its SGF file as
// WriteGameSGF writes them (RE and the referee's comment C); ok is false when RE is
// missing or not a result it writes.
func SGFEnd(props hex.SGFProps) (e End, ok bool) {
	re := strings.ToUpper(strings.TrimSpace(props["RE"]))
	switch {
	case re == "VOID":
		return EndNoResult, true
	case re == "B+R", re == "W+R":
		return EndResign, true
	case re == "B+F", re == "W+F", re == "B+T", re == "W+T":
		return EndForfeit, true
	case re == "B+", re == "W+":
		if strings.HasPrefix(props["C"], "referee: ") && strings.Contains(firstLine(props["C"]), adjudicatedMark) {
			return EndAdjudicated, true
		}
		return EndConnection, true
	}
	return EndConnection, false
}

// firstLine returns s up to its first newline.
func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}
