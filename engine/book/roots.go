package book

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
)

// RootReport is one root finished by BuildRoots.
type RootReport struct {
	Index   int           // the root's index in BuildRoots' list
	Stored  int           // positions stored from it
	Solves  int           // solver calls
	Unknown int           // positions not decided within the limits
	Nodes   int64         // solver nodes
	Elapsed time.Duration // solver time
}

// BuildRoots follows every root (AddRoot) with workers Builders in parallel, each
// with its own solver made from a configuration of its own (mk is called once per
// worker: a solver configuration holds the connection engine, which is not safe for
// concurrent use), and adds the positions to bk. Each root's lines go into a book
// of their own, merged into bk in the order of roots, so the result does not depend
// on which worker took which root. done, when set, is called (from one goroutine at a
// time) as each root finishes. When ctx ends the build, bk receives the roots
// finished so far and ctx's error is returned.
func BuildRoots(ctx context.Context, bk *Book, roots []*hex.Board, workers int, mk func() BuildConfig, done func(RootReport)) error {
	if workers < 1 {
		return fmt.Errorf("%w: %d workers", ErrConfig, workers)
	}
	for _, r := range roots {
		if err := bk.check(r); err != nil {
			return err
		}
	}
	builders := make([]*Builder, min(workers, len(roots)))
	for i := range builders {
		bl, err := NewBuilder(bk, mk(), nil)
		if err != nil {
			return err
		}
		builders[i] = bl
	}
	parts := make([]*Book, len(roots))
	var mu sync.Mutex
	next := 0
	var firstErr error
	var wg sync.WaitGroup
	for _, bl := range builders {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				stop := firstErr != nil || i >= len(roots)
				mu.Unlock()
				if stop {
					return
				}
				part := &Book{g: bk.g, m: map[key]hex.Cell{}}
				bl.bk = part
				before := bl.Stats()
				err := bl.AddRoot(ctx, roots[i])
				st := bl.Stats()
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
				} else {
					parts[i] = part
					if done != nil {
						done(RootReport{Index: i, Stored: st.Stored - before.Stored, Solves: st.Solves - before.Solves,
							Unknown: st.Unknown - before.Unknown, Nodes: st.Nodes - before.Nodes, Elapsed: st.Elapsed - before.Elapsed})
					}
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	for _, p := range parts {
		if p != nil {
			bk.Merge(p)
		}
	}
	return firstErr
}
