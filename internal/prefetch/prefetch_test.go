package prefetch

import (
	"slices"
	"testing"
	"unsafe"
)

// TestHintsChangeNothing prefetches every range of a slice, including
// empty, partial, past-the-end and negative ones, and wants the memory as
// it was: a hint must neither write nor fault.
func TestHintsChangeNothing(t *testing.T) {
	type row struct {
		a, b float64
		c    int32
	}
	s := make([]row, 37, 50)
	for i := range s[:cap(s)] {
		s[:cap(s)][i] = row{a: float64(i), b: -float64(i), c: int32(i)}
	}
	want := slices.Clone(s[:cap(s)])
	for i := -3; i <= cap(s)+3; i++ {
		for n := -1; n <= 20; n++ {
			WriteRows(s, i, n)
		}
	}
	WriteRows[row](nil, 0, 8)
	WriteRows(s[:0:0], 0, 1)
	p := unsafe.Pointer(unsafe.SliceData(s))
	size := uintptr(cap(s)) * unsafe.Sizeof(row{})
	Read(p, size)
	Write(p, size)
	Read(p, 0)
	Write(p, 1)
	if got := s[:cap(s)]; !slices.Equal(got, want) {
		t.Fatal("a prefetch changed the memory it was given")
	}
}

// BenchmarkWriteRows measures one call for eight rows of 64 bytes, the
// granularity of the gather's prefetches.
func BenchmarkWriteRows(b *testing.B) {
	s := make([][64]byte, 1<<12)
	for i := 0; b.Loop(); i++ {
		WriteRows(s, (i*8)&(len(s)-8), 8)
	}
}
