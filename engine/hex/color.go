package hex

import (
	"fmt"
	"strings"
)

// Color is the content of a cell or the colour of a player.
type Color uint8

// The colours. Empty is the zero value.
const (
	Empty Color = iota
	Black
	White
)

// Opp returns the opponent of a player colour (Black<->White); Empty stays Empty.
func (c Color) Opp() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "black", "white" or "empty".
func (c Color) String() string {
	switch c {
	case Black:
		return "black"
	case White:
		return "white"
	}
	return "empty"
}

// Letter returns "B", "W" or "." as used in diagrams and SGF.
func (c Color) Letter() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return "."
}

// ParseColor parses b, black, w or white (case-insensitive).
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "b", "black":
		return Black, nil
	case "w", "white":
		return White, nil
	}
	return Empty, fmt.Errorf("%w: %q (want b, black, w or white)", ErrBadColor, s)
}
