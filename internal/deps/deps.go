package deps

import (
	_ "github.com/apache/arrow/go/v15/arrow"
	_ "github.com/apache/arrow/go/v15/arrow/array"
	_ "github.com/apache/arrow/go/v15/arrow/ipc"
	_ "github.com/apache/arrow/go/v15/arrow/memory"
	_ "github.com/schollz/progressbar/v3"
	_ "golang.org/x/term"
	_ "gonum.org/v1/gonum/mat"
	_ "gonum.org/v1/plot"
	_ "gonum.org/v1/plot/plotter"
	_ "gonum.org/v1/plot/vg"
	_ "gorgonia.org/gorgonia"
	_ "gorgonia.org/tensor"
)
