//go:build !amd64 || purego

package solver

import "unsafe"

// prefetchLines does nothing: without the assembly kernels there are no
// wide blocks to prefetch (see prefetch_amd64.go).
func prefetchLines(unsafe.Pointer, uintptr) {}
