package train

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/model"
)

// SweepConfig configures a k-fold cross-validation sweep over hidden sizes and epochs.
type SweepConfig struct {
	Folds  int   // k (default 10, the paper's choice)
	Hidden []int // hidden sizes to try
	Epochs int   // epochs per run; the validation error is recorded after every epoch
	// Base holds the remaining training settings (batch, learning rate, seed, target,
	// output); its Hidden, Epochs, PlyRanges, Meter and OnEpoch are ignored.
	Base Config
	// Workers is the number of runs trained at once (default GOMAXPROCS).
	Workers int
	// TieTolerance: configurations whose mean validation error is within this
	// relative distance of the minimum count as tied, and the one with the smallest
	// standard deviation wins (the paper's second criterion). Default 0: exact ties.
	TieTolerance float64
	// Meter, if set, receives the epochs trained by all runs together (one part of
	// len(Hidden)·Folds·Epochs epochs).
	Meter progress.Meter
}

// SweepResult is the outcome of a sweep: validation errors per hidden size, fold and
// epoch, their mean and standard deviation, and the selected structure.
type SweepResult struct {
	W            int          `json:"w"`
	H            int          `json:"h"`
	Rows         int          `json:"rows"`
	Folds        int          `json:"folds"`
	Hidden       []int        `json:"hidden"`
	Epochs       int          `json:"epochs"`
	Target       model.Target `json:"target"`
	Output       model.Output `json:"output"`
	Seed         uint64       `json:"seed"`
	DataHash     string       `json:"data_hash"`
	TieTolerance float64      `json:"tie_tolerance"`
	// Err[i][f][e] is the validation error of hidden size Hidden[i] on fold f after
	// e+1 epochs (mean squared error of the scaled target for value models, mean
	// cross-entropy for winner models).
	Err [][][]float64 `json:"err"`
	// Mean[i][e] and Std[i][e] are over folds (sample standard deviation).
	Mean [][]float64 `json:"mean"`
	Std  [][]float64 `json:"std"`
	// BestHidden and BestEpochs are the selection; BestMean and BestStd its error.
	BestHidden int     `json:"best_hidden"`
	BestEpochs int     `json:"best_epochs"`
	BestMean   float64 `json:"best_mean"`
	BestStd    float64 `json:"best_std"`
	// Seconds is the wall time of the sweep; EpochSeconds the mean wall time of one
	// epoch of one run (training plus validation), measured per run.
	Seconds      float64 `json:"seconds"`
	EpochSeconds float64 `json:"epoch_seconds"`
	// Holdout, when set by the caller, holds metrics of the selected structure on
	// held-out data.
	Holdout *Metrics `json:"holdout"`
	// Agreement, when set by the caller, counts held-out positions where the move the
	// learned evaluator picks in a depth-1 search is one the exact evaluator rates best
	// (model.Agreement).
	Agreement *Agreement `json:"agreement"`
	// Label names the partition (e.g. "plies 0..4"); empty for all data.
	Label string `json:"label"`
}

// FoldOf assigns each of n rows to one of k folds: a seeded permutation dealt out in
// turn, so fold sizes differ by at most one.
func FoldOf(n, k int, seed uint64) []int {
	r := rand.New(rand.NewPCG(seed, 0x666f6c64)) // "fold"
	perm := r.Perm(n)
	f := make([]int, n)
	for i, p := range perm {
		f[p] = i % k
	}
	return f
}

