//go:build amd64 && !purego

package broadphase

import (
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/internal/prefetch"
)

// members holds the boxes of a set in bucket order, one array per field
// (struct of arrays), so that a query tests eight or four members with each
// instruction (scan_amd64.s). key is the member's index in the input set
// times 2^32: added to the query's A (and to the index offset times 2^32),
// it is the Pair{A, index+offset} as a little-endian uint64, which the
// kernels store as it is. Builds without the kernels keep the boxes whole
// (members_aos.go): one member a test reads one line there, and five here.
type members struct {
	minX, minY, maxX, maxY []float64
	key                    []uint64
	ptrs                   memberPtrs
}

// memberPtrs are the first elements of the arrays of a members, as the
// kernels take them (nil when it has none).
type memberPtrs struct {
	minX, minY, maxX, maxY *float64
	key                    *uint64
}

// resize gives every array of m length n.
func (m *members) resize(n int) {
	m.minX, m.minY = grow(m.minX, n), grow(m.minY, n)
	m.maxX, m.maxY = grow(m.maxX, n), grow(m.maxY, n)
	m.key = grow(m.key, n)
	m.ptrs = memberPtrs{}
	if n > 0 {
		m.ptrs = memberPtrs{&m.minX[0], &m.minY[0], &m.maxX[0], &m.maxY[0], &m.key[0]}
	}
}

// set writes box b, of index i in the input set, as member p.
func (m *members) set(p int32, b *components.AABB, i int) {
	m.minX[p], m.minY[p], m.maxX[p], m.maxY[p] = b.Min.X, b.Min.Y, b.Max.X, b.Max.Y
	m.key[p] = uint64(i) << 32
}

// prefetch takes every member's lines for writing (see cellSet.build).
func (m *members) prefetch() {
	prefetch.WriteRows(m.minX, 0, len(m.minX))
	prefetch.WriteRows(m.minY, 0, len(m.minY))
	prefetch.WriteRows(m.maxX, 0, len(m.maxX))
	prefetch.WriteRows(m.maxY, 0, len(m.maxY))
	prefetch.WriteRows(m.key, 0, len(m.key))
}

// scanGo is scan's loop over members lo to hi-1 on a CPU without AVX2: it
// writes the pairs it keeps into buf from n on and returns the new n.
// base and minKey are the query's (scanQuery). The tests are those of the
// other build's scanGo (members_aos.go), without a branch on their outcome.
func (m *members) scanGo(lo, hi int32, a *components.AABB, base, minKey uint64, buf []Pair, n int) int {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	A, add := int32(uint32(base)), int32(base>>32)
	minX, minY, maxX, maxY, key := m.minX[lo:hi], m.minY[lo:hi], m.maxX[lo:hi], m.maxY[lo:hi], m.key[lo:hi]
	for j := range minX {
		k := key[j]
		buf[n] = Pair{A, int32(k>>32) + add}
		n += int(b2u(k >= minKey) & b2u(minX[j] <= ax1) & b2u(ax0 <= maxX[j]) &
			b2u(minY[j] <= ay1) & b2u(ay0 <= maxY[j]))
	}
	return n
}

// scanTails is the other build's scanTails (members_aos.go) over these
// arrays, for a CPU without AVX2.
func (m *members) scanTails(bounds []int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	minKey := uint64(minID) << 32
	lo := bounds[0]
	for _, hi := range bounds[1:] {
		var buf []Pair
		var n int
		dst, buf, n = reserve(dst, int(hi-lo))
		for j := hi - 1; j >= lo && m.key[j] >= minKey; j-- {
			buf[n] = Pair{A, int32(m.key[j]>>32) + add}
			n += int(b2u(m.minX[j] <= ax1) & b2u(ax0 <= m.maxX[j]) &
				b2u(m.minY[j] <= ay1) & b2u(ay0 <= m.maxY[j]))
		}
		dst = dst[:n]
		lo = hi
	}
	return dst
}
