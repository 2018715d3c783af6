package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/vc"
)

// TestVCConfigs: hexlearn vc builds with vc.DefaultConfig (the edge templates on), with
// the same configuration without templates under --no-templates, and with
// vc.XHConfig under --xh (its ORs of 5, not the default's 6, unless --max-or is
// given), and with vc.FastVCConfig under --fastvc: the connection counts after d6 on 8x8 are those of the library's builders.
// The templates and the OR limit change the counts there, so each setting is seen to
// reach the builder.
func TestVCConfigs(t *testing.T) {
	b, err := hex.ParsePosition(8, 8, "d6")
	if err != nil {
		t.Fatal(err)
	}
	counts := func(cfg vc.Config) [2]int {
		bl := vc.NewBuilder(cfg)
		if err := bl.Build(b, hex.Black); err != nil {
			t.Fatal(err)
		}
		f, s := bl.Counts()
		return [2]int{f, s}
	}
	plain := vc.DefaultConfig()
	plain.EdgeTemplates = false
	xh6 := vc.XHConfig()
	xh6.MaxOr = 6
	cases := []struct {
		flags []string
		cfg   vc.Config
	}{
		{nil, vc.DefaultConfig()},
		{[]string{"--no-templates"}, plain},
		{[]string{"--xh"}, vc.XHConfig()},
		{[]string{"--xh", "--max-or", "6"}, xh6},
		{[]string{"--fastvc"}, vc.FastVCConfig()},
	}
	if counts(cases[0].cfg) == counts(cases[1].cfg) || counts(cases[2].cfg) == counts(cases[3].cfg) {
		t.Fatal("the templates or the OR limit change nothing after d6: pick another position")
	}
	for _, tc := range cases {
		args := append([]string{"vc", "--size", "8", "--moves", "d6", "--color", "black", "--json"}, tc.flags...)
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
		if got, want := [2]int{r.Colors[0].Full, r.Colors[0].Semi}, counts(tc.cfg); got != want {
			t.Errorf("%v: full/semi %v, want %v", args, got, want)
		}
	}
}
