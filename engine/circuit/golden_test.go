package circuit

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hexlearn/hexlearn/engine/hex"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// TestGolden evaluates the positions of testdata/positions.txt with the plain circuits
// (no VCs) and compares R_B, R_W, E and the value with testdata/eval.golden (regenerate
// with go test -run Golden -update after a deliberate change).
func TestGolden(t *testing.T) {
	src, err := os.ReadFile("testdata/positions.txt")
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResistance(Config{Mode: NoVCs})
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	for _, para := range strings.Split(string(src), "\n## ")[1:] {
		name, diagram, _ := strings.Cut(para, "\n")
		b, err := hex.ParseDiagram(diagram)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		e, err := r.Eval(b, nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fmt.Fprintf(&out, "%-22s R_B=%.9f R_W=%.9f E=%+.9f value=%+.9f\n", name, e.RB, e.RW, noNegZero(e.E), noNegZero(e.Value))
	}
	const golden = "testdata/eval.golden"
	if *update {
		if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if out.String() != string(want) {
		t.Errorf("evaluations differ from %s:\ngot:\n%s\nwant:\n%s", golden, out.String(), want)
	}
}

// noNegZero rounds values within 1e-12 of zero to +0, so the golden file does not
// depend on the sign of a rounding error.
func noNegZero(v float64) float64 {
	if v > -1e-12 && v < 1e-12 {
		return 0
	}
	return v
}
