// Command run writes engine/vc's generated H-search files (see package gen) into the
// directory given as its argument, or the current directory; "go generate ./engine/vc"
// runs it there.
package main

import (
	"fmt"
	"os"

	"github.com/hexlearn/hexlearn/engine/vc/internal/gen"
)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	if err := gen.Write(dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
