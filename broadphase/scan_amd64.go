//go:build amd64 && !purego

package broadphase

import (
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/internal/cpu"
)

// scanWide reports whether scan runs an assembly kernel: scanRangesAVX512
// where the CPU may run it (cpu.AVX512), else scanRangesAVX2 (cpu.AVX2).
var scanWide = cpu.AVX2

// scan512 chooses scanRangesAVX512 over scanRangesAVX2.
var scan512 = cpu.AVX512

// scanRangesAVX512 tests the members of the nr ranges at rg (first member,
// end) of the arrays at m against the query box a, eight at a time, and
// stores at dst the key+base of each one that overlaps a and whose key is
// at least minKey, in range and member order; it returns how many it kept.
// It stores whole registers: dst must have room for the kept pairs plus 8.
// The tests are scanGo's, with the same outcome for every member (ordered
// comparisons, false on NaN, as Go's <=).
//
//go:noescape
func scanRangesAVX512(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int

// scanRangesAVX2 is scanRangesAVX512 four members at a time, for CPUs with
// AVX2 and without AVX-512. It stores whole registers of four pairs.
//
//go:noescape
func scanRangesAVX2(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int

// lanes is the number of members scanRangesAVX512 tests at a time, and the
// room the kernels need past the pairs they keep: they store whole
// registers of pairs (eight, or four with AVX2).
const lanes = 8

// scanQuery is a query as the kernel takes it: the box, and the Pair and
// the least index as the keys' uint64s (see members).
type scanQuery struct {
	a            *components.AABB
	base, minKey uint64
}

func newScanQuery(a *components.AABB, A, minID, add int32) scanQuery {
	return scanQuery{a, uint64(uint32(A)) | uint64(uint32(add))<<32, uint64(minID) << 32}
}

// batch gathers member ranges for one call of the kernel, up to
// batchRanges ranges of scanBlock members in all.
type batch struct {
	rg    [batchRanges][2]int32
	n     int
	total int32
}

// batchRanges is the number of ranges a batch holds: a query's rows of one
// class are usually two to four.
const batchRanges = 8

// add appends the members lo to hi-1 to b, cut where b is full, and runs
// the kernel on b each time it fills.
func (b *batch) add(m *members, lo, hi int32, q *scanQuery, dst []Pair) []Pair {
	for lo < hi {
		end := min(hi, lo+scanBlock-b.total)
		b.rg[b.n] = [2]int32{lo, end}
		b.n++
		b.total += end - lo
		lo = end
		if b.total == scanBlock || b.n == batchRanges {
			dst = b.flush(m, q, dst)
		}
	}
	return dst
}

// flush runs the kernel on b's ranges, appending the pairs kept to dst,
// and empties b.
func (b *batch) flush(m *members, q *scanQuery, dst []Pair) []Pair {
	if b.n == 0 {
		return dst
	}
	dst, buf, n := reserve(dst, int(b.total)+lanes)
	if scan512 {
		n += scanRangesAVX512(&m.ptrs, &b.rg[0], b.n, q.a, q.base, q.minKey, &buf[n])
	} else {
		n += scanRangesAVX2(&m.ptrs, &b.rg[0], b.n, q.a, q.base, q.minKey, &buf[n])
	}
	b.n, b.total = 0, 0
	return dst[:n]
}

// rowsWide is queryClass's walk over the rows ylo to yhi of class c, each
// w buckets from column xlo (st holds the class's bucket starts), for the
// kernels. The rows go to the kernel together, in one call or a few: with
// a call per row, circle_rain's broad phase took 0.833 ms a step on one
// worker, against 0.797 (medians of 6 alternating runs). The kernel tests
// the members below minID too, masked, rather than skipping them bucket by
// bucket as scanTails does.
func (cs *cellSet) rowsWide(c *class, st []int32, xlo, ylo, yhi int64, w uint64, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	m := &cs.members
	mb := uint64(len(st) - 1)
	var b batch
	q := newScanQuery(a, A, minID, add)
	for cy := ylo; cy <= yhi; cy++ {
		s0 := c.rowStart(xlo, cy)
		s1 := s0 + w
		if s1 <= mb {
			dst = b.add(m, st[s0], st[s1], &q, dst)
		} else {
			dst = b.add(m, st[s0], st[mb], &q, dst)
			dst = b.add(m, st[0], st[s1-mb], &q, dst)
		}
	}
	return b.flush(m, &q, dst)
}

// scanKernel is scan through the kernels (scanWide is set).
func (m *members) scanKernel(lo, hi int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	var b batch
	q := newScanQuery(a, A, minID, add)
	dst = b.add(m, lo, hi, &q, dst)
	return b.flush(m, &q, dst)
}
