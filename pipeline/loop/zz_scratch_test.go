package loop

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/positions"
	"github.com/hexlearn/hexlearn/internal/stats"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
)

func TestZZMatch(t *testing.T) {
	if os.Getenv("HX_A") == "" {
		t.Skip()
	}
	mk := func(path, set string) *player.Player {
		var s player.Settings
		for _, kv := range strings.Split("book=none,solve-share=0,time=0,expansions=150,"+set, ",") {
			if kv == "" {
				continue
			}
			k, v, _ := strings.Cut(kv, "=")
			if err := s.Set(k, v); err != nil {
				t.Fatal(err)
			}
		}
		o := player.Options{}
		if path != "builtin" {
			m, err := model.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			o.Model = m
		}
		p, err := player.New(s, o)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := mk(os.Getenv("HX_A"), os.Getenv("HX_SA"))
	b := mk(os.Getenv("HX_B"), os.Getenv("HX_SB"))
	n := 16
	fmt.Sscan(os.Getenv("HX_N"), &n)
	size := 8
	fmt.Sscan(os.Getenv("HX_SIZE"), &size)
	wins, games := 0, 0
	for _, o := range positions.Openings(size, n, 11) {
		for _, aBlack := range []bool{true, false} {
			bl, wh := a, b
			if !aBlack {
				bl, wh = b, a
			}
			w, _, err := PlayGame(context.Background(), size, o, bl, wh)
			if err != nil {
				t.Fatal(err)
			}
			if (w == hex.Black) == aBlack {
				wins++
			}
			games++
		}
	}
	lo, hi := stats.Wilson(wins, games)
	t.Logf("A %d - %d B (%.1f%%, %.1f-%.1f)", wins, games-wins, 100*float64(wins)/float64(games), 100*lo, 100*hi)
}
