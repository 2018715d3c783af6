package player

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/engine/search"
	"github.com/hexlearn/hexlearn/model"
)

// Spec is one setting of the table of settings: its name (the command-line flag
// --NAME; the GTP parameter of param_player is the name with '_' for '-'), what it
// does, its default for each kind of player and board size, and its range.
type Spec struct {
	// Name is the flag's name.
	Name string
	// Usage says what the setting does, in one line.
	Usage string
	// Default, when not "", says how the default is chosen where the table's three
	// columns (learned up to 8x8, learned above 8x8, exact) cannot.
	Default string
	// field returns the setting in s.
	field func(s *Settings) option
	// def is the default of resolved settings r so far (Kind and the settings before
	// this one in the table are resolved) on a board of cells cells.
	def func(r *Settings, cells int, playoutNet bool) any
	// check reports a value out of range (nil: any value of the type).
	check func(v any) error
	// searchLimit marks the alpha-beta limits, which on a size without a model are
	// the exact player's.
	searchLimit bool
	// needsValue marks a boolean flag that must be given a value (--reuse on).
	needsValue bool
}

// option is an Opt of any type, as the table sees it.
type option interface {
	given() bool
	value() any
	fill(v any)
	parse(s string) error
	format() string
	isBool() bool
}

func (o *Opt[T]) given() bool { return o.Set }
func (o *Opt[T]) value() any  { return o.V }

func (o *Opt[T]) fill(v any) {
	if !o.Set {
		o.V, o.Set = v.(T), true
	}
}

func (o *Opt[T]) isBool() bool { _, ok := any(o.V).(bool); return ok }

func (o *Opt[T]) parse(s string) error {
	var v any
	var err error
	s = strings.TrimSpace(s)
	switch any(o.V).(type) {
	case int:
		v, err = strconv.Atoi(s)
		if err != nil {
			err = errors.New("want an integer")
		}
	case float64:
		var f float64
		f, err = strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) {
			err = errors.New("want a number")
		}
		v = f
	case bool:
		switch strings.ToLower(s) {
		case "on":
			v = true
		case "off":
			v = false
		default:
			v, err = strconv.ParseBool(s)
			if err != nil {
				err = errors.New("want true or false (or on, off)")
			}
		}
	case time.Duration:
		var f float64
		f, err = strconv.ParseFloat(s, 64)
		if err != nil || math.IsNaN(f) || f < 0 || f > 1e6 {
			err = errors.New("want seconds from 0 to 1e6")
		}
		v = time.Duration(f * float64(time.Second))
	case string:
		v = s
	case Kind:
		if v, err = ParseKind(s); err != nil {
			err = errors.New("want learned or exact")
		}
	case SearchKind:
		if v, err = ParseSearch(s); err != nil {
			err = errors.New("want mcts or alphabeta")
		}
	case model.OrderMode:
		if v, err = model.ParseOrderMode(s); err != nil {
			err = fmt.Errorf("want %s, %s, %s or %s", model.OrderPotential, model.OrderNetwork, model.OrderMix, model.OrderPolicy)
		}
	default:
		panic(fmt.Sprintf("player: setting of type %T", o.V))
	}
	if err != nil {
		return err
	}
	o.V, o.Set = v.(T), true
	return nil
}

func (o *Opt[T]) format() string { return formatValue(o.V) }

// formatValue formats a setting's value as its flag takes it.
func formatValue(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case time.Duration:
		return strconv.FormatFloat(x.Seconds(), 'g', -1, 64)
	}
	return fmt.Sprint(v)
}

// intIn and floatIn are the range checks of the table.
func intIn(lo, hi int) func(any) error {
	return func(v any) error {
		if n := v.(int); n < lo || n > hi {
			return fmt.Errorf("want %d to %d", lo, hi)
		}
		return nil
	}
}

func floatIn(lo, hi float64) func(any) error {
	return func(v any) error {
		if f := v.(float64); !(f >= lo && f <= hi) {
			return fmt.Errorf("want %g to %g", lo, hi)
		}
		return nil
	}
}

// byKind is a default that depends on the kind of player only.
func byKind[T any](learned, exact T) func(*Settings, int, bool) any {
	return func(r *Settings, _ int, _ bool) any {
		if r.Kind.V == Exact {
			return exact
		}
		return learned
	}
}

// always is a default that depends on nothing.
func always[T any](v T) func(*Settings, int, bool) any {
	return func(*Settings, int, bool) any { return v }
}

