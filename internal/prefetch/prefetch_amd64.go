//go:build amd64 && !purego

package prefetch

import (
	"unsafe"

	"github.com/tumble2d/tumble/internal/cpu"
)

// hasWrite reports whether the CPU has PREFETCHW (CPUID leaf 0x80000001,
// ECX bit 8: PRFCHW on Intel, 3DNowPrefetch on AMD).
var hasWrite = detectWrite()

func detectWrite() bool {
	if maxExt, _, _, _ := cpu.CPUID(0x80000000, 0); maxExt < 0x80000001 {
		return false
	}
	_, _, ecx, _ := cpu.CPUID(0x80000001, 0)
	return ecx&(1<<8) != 0
}

// Read asks for the cache lines of the n bytes at p, to be read
// (PREFETCHT0 per 64-byte line).
//
//go:noescape
func Read(p unsafe.Pointer, n uintptr)

// Write asks for the cache lines of the n bytes at p, to be written
// (PREFETCHW per 64-byte line): the core takes them from any other core
// that holds them. On a CPU without PREFETCHW it does nothing.
func Write(p unsafe.Pointer, n uintptr) {
	if hasWrite {
		writeLines(p, n)
	}
}

//go:noescape
func writeLines(p unsafe.Pointer, n uintptr)
