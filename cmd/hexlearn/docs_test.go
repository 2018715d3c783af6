package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// updateDocs rewrites the outputs of the checked examples in the documentation from
// what the commands print now: go test ./cmd/hexlearn -run TestDocExamples -update
var updateDocs = flag.Bool("update", false, "rewrite the checked examples of docs/*.md from the commands' output")

// docFiles are the documents whose ```console blocks are checked (paths relative to
// this package's directory).
var docFiles = []string{"../../README.md", "../../docs/cli.md", "../../docs/formats.md"}

// checkedCommands are the subcommands a ```console example may run: fast and
// deterministic, so their output can be compared byte for byte. Any command may be
// shown with a final -h (its usage).
var checkedCommands = map[string]bool{"show": true, "help": true, "gtp": true}

// docExample is one "$ hexlearn ..." line of a ```console block and the output the
// document shows for it.
type docExample struct {
	line  int      // 1-based line of the "$ " line in the document
	args  []string // arguments after "hexlearn"
	input []string // GTP transcript: the command lines sent on standard input
	// want holds the expected output lines; in a GTP transcript only the answers,
	// each ending with its empty line.
	want []string
	// start and end delimit the example in the document: the 0-based index of its
	// "$ " line and the index just after its last line.
	start, end int
}

// TestDocExamples runs every "$ hexlearn ..." example of the ```console blocks of
// docFiles in process and checks that the command prints exactly what the document
// shows (standard output and standard error together; trailing spaces ignored). A GTP
// session is written as a transcript: the lines sent to the engine, each followed by
// the engine's answer ("= ..." or "? ...", up to its empty line).
func TestDocExamples(t *testing.T) {
	for _, path := range docFiles {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		lines := strings.Split(string(data), "\n")
		examples, err := parseDocExamples(lines)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(examples) == 0 {
			t.Fatalf("%s: no checked examples", path)
		}
		changed := false
		// Replace from the end so earlier line numbers stay valid.
		for i := len(examples) - 1; i >= 0; i-- {
			ex := examples[i]
			got, err := runDocExample(t, ex)
			if err != nil {
				t.Errorf("%s:%d: %v", path, ex.line, err)
				continue
			}
			gotLines := outputLines(got)
			if ex.input != nil {
				if equalLines(gotLines, ex.want) {
					continue
				}
				if *updateDocs {
					tr, err := transcript(ex.input, gotLines)
					if err != nil {
						t.Errorf("%s:%d: %v", path, ex.line, err)
						continue
					}
					lines = splice(lines, ex.start+1, ex.end, tr)
					changed = true
					continue
				}
				t.Errorf("%s:%d: hexlearn %s: answers differ from the document (run with -update to rewrite them)\n--- document\n%s\n--- actual\n%s",
					path, ex.line, strings.Join(ex.args, " "), strings.Join(ex.want, "\n"), strings.Join(gotLines, "\n"))
				continue
			}
			if equalLines(gotLines, ex.want) {
				continue
			}
			if *updateDocs {
				lines = splice(lines, ex.start+1, ex.end, gotLines)
				changed = true
				continue
			}
			t.Errorf("%s:%d: hexlearn %s: output differs from the document (run with -update to rewrite it)\n--- document\n%s\n--- actual\n%s",
				path, ex.line, strings.Join(ex.args, " "), strings.Join(ex.want, "\n"), strings.Join(gotLines, "\n"))
		}
		if changed {
			if err := writeFileAtomic(path, []byte(strings.Join(lines, "\n"))); err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: examples rewritten", path)
		}
	}
}

