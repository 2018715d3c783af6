package train

import (
	"context"
	"fmt"
	"runtime"
	"sync"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
)

// DefaultPlayouts is the number of random playouts per row that LabelPlayouts runs
// when asked for none: the standard error of a row's label is then at most 0.5/16,
// a third of the error of the 32 playouts the learned MCTS runs per node on 11x11.
const DefaultPlayouts = 256

// LabelPlayouts sets e.Playout, the label of the playouts target: for every row, the
// fraction of n random playouts (engine/search.Playouts: the empty cells filled in
// random order, bridge intrusions answered) that Black wins from the row's position,
// its side to move the one the stone counts imply (Examples.Board). Row i's playouts
// follow a seed derived from seed and i alone, so the labels do not depend on the
// order or number of the workers (one per CPU). n <= 0 runs DefaultPlayouts.
func (e *Examples) LabelPlayouts(ctx context.Context, n int, seed uint64) error {
	if n <= 0 {
		n = DefaultPlayouts
	}
	rows := e.Rows()
	lab := make([]float32, rows)
	workers := max(1, min(runtime.GOMAXPROCS(0), rows))
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			po := search.NewPlayouts(0)
			for i := w; i < rows; i += workers {
				if i%1024 == w && ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				b, err := e.Board(i)
				if err != nil {
					errs[w] = err
					return
				}
				po.Reseed(seed ^ uint64(i+1)*0x9E3779B97F4A7C15)
				p := float32(po.Run(b, n)) / float32(n) // for the side to move
				if b.ToMove() != hex.Black {
					p = 1 - p
				}
				lab[i] = p
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return fmt.Errorf("train: playouts labels: %w", err)
		}
	}
	e.Playout = lab
	return nil
}
