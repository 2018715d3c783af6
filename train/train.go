package train

import (
	"context"
	"fmt"
	"math"
	"sort"

	"github.com/hexlearn/hexlearn/internal/progress"
	"github.com/hexlearn/hexlearn/internal/version"
	"github.com/hexlearn/hexlearn/model"
)

// Config configures training.
type Config struct {
	Hidden    int          // hidden units
	Epochs    int          // passes over the data
	BatchSize int          // minibatch size (default 256)
	LearnRate float64      // Adam step size (default 0.003)
	Seed      uint64       // initialisation and shuffling
	Target    model.Target // model.TargetValue (default), TargetWinner, TargetOutcome, TargetPlayouts or TargetSearch
	// SearchMix is the search target's λ: the weight of the game's result against the
	// search's value (0: DefaultSearchMix; at most 1).
	SearchMix float64
	// Playouts is the number of random playouts per row that label the playouts
	// target when the examples are not labelled yet (0: DefaultPlayouts).
	Playouts int
	// Output for a value target: model.OutputTanh (default) or model.OutputLinear.
	// Winner and outcome targets always use model.OutputLogistic.
	Output model.Output
	// Features is the input layer: model.FeaturesCells (default) or
	// model.FeaturesTwoDist (computed from each row's board before training).
	Features model.Features
	// PlyRanges, when not empty, trains one network per range (rows outside every
	// range are not used); otherwise one network covers all plies.
	PlyRanges []PlyRange
	// Policy also trains a policy head on the hidden layer (model.Net.WP): the move
	// priors, learnt from the visit shares of the player's search (Examples.Policy;
	// rows without them add no policy loss). The loss of a minibatch is the value
	// loss plus PolicyWeight times the mean over its rows of the cross-entropy of the
	// softmax of the logits over the empty cells against the visit shares. The head
	// starts at zero (or at Init's head, when Init has one).
	Policy bool
	// PolicyWeight is the policy loss's weight (0: DefaultPolicyWeight); used with
	// Policy only.
	PolicyWeight float64
	// Init, when set, starts training from its networks' weights instead of a random
	// initialisation (fine-tuning: the self-improving loop continues its best
	// network). It must have the same input layer, hidden units and number of
	// networks; its target and output may differ, and its policy head, if any, is
	// continued with Policy and dropped without.
	Init *model.Model
	// Meter, if set, receives the epochs trained (one part of Epochs epochs per
	// network).
	Meter progress.Meter
	// OnEpoch, if set, is called after each epoch of each network with its training
	// cost.
	OnEpoch func(net, epoch int, cost float64)
}

func (c *Config) normalize() error {
	if c.Hidden < 1 || c.Hidden > 4096 {
		return fmt.Errorf("train: %d hidden units (want 1..4096)", c.Hidden)
	}
	if c.Epochs < 1 {
		return fmt.Errorf("train: %d epochs (want at least 1)", c.Epochs)
	}
	if c.BatchSize == 0 {
		c.BatchSize = 256
	}
	if c.BatchSize < 1 {
		return fmt.Errorf("train: minibatch size %d", c.BatchSize)
	}
	if c.LearnRate == 0 {
		c.LearnRate = 0.003
	}
	if !(c.LearnRate > 0) {
		return fmt.Errorf("train: learning rate %g", c.LearnRate)
	}
	if c.Policy {
		if c.PolicyWeight == 0 {
			c.PolicyWeight = DefaultPolicyWeight
		}
		if !(c.PolicyWeight > 0 && c.PolicyWeight <= 1000) {
			return fmt.Errorf("train: policy weight %g (want above 0, at most 1000)", c.PolicyWeight)
		}
	}
	f, err := model.ParseFeatures(string(c.Features))
	if err != nil {
		return fmt.Errorf("train: %w", err)
	}
	c.Features = f
	switch c.Target {
	case "", model.TargetValue:
		c.Target = model.TargetValue
		if c.Output == "" {
			c.Output = model.OutputTanh
		}
		if c.Output != model.OutputTanh && c.Output != model.OutputLinear {
			return fmt.Errorf("train: a value target needs a tanh or linear output, not %q", c.Output)
		}
	case model.TargetWinner, model.TargetOutcome, model.TargetPlayouts, model.TargetSearch:
		if c.Target == model.TargetPlayouts && c.Playouts <= 0 {
			c.Playouts = DefaultPlayouts
		}
		if c.Target == model.TargetSearch {
			if c.SearchMix == 0 {
				c.SearchMix = DefaultSearchMix
			}
			if !(c.SearchMix > 0 && c.SearchMix <= 1) {
				return fmt.Errorf("train: search mix %g (want above 0 and at most 1)", c.SearchMix)
			}
		}
		if c.Output != "" && c.Output != model.OutputLogistic {
			return fmt.Errorf("train: a %s target needs a logistic output, not %q", c.Target, c.Output)
		}
		c.Output = model.OutputLogistic
	default:
		return fmt.Errorf("train: unknown target %q", c.Target)
	}
	return nil
}

