package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/experiments/strength"
)

// builtinPlayers lists the players that name this binary's own GTP engine.
var builtinPlayers = strength.BuiltinNames

// builtinCommand returns the command line of a built-in player (with the time per move
// left as strength.TimePlaceholder), and false for any other name.
func builtinCommand(bin, name string) (string, bool) {
	p, ok := strength.Builtin(bin, name)
	return p.Cmd, ok
}

// engineFlags collects repeated --engine NAME=CMDLINE flags.
type engineFlags struct {
	names []string
	cmds  map[string]string
}

func (e *engineFlags) String() string { return strings.Join(e.names, ",") }

func (e *engineFlags) Set(v string) error {
	name, cmd, ok := strings.Cut(v, "=")
	name, cmd = strings.TrimSpace(name), strings.TrimSpace(cmd)
	switch {
	case !ok:
		return fmt.Errorf("want NAME=CMDLINE, got %q", v)
	case !strength.ValidName(name):
		return fmt.Errorf("bad engine name %q (letters, digits and ._+- only)", name)
	case cmd == "":
		return fmt.Errorf("engine %s has an empty command line", name)
	case e.cmds[name] != "":
		return fmt.Errorf("engine %s given twice", name)
	}
	if e.cmds == nil {
		e.cmds = map[string]string{}
	}
	e.names = append(e.names, name)
	e.cmds[name] = cmd
	return nil
}

// engineInits collects repeated --engine-init NAME=GTPCMD[;GTPCMD...] flags.
type engineInits struct {
	cmds map[string][]string
}

func (e *engineInits) String() string { return fmt.Sprint(len(e.cmds)) }

func (e *engineInits) Set(v string) error {
	name, cmds, ok := strings.Cut(v, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return fmt.Errorf("want NAME=GTPCOMMAND[;GTPCOMMAND...], got %q", v)
	}
	if e.cmds == nil {
		e.cmds = map[string][]string{}
	}
	for _, c := range strings.Split(cmds, ";") {
		if c = strings.TrimSpace(c); c != "" {
			e.cmds[name] = append(e.cmds[name], c)
		}
	}
	if len(e.cmds[name]) == 0 {
		return fmt.Errorf("no GTP command for %s in %q", name, v)
	}
	return nil
}

// strengthConfig turns the flags into a ladder configuration; every error is a usage
// error naming its flag.
func strengthConfig(bin, sizes, times, players string, engines *engineFlags, inits *engineInits, openings string, seed uint64, out string) (strength.Config, error) {
	cfg := strength.Config{Seed: seed, Dir: out}
	seen := map[string]bool{}
	for _, f := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 2 || n > hex.MaxSize {
			return cfg, usageErr("--size: want a comma-separated list of board sides 2..%d, got %q", hex.MaxSize, f)
		}
		if key := fmt.Sprint("size ", n); seen[key] {
			return cfg, usageErr("--size: %d given twice", n)
		} else {
			seen[key] = true
		}
		cfg.Sizes = append(cfg.Sizes, n)
	}
	for _, f := range strings.Split(times, ",") {
		s, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(s > 0) || s > 3600 {
			return cfg, usageErr("--time: want a comma-separated list of seconds per move > 0, got %q", f)
		}
		t := time.Duration(s * float64(time.Second))
		if key := "time " + t.String(); seen[key] {
			return cfg, usageErr("--time: %g given twice", s)
		} else {
			seen[key] = true
		}
		cfg.Times = append(cfg.Times, t)
	}
	var names []string
	for _, f := range strings.Split(players, ",") {
		if f = strings.TrimSpace(f); f != "" {
			names = append(names, f)
		}
	}
	for _, n := range engines.names {
		if !contains(names, n) {
			names = append(names, n)
		}
	}
	for _, n := range names {
		cmd, ok := engines.cmds[n]
		if !ok {
			if cmd, ok = builtinCommand(bin, n); !ok {
				return cfg, usageErr("--players: unknown player %q (built-in: %s; add others with --engine NAME=CMDLINE)", n, strings.Join(builtinPlayers, ", "))
			}
		}
		if key := "player " + n; seen[key] {
			return cfg, usageErr("--players: %s given twice", n)
		} else {
			seen[key] = true
		}
		cfg.Players = append(cfg.Players, strength.Entrant{Name: n, Cmd: cmd, Init: inits.cmds[n]})
	}
	for n := range inits.cmds {
		if !contains(names, n) {
			return cfg, usageErr("--engine-init: %q is not a player", n)
		}
	}
	if len(cfg.Players) < 2 {
		return cfg, usageErr("--players: a ladder needs at least two players, got %d", len(cfg.Players))
	}
	switch openings {
	case "auto":
		cfg.Openings = strength.OpeningsAuto
	case "all":
		cfg.Openings = strength.OpeningsAll
	default:
		k, err := strconv.Atoi(openings)
		if err != nil || k < 1 {
			return cfg, usageErr("--openings: want auto, all or a positive number, got %q", openings)
		}
		cfg.Openings = k
	}
	if out == "" {
		return cfg, usageErr("--out: a report directory is required")
	}
	if err := cfg.Validate(); err != nil {
		return cfg, usageErr("%v", err)
	}
	return cfg, nil
}

// contains reports whether s is in list.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
