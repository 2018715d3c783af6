package dataset

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWriteRead11x11 writes and reads back 10,000 11x11 rows per iteration and
// reports the file size per row and rows per second (write plus read).
func BenchmarkWriteRead11x11(b *testing.B) {
	rows := randomExamples(b, 11, 11, 10000, 1)
	path := filepath.Join(b.TempDir(), "b.arrow")
	for i := 0; i < b.N; i++ {
		if err := WriteFile(path, testMeta(11, 11), rows, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := ReadFile(path, nil); err != nil {
			b.Fatal(err)
		}
	}
	st, _ := os.Stat(path)
	b.ReportMetric(float64(st.Size())/float64(len(rows)), "bytes/row")
	b.ReportMetric(float64(len(rows)*b.N)/b.Elapsed().Seconds(), "rows/s")
}
