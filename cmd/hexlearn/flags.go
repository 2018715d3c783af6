package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"time"
)

// flagSet is a subcommand's flag set: parse errors come back as one-line usage errors
// (no usage dump), and -h/--help prints the command's help with flags written as
// --name, the way the README writes them.
type flagSet struct {
	*flag.FlagSet
	c    *command
	help io.Writer // where -h prints the help
	pos  []string  // positional arguments
}

// newFlags returns the flag set of subcommand c; -h prints its help to w.
func newFlags(c *command, w io.Writer) *flagSet {
	fs := flag.NewFlagSet("hexlearn "+c.name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flagSet{FlagSet: fs, c: c, help: w}
}

// Parse parses args; flags may follow the positional arguments (up to a "--"). It
// returns flag.ErrHelp after printing the help for -h, and a usage error naming the
// flag for anything the flag package refuses.
func (f *flagSet) Parse(args []string) error {
	f.pos = nil
	for {
		err := f.FlagSet.Parse(args)
		switch {
		case err == nil:
		case errors.Is(err, flag.ErrHelp):
			fmt.Fprintf(f.help, "%s\n", strings.TrimSpace(f.c.usage))
			if hasFlags(f.FlagSet) {
				fmt.Fprint(f.help, "\nFlags:\n")
				printFlags(f.help, f.FlagSet)
			}
			return flag.ErrHelp
		default:
			return usageErr("%s", flagErrText(f.FlagSet, err))
		}
		rest := f.FlagSet.Args()
		if used := len(args) - len(rest); len(rest) == 0 || used > 0 && args[used-1] == "--" {
			f.pos = append(f.pos, rest...)
			return nil
		}
		f.pos = append(f.pos, rest[0])
		args = rest[1:]
	}
}

// Args returns the positional arguments.
func (f *flagSet) Args() []string { return f.pos }

// NArg returns the number of positional arguments.
func (f *flagSet) NArg() int { return len(f.pos) }

// Arg returns positional argument i, or "" if there is none.
func (f *flagSet) Arg(i int) string {
	if i < 0 || i >= len(f.pos) {
		return ""
	}
	return f.pos[i]
}

// flagErrText rewrites the flag package's messages of fs in the --name spelling and
// says what kind of value a flag wants.
func flagErrText(fs *flag.FlagSet, err error) string {
	s := err.Error()
	if name, ok := strings.CutPrefix(s, "flag provided but not defined: "); ok {
		return "unknown flag " + dashes(name)
	}
	if name, ok := strings.CutPrefix(s, "flag needs an argument: "); ok {
		return dashes(name) + " needs a value"
	}
	// invalid boolean value "x" for -json: parse error
	if rest, ok := strings.CutPrefix(s, "invalid boolean value "); ok {
		if val, name, ok := strings.Cut(rest, " for "); ok {
			name, _, _ = strings.Cut(name, ":")
			return fmt.Sprintf("%s %s: want true or false", dashes(name), val)
		}
	}
	// invalid value "x" for flag -size: parse error
	if rest, ok := strings.CutPrefix(s, "invalid value "); ok {
		if i := strings.Index(rest, " for flag "); i >= 0 {
			val := rest[:i]
			name, why, _ := strings.Cut(rest[i+len(" for flag "):], ": ")
			why = strings.TrimPrefix(why, "parse error")
			if why == "" {
				why = "not a valid value"
				if fl := fs.Lookup(strings.TrimLeft(name, "-")); fl != nil {
					switch typ, _ := flag.UnquoteUsage(fl); typ {
					case "int", "uint":
						why = "want a whole number"
					case "float":
						why = "want a number"
					case "duration":
						why = "want a duration such as 30s or 2m"
					case "":
						why = "want true or false"
					}
				}
			}
			return fmt.Sprintf("%s %s: %s", dashes(name), val, why)
		}
	}
	return s
}

// dashes spells a flag name -x or --x as --x.
func dashes(name string) string { return "--" + strings.TrimLeft(name, "-") }

func hasFlags(fs *flag.FlagSet) bool {
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	return n > 0
}

// printFlags writes fs's flags as "--name TYPE" with their description and default,
// sorted by name.
func printFlags(w io.Writer, fs *flag.FlagSet) {
	var fl []*flag.Flag
	fs.VisitAll(func(f *flag.Flag) { fl = append(fl, f) })
	sort.Slice(fl, func(i, j int) bool { return fl[i].Name < fl[j].Name })
	for _, f := range fl {
		typ, usage := flag.UnquoteUsage(f)
		if t, ok := f.Value.(interface{ Type() string }); ok {
			typ = t.Type()
		}
		line := "  --" + f.Name
		if typ != "" {
			line += " " + typ
		}
		fmt.Fprintln(w, line)
		fmt.Fprintf(w, "        %s", strings.ReplaceAll(usage, "\n", "\n        "))
		switch f.DefValue {
		case "", "0", "false":
		default:
			if typ == "string" {
				fmt.Fprintf(w, " (default %q)", f.DefValue)
			} else {
				fmt.Fprintf(w, " (default %s)", f.DefValue)
			}
		}
		fmt.Fprintln(w)
	}
}

// Shared bounds of the command-line flags.
const (
	maxCount   = 1_000_000_000 // positions, games, epochs, nodes: well beyond any real run
	maxWorkers = 1024
	maxSeconds = 7 * 24 * 3600.0
)

// intIn returns a usage error unless lo <= v <= hi.
func intIn[T int | int64](name string, v, lo, hi T) error {
	if v < lo || v > hi {
		return usageErr("--%s %d: want %d..%d", name, v, lo, hi)
	}
	return nil
}

// override is a boolean flag's value as a configuration's three-way setting: 0 when
// it is the default def, else 1 for true and -1 for false.
func override(v, def bool) int {
	switch {
	case v == def:
		return 0
	case v:
		return 1
	}
	return -1
}

// floatIn returns a usage error unless v is a number in [lo, hi].
func floatIn(name string, v, lo, hi float64) error {
	if math.IsNaN(v) || v < lo || v > hi {
		return usageErr("--%s %g: want %g..%g", name, v, lo, hi)
	}
	return nil
}

// seconds checks a time in seconds against [lo, maxSeconds] and returns it as a duration.
func seconds(name string, v, lo float64) (time.Duration, error) {
	if err := floatIn(name, v, lo, maxSeconds); err != nil {
		return 0, err
	}
	return time.Duration(v * float64(time.Second)), nil
}