// ScalingFor returns the target scaling for values vs and output o: for a tanh output
// the values are divided by the 99th percentile of their finite magnitudes (so 1% of
// the values, and decided positions, saturate at ±1); for a linear output they are
// standardised (mean 0, standard deviation 1, clipped at ±5).
func ScalingFor(vs []float32, o model.Output) model.Scaling {
	var fin []float64
	for _, v := range vs {
		if f := float64(v); !math.IsInf(f, 0) && !math.IsNaN(f) {
			fin = append(fin, f)
		}
	}
	switch o {
	case model.OutputLogistic:
		return model.Scaling{Scale: 1}
	case model.OutputLinear:
		if len(fin) == 0 {
			return model.Scaling{Scale: 1}
		}
		var m, s float64
		for _, f := range fin {
			m += f
		}
		m /= float64(len(fin))
		for _, f := range fin {
			s += (f - m) * (f - m)
		}
		s = math.Sqrt(s / float64(len(fin)))
		if !(s > 1e-6) {
			s = 1
		}
		return model.Scaling{Offset: float32(m), Scale: float32(s)}
	}
	for i := range fin {
		fin[i] = math.Abs(fin[i])
	}
	sort.Float64s(fin)
	if len(fin) == 0 {
		return model.Scaling{Scale: 1}
	}
	q := fin[min(len(fin)-1, int(0.99*float64(len(fin))))]
	if !(q > 1e-6) {
		q = 1
	}
	return model.Scaling{Scale: float32(q)}
}

// DefaultPolicyWeight is the policy loss's default weight against the value loss.
const DefaultPolicyWeight = 1.0

// DefaultSearchMix is the search target's default λ, the game result's weight against
// the search's value.
const DefaultSearchMix = 0.5

// searchLabel is the search target's label of row i: the proved winner (Winner) where
// known, else the probability mix·z + (1−mix)·q mapped to [0, 1], z the row's outcome
// and q its search value (either alone where the other is missing).
func searchLabel(ex *Examples, i int, mix float64) float32 {
	if ex.Winner != nil && ex.Winner[i] != 0 {
		return float32(ex.Winner[i]+1) / 2
	}
	z, q := math.NaN(), math.NaN()
	if ex.Outcome != nil && ex.Outcome[i] != 0 {
		z = float64(ex.Outcome[i])
	}
	if ex.Search != nil {
		q = float64(ex.Search[i])
	}
	v := mix*z + (1-mix)*q
	switch {
	case math.IsNaN(z):
		v = q
	case math.IsNaN(q):
		v = z
	}
	return float32((1 + v) / 2)
}

// targets returns the scaled training targets of ex for the configured target.
func targets(ex *Examples, cfg Config, s model.Scaling) ([]float32, error) {
	t, o := cfg.Target, cfg.Output
	y := make([]float32, ex.Rows())
	if t == model.TargetSearch {
		for i := range y {
			if y[i] = searchLabel(ex, i, cfg.SearchMix); math.IsNaN(float64(y[i])) {
				return nil, fmt.Errorf("train: the search target needs a result or a search value on every row (row %d has neither)", i)
			}
		}
		return y, nil
	}
	if t == model.TargetPlayouts {
		if len(ex.Playout) != ex.Rows() {
			return nil, fmt.Errorf("train: the playouts target needs the playouts' labels (Examples.LabelPlayouts)")
		}
		copy(y, ex.Playout)
		return y, nil
	}
	if t.Logistic() {
		labels := ex.Winner
		if t == model.TargetOutcome {
			labels = ex.Outcome
		}
		for i, w := range labels {
			if w == 0 {
				return nil, fmt.Errorf("train: the %s target needs a label on every row (row %d has none)", t, i)
			}
		}
		if len(labels) != ex.Rows() {
			return nil, fmt.Errorf("train: the %s target needs a label on every row", t)
		}
		for i, w := range labels {
			if w > 0 {
				y[i] = 1
			}
		}
		return y, nil
	}
	for i, v := range ex.Value {
		y[i] = s.ToTarget(float64(v), o)
	}
	return y, nil
}

