package match

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// WriteGameSGF writes game g as dir/game-NNNN.sgf (HexGui-compatible, GM[11]) with the
// players, the result (RE[B+], RE[W+R] after a resignation, RE[W+F] after a forfeit)
// and the referee's reason as a comment.
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
	re := "B+"
	if g.Winner == hex.White {
		re = "W+"
	}
	switch g.Reason {
	case "connection":
	case "resign":
		re += "R"
	default:
		re += "F"
	}
	props := hex.SGFProps{"PB": g.Black, "PW": g.White, "RE": re, "C": "referee: " + g.Reason, "AP": "hexlearn match"}
	path := filepath.Join(dir, fmt.Sprintf("game-%04d.sgf", g.Index+1))
	return fileutil.WriteAtomic(path, func(w io.Writer) error { return hex.WriteSGF(w, b, props) })
}
