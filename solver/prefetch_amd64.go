//go:build amd64 && !purego

package solver

import "unsafe"

// prefetchLines asks the CPU to bring the cache lines of the n bytes at p
// into its caches (PREFETCHT0 per 64-byte line). It is a hint: it reads
// nothing into registers, changes no memory, and cannot fault.
//
//go:noescape
func prefetchLines(p unsafe.Pointer, n uintptr)
