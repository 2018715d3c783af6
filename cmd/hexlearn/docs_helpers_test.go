package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
