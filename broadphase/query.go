package broadphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

const (
	// reachSlack widens a query's lower reach by this fraction of
	// |Min|+maxExtent, covering the rounding of the extents and of the
	// subtraction (each off by at most 2^-53 relative; see queryClass).
	reachSlack = 0x1p-50

	// rowCost is the cost of starting one row scan (two dependent loads,
	// usually cache misses) in units of one candidate test. It only
	// chooses between row scans and a full scan of a class; both are exact.
	rowCost = 4

	// smallClass is the member count up to which a class is scanned whole
	// without computing the query's cells: a row needs at least rowCost+1,
	// and the cell arithmetic itself costs about as much as a few tests.
	// It is the usual case for grounds and walls.
	smallClass = 8
)

// queryClass appends Pair{A, id+add} for every member of class c whose box
// overlaps a and whose id is at least minID. Duplicates are possible (two
// rows of the query hashed to overlapping bucket ranges); the caller sorts
// and dedups.
//
// Which cells can hold an overlapping box B? B sits in the cell of B.Min.
// Overlap needs B.Min.X <= a.Max.X, so cell(B.Min.X) <= cell(a.Max.X) by
// monotonicity of cellOf. It also needs a.Min.X <= B.Max.X, and
// B.Max.X <= B.Min.X + width(B) <= B.Min.X + c.maxX, so
// B.Min.X >= a.Min.X - c.maxX and cell(B.Min.X) >= cell(a.Min.X - c.maxX).
// The same holds in y. Nothing here assumes members are smaller than a
// cell, which is why the capped top level and a huge a stay exact; size
// only affects how many cells that is. The float subtraction a.Min.X -
// c.maxX, and c.maxX itself, are rounded; subtracting reachSlack*(|a.Min.X|
// + c.maxX) more moves the bound below every real value it could stand for.
func (cs *cellSet) queryClass(c *class, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	m := &cs.members
	if c.n <= smallClass {
		return m.scan(c.off, c.off+c.n, a, A, minID, add, dst)
	}
	qx := a.Min.X - c.maxX
	qx -= (math.Abs(a.Min.X) + c.maxX) * reachSlack
	qy := a.Min.Y - c.maxY
	qy -= (math.Abs(a.Min.Y) + c.maxY) * reachSlack
	xlo, xhi := cellOf(qx, c.invW), cellOf(a.Max.X, c.invW)
	ylo, yhi := cellOf(qy, c.invH), cellOf(a.Max.Y, c.invH)
	if xhi < xlo || yhi < ylo {
		return dst
	}
	w, h := xhi-xlo+1, yhi-ylo+1
	mb := int64(c.mask) + 1
	if w > mb {
		w = mb // the row wraps around the whole table
	}
	n := int64(c.n)
	if h >= n || h*(w+rowCost) >= n {
		// Visiting the rows would touch at least as much as testing every
		// member once (always so for a class of a few huge boxes).
		return m.scan(c.off, c.off+c.n, a, A, minID, add, dst)
	}
	st := cs.starts[c.base : int64(c.base)+mb+1]
	uw := uint64(w)
	if scanWide {
		// The rows go to the kernel together, in one call or a few: with a
		// call per row, circle_rain's broad phase took 0.833 ms a step on
		// one worker, against 0.797 (medians of 6 alternating runs).
		var b batch
		q := newScanQuery(a, A, minID, add)
		for cy := ylo; cy <= yhi; cy++ {
			s0 := c.rowStart(xlo, cy)
			s1 := s0 + uw
			if s1 <= uint64(mb) {
				dst = b.add(m, st[s0], st[s1], &q, dst)
			} else {
				dst = b.add(m, st[s0], st[mb], &q, dst)
				dst = b.add(m, st[0], st[s1-uint64(mb)], &q, dst)
			}
		}
		return b.flush(m, &q, dst)
	}
	for cy := ylo; cy <= yhi; cy++ {
		s0 := c.rowStart(xlo, cy)
		s1 := s0 + uw
		switch {
		case minID > 0 && s1 <= uint64(mb):
			dst = m.scanTails(st[s0:s1+1], a, A, minID, add, dst)
		case minID > 0:
			dst = m.scanTails(st[s0:mb+1], a, A, minID, add, dst)
			dst = m.scanTails(st[:s1-uint64(mb)+1], a, A, minID, add, dst)
		case s1 <= uint64(mb):
			dst = m.scan(st[s0], st[s1], a, A, minID, add, dst)
		default:
			dst = m.scan(st[s0], st[mb], a, A, minID, add, dst)
			dst = m.scan(st[0], st[s1-uint64(mb)], a, A, minID, add, dst)
		}
	}
	return dst
}

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
	n += scanRangesAVX512(&m.ptrs, &b.rg[0], b.n, q.a, q.base, q.minKey, &buf[n])
	b.n, b.total = 0, 0
	return dst[:n]
}

// scan appends the members lo to hi-1 that overlap a and whose index is at
// least minID: eight at a time with AVX-512 (scanRangesAVX512), else one
// at a time (scanGo), a block of scanBlock members at a time.
func (m *members) scan(lo, hi int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	if scanWide {
		var b batch
		q := newScanQuery(a, A, minID, add)
		dst = b.add(m, lo, hi, &q, dst)
		return b.flush(m, &q, dst)
	}
	base := uint64(uint32(A)) | uint64(uint32(add))<<32
	minKey := uint64(minID) << 32
	for lo < hi {
		// Room for a block at a time: a whole class may hold 100 000
		// members of which the query keeps none (minID past them all).
		end := min(hi, lo+scanBlock)
		var buf []Pair
		var n int
		dst, buf, n = reserve(dst, int(end-lo))
		n = m.scanGo(lo, end, a, base, minKey, buf, n)
		dst = dst[:n]
		lo = end
	}
	return dst
}

// lanes is the number of members scanAVX512 tests at a time, and the room
// it needs past the pairs it keeps: it stores a whole register of pairs.
const lanes = 8

// scanGo is scan's loop over members lo to hi-1 without AVX-512: it writes
// the pairs it keeps into buf from n on and returns the new n.
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

// scanBlock is the number of members scan makes room for at a time.
const scanBlock = 256

// scanTails is scan over the buckets whose members start at bounds[k] and
// end at bounds[k+1], for a query against the moving set (minID > 0)
// without AVX-512. The build leaves each bucket's members in ascending
// index order (its scatter runs backwards over the input), so those with
// index >= minID are the tail of each bucket: walking it from the end, the
// first index below minID ends the bucket. In a pile the indices below
// minID are about half of what a query's cells hold (58 % on a
// tumbler-like pile), and those are no longer tested at all. The AVX-512
// scan tests a row's buckets as one run instead, eight members at a time,
// the index among the tests.
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

// reserve makes room for k more pairs after dst's length, growing its
// capacity (at least doubling it) if needed, and returns dst, its whole
// capacity as buf, and its length as the next free slot.
func reserve(dst []Pair, k int) ([]Pair, []Pair, int) {
	n := len(dst)
	if cap(dst)-n < k {
		grown := make([]Pair, n, max(2*cap(dst), n+k))
		copy(grown, dst)
		dst = grown
	}
	return dst, dst[:cap(dst)], n
}

// b2u is 1 for true and 0 for false, without a branch.
func b2u(b bool) uint {
	if b {
		return 1
	}
	return 0
}