// specs is the table of settings, in the order they resolve (a default may depend
// on the settings above it).
var specs = []Spec{
	{Name: "player", Usage: "the player: learned (a network's values) or exact (H-search and the resistance circuit at every node)", Default: string(Learned),
		field: func(s *Settings) option { return &s.Kind }, def: always(Learned)},
	{Name: "model", Usage: "learned player's model file, or builtin (the model built in for each board size, 5x5 to 11x11)",
		field: func(s *Settings) option { return &s.Model }, def: always(BuiltinModel)},
	{Name: "patterns", Usage: "goal-pattern database file used as the search's terminal test (empty: none)",
		field: func(s *Settings) option { return &s.Patterns }, def: always("")},
	{Name: "book", Usage: "opening book: a book file, builtin or none; its proved move is played before any solver or search runs",
		field: func(s *Settings) option { return &s.Book }, def: byKind(BookBuiltin, BookNone)},
	{Name: "search", Usage: "learned player's search: mcts or alphabeta (the exact player searches with alpha-beta)",
		field: func(s *Settings) option { return &s.Search }, def: byKind(LearnedSearch, SearchAlphaBeta)},
	{Name: "xh", Usage: "connections by XH-search instead of H-search (exact player, learned player's proofs)",
		field: func(s *Settings) option { return &s.XH }, def: always(false)},
	{Name: "fastvc", Usage: "connections by H-search with the FastVC rules (vc.FastVCConfig) instead of the default limits (exact player, learned player's proofs; not with --xh)",
		field: func(s *Settings) option { return &s.FastVC }, def: always(false)},
	{Name: "fill-in", Usage: "the search's connections and circuits on the position after ICE fill-in (exact player, learned player's proofs)",
		field: func(s *Settings) option { return &s.FillIn }, def: always(true)},
	{Name: "edge-templates", Usage: "edge templates as base connections in the search's H-search (exact player, learned player's proofs)",
		field: func(s *Settings) option { return &s.EdgeTemplates }, def: always(true)},
	{Name: "time", Usage: "seconds per move (0: no limit)",
		field: func(s *Settings) option { return &s.Time }, def: always(DefaultTime)},
	{Name: "depth", searchLimit: true, Usage: "alpha-beta depth limit in plies", Default: fmt.Sprintf("none with a time limit (%d), else %d", search.MaxDepth, DefaultDepth),
		field: func(s *Settings) option { return &s.Depth }, check: intIn(1, search.MaxDepth),
		def: func(r *Settings, _ int, _ bool) any {
			if r.Time.V > 0 {
				return search.MaxDepth // equal-time play: no hidden depth cap
			}
			return DefaultDepth
		}},
	{Name: "k", searchLimit: true, Usage: "alpha-beta's k-best successor limit (0: every move)",
		field: func(s *Settings) option { return &s.K }, check: intIn(0, hex.MaxCells), def: byKind(LearnedK, ExactK)},
	{Name: "root-k", searchLimit: true, Usage: "alpha-beta's successor limit at the root (0: as --k)",
		field: func(s *Settings) option { return &s.RootK }, check: intIn(0, hex.MaxCells), def: always(0)},
	{Name: "tt-bits", searchLimit: true, Usage: "alpha-beta's transposition table of 2^B entries (0: 16)",
		field: func(s *Settings) option { return &s.TTBits }, check: intIn(0, 26), def: always(0)},
	{Name: "expansions", Usage: "learned player's MCTS: at most this many nodes expanded per move (0: no limit); with --time 0 the moves do not depend on the machine",
		field: func(s *Settings) option { return &s.Expansions }, check: intIn(0, 1<<22), def: always(0)},
	{Name: "vc-plies", searchLimit: true, Usage: "learned alpha-beta: plies from the root where H-search proves wins and finds mustplay (0: none)",
		field: func(s *Settings) option { return &s.VCPlies }, check: intIn(0, search.MaxDepth), def: byKind(LearnedVCPlies, 0)},
	{Name: "leaf-vc", Usage: "learned player: a cheap, sound connection test at every node (bridges, edge bridges, ziggurats; wins and mustplay)",
		field: func(s *Settings) option { return &s.LeafVC }, def: always(false)},
	{Name: "solve-share", Usage: "fraction of each move's time the DFPN solver gets first; a proved win plays its move (0: no solver)",
		field: func(s *Settings) option { return &s.SolveShare }, check: floatIn(0, 1), def: byKind(LearnedSolveShare, 0.0)},
	{Name: "solve-max-empty", Usage: "ask the solver only with at most this many empty cells (0: always)",
		field: func(s *Settings) option { return &s.SolveMaxEmpty }, check: intIn(0, hex.MaxCells), def: always(SolveMaxEmpty)},
	{Name: "solve-parallel", Usage: "run the solver beside the search on a second core, each with the whole time per move, instead of before it",
		field: func(s *Settings) option { return &s.SolveParallel }, def: always(false)},
	{Name: "lookahead-depth", searchLimit: true, Usage: "learned alpha-beta: nodes with fewer plies left order their moves by --order instead of evaluating every child (0: none)",
		field: func(s *Settings) option { return &s.LookaheadDepth }, check: intIn(0, search.MaxDepth), def: always(0)},
	{Name: "order", Usage: "learned player's move ordering (the MCTS's priors, alpha-beta below --lookahead-depth): potential, network, mix or policy (a model's policy head: its softmax gives the MCTS's priors)",
		Default: "the model's own: policy where it has a policy head, else mix (potential for a model without two-distance inputs)",
		field:   func(s *Settings) option { return &s.Order }, def: always(LearnedOrder)},
	{Name: "circuit-priors", Usage: "learned player's MCTS: weight 0..1 of the circuit's move ordering in the priors where H-search is asked",
		field: func(s *Settings) option { return &s.CircuitPriors }, check: floatIn(0, 1),
		def: func(_ *Settings, cells int, _ bool) any { return search.DefaultMCTSParamsFor(cells).TacticsPriors }},
	{Name: "playouts", Usage: "learned player's MCTS: random playouts (bridges answered) from every node it expands",
		Default: fmt.Sprintf("%d above 8x8, else 0; 0 over a model trained on the playouts (the built-in 11x11 one)", search.LargeBoardPlayouts),
		field:   func(s *Settings) option { return &s.Playouts }, check: intIn(0, 1<<16),
		def: func(_ *Settings, cells int, playoutNet bool) any {
			if playoutNet {
				return 0 // the network stands in for them
			}
			return search.DefaultMCTSParamsFor(cells).Playouts
		}},
	{Name: "playout-weight", Usage: "learned player's MCTS: weight 0..1 of the playouts' mean result in a node's score, the network's value the rest",
		field: func(s *Settings) option { return &s.PlayoutWeight }, check: floatIn(0, 1), def: always(DefaultPlayoutWeight)},
	{Name: "amaf-priors", Usage: "learned player's MCTS: weight 0..1 of the playouts' AMAF ranking of the moves in the priors; needs playouts",
		field: func(s *Settings) option { return &s.AMAFPriors }, check: floatIn(0, 1), def: always(0.0)},
	{Name: "reuse", needsValue: true, Usage: "learned player's MCTS: keep the subtree of the position after the move played and the reply between moves (on, off)",
		field: func(s *Settings) option { return &s.Reuse },
		def:   func(_ *Settings, cells int, _ bool) any { return search.DefaultMCTSParamsFor(cells).Reuse }},
}

