package experiments

import (
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/internal/version"
)

// benchAreas names the area of docs/results.md each benchmark group's table belongs to.
var benchAreas = map[string]string{
	"vc":       "virtual connections (H-search)",
	"circuit":  "resistance circuit",
	"eval":     "evaluation (exact and learned)",
	"patterns": "pattern database",
	"search":   "search and players",
}

// BenchCommand returns the 'hexlearn bench' command line that measures group on the
// given sizes with cfg's time, positions and seed; with markdown it adds --markdown.
func BenchCommand(cfg BenchConfig, groups []string, sizes []int, markdown bool) string {
	cfg = cfg.withDefaults()
	parts := append([]string{"hexlearn", "bench"}, groups...)
	if markdown {
		parts = append(parts, "--markdown")
	}
	ss := make([]string, len(sizes))
	for i, s := range sizes {
		ss[i] = strconv.Itoa(s)
	}
	parts = append(parts, "--size", strings.Join(ss, ","),
		"--time", strconv.FormatFloat(cfg.Time.Seconds(), 'g', -1, 64),
		"--positions", strconv.Itoa(cfg.Positions),
		"--seed", strconv.FormatUint(cfg.Seed, 10))
	if cfg.BenzeneAll {
		parts = append(parts, "--benzene-all")
	}
	return strings.Join(parts, " ")
}

// withDefaults returns cfg with Bench's defaults filled in.
func (cfg BenchConfig) withDefaults() BenchConfig {
	if len(cfg.Sizes) == 0 {
		cfg.Sizes = []int{6, 11}
	}
	if len(cfg.Groups) == 0 {
		cfg.Groups = BenchGroups
	}
	if cfg.Positions == 0 {
		cfg.Positions = 20
	}
	if cfg.Time == 0 {
		cfg.Time = 300 * time.Millisecond
	}
	return cfg
}

// WriteBenchMarkdown prints rows, measured with cfg on the given date, as the
// Markdown tables of docs/results.md: a line naming the date, the code version, the
// machine and the command that regenerates every table, then one table per group
// (board, item, time per operation, median, p90, the ratio to the baseline measured in
// the same run, notes, and the command that regenerates the row).
func WriteBenchMarkdown(w io.Writer, cfg BenchConfig, rows []BenchRow, date time.Time) {
	cfg = cfg.withDefaults()
	groups := cfg.Groups
	if slices.Equal(groups, BenchGroups) {
		groups = nil // all, the default
	}
	v := version.String()
	if !strings.Contains(v, "+") {
		v += " (no commit recorded: build with go build in a git clone)"
	}
	fmt.Fprintf(w, "Measured %s, hexlearn %s, %s/%s, %d CPUs, %s: `%s`.\n",
		date.Format("2006-01-02"), v, runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.Version(),
		BenchCommand(cfg, groups, cfg.Sizes, true))
	fmt.Fprintf(w, "Times are wall-clock means per operation (median and p90 over positions where measured per position); a ratio compares two items of the same run.\n")
	for _, g := range BenchGroups {
		var rs []BenchRow
		for _, r := range rows {
			if r.Group == g {
				rs = append(rs, r)
			}
		}
		if len(rs) == 0 {
			continue
		}
		slices.SortStableFunc(rs, func(a, b BenchRow) int { return a.Size - b.Size })
		fmt.Fprintf(w, "\n**`%s`: %s**\n\n", g, benchAreas[g])
		fmt.Fprintln(w, "| board | item | per op | median | p90 | vs baseline | note | command |")
		fmt.Fprintln(w, "|---|---|---:|---:|---:|---|---|---|")
		for _, r := range rs {
			fmt.Fprintf(w, "| %dx%d | %s | %s | %s | %s | %s | %s | `%s` |\n", r.Size, r.Size, mdCell(r.Name),
				fmtDur(r.PerOp), fmtDur(r.Median), fmtDur(r.P90), mdCell(benchRatio(r)), mdCell(r.Note),
				BenchCommand(cfg, []string{g}, []int{r.Size}, true))
		}
	}
}

// benchRatio describes a row's ratio to its baseline ("" when it has none).
func benchRatio(r BenchRow) string {
	switch {
	case r.Baseline == "":
		return ""
	case r.Ratio >= 1:
		return fmt.Sprintf("%.1fx faster than %s", r.Ratio, r.Baseline)
	default:
		return fmt.Sprintf("%.1fx slower than %s", 1/r.Ratio, r.Baseline)
	}
}

// mdCell escapes text for a Markdown table cell.
func mdCell(s string) string {
	if s == "" {
		return "—"
	}
	return strings.ReplaceAll(s, "|", `\|`)
}
