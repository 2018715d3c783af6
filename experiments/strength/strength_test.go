package strength

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/match"
	"github.com/hexlearn/hexlearn/internal/gtpfake"
)

// TestMain turns the test binary into a fake GTP engine (internal/gtpfake) when asked.
func TestMain(m *testing.M) {
	gtpfake.Main()
	os.Exit(m.Run())
}

func fakePlayer(name, mode string) Entrant {
	return Entrant{Name: name, Cmd: gtpfake.Command(mode)}
}

func readCSV(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return rows
}

// validXML checks that path holds one well-formed XML document with an <svg> root.
func validXML(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	root := ""
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%s: not well-formed XML: %v", path, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Fatalf("%s: root element %q, want svg", path, root)
	}
}

func TestLadderEndToEnd(t *testing.T) {
	dir := t.TempDir()
	var progress []Progress
	cfg := Config{
		Sizes:   []int{2, 3},
		Times:   []time.Duration{10 * time.Millisecond, 20 * time.Millisecond},
		Players: []Entrant{fakePlayer("first", "first"), fakePlayer("exact", "last"), fakePlayer("quitter", "resign")},
		// The quitter gets an initial command with the time per move.
		Openings: OpeningsAuto,
		Seed:     3,
		Dir:      dir,
		Progress: func(p Progress) { progress = append(progress, p) },
	}
	cfg.Players[2].Init = []string{"param_fake time {time}"}
	// 3 pairs x 2 times x 2 games per opening x (4 + 9 openings).
	const planned = 3 * 2 * 2 * (4 + 9)
	if got := cfg.Planned(); got != planned {
		t.Fatalf("planned %d games, want %d", got, planned)
	}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Played != planned || len(res.Games) != planned || len(progress) != planned || res.Interrupted {
		t.Fatalf("played %d, %d records, %d progress calls, interrupted %v; want %d", res.Played, len(res.Games), len(progress), res.Interrupted, planned)
	}
	if last := progress[len(progress)-1]; last.Done != planned || last.Total != planned || last.PairDone != last.PairTotal {
		t.Errorf("last progress %+v", last)
	}
	if res.Anchor != "exact" {
		t.Errorf("anchor %q, want exact", res.Anchor)
	}
	for _, l := range res.Ladders {
		for _, p := range l.Pairs {
			if !p.Complete || p.Games != 2*l.Size*l.Size || p.WinsA+p.WinsB != p.Games {
				t.Errorf("%dx%d %v: pair %+v", l.Size, l.Size, l.Time, p)
			}
			if p.B == "quitter" && p.WinsA != p.Games {
				t.Errorf("%s beat the resigning engine only %d of %d", p.A, p.WinsA, p.Games)
			}
		}
		q := l.Elo.Ratings[2]
		if l.Elo.Prior != 1 || !(q.Elo < l.Elo.Ratings[0].Elo && q.Elo < 0) || l.Elo.Ratings[1].Elo != 0 {
			t.Errorf("%dx%d %v: Elo %+v", l.Size, l.Size, l.Time, l.Elo)
		}
	}
	sgfs, _ := filepath.Glob(filepath.Join(dir, "sgf", "*", "*", "*", "*.sgf"))
	if len(sgfs) != planned {
		t.Errorf("%d SGF files, want %d", len(sgfs), planned)
	}
	if _, err := os.Stat(filepath.Join(dir, SGFDir(3, 20*time.Millisecond, "exact", "quitter"), "game-0018.sgf")); err != nil {
		t.Error(err)
	}
	md, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Status: complete, 156 games", "### 3x3, 0.02 s per move (9 openings, 18 games per pair)",
		"| exact | quitter | 18 | 18 | 0 | 100.0% | 82.4%..100.0% |", "| exact | 18 |", "![", "elo-3x3.png", "virtual draw"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("README lacks %q:\n%s", want, md)
		}
	}
	if rows := readCSV(t, filepath.Join(dir, "games.csv")); len(rows) != planned+1 {
		t.Errorf("games.csv: %d rows, want %d", len(rows), planned+1)
	}
	if rows := readCSV(t, filepath.Join(dir, "elo.csv")); len(rows) != 1+3*4 {
		t.Errorf("elo.csv: %d rows", len(rows))
	}
	for _, s := range []string{"2x2", "3x3"} {
		validXML(t, filepath.Join(dir, "elo-"+s+".svg"))
		if fi, err := os.Stat(filepath.Join(dir, "elo-"+s+".png")); err != nil || fi.Size() == 0 {
			t.Errorf("png: %v", err)
		}
	}
	logText, err := os.ReadFile(filepath.Join(dir, LogPath(3, 20*time.Millisecond, "exact", "quitter", "quitter")))
	if err != nil || string(logText) != "param_fake time 0.02\nfake engine resign ready\n" {
		t.Errorf("engine log: %q, %v", logText, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "results.json")); err != nil {
		t.Error(err)
	}
}

