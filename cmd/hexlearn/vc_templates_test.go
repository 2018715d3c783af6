package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// TestVCNoTemplates: hexlearn vc builds with the edge templates by default (the
// connection counts of vc.DefaultConfig) and without them under --no-templates (the
// counts of the same configuration with EdgeTemplates off); on 8x8 after d6 the two
// differ, so the flag is seen to reach the builder.
func TestVCNoTemplates(t *testing.T) {
	b, err := hex.ParsePosition(8, 8, "d6")
	if err != nil {
		t.Fatal(err)
	}
	counts := func(templates bool) [2]int {
		cfg := vc.DefaultConfig()
		cfg.EdgeTemplates = templates
		bl := vc.NewBuilder(cfg)
		if err := bl.Build(b, hex.Black); err != nil {
			t.Fatal(err)
		}
		f, s := bl.Counts()
		return [2]int{f, s}
	}
	want := map[bool][2]int{true: counts(true), false: counts(false)}
	if want[true] == want[false] {
		t.Fatalf("the templates change nothing after d6 (%v): pick another position", want[true])
	}
	for _, templates := range []bool{true, false} {
		args := []string{"vc", "--size", "8", "--moves", "d6", "--color", "black", "--json"}
		if !templates {
			args = append(args, "--no-templates")
		}
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errb.String())
		}
		var r struct {
			Colors []struct{ Full, Semi int } `json:"colors"`
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil || len(r.Colors) != 1 {
			t.Fatalf("%v: bad JSON %q: %v", args, out.String(), err)
		}
		if got := [2]int{r.Colors[0].Full, r.Colors[0].Semi}; got != want[templates] {
			t.Errorf("%v: full/semi %v, want %v", args, got, want[templates])
		}
	}
}
