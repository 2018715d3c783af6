//go:build linux

package solver

import (
	"syscall"
	"unsafe"
)

// hugePage is the size of a transparent huge page on the platforms Go runs Linux on
// most (x86-64, arm64 with 4 KiB pages).
const hugePage = 2 << 20

// adviseHugePages asks the kernel to back the memory of s with transparent huge
// pages (madvise MADV_HUGEPAGE), for the 2 MiB-aligned part of it. A transposition
// table is probed at random over hundreds of megabytes: with 4 KiB pages nearly every
// probe also misses the processor's address translation cache, and a huge page
// covers 512 times as much. Kernels whose transparent huge pages are set to
// "madvise" (a common default) only use them where asked; where they are "always"
// or "never" the advice changes nothing. Errors are ignored: the advice is only a
// speed hint.
func adviseHugePages[T any](s []T) {
	if len(s) == 0 {
		return
	}
	size := uintptr(len(s)) * unsafe.Sizeof(s[0])
	base := unsafe.Pointer(&s[0])
	start := uintptr(base)
	lo := (start + hugePage - 1) &^ (hugePage - 1)
	hi := (start + size) &^ (hugePage - 1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(base, lo-start)), hi-lo)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