func TestLadderDeterministic(t *testing.T) {
	run := func(seed uint64) []byte {
		dir := t.TempDir()
		cfg := Config{Sizes: []int{4}, Times: []time.Duration{time.Millisecond},
			Players:  []Entrant{fakePlayer("a", "first"), fakePlayer("b", "last")},
			Openings: 3, Seed: seed, Dir: dir}
		if _, err := Run(context.Background(), cfg); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(filepath.Join(dir, "games.csv"))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	a, b, c := run(7), run(7), run(8)
	if !bytes.Equal(a, b) {
		t.Errorf("same seed, different games:\n%s\n%s", a, b)
	}
	if bytes.Equal(a, c) {
		t.Errorf("seeds 7 and 8 chose the same openings:\n%s", a)
	}
}

func TestLadderInterrupt(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cancelled := make(chan time.Time, 1)
	cfg := Config{Sizes: []int{2}, Times: []time.Duration{time.Second},
		Players: []Entrant{fakePlayer("fast", "first"), fakePlayer("slow", "slow2")}, Dir: dir,
		Progress: func(p Progress) {
			if p.Done == 2 { // the third game's engine will think for 3 s
				time.AfterFunc(200*time.Millisecond, func() { cancelled <- time.Now(); cancel() })
			}
		}}
	res, err := Run(ctx, cfg)
	stopped := time.Now()
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if d := stopped.Sub(<-cancelled); d > time.Second {
		t.Errorf("stopped %v after the interrupt", d)
	}
	if !res.Interrupted || res.Played != 2 {
		t.Errorf("interrupted %v, played %d", res.Interrupted, res.Played)
	}
	sgfs, _ := filepath.Glob(filepath.Join(dir, SGFDir(2, time.Second, "fast", "slow"), "*.sgf"))
	if len(sgfs) != 2 {
		t.Errorf("%d SGF files kept, want 2", len(sgfs))
	}
	md, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "**Status: interrupted after 2 of 8 games.**") || !strings.Contains(string(md), "| fast | slow | 2 of 8 |") {
		t.Errorf("README:\n%s", md)
	}
}