// Train fits a model on ex: one network, or one per configured ply range. The target
// scaling is computed from all of ex and recorded; the provenance records the data
// hash, seed, configuration and code version. A winner target uses only the rows
// with a known winner; a playouts target labels unlabelled examples first
// (Examples.LabelPlayouts with Config.Playouts and Config.Seed).
func Train(ctx context.Context, ex *Examples, cfg Config) (*model.Model, error) {
	if err := cfg.normalize(); err != nil {
		return nil, err
	}
	if err := ex.Validate(); err != nil {
		return nil, err
	}
	if cfg.Target == model.TargetPlayouts && ex.Playout == nil {
		lab := *ex
		if err := lab.LabelPlayouts(ctx, cfg.Playouts, cfg.Seed); err != nil {
			return nil, err
		}
		ex = &lab
	}
	ex, err := ex.Labelled(cfg.Target)
	if err != nil {
		return nil, err
	}
	if cfg.Policy && ex.policyRows() == 0 {
		return nil, fmt.Errorf("%w: no row has the search's visit shares (the policy head learns them from a corpus of selfplay --mode player)", ErrNoData)
	}
	m := &model.Model{W: ex.W, H: ex.H, Target: cfg.Target, Output: cfg.Output, Scaling: ScalingFor(ex.Value, cfg.Output)}
	if cfg.Features != model.FeaturesCells {
		m.Features = cfg.Features
	}
	ranges := cfg.PlyRanges
	if len(ranges) == 0 {
		ranges = []PlyRange{{0, ex.Cells()}}
	}
	meter := progress.Or(cfg.Meter)
	meter.Start("", int64(cfg.Epochs*len(ranges)), "epoch")
	err = trainNets(ctx, ex, cfg, ranges, m, meter)
	meter.Done(err)
	if err != nil {
		return nil, err
	}
	if len(m.Nets) == 0 {
		return nil, ErrNoData
	}
	if len(cfg.PlyRanges) == 0 {
		m.Nets[0].MinPly, m.Nets[0].MaxPly = 0, ex.Cells()
	}
	m.Provenance = model.Provenance{
		DatasetHash: ex.HashOf(cfg.Target, cfg.Policy),
		Seed:        int64(cfg.Seed),
		CodeVersion: version.String(),
		Config: fmt.Sprintf("hidden=%d epochs=%d batch=%d lr=%g target=%s output=%s nets=%d",
			cfg.Hidden, cfg.Epochs, cfg.BatchSize, cfg.LearnRate, cfg.Target, cfg.Output, len(m.Nets)),
	}
	if m.Features != "" {
		m.Provenance.Config += " features=" + string(m.Features)
	}
	if cfg.Target == model.TargetPlayouts {
		m.Provenance.Config += fmt.Sprintf(" playouts=%d", cfg.Playouts)
	}
	if cfg.Target == model.TargetSearch {
		m.Provenance.Config += fmt.Sprintf(" search_mix=%g", cfg.SearchMix)
	}
	if cfg.Policy {
		m.Provenance.Config += fmt.Sprintf(" policy_weight=%g", cfg.PolicyWeight)
	}
	if cfg.Init != nil {
		m.Provenance.Config += " init=" + cfg.Init.Provenance.DatasetHash
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("train: produced an invalid model: %w", err)
	}
	return m, nil
}

// trainNets trains the network of every range of ply ranges on its rows of ex into m,
// reporting every epoch to meter.
func trainNets(ctx context.Context, ex *Examples, cfg Config, ranges []PlyRange, m *model.Model, meter progress.Meter) error {
	done := int64(0)
	for k, r := range ranges {
		part := ex
		if len(cfg.PlyRanges) > 0 {
			part = ex.Partition(r)
		}
		if part.Rows() == 0 {
			continue
		}
		y, err := targets(part, cfg, m.Scaling)
		if err != nil {
			return err
		}
		x, err := inputs(ctx, part, m)
		if err != nil {
			return err
		}
		spec := netSpec{cells: m.Inputs(), hidden: cfg.Hidden, epochs: cfg.Epochs, batch: cfg.BatchSize,
			learnRate: cfg.LearnRate, output: cfg.Output, seed: cfg.Seed + uint64(k)*0x9E3779B97F4A7C15}
		if cfg.Policy {
			spec.policy, spec.policyWeight = policyTargets(part), float32(cfg.PolicyWeight)
		}
		if cfg.Init != nil {
			if len(cfg.Init.Nets) != len(ranges) || cfg.Init.Inputs() != m.Inputs() {
				return fmt.Errorf("train: the initial model has %d networks of %d inputs, not %d of %d",
					len(cfg.Init.Nets), cfg.Init.Inputs(), len(ranges), m.Inputs())
			}
			spec.init = &cfg.Init.Nets[k]
		}
		spec.onEpoch = func(ep int, cost float64, _ *model.Net) error {
			done++
			meter.Set(done)
			if cfg.OnEpoch != nil {
				cfg.OnEpoch(k, ep, cost)
			}
			return nil
		}
		n, err := trainNet(ctx, x, y, spec)
		if err != nil {
			if len(cfg.PlyRanges) > 0 {
				return fmt.Errorf("plies %d..%d: %w", r.MinPly, r.MaxPly, err)
			}
			return err
		}
		n.MinPly, n.MaxPly = r.MinPly, r.MaxPly
		m.Nets = append(m.Nets, *n)
	}
	return nil
}