// Specs returns the table of settings, in the order they resolve.
func Specs() []Spec { return specs }

// resolve gives the setting of sp in s its default when s does not give it.
func (sp Spec) resolve(s *Settings, kind Kind, cells int, playoutNet bool) {
	if sp.Name == "player" {
		s.Kind.fill(kind)
		return
	}
	sp.field(s).fill(sp.def(s, cells, playoutNet))
}

// lookup returns the spec of a setting name (a flag's, or a GTP parameter's with '_'
// for '-').
func lookup(name string) (Spec, bool) {
	name = strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), "_", "-")
	for _, sp := range specs {
		if sp.Name == name {
			return sp, true
		}
	}
	return Spec{}, false
}

// Set sets the setting name (a flag's name, or a GTP parameter's with '_' for '-')
// from its text, as the flag takes it; an unknown name or a bad value is an error
// wrapping ErrSettings that names the setting and the value.
func (s *Settings) Set(name, value string) error {
	sp, ok := lookup(name)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownSetting, name)
	}
	if err := sp.apply(s, value); err != nil {
		return fmt.Errorf("%w: --%s %q: %v", ErrSettings, sp.Name, value, err)
	}
	return nil
}

// apply sets sp's setting in s from its text; the error says what the value should
// be, and s is left as it was.
func (sp Spec) apply(s *Settings, value string) error {
	old := *s
	o := sp.field(s)
	if err := o.parse(value); err != nil {
		return err
	}
	if sp.check != nil {
		if err := sp.check(o.value()); err != nil {
			*s = old
			return err
		}
	}
	return nil
}

// Get returns the value of setting name as its flag takes it, and whether s gives
// it.
func (s *Settings) Get(name string) (value string, given bool, err error) {
	sp, ok := lookup(name)
	if !ok {
		return "", false, fmt.Errorf("%w %q", ErrUnknownSetting, name)
	}
	o := sp.field(s)
	return o.format(), o.given(), nil
}