// Sweep runs k-fold cross-validation of every hidden size in sc.Hidden for sc.Epochs
// epochs on ex, recording the validation error after every epoch (so one run covers
// every epoch count), runs in parallel on sc.Workers goroutines, and selects the
// structure by the paper's rule: minimum mean validation error, ties broken by the
// smaller standard deviation. Results do not depend on the number of workers. A
// winner target uses only the rows with a known winner.
func Sweep(ctx context.Context, ex *Examples, sc SweepConfig) (_ *SweepResult, err error) {
	if sc.Folds == 0 {
		sc.Folds = 10
	}
	if sc.Folds < 2 {
		return nil, fmt.Errorf("train: %d folds (want at least 2)", sc.Folds)
	}
	if len(sc.Hidden) == 0 {
		return nil, fmt.Errorf("train: no hidden sizes to sweep")
	}
	if sc.Epochs < 1 {
		return nil, fmt.Errorf("train: %d epochs (want at least 1)", sc.Epochs)
	}
	if sc.TieTolerance < 0 {
		return nil, fmt.Errorf("train: negative tie tolerance %g", sc.TieTolerance)
	}
	if err := ex.Validate(); err != nil {
		return nil, err
	}
	if ex.Rows() < sc.Folds {
		return nil, fmt.Errorf("train: %d examples cannot be split into %d folds", ex.Rows(), sc.Folds)
	}
	base := sc.Base
	base.Hidden, base.Epochs = sc.Hidden[0], sc.Epochs
	for _, h := range sc.Hidden {
		base.Hidden = h
		if err := base.normalize(); err != nil {
			return nil, err
		}
	}
	if base.Target.Logistic() {
		if ex, err = ex.Labelled(base.Target); err != nil {
			return nil, err
		}
		if ex.Rows() < sc.Folds {
			return nil, fmt.Errorf("train: %d examples with a %s label cannot be split into %d folds", ex.Rows(), base.Target, sc.Folds)
		}
	}
	scale := ScalingFor(ex.Value, base.Output)
	y, err := targets(ex, base, scale)
	if err != nil {
		return nil, err
	}
	cells := ex.Cells()
	fold := FoldOf(ex.Rows(), sc.Folds, base.Seed)
	// makeSplit copies fold g's training and validation rows (built per run, so only
	// Workers copies of the data exist at a time).
	type split struct{ xt, yt, xv, yv []float32 }
	makeSplit := func(g int) *split {
		nv := 0
		for _, f := range fold {
			if f == g {
				nv++
			}
		}
		nt := len(fold) - nv
		s := &split{xt: make([]float32, 0, nt*cells), yt: make([]float32, 0, nt),
			xv: make([]float32, 0, nv*cells), yv: make([]float32, 0, nv)}
		for i, f := range fold {
			row := ex.X[i*cells : (i+1)*cells]
			if f == g {
				s.xv = append(s.xv, row...)
				s.yv = append(s.yv, y[i])
			} else {
				s.xt = append(s.xt, row...)
				s.yt = append(s.yt, y[i])
			}
		}
		return s
	}
	res := &SweepResult{W: ex.W, H: ex.H, Rows: ex.Rows(), Folds: sc.Folds, Hidden: append([]int(nil), sc.Hidden...),
		Epochs: sc.Epochs, Target: base.Target, Output: base.Output, Seed: base.Seed, DataHash: ex.HashFor(base.Target),
		TieTolerance: sc.TieTolerance}
	res.Err = make([][][]float64, len(sc.Hidden))
	for i := range res.Err {
		res.Err[i] = make([][]float64, sc.Folds)
		for f := range res.Err[i] {
			res.Err[i][f] = make([]float64, sc.Epochs)
		}
	}
	type job struct{ hi, f int }
	jobs := make(chan job)
	workers := sc.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		firstErr error
		done     int
		epochDur time.Duration
	)
	total := len(sc.Hidden) * sc.Folds * sc.Epochs
	meter := progress.Or(sc.Meter)
	meter.Start("", int64(total), "epoch")
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var hid []float32
			for j := range jobs {
				s := makeSplit(j.f)
				h := sc.Hidden[j.hi]
				if cap(hid) < h {
					hid = make([]float32, h)
				}
				errs := res.Err[j.hi][j.f]
				t0 := time.Now()
				spec := netSpec{cells: cells, hidden: h, epochs: sc.Epochs, batch: base.BatchSize,
					learnRate: base.LearnRate, output: base.Output,
					seed: base.Seed + uint64(j.hi*1009+j.f+1)*0x9E3779B97F4A7C15,
					onEpoch: func(ep int, _ float64, n *model.Net) error {
						errs[ep-1] = validationError(n, base.Output, s.xv, s.yv, cells, hid)
						if math.IsNaN(errs[ep-1]) || math.IsInf(errs[ep-1], 0) {
							return fmt.Errorf("%w: validation error at epoch %d", ErrDiverged, ep)
						}
						mu.Lock()
						done++
						meter.Set(int64(done))
						mu.Unlock()
						return nil
					}}
				_, err := trainNet(ctx, s.xt, s.yt, spec)
				mu.Lock()
				epochDur += time.Since(t0)
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("hidden %d, fold %d: %w", h, j.f+1, err)
					cancel()
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for hi := range sc.Hidden {
		for f := 0; f < sc.Folds; f++ {
			select {
			case jobs <- job{hi, f}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	err = firstErr
	if err == nil {
		err = ctx.Err()
	}
	meter.Done(err)
	if err != nil {
		return nil, err
	}
	res.Seconds = time.Since(start).Seconds()
	res.EpochSeconds = epochDur.Seconds() / float64(len(sc.Hidden)*sc.Folds*sc.Epochs)
	res.summarize()
	return res, nil
}

// summarize computes Mean and Std and applies the selection rule.
func (r *SweepResult) summarize() {
	r.Mean = make([][]float64, len(r.Hidden))
	r.Std = make([][]float64, len(r.Hidden))
	for i := range r.Hidden {
		r.Mean[i] = make([]float64, r.Epochs)
		r.Std[i] = make([]float64, r.Epochs)
		for e := 0; e < r.Epochs; e++ {
			var m float64
			for f := 0; f < r.Folds; f++ {
				m += r.Err[i][f][e]
			}
			m /= float64(r.Folds)
			var s float64
			for f := 0; f < r.Folds; f++ {
				d := r.Err[i][f][e] - m
				s += d * d
			}
			r.Mean[i][e] = m
			r.Std[i][e] = math.Sqrt(s / float64(r.Folds-1))
		}
	}
	bi, be := Select(r.Mean, r.Std, r.TieTolerance)
	r.BestHidden, r.BestEpochs = r.Hidden[bi], be+1
	r.BestMean, r.BestStd = r.Mean[bi][be], r.Std[bi][be]
}

// Select applies the paper's rule to a grid of mean and standard deviation of the
// validation error: the cell with the smallest mean; among cells whose mean is within
// tol (relative) of it, the one with the smallest standard deviation; remaining ties
// go to the hidden size listed first, then to fewer epochs. It returns the indices.
func Select(mean, std [][]float64, tol float64) (int, int) {
	best := math.Inf(1)
	for i := range mean {
		for _, m := range mean[i] {
			best = math.Min(best, m)
		}
	}
	bi, be, bs := 0, 0, math.Inf(1)
	for i := range mean {
		for e, m := range mean[i] {
			if m <= best*(1+tol) || m <= best {
				if std[i][e] < bs {
					bi, be, bs = i, e, std[i][e]
				}
			}
		}
	}
	return bi, be
}

// HoldoutCheck trains the selected structure of r on every fold but the first (the
// sweep's own fold assignment) and returns its Metrics on the first fold: RMSE and
// rank correlation against the exact evaluator, and winner accuracy when known.
// It also returns the model it trained and the held-out rows.
func HoldoutCheck(ctx context.Context, ex *Examples, r *SweepResult, base Config) (*Metrics, *model.Model, *Examples, error) {
	if base.Target.Logistic() {
		var err error
		if ex, err = ex.Labelled(base.Target); err != nil {
			return nil, nil, nil, err
		}
	}
	fold := FoldOf(ex.Rows(), r.Folds, r.Seed)
	var tr, te []int
	for i, f := range fold {
		if f == 0 {
			te = append(te, i)
		} else {
			tr = append(tr, i)
		}
	}
	base.Hidden, base.Epochs, base.PlyRanges, base.Meter, base.OnEpoch = r.BestHidden, r.BestEpochs, nil, nil, nil
	held := ex.Subset(te)
	m, err := Train(ctx, ex.Subset(tr), base)
	if err != nil {
		return nil, nil, nil, err
	}
	mt := Evaluate(m, held)
	return &mt, m, held, nil
}

// SplitHoldout splits ex into a training part and a held-out fraction frac of the
// rows, chosen by a permutation from seed. frac 0 holds nothing out.
func SplitHoldout(ex *Examples, frac float64, seed uint64) (trainPart, held *Examples, err error) {
	if frac < 0 || frac >= 1 || math.IsNaN(frac) {
		return nil, nil, fmt.Errorf("train: held-out fraction %g (want 0 ≤ f < 1)", frac)
	}
	n := ex.Rows()
	k := int(math.Round(frac * float64(n)))
	if frac > 0 && k == 0 {
		k = 1
	}
	if k >= n {
		return nil, nil, fmt.Errorf("train: holding out %d of %d rows leaves nothing to train on", k, n)
	}
	r := rand.New(rand.NewPCG(seed, 0x686f6c64)) // "hold"
	perm := r.Perm(n)
	te := append([]int(nil), perm[:k]...)
	tr := append([]int(nil), perm[k:]...)
	sortInts(te)
	sortInts(tr)
	return ex.Subset(tr), ex.Subset(te), nil
}

// sortInts keeps the rows of a split in data order.
func sortInts(a []int) { slices.Sort(a) }

// Agreement is a count of positions where two evaluators choose the same move.
type Agreement struct {
	Same  int `json:"same"`
	Total int `json:"total"`
}
