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
		return cs.rowsWide(c, st, xlo, ylo, yhi, uw, a, A, minID, add, dst)
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

// scan appends the members lo to hi-1 that overlap a and whose index is at
// least minID: eight or four at a time where the CPU has AVX-512 or AVX2
// (scanWide, scan_amd64.go), else one at a time (scanGo), a block of
// scanBlock members at a time.
func (m *members) scan(lo, hi int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	if scanWide {
		return m.scanKernel(lo, hi, a, A, minID, add, dst)
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

// scanBlock is the number of members scan makes room for at a time.
const scanBlock = 256

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