// Args returns the flags that give the settings s gives, in the table's order (the
// flags of 'hexlearn gtp' and of every command that takes a player).
func (s Settings) Args() []string {
	var a []string
	for _, sp := range specs {
		if o := sp.field(&s); o.given() {
			a = append(a, "--"+sp.Name+"="+o.format())
		}
	}
	return a
}

// CommandLine returns the command line (for sh -c) that starts the GTP engine of the
// hexlearn binary bin playing as s: bin gtp followed by extra and Args, each word
// quoted for the shell where it needs it.
func (s Settings) CommandLine(bin string, extra ...string) string {
	words := append(append([]string{bin, "gtp"}, extra...), s.Args()...)
	for i, w := range words {
		words[i] = shellQuote(w)
	}
	return strings.Join(words, " ")
}

// shellQuote quotes w for sh when it holds anything but letters, digits and
// -_./=:,+@% (the empty string becomes two single quotes).
func shellQuote(w string) string {
	if w != "" && strings.Trim(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return w
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// The three columns of defaults the table shows: the learned player up to 8x8 and
// on 11x11, and the exact player.
var defaultColumns = []struct {
	name  string
	kind  Kind
	cells int
}{{"learned, up to 8x8", Learned, 64}, {"learned, 9x9 to 11x11", Learned, 121}, {"exact", Exact, 64}}

// defaults returns the defaults of sp in the table's columns.
func (sp Spec) defaults() []string {
	out := make([]string, len(defaultColumns))
	for i, c := range defaultColumns {
		r := Settings{Kind: Set(c.kind)}.Resolve(c.cells, false)
		v, _, _ := r.Get(sp.Name)
		out[i] = v
	}
	return out
}

// DefaultText says what sp's default is, in a few words.
func (sp Spec) DefaultText() string {
	if sp.Default != "" {
		return sp.Default
	}
	d := sp.defaults()
	if sp.needsValue {
		for i, v := range d {
			d[i] = map[string]string{"true": "on", "false": "off"}[v]
		}
	}
	switch {
	case d[0] == d[1] && d[1] == d[2]:
		return show(d[0])
	case d[0] == d[1]:
		return "learned " + show(d[0]) + ", exact " + show(d[2])
	case d[0] == d[2]:
		return show(d[1]) + " above 8x8, else " + show(d[0])
	}
	return fmt.Sprintf("learned %s up to 8x8 and %s above, exact %s", show(d[0]), show(d[1]), show(d[2]))
}

// show shows an empty default as "none".
func show(v string) string {
	if v == "" {
		return "none"
	}
	return v
}

// Flags adds a flag for every setting to fs: each sets its setting in s when given
// (a setting not given keeps its default for the board size). Bad values are the
// flag package's errors, naming the flag.
func (s *Settings) Flags(fs *flag.FlagSet) {
	for _, sp := range specs {
		fs.Var(&flagValue{s: s, sp: sp}, sp.Name, sp.Usage+" (default: "+sp.DefaultText()+")")
	}
}

// flagValue is a setting as a flag.Value.
type flagValue struct {
	s  *Settings
	sp Spec
}

func (f *flagValue) String() string {
	if f.s == nil {
		return ""
	}
	if o := f.sp.field(f.s); o.given() {
		return o.format()
	}
	return ""
}

// Set implements flag.Value: the flag package names the flag and the value itself.
func (f *flagValue) Set(v string) error { return f.sp.apply(f.s, v) }

// IsBoolFlag implements the flag package's boolean flags: a boolean setting may be
// given without a value (--xh), except those that take on or off.
func (f *flagValue) IsBoolFlag() bool {
	return f.s != nil && f.sp.field(f.s).isBool() && !f.sp.needsValue
}

// Type names the kind of value the flag takes, for its help ("" for a boolean).
func (f *flagValue) Type() string {
	if f.s == nil {
		return ""
	}
	switch f.sp.field(f.s).value().(type) {
	case bool:
		if f.sp.needsValue {
			return "on|off"
		}
		return ""
	case int:
		return "int"
	case float64:
		return "float"
	case time.Duration:
		return "seconds"
	}
	return "string"
}

// Markdown returns the table of settings as a Markdown table: flag, what it does and
// its defaults (docs/cli.md holds it; a test keeps the two equal).
func Markdown() string {
	var b strings.Builder
	b.WriteString("| flag | what it sets | default |\n|---|---|---|\n")
	for _, sp := range specs {
		fmt.Fprintf(&b, "| `--%s` | %s | %s |\n", sp.Name, sp.Usage, sp.DefaultText())
	}
	return b.String()
}