// parseDocExamples finds the examples of the ```console blocks of a Markdown file.
func parseDocExamples(lines []string) ([]docExample, error) {
	var out []docExample
	inConsole, inOther := false, false
	var cur *docExample
	flush := func(end int) error {
		if cur == nil {
			return nil
		}
		cur.end = end
		if err := cur.finish(lines); err != nil {
			return fmt.Errorf("line %d: %w", cur.line, err)
		}
		out = append(out, *cur)
		cur = nil
		return nil
	}
	for i, l := range lines {
		trimmed := strings.TrimSpace(l)
		switch {
		case inOther:
			if strings.HasPrefix(trimmed, "```") {
				inOther = false
			}
		case !inConsole && strings.HasPrefix(trimmed, "```"):
			if strings.TrimPrefix(trimmed, "```") == "console" {
				inConsole = true
			} else {
				inOther = true
			}
		case inConsole && strings.HasPrefix(trimmed, "```"):
			if err := flush(i); err != nil {
				return nil, err
			}
			inConsole = false
		case inConsole && strings.HasPrefix(l, "$ "):
			if err := flush(i); err != nil {
				return nil, err
			}
			words, err := shellWords(strings.TrimPrefix(l, "$ "))
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", i+1, err)
			}
			if len(words) < 2 || words[0] != "hexlearn" {
				return nil, fmt.Errorf("line %d: a console example must start with \"$ hexlearn\"", i+1)
			}
			if !checkedCommands[words[1]] && words[len(words)-1] != "-h" {
				return nil, fmt.Errorf("line %d: hexlearn %s is not fast and deterministic enough for a checked example; use a ```text block", i+1, words[1])
			}
			cur = &docExample{line: i + 1, args: words[1:], start: i}
		case inConsole && cur == nil:
			return nil, fmt.Errorf("line %d: text in a console block before the first \"$ hexlearn\" line", i+1)
		}
	}
	if inConsole {
		return nil, fmt.Errorf("unterminated console block")
	}
	return out, nil
}

// finish splits the document lines of an example into the expected output or, for a
// GTP session, into the input lines and the expected answers.
func (ex *docExample) finish(lines []string) error {
	body := lines[ex.start+1 : ex.end]
	if ex.args[0] != "gtp" {
		ex.want = trimLines(body)
		return nil
	}
	ex.input = []string{}
	inAnswer := false
	for _, l := range body {
		l = strings.TrimRight(l, " \t")
		switch {
		case inAnswer:
			ex.want = append(ex.want, l)
			if l == "" {
				inAnswer = false
			}
		case strings.HasPrefix(l, "=") || strings.HasPrefix(l, "?"):
			ex.want = append(ex.want, l)
			inAnswer = true
		case l == "":
			return fmt.Errorf("empty line outside an answer in a GTP transcript")
		default:
			ex.input = append(ex.input, l)
		}
	}
	ex.want = trimLines(ex.want)
	return nil
}

// runDocExample runs the example's command in process and returns what it printed.
func runDocExample(t *testing.T, ex docExample) (string, error) {
	t.Helper()
	if ex.input != nil {
		f, err := os.CreateTemp(t.TempDir(), "gtp-input")
		if err != nil {
			return "", err
		}
		defer f.Close()
		if _, err := f.WriteString(strings.Join(ex.input, "\n") + "\n"); err != nil {
			return "", err
		}
		if _, err := f.Seek(0, 0); err != nil {
			return "", err
		}
		old := os.Stdin
		os.Stdin = f
		defer func() { os.Stdin = old }()
	}
	var out bytes.Buffer
	run(ex.args, &out, &out)
	return out.String(), nil
}

// transcript interleaves GTP input lines with the engine's answers (one answer per
// input line, each ending with an empty line).
func transcript(input, answers []string) ([]string, error) {
	var out []string
	i := 0
	for n, cmd := range input {
		out = append(out, cmd)
		if i >= len(answers) {
			return nil, fmt.Errorf("no answer to input line %d %q", n+1, cmd)
		}
		for ; i < len(answers); i++ {
			out = append(out, answers[i])
			if answers[i] == "" {
				i++
				break
			}
		}
	}
	if i < len(answers) {
		return nil, fmt.Errorf("more answers than input lines")
	}
	return trimLines(out), nil
}

