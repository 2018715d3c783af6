package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/hexlearn/hexlearn/engine/circuit"
	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/train"
)

// CVConfig configures CrossValidate: a k-fold sweep over hidden sizes and epochs
// (Kahl et al. 2007, section 3), its selection and its report files.
type CVConfig struct {
	// Data is the dataset file or directory, read for Width x Height rows (with
	// OpenOnly, only the open ones). Examples, if set, is used instead.
	Data          string
	Width, Height int
	OpenOnly      bool
	Examples      *train.Examples
	// Base holds the training settings every run shares (batch, learning rate, seed,
	// target, output).
	Base    train.Config
	Folds   int
	Hidden  []int
	Epochs  int
	Workers int     // runs trained at once (0: all cores); the result does not depend on it
	Tie     float64 // relative tolerance under which mean errors count as tied
	// PerPly sweeps each range of PlyWidth plies separately (the paper's layered
	// partition); ranges with fewer than 2·Folds rows are skipped (see OnSkip).
	PerPly   bool
	PlyWidth int
	// Agree is the number of held-out positions on which the selection's depth-1
	// move is compared with the exact evaluator's (0: skip).
	Agree int
	// Report is the directory of the report files (created if needed); Name is their
	// base name ("" : "sweep"; with PerPly, plies-LO-HI).
	Report, Name string
	// SkipHoldout leaves out the held-out check of the selection (and Agree);
	// SkipJSON leaves out the NAME.json file.
	SkipHoldout, SkipJSON bool
	// Meter, if set, receives the epochs trained in every part (its name is the
	// part's label).
	Meter Meter
	// OnSkip, if set, is told about every ply range skipped for too few rows.
	OnSkip func(r train.PlyRange, rows, folds int)
	// OnPart, if set, receives every part as soon as its report is written.
	OnPart func(CVPart)
}

// CVPart is the sweep of one part (the whole dataset, or one ply range).
type CVPart struct {
	Label  string // "" or "plies LO..HI"
	Result *train.SweepResult
	Paths  []string // report files written
}

// CVResult is what CrossValidate did.
type CVResult struct {
	Parts []CVPart
	Rows  int // rows examined (all parts)
}

// LoadExamples reads the w x h rows of a dataset file or directory; with openOnly it
// keeps the positions the exact evaluator leaves open.
func LoadExamples(data string, w, h int, openOnly bool) (*train.Examples, error) {
	ex, err := train.ReadExamples(data, w, h)
	if err != nil {
		return nil, err
	}
	if openOnly {
		if ex = ex.Open(circuit.LogClamp); ex.Rows() == 0 {
			return nil, fmt.Errorf("%s: no open positions (every row is decided)", data)
		}
	}
	return ex, nil
}

// ReadSweep reads the NAME.json file of a cross-validation sweep (CrossValidate),
// whose selection FitConfig.Sweep records.
func ReadSweep(path string) (*train.SweepResult, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read sweep: %w", err)
	}
	var sr train.SweepResult
	if err := json.Unmarshal(data, &sr); err != nil || sr.BestHidden < 1 || sr.BestEpochs < 1 {
		return nil, fmt.Errorf("%s is not a sweep result from 'hexlearn cv' (%v)", path, err)
	}
	return &sr, nil
}

// CrossValidate runs the cross-validation sweep of c, selects the structure (minimum
// mean validation error, ties broken by the smaller standard deviation), checks it on
// a held-out fold and writes the report files. The same config gives the same
// selection and report tables.
func CrossValidate(ctx context.Context, c CVConfig) (CVResult, error) {
	ex := c.Examples
	if ex == nil {
		var err error
		if ex, err = LoadExamples(c.Data, c.Width, c.Height, c.OpenOnly); err != nil {
			return CVResult{}, err
		}
	}
	if c.Base.Target == model.TargetPlayouts && ex.Playout == nil {
		// Labelled once, before the folds, so every fold and the held-out check see
		// the same labels.
		lab := *ex
		if err := lab.LabelPlayouts(ctx, c.Base.Playouts, c.Base.Seed); err != nil {
			return CVResult{}, err
		}
		ex = &lab
	}
	if err := ctx.Err(); err != nil {
		return CVResult{}, err
	}
	if err := os.MkdirAll(c.Report, 0o755); err != nil {
		return CVResult{}, fmt.Errorf("create report directory: %w", err)
	}
	name := c.Name
	if name == "" {
		name = "sweep"
	}
	type part struct {
		name, label string
		ex          *train.Examples
	}
	parts := []part{{name, "", ex}}
	if c.PerPly {
		parts = nil
		for _, r := range ex.PlyRanges(c.PlyWidth) {
			p := ex.Partition(r)
			if p.Rows() < 2*c.Folds {
				if c.OnSkip != nil {
					c.OnSkip(r, p.Rows(), c.Folds)
				}
				continue
			}
			parts = append(parts, part{fmt.Sprintf("plies-%02d-%02d", r.MinPly, r.MaxPly), fmt.Sprintf("plies %d..%d", r.MinPly, r.MaxPly), p})
		}
		if len(parts) == 0 {
			return CVResult{}, fmt.Errorf("no ply range has enough rows for %d folds", c.Folds)
		}
	}
	out := CVResult{Rows: ex.Rows()}
	for _, p := range parts {
		sc := train.SweepConfig{Folds: c.Folds, Hidden: c.Hidden, Epochs: c.Epochs, Base: c.Base, Workers: c.Workers,
			TieTolerance: c.Tie, Meter: subMeter(meterOr(c.Meter), p.label)}
		res, err := train.Sweep(ctx, p.ex, sc)
		if err != nil {
			return out, err
		}
		res.Label = p.label
		if !c.SkipHoldout {
			mt, m, held, err := train.HoldoutCheck(ctx, p.ex, res, c.Base)
			if err != nil {
				return out, fmt.Errorf("held-out check: %w", err)
			}
			res.Holdout = mt
			if c.Agree > 0 {
				if res.Agreement, err = bestMoveAgreement(m, held, c.Agree); err != nil {
					return out, err
				}
			}
		}
		paths, err := res.WriteReport(c.Report, p.name)
		if err != nil {
			return out, err
		}
		if !c.SkipJSON {
			js, err := json.MarshalIndent(res, "", " ")
			if err != nil {
				return out, err
			}
			jpath := c.Report + "/" + p.name + ".json"
			if err := fileutil.WriteFileAtomic(jpath, append(js, '\n')); err != nil {
				return out, err
			}
			paths = append(paths, jpath)
		}
		cp := CVPart{Label: p.label, Result: res, Paths: paths}
		out.Parts = append(out.Parts, cp)
		if c.OnPart != nil {
			c.OnPart(cp)
		}
	}
	return out, nil
}

// bestMoveAgreement compares the depth-1 best moves of model m and the exact evaluator
// on up to n undecided positions of held (in row order).
func bestMoveAgreement(m *model.Model, held *train.Examples, n int) (*train.Agreement, error) {
	learned, err := model.NewEvaluator(m, held.W, held.H)
	if err != nil {
		return nil, err
	}
	exact, err := circuit.NewExact(circuit.DefaultExactConfig())
	if err != nil {
		return nil, err
	}
	var boards []*hex.Board
	for i := 0; i < held.Rows() && len(boards) < n; i++ {
		b, err := held.Board(i)
		if err != nil {
			return nil, err
		}
		if b.Winner() == hex.Empty && b.NumStones() < held.Cells() {
			boards = append(boards, b)
		}
	}
	same, total := model.Agreement(boards, exact, learned)
	return &train.Agreement{Same: same, Total: total}, nil
}
