package match

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// ErrTimeout is returned when an engine does not answer within the time allowed.
var ErrTimeout = errors.New("match: engine timed out")

// ErrEngineDied is returned when an engine closes its output or exits.
var ErrEngineDied = errors.New("match: engine died")

// Client talks GTP to one engine process.
type Client struct {
	name    string
	cmdline string    // for Restart
	stderr  io.Writer // for Restart
	cmd     *exec.Cmd
	in      io.WriteCloser
	lines   chan string
	done    chan struct{}
	// pending counts answers still owed for commands that timed out.
	pending int
}

// Start launches cmdline with "sh -c" and connects to its standard input and output.
// Its standard error goes to stderr (nil discards it).
func Start(name, cmdline string, stderr io.Writer) (*Client, error) {
	if strings.TrimSpace(cmdline) == "" {
		return nil, fmt.Errorf("match: engine %s: empty command", name)
	}
	cmd := exec.Command("sh", "-c", cmdline)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("match: engine %s: %w", name, err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("match: engine %s: %w", name, err)
	}
	if stderr != nil {
		cmd.Stderr = stderr
		// Do not let Wait hang on copying standard error from a child the shell left
		// behind after the engine itself exited.
		cmd.WaitDelay = time.Second
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("match: engine %s: start %q: %w", name, cmdline, err)
	}
	c := &Client{name: name, cmdline: cmdline, stderr: stderr, cmd: cmd, in: in, lines: make(chan string, 64), done: make(chan struct{})}
	// The reader owns its channels, not c: Restart replaces c's fields while the old
	// process's reader may still be finishing.
	lines, done := c.lines, c.done
	go func() {
		// done closes before lines: whoever sees lines closed (a dead engine is
		// noticed at once, not at the time-out) then finds Dead true, so the match
		// restarts the engine before the next game (closed the other way round, a
		// loaded machine let a game start on the dead engine)
		defer close(lines)
		defer close(done)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 1<<16), 1<<20)
		for sc.Scan() {
			lines <- strings.TrimRight(sc.Text(), "\r")
		}
	}()
	return c, nil
}

// Dead reports whether the engine's output has closed (it exited or crashed).
func (c *Client) Dead() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

// Restart ends the engine's process and starts its command line again (after a
// crash, so that one crash loses one game, not the rest of the match). The new
// process has no state: the caller sends its setup commands again.
func (c *Client) Restart() error {
	c.Kill()
	n, err := Start(c.name, c.cmdline, c.stderr)
	if err != nil {
		return err
	}
	*c = *n
	return nil
}

// Name returns the engine's label.
func (c *Client) Name() string { return c.name }

// Send sends one command and waits up to timeout (0: no limit) for its answer. It
// returns the answer text without the leading "=" or "?"; a "?" answer is an error.
// After a time-out the late answer is drained before the next command is sent, so the
// conversation never goes out of step.
func (c *Client) Send(ctx context.Context, command string, timeout time.Duration) (string, error) {
	for c.pending > 0 {
		if _, err := c.read(ctx, time.Minute, "(late answer)"); err != nil && !errors.Is(err, errRefused) {
			return "", err
		}
		c.pending--
	}
	if _, err := io.WriteString(c.in, command+"\n"); err != nil {
		return "", fmt.Errorf("%w: %s: write %q: %v", ErrEngineDied, c.name, command, err)
	}
	ans, err := c.read(ctx, timeout, command)
	if errors.Is(err, ErrTimeout) {
		c.pending++
	}
	return ans, err
}

// errRefused marks a "?" answer.
var errRefused = errors.New("refused")

// read reads one answer.
func (c *Client) read(ctx context.Context, timeout time.Duration, command string) (string, error) {
	var deadline <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C
	}
	var resp []string
	for {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-deadline:
			return "", fmt.Errorf("%w: %s: no answer to %q within %v", ErrTimeout, c.name, command, timeout)
		case ln, ok := <-c.lines:
			if !ok {
				return "", fmt.Errorf("%w: %s: closed its output during %q", ErrEngineDied, c.name, command)
			}
			if ln == "" {
				if len(resp) == 0 {
					continue
				}
				first := resp[0]
				body := strings.TrimSpace(strings.Join(append([]string{strings.TrimLeft(first[1:], "0123456789")}, resp[1:]...), "\n"))
				if first[0] == '?' {
					return body, fmt.Errorf("match: %s refused %q: %s: %w", c.name, command, body, errRefused)
				}
				return body, nil
			}
			if len(resp) == 0 && ln[0] != '=' && ln[0] != '?' {
				continue // noise before an answer
			}
			resp = append(resp, ln)
		}
	}
}

// Close asks the engine to quit and waits briefly for it, killing it if needed.
func (c *Client) Close() {
	_, _ = io.WriteString(c.in, "quit\n")
	_ = c.in.Close()
	select {
	case <-c.done:
	case <-time.After(3 * time.Second):
		_ = c.cmd.Process.Kill()
	}
	_ = c.cmd.Wait()
}

// Kill ends the engine at once without asking it to quit, for an interrupted match:
// Close would wait for an engine still thinking about a move.
func (c *Client) Kill() {
	_ = c.in.Close()
	_ = c.cmd.Process.Kill()
	cmd := c.cmd                   // not c: Restart reuses c for the new process
	go func() { _ = cmd.Wait() }() // reap it without blocking on a child the shell left behind
}