func TestLadderEngineFailure(t *testing.T) {
	refusing := fakePlayer("refusing", "first")
	refusing.Init = []string{"param_fake ok", "bogus {time}"}
	for _, tc := range []struct {
		other Entrant
		want  string
	}{
		{Entrant{Name: "broken", Cmd: "exit 3"}, "broken"},
		{refusing, `engine refusing: initial command "bogus 0.001"`},
	} {
		dir := t.TempDir()
		cfg := Config{Sizes: []int{2}, Times: []time.Duration{time.Millisecond},
			Players: []Entrant{fakePlayer("a", "first"), tc.other}, Dir: dir}
		res, err := Run(context.Background(), cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("Run with a failing engine: %v, want %q", err, tc.want)
		}
		md, _ := os.ReadFile(filepath.Join(dir, "README.md"))
		if res == nil || !strings.Contains(string(md), "stopped by an error after 0 of 8 games") {
			t.Errorf("README:\n%s", md)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	ok := func() Config {
		return Config{Sizes: []int{3}, Times: []time.Duration{time.Second}, Dir: "x",
			Players: []Entrant{{Name: "a", Cmd: "cmd"}, {Name: "b", Cmd: "cmd"}}}
	}
	for _, tc := range []struct {
		name string
		edit func(*Config)
	}{
		{"no sizes", func(c *Config) { c.Sizes = nil }},
		{"size 1", func(c *Config) { c.Sizes = []int{1} }},
		{"size too big", func(c *Config) { c.Sizes = []int{hex.MaxSize + 1} }},
		{"size twice", func(c *Config) { c.Sizes = []int{3, 3} }},
		{"no times", func(c *Config) { c.Times = nil }},
		{"zero time", func(c *Config) { c.Times = []time.Duration{0} }},
		{"time twice", func(c *Config) { c.Times = []time.Duration{time.Second, time.Second} }},
		{"one player", func(c *Config) { c.Players = c.Players[:1] }},
		{"bad name", func(c *Config) { c.Players[0].Name = "a/b" }},
		{"same name", func(c *Config) { c.Players[1].Name = "a" }},
		{"empty command", func(c *Config) { c.Players[1].Cmd = " " }},
		{"empty init", func(c *Config) { c.Players[1].Init = []string{""} }},
		{"init newline", func(c *Config) { c.Players[1].Init = []string{"a\nb"} }},
		{"bad openings", func(c *Config) { c.Openings = -2 }},
		{"no dir", func(c *Config) { c.Dir = "" }},
	} {
		c := ok()
		tc.edit(&c)
		if err := c.Validate(); !errors.Is(err, ErrConfig) {
			t.Errorf("%s: %v, want ErrConfig", tc.name, err)
		}
	}
	c := ok()
	if err := c.Validate(); err != nil {
		t.Errorf("valid config: %v", err)
	}
	for _, tc := range []struct{ mode, size, want int }{
		{OpeningsAuto, 6, 36}, {OpeningsAuto, 8, 64}, {OpeningsAuto, 11, 20}, {OpeningsAll, 11, 121}, {5, 11, 5}, {50, 3, 9},
	} {
		c.Openings = tc.mode
		if got := c.OpeningsFor(tc.size); got != tc.want {
			t.Errorf("openings %d on %dx%d: %d, want %d", tc.mode, tc.size, tc.size, got, tc.want)
		}
	}
	if got := (Entrant{Cmd: "wolve --time {time} x{time}"}).CommandFor(1500 * time.Millisecond); got != "wolve --time 1.5 x1.5" {
		t.Errorf("CommandFor: %q", got)
	}
}

func TestCapLog(t *testing.T) {
	var c capLog
	if len(c.bytes()) != 0 {
		t.Fatal("empty log not empty")
	}
	chunk := bytes.Repeat([]byte("0123456789abcdef"), 1024) // 16 KiB
	for i := 0; i < 10; i++ {
		chunk[0] = byte('A' + i)
		c.Write(chunk)
	}
	got := c.bytes()
	note := fmt.Sprintf("\n[... %d bytes left out ...]\n", 10*len(chunk)-2*logKeep)
	if len(got) != 2*logKeep+len(note) || !bytes.Contains(got, []byte(note)) {
		t.Fatalf("kept %d bytes, note %v", len(got), bytes.Contains(got, []byte(note)))
	}
	if got[0] != 'A' || got[len(chunk)] != 'B' || got[logKeep+len(note)] != 'I' || got[logKeep+len(note)+len(chunk)] != 'J' {
		t.Errorf("kept the wrong parts: %q %q %q %q", got[0], got[len(chunk)], got[logKeep+len(note)], got[logKeep+len(note)+len(chunk)])
	}
}

// TestLadderAdjudication: an engine that dies in positions it has won is credited
// with those games, one that dies in lost positions loses them, and a death the
// solver cannot decide within its limit (11x11, one node) is no result: in the pair's
// games, in no score and no Elo fit. The report shows them apart.
func TestLadderAdjudication(t *testing.T) {
	dir := t.TempDir()
	cfg := Config{Sizes: []int{4}, Times: []time.Duration{time.Millisecond}, Openings: 4, Seed: 2, Dir: dir,
		Players:    []Entrant{fakePlayer("first", "first"), fakePlayer("winner", "diewon"), fakePlayer("loser", "dielost")},
		Adjudicate: match.Adjudication{Time: time.Minute}}
	res, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	adjudicated := 0
	for _, g := range res.Games {
		if g.Died == "" {
			continue
		}
		adjudicated++
		want := g.Died // diewon dies in won positions
		if g.Died == "loser" {
			want = map[bool]string{true: g.White, false: g.Black}[g.Black == "loser"]
		}
		if g.End != "adjudicated" || g.Winner != want || !strings.Contains(g.Reason, "died, adjudicated: solved win for") {
			t.Errorf("%+v: want adjudicated for %s", g, want)
		}
	}
	pairAdj := 0
	for _, p := range res.Ladders[0].Pairs {
		pairAdj += p.Adjudicated
		if p.Forfeits != 0 || p.NoResult != 0 || p.Decided() != p.Games {
			t.Errorf("pair %+v", p)
		}
	}
	if adjudicated == 0 || pairAdj != adjudicated {
		t.Fatalf("%d games adjudicated, pairs count %d", adjudicated, pairAdj)
	}
	rows := readCSV(t, filepath.Join(dir, "games.csv"))
	if strings.Join(rows[0], ",") != "size,seconds_per_move,a,b,number,opening,black,white,winner,result,end,reason,died,moves,sgf" {
		t.Errorf("games.csv header %v", rows[0])
	}
	rows = readCSV(t, filepath.Join(dir, "pairs.csv"))
	if rows[0][13] != "adjudicated" || rows[0][14] != "no_result" {
		t.Errorf("pairs.csv header %v", rows[0])
	}

	// No result: 11x11, the solver stopped after one node.
	dir = t.TempDir()
	cfg = Config{Sizes: []int{11}, Times: []time.Duration{time.Millisecond}, Openings: 1, Seed: 1, Dir: dir,
		Players:    []Entrant{fakePlayer("first", "first"), fakePlayer("crash", "crash")},
		Adjudicate: match.Adjudication{MaxNodes: 1}}
	res, err = Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	p, l := res.Ladders[0].Pairs[0], res.Ladders[0]
	if p.Games != 2 || p.NoResult != 2 || p.Decided() != 0 || p.Lo != 0 || p.Hi != 1 || l.Elo.Ratings[0].Games != 0 || len(l.outcomes) != 0 {
		t.Fatalf("pair %+v, Elo %+v", p, l.Elo)
	}
	for _, g := range res.Games {
		if g.Winner != "" || g.Result != "Void" || g.End != "no result" || g.Died != "crash" {
			t.Errorf("game %+v", g)
		}
	}
	md, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"| adjudicated | no result |", "| first | crash | 2 | 0 | 0 | — | — | 0 | 0 | 0 | 0 | 2 |", "within 1 node"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("README lacks %q:\n%s", want, md)
		}
	}
	rows = readCSV(t, filepath.Join(dir, "games.csv"))
	if rows[1][8] != "" || rows[1][9] != "Void" || rows[1][10] != "no result" {
		t.Errorf("games.csv row %v", rows[1])
	}
}
