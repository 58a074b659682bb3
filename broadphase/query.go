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
	if c.n <= smallClass {
		return scan(cs.entries[c.off:c.off+c.n], a, A, minID, add, dst)
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
	m := int64(c.mask) + 1
	if w > m {
		w = m // the row wraps around the whole table
	}
	n := int64(c.n)
	if h >= n || h*(w+rowCost) >= n {
		// Visiting the rows would touch at least as much as testing every
		// member once (always so for a class of a few huge boxes).
		return scan(cs.entries[c.off:c.off+c.n], a, A, minID, add, dst)
	}
	st := cs.starts[c.base : int64(c.base)+m+1]
	es := cs.entries
	uw := uint64(w)
	for cy := ylo; cy <= yhi; cy++ {
		s0 := c.rowStart(xlo, cy)
		s1 := s0 + uw
		if minID > 0 {
			if s1 <= uint64(m) {
				dst = scanTails(st[s0:s1+1], es, a, A, minID, add, dst)
			} else {
				dst = scanTails(st[s0:m+1], es, a, A, minID, add, dst)
				dst = scanTails(st[:s1-uint64(m)+1], es, a, A, minID, add, dst)
			}
		} else if s1 <= uint64(m) {
			dst = scan(es[st[s0]:st[s1]], a, A, minID, add, dst)
		} else {
			dst = scan(es[st[s0]:st[m]], a, A, minID, add, dst)
			dst = scan(es[st[0]:st[s1-uint64(m)]], a, A, minID, add, dst)
		}
	}
	return dst
}

// scan appends the overlapping members of es with id >= minID.
//
// It has no branch on the outcome of a test: the candidate is written to
// the next free slot every time and the slot is kept only if it overlaps
// (Go turns b2u into SETcc, and the & of the five flags needs no jump).
// In a pile about one tested member in five overlaps, in no pattern a
// branch predictor can learn, so the short-circuit && mispredicted on
// most members: BenchmarkQueryDensePile went from 277 to 185 ns a body
// with this and scanTails together, the other benchmarks by 0-10 %.
func scan(es []entry, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	for len(es) > 0 {
		// Room for a block at a time: a whole class may hold 100 000
		// members of which the query keeps none (minID past them all).
		blk := es[:min(len(es), scanBlock)]
		es = es[len(blk):]
		var buf []Pair
		var n int
		dst, buf, n = reserve(dst, len(blk))
		for i := range blk {
			e := &blk[i]
			buf[n] = Pair{A, e.id + add}
			n += int(b2u(e.id >= minID) & b2u(e.box.Min.X <= ax1) & b2u(ax0 <= e.box.Max.X) &
				b2u(e.box.Min.Y <= ay1) & b2u(ay0 <= e.box.Max.Y))
		}
		dst = dst[:n]
	}
	return dst
}

// scanBlock is the number of members scan makes room for at a time.
const scanBlock = 256

// scanTails is scan over the buckets whose entries start at bounds[k] and
// end at bounds[k+1], for a query against the moving set (minID > 0). The
// build leaves each bucket's members in ascending id order (its scatter
// runs backwards over the input), so the members with id >= minID are the
// tail of each bucket: walking it from the end, the first id below minID
// ends the bucket. In a pile the ids below minID are about half of what a
// query's cells hold (58 % on a tumbler-like pile), and those are no
// longer tested at all.
func scanTails(bounds []int32, es []entry, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
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
