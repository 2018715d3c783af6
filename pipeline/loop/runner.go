package loop

import (
	"bytes"
	"context"
	"io"
	"math"

	"github.com/hexlearn/hexlearn/engine/search"
)

// Runner runs the self-play shards of an iteration: every shard of todo must have its
// done marker (RunShard writes it) when RunShards returns nil.
type Runner interface {
	RunShards(ctx context.Context, dir string, cfg *Config, iteration int, todo []int) error
}

// Local runs the shards one after the other on this machine, each with cfg.Workers
// games at once: the default runner.
type Local struct{}

// RunShards implements Runner.
func (Local) RunShards(ctx context.Context, dir string, cfg *Config, iteration int, todo []int) error {
	for _, k := range todo {
		if err := RunShard(ctx, dir, iteration, k, cfg.Workers, cfg.Meter); err != nil {
			return err
		}
	}
	return nil
}

// searchEvaluator is the evaluator type selfplay.Config.NewEvaluator returns.
type searchEvaluator = search.Evaluator

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func sqrt(x float64) float64 { return math.Sqrt(x) }
