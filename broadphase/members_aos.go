//go:build !amd64 || purego

package broadphase

import (
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/internal/prefetch"
)

// members holds the boxes of a set in bucket order, each whole with its
// index in the input set: without the assembly kernels (members_soa.go) a
// query tests one member at a time, and one member is then one line. In
// arrays per field it read five, and the grid's query benchmarks took 7-22 %
// longer.
type members struct {
	es []entry
}

// entry is a box copied into bucket order, with its index in the input set.
type entry struct {
	box components.AABB
	id  int32
}

// resize gives m length n.
func (m *members) resize(n int) { m.es = grow(m.es, n) }

// set writes box b, of index i in the input set, as member p.
func (m *members) set(p int32, b *components.AABB, i int) { m.es[p] = entry{*b, int32(i)} }

// prefetch takes every member's lines for writing (see cellSet.build).
func (m *members) prefetch() { prefetch.WriteRows(m.es, 0, len(m.es)) }

// scanGo is scan's loop over members lo to hi-1: it writes the pairs it
// keeps into buf from n on and returns the new n. base and minKey are the
// query's A and offset, and its least index, as in the kernel build:
// base = A | add<<32, minKey = minID<<32.
//
// It has no branch on the outcome of a test: the candidate is written to
// the next free slot every time and the slot is kept only if it overlaps
// (Go turns b2u into SETcc, and the & of the five flags needs no jump).
// In a pile about one tested member in five overlaps, in no pattern a
// branch predictor can learn, so the short-circuit && mispredicted on
// most members: BenchmarkQueryDensePile went from 277 to 185 ns a body
// with this and scanTails together, the other benchmarks by 0-10 %.
func (m *members) scanGo(lo, hi int32, a *components.AABB, base, minKey uint64, buf []Pair, n int) int {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	A, add, minID := int32(uint32(base)), int32(base>>32), int32(minKey>>32)
	for i := range m.es[lo:hi] {
		e := &m.es[int(lo)+i]
		buf[n] = Pair{A, e.id + add}
		n += int(b2u(e.id >= minID) & b2u(e.box.Min.X <= ax1) & b2u(ax0 <= e.box.Max.X) &
			b2u(e.box.Min.Y <= ay1) & b2u(ay0 <= e.box.Max.Y))
	}
	return n
}

// scanTails is scan over the buckets whose members start at bounds[k] and
// end at bounds[k+1], for a query against the moving set (minID > 0). The
// build leaves each bucket's members in ascending index order (its scatter
// runs backwards over the input), so those with index >= minID are the
// tail of each bucket: walking it from the end, the first index below
// minID ends the bucket. In a pile the indices below minID are about half
// of what a query's cells hold (58 % on a tumbler-like pile), and those are
// no longer tested at all.
func (m *members) scanTails(bounds []int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	es := m.es
	lo := bounds[0]
	for _, hi := range bounds[1:] {
		var buf []Pair
		var n int
		dst, buf, n = reserve(dst, int(hi-lo))
		for j := hi - 1; j >= lo && es[j].id >= minID; j-- {
			e := &es[j]
			buf[n] = Pair{A, e.id + add}
			n += int(b2u(e.box.Min.X <= ax1) & b2u(ax0 <= e.box.Max.X) &
				b2u(e.box.Min.Y <= ay1) & b2u(ay0 <= e.box.Max.Y))
		}
		dst = dst[:n]
		lo = hi
	}
	return dst
}
