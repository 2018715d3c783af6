package model

import (
	"bytes"
	"testing"
)

// FuzzLoad feeds arbitrary bytes to Load: it must return a model that re-encodes to the
// same bytes, or an error, and never panic.
func FuzzLoad(f *testing.F) {
	good, _ := randomModel(3, 3, 2, 2, OutputTanh, 1).MarshalBinary()
	f.Add(good)
	f.Add(good[:40])
	withHead, _ := withPolicy(randomModel(3, 2, 2, 2, OutputLogistic, 1), 2).MarshalBinary()
	f.Add(withHead)
	f.Add([]byte(Magic))
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load(bytes.NewReader(data))
		if err != nil {
			return
		}
		out, err := m.MarshalBinary()
		if err != nil {
			t.Fatalf("loaded model does not re-encode: %v", err)
		}
		m2, err := Load(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("re-encoded model does not load: %v", err)
		}
		out2, _ := m2.MarshalBinary()
		if !bytes.Equal(out, out2) {
			t.Fatal("encoding is not stable")
		}
	})
}
