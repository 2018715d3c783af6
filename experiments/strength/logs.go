package strength

import (
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/hexlearn/hexlearn/internal/fileutil"
)

// logKeep is how much of an engine's standard error is kept: this many bytes from the
// start and this many from the end.
const logKeep = 32 << 10

// capLog keeps the head and the tail of what an engine writes to its standard error.
type capLog struct {
	mu      sync.Mutex
	head    []byte
	tail    []byte
	dropped int64
}

// Write implements io.Writer; it never fails.
func (c *capLog) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := len(p)
	if room := logKeep - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail = append(c.tail, p...)
	if extra := len(c.tail) - logKeep; extra > logKeep { // trim now and then, not on every write
		c.dropped += int64(len(c.tail) - logKeep)
		c.tail = append(c.tail[:0], c.tail[len(c.tail)-logKeep:]...)
	}
	return n, nil
}

// bytes returns the kept text, with a note where some was dropped.
func (c *capLog) bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := append([]byte(nil), c.head...)
	tail, dropped := c.tail, c.dropped
	if len(tail) > logKeep {
		dropped += int64(len(tail) - logKeep)
		tail = tail[len(tail)-logKeep:]
	}
	if dropped > 0 {
		out = append(out, fmt.Sprintf("\n[... %d bytes left out ...]\n", dropped)...)
	}
	return append(out, tail...)
}

// LogPath returns the path, relative to the report, of an engine's standard error in
// one pair's match.
func LogPath(size int, t time.Duration, a, b, engine string) string {
	return filepath.Join("logs", fmt.Sprintf("%dx%d", size, size), Seconds(t)+"s", a+"-vs-"+b+"."+engine+".log")
}

// writeLog writes what the engine wrote to its standard error, if anything.
func writeLog(dir, rel string, c *capLog) error {
	data := c.bytes()
	if len(data) == 0 {
		return nil
	}
	path := filepath.Join(dir, rel)
	if err := mkdirAll(filepath.Dir(path)); err != nil {
		return err
	}
	if err := fileutil.WriteFileAtomic(path, data); err != nil {
		return fmt.Errorf("strength: %w", err)
	}
	return nil
}
