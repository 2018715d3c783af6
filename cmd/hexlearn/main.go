// Command hexlearn is the one binary of the hexlearn system: it speaks Hex GTP, shows
// positions, generates training corpora, trains and evaluates learned evaluators,
// builds goal-pattern databases, solves small boards and runs the experiments. Each
// subcommand lives in its own file and only wires packages together.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// command is one subcommand.
type command struct {
	name    string // as typed: "gtp", "show", ...
	summary string // one line for "hexlearn help"
	usage   string // synopsis and description for "hexlearn help NAME"
	writes  bool   // the command writes files (its interruption message says which are kept)
	// run executes the command with the arguments after its name. ctx is cancelled on
	// SIGINT/SIGTERM; long work must stop promptly and leave only whole files.
	run func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

var commands = map[string]*command{}

// register adds a subcommand; each subcommand file calls it from init.
func register(c *command) {
	if _, dup := commands[c.name]; dup {
		panic("hexlearn: duplicate command " + c.name)
	}
	commands[c.name] = c
}

// errUsage marks an error caused by bad command-line use; main prints the usage.
var errUsage = errors.New("usage")

func main() {
	stop, err := startProfile(os.Getenv(profileEnv))
	if err != nil {
		fmt.Fprintf(os.Stderr, "hexlearn: %v\n", err)
		os.Exit(1)
	}
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	if err := stop(); err != nil {
		fmt.Fprintf(os.Stderr, "hexlearn: %v\n", err)
		code = max(code, 1)
	}
	os.Exit(code)
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
		if len(args) >= 2 {
			c, ok := commands[args[1]]
			if !ok {
				fmt.Fprintf(stderr, "hexlearn: unknown command %q; run 'hexlearn help'\n", args[1])
				return 2
			}
			// Every command parses its flags with newFlags, so -h prints its usage.
			_ = c.run(context.Background(), []string{"-h"}, stdout, stdout)
			return 0
		}
		printHelp(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if signalsCaught != nil {
		signalsCaught()
	}
	return runCommand(ctx, args, stdout, stderr)
}

// signalsCaught, when set (by the tests), is called once a command catches Ctrl-C and
// SIGTERM, so that a test signals a command that is running, not one still starting.
var signalsCaught func()

// runCommand runs the command line args (a command name first) with ctx and returns
// the exit status: 0 success, 1 failure, 2 usage error, 130 interrupted.
func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "hexlearn: unknown command %q; run 'hexlearn help'\n", args[0])
		return 2
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintf(stderr, "hexlearn %s: %s\nrun 'hexlearn help %s' for usage\n", c.name, strings.TrimPrefix(err.Error(), errUsage.Error()+": "), c.name)
		return 2
	case errors.Is(err, context.Canceled) || ctx.Err() != nil:
		if c.writes {
			fmt.Fprintf(stderr, "hexlearn %s: interrupted; only complete files were kept\n", c.name)
		} else {
			fmt.Fprintf(stderr, "hexlearn %s: interrupted\n", c.name)
		}
		return 130
	default:
		fmt.Fprintf(stderr, "hexlearn %s: %v\n", c.name, err)
		return 1
	}
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "hexlearn learns fast evaluators for the game of Hex.")
	fmt.Fprintln(w, "\nUsage: hexlearn COMMAND [flags]\n\nCommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'hexlearn help COMMAND' for a command's flags.")
}

// usageErr wraps a message as a usage error.
func usageErr(format string, a ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, a...))
}
