package main

import (
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/player"
)

// The generated table of the player's settings in docs/cli.md lies between these
// lines.
const (
	settingsBegin = "<!-- the player's settings: generated from player.Specs; go test ./cmd/hexlearn -run TestPlayerSettingsTable -update -->"
	settingsEnd   = "<!-- end of the player's settings -->"
)

// TestPlayerSettingsTable: docs/cli.md shows the table of the player's settings as
// player.Markdown writes it from the one declaration of the settings (-update
// rewrites it).
func TestPlayerSettingsTable(t *testing.T) {
	const path = "../../docs/cli.md"
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, settingsBegin), strings.Index(doc, settingsEnd)
	if i < 0 || j < i {
		t.Fatalf("%s: no generated table of the player's settings (%q ... %q)", path, settingsBegin, settingsEnd)
	}
	want := settingsBegin + "\n\n" + player.Markdown() + "\n" + settingsEnd
	if got := doc[i : j+len(settingsEnd)]; got != want {
		if !*updateDocs {
			t.Fatalf("%s: the table of the player's settings differs from player.Markdown (run with -update to rewrite it)", path)
		}
		if err := writeFileAtomic(path, []byte(doc[:i]+want+doc[j+len(settingsEnd):])); err != nil {
			t.Fatal(err)
		}
	}
}
