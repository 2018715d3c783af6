package player

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/hexlearn/hexlearn/engine/book"
)

// The built-in opening books, one file NxN.book per board size that has one (5x5 and
// 8x8); the first line of each records the 'hexlearn book build' flags that remake it
// byte for byte (docs/cli.md).
//
//go:embed books/*.book
var booksFS embed.FS

var (
	booksMu    sync.Mutex
	booksCache = map[string]*book.Book{}
)

// BuiltinBook returns the built-in opening book of a w x h board, or nil when there is
// none. The book is read once and shared: do not modify it.
func BuiltinBook(w, h int) (*book.Book, error) {
	name := fmt.Sprintf("%dx%d.book", w, h)
	booksMu.Lock()
	defer booksMu.Unlock()
	if bk, ok := booksCache[name]; ok {
		return bk, nil
	}
	data, err := booksFS.ReadFile("books/" + name)
	if errors.Is(err, fs.ErrNotExist) {
		booksCache[name] = nil
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("player: built-in book %s: %w", name, err)
	}
	bk, err := book.Read(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("player: built-in book %s: %w", name, err)
	}
	booksCache[name] = bk
	return bk, nil
}

// BuiltinBooks is BuiltinBook as a function of the board size: the built-in book of each
// board size, nil where there is none (or it cannot be read).
func BuiltinBooks(w, h int) *book.Book {
	bk, err := BuiltinBook(w, h)
	if err != nil {
		return nil
	}
	return bk
}

// FixedBook returns a function of the board size that gives bk on its own board size
// and nil on every other.
func FixedBook(bk *book.Book) func(w, h int) *book.Book {
	return func(w, h int) *book.Book {
		if bw, bh := bk.Size(); bw == w && bh == h {
			return bk
		}
		return nil
	}
}

// ReadBook reads an opening book file; when n is positive the book must be for n x n
// boards (an error wrapping book.ErrSize otherwise).
func ReadBook(path string, n int) (*book.Book, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	bk, err := book.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if w, h := bk.Size(); n > 0 && (w != n || h != n) {
		return nil, fmt.Errorf("%s: %w: the book is %dx%d, the board %dx%d", path, book.ErrSize, w, h, n, n)
	}
	return bk, nil
}