// outputLines splits command output into lines without trailing spaces or a final
// empty line.
func outputLines(s string) []string {
	return trimLines(strings.Split(s, "\n"))
}

// trimLines drops trailing spaces of every line and trailing empty lines.
func trimLines(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = strings.TrimRight(l, " \t")
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

func equalLines(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// splice replaces lines[from:to] with repl.
func splice(lines []string, from, to int, repl []string) []string {
	out := append([]string{}, lines[:from]...)
	out = append(out, repl...)
	return append(out, lines[to:]...)
}

// writeFileAtomic writes data to a temporary file next to path and renames it.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".docs-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// shellWords splits a command line as a POSIX shell would for the quoting used in the
// documents: words separated by spaces, '...' and "..." quoting (with \" and \\
// inside double quotes).
func shellWords(s string) ([]string, error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case ' ', '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, fmt.Errorf("unterminated ' in %q", s)
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, fmt.Errorf("unterminated \" in %q", s)
			}
			inWord = true
		default:
			cur.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words, nil
}

// TestDocParser checks the example parser on a small document, including the errors
// that keep the documentation honest.
func TestDocParser(t *testing.T) {
	doc := strings.Split("intro\n```console\n$ hexlearn show --moves \"c3 b2\" --size 5\nout 1  \n\n```\n```text\n$ hexlearn vc --size 5\nnot checked\n```\n```console\n$ hexlearn gtp\nname\n= hexlearn\n\nshowboard\n=\n a\n\nquit\n= \n\n```\n", "\n")
	exs, err := parseDocExamples(doc)
	if err != nil {
		t.Fatal(err)
	}
	if len(exs) != 2 {
		t.Fatalf("%d examples, want 2", len(exs))
	}
	if got := strings.Join(exs[0].args, "|"); got != "show|--moves|c3 b2|--size|5" {
		t.Errorf("args %q", got)
	}
	if !equalLines(exs[0].want, []string{"out 1"}) || exs[0].input != nil {
		t.Errorf("show example: want %q input %q", exs[0].want, exs[0].input)
	}
	if !equalLines(exs[1].input, []string{"name", "showboard", "quit"}) {
		t.Errorf("gtp input %q", exs[1].input)
	}
	if !equalLines(exs[1].want, []string{"= hexlearn", "", "=", " a", "", "="}) {
		t.Errorf("gtp answers %q", exs[1].want)
	}
	tr, err := transcript(exs[1].input, append(exs[1].want, ""))
	if err != nil || !equalLines(tr, []string{"name", "= hexlearn", "", "showboard", "=", " a", "", "quit", "="}) {
		t.Errorf("transcript %q, %v", tr, err)
	}
	if _, err := transcript([]string{"name", "version"}, []string{"= hexlearn", ""}); err == nil {
		t.Error("a missing answer was not reported")
	}
	for _, bad := range []string{
		"```console\n$ hexlearn selfplay --size 5\n```",    // slow command
		"```console\n$ ls\n```",                            // not hexlearn
		"```console\nstray\n$ hexlearn show\n```",          // text before the command
		"```console\n$ hexlearn show --moves \"c3\n```",    // bad quoting
		"```console\n$ hexlearn gtp\nname\n\n= x\n\n```",   // blank line outside an answer
		"```console\n$ hexlearn show --size 5\n1  . 1\n\n", // unterminated block
	} {
		if _, err := parseDocExamples(strings.Split(bad, "\n")); err == nil {
			t.Errorf("no error for %q", bad)
		}
	}
	if w, err := shellWords(`show --moves 'a1 "b2"' --x="y z" plain`); err != nil || strings.Join(w, "|") != `show|--moves|a1 "b2"|--x=y z|plain` {
		t.Errorf("shellWords: %q %v", w, err)
	}
}
