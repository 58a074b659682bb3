// Package prefetch asks the CPU to bring cache lines into the caller's core
// before it reads or writes them: the hardware prefetchers follow a few
// streams of reads, not the many interleaved streams of Tumble's lanes, nor
// lines that another core last held.
//
// A write to a line that another core holds must first take the line from
// it. On a host whose two cores answer each other in about 1 us, the gather
// of large_pyramid (the caller writing the rows that the second worker read
// in the step before) took 0.40 ms a step on 2 workers against 0.24 on 1;
// taking the lines ahead with a write prefetch brought it to 0.23, where a
// read prefetch made it slower (0.47). See docs/architecture.md, "Lines
// that the other core held".
//
// Every function is a hint: it reads nothing into registers, changes no
// memory, and cannot fault. Without the assembly (other architectures, or
// the purego build tag) they do nothing.
package prefetch

import "unsafe"

// WriteRows calls [Write] for the elements [i, i+n) of the backing array of
// s, up to cap(s): a loop that appends to or fills s calls it some elements
// ahead of the one it writes. Elements past cap(s) are left alone.
func WriteRows[T any](s []T, i, n int) {
	if i < 0 || n <= 0 || i+n > cap(s) {
		return
	}
	var z T
	size := unsafe.Sizeof(z)
	Write(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), uintptr(i)*size), uintptr(n)*size)
}
