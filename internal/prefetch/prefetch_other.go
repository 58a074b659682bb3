//go:build !amd64 || purego

package prefetch

import "unsafe"

// Read does nothing on this build (see the package comment).
func Read(unsafe.Pointer, uintptr) {}

// Write does nothing on this build (see the package comment).
func Write(unsafe.Pointer, uintptr) {}
