package main

import (
	"flag"
	"fmt"
	"os"
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
