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
		if s1 <= uint64(m) {
			dst = scan(es[st[s0]:st[s1]], a, A, minID, add, dst)
		} else {
			dst = scan(es[st[s0]:st[m]], a, A, minID, add, dst)
			dst = scan(es[st[0]:st[s1-uint64(m)]], a, A, minID, add, dst)
		}
	}
	return dst
}

// scan appends the overlapping members of es with id >= minID.
func scan(es []entry, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	ax0, ay0, ax1, ay1 := a.Min.X, a.Min.Y, a.Max.X, a.Max.Y
	for i := range es {
		e := &es[i]
		if e.id >= minID && e.box.Min.X <= ax1 && ax0 <= e.box.Max.X && e.box.Min.Y <= ay1 && ay0 <= e.box.Max.Y {
			dst = append(dst, Pair{A, e.id + add})
		}
	}
	return dst
}
