package broadphase

import (
	"math"
	"math/bits"

	"github.com/tumble2d/tumble/components"
)

const (
	// levelRatio is the growth of the cell side from one level to the
	// next. A box goes to the lowest level whose side is at least its
	// extent, so within a level extents vary by at most this factor and a
	// query sees at most (e_query+side)/side+1 cells per axis of it. 4 keeps
	// that spread small while 16 levels still reach 4^15 ~ 1e9 base cells.
	levelRatio = 4

	// numLevels is the number of levels per axis. Boxes too big for the
	// last level still go there: queries stay exact because they use the
	// largest member extent, and the full-scan fallback keeps them cheap.
	numLevels = 16

	// noClass marks a box that overlaps nothing (a NaN coordinate).
	noClass = math.MaxUint16

	// cellLimit clamps cell coordinates so that infinite or enormous
	// coordinates stay representable and differences of two cells never
	// overflow. Clamping is monotone, which is all exactness needs.
	cellLimit = 1 << 50

	// hashMul is 2^64/phi. Rows go to bucket (cy*hashMul>>shift + cx) mod
	// M: a Fibonacci hash of the row plus the column, so the cells of one
	// row are consecutive buckets and a row of a query is one contiguous
	// range of the bucket array, while consecutive rows land far apart.
	hashMul = 0x9E3779B97F4A7C15

	// bucketsPerBox sets the table size M = nextPow2(bucketsPerBox*n) of a
	// class. Different cells that share a bucket only cost extra candidate
	// tests; with ~4 boxes per non-empty cell, 2 gives a load of about 1/8.
	bucketsPerBox = 2
)

// Level schemes. Only hierAniso is used by Grid; the other two exist so the
// benchmarks can show what the hierarchy buys (see bench_test.go).
const (
	hierAniso = iota // separate levels for width and height
	hierIso          // one level from max(width, height): square cells
	flat             // everything in the base level
)

// class holds the boxes whose (width level, height level) is (lx, ly):
// cells of side base*4^lx by base*4^ly, hashed into its own M buckets.
type class struct {
	lx, ly     uint8
	invW, invH float64 // 1/cell width, 1/cell height
	maxX, maxY float64 // largest member width and height
	base       int32   // first bucket of this class in cellSet.starts
	mask       uint64  // M-1
	shift      uint    // 64-log2(M): Fibonacci hash of the row
	off, n     int32   // members are off to off+n-1
}

// cellSet is one hashed, hierarchical uniform grid over a set of boxes. Each
// box is stored once, in the cell holding its lower-left corner, in the
// class fitting its size, so a query never meets the same box twice except
// through hash collisions between rows (removed by the per-A dedup).
type cellSet struct {
	scale   float64 // base cell side
	mode    int     // hierAniso, hierIso or flat
	classes []class
	classIx [numLevels * numLevels]uint16 // class index+1 by lx*numLevels+ly; 0 = none
	members members
	starts  []int32 // bucket b holds members starts[b] to starts[b+1]-1

	cls    []uint16 // per input box: its class as pass 1 found it, or noClass
	bucket []int32  // per input box: its global bucket

	// The classes of at most smallClass members come first, and their
	// members are the first few: a query scans those once, as one
	// run, before the other classes' cells (query). In circle_rain every
	// body's query met the floor and the two walls, three classes of one
	// member, through three calls: as one run, BenchmarkQueryOpenBox went
	// from 833 to 773 us (benchstat, 12 alternating runs, p = 0.012).
	small, smallEntries int32
	order               []uint16 // class index by pass 1's index
	scratch             []class
}

// levelOf returns the lowest level whose cell side s*4^k is at least e.
func levelOf(e, s float64) int {
	k := 0
	for e > s && k < numLevels-1 {
		s *= levelRatio
		k++
	}
	return k
}

// cellSide returns the cell side s*4^level, capped at the largest float so
// that its inverse stays positive: cellOf is monotone only for inv > 0 (an
// inverse of 0 would send +Inf, as 0*Inf = NaN, below every finite value).
func cellSide(s float64, level uint8) float64 {
	return math.Min(s*math.Pow(levelRatio, float64(level)), math.MaxFloat64)
}

// cellOf maps coordinate v to a cell index for a cell of side 1/inv. It is
// monotone in v (rounding, floor and clamping all are), which is the only
// property the query derivation in query.go relies on. NaN goes to the
// lowest cell: only query lower bounds can be NaN, and lower is safe there.
func cellOf(v, inv float64) int64 {
	f := v * inv
	if !(f >= -cellLimit) {
		return -cellLimit
	}
	if f > cellLimit {
		return cellLimit
	}
	return int64(math.Floor(f))
}

// rowStart returns the class-local bucket of cell (cx, cy).
func (c *class) rowStart(cx, cy int64) uint64 {
	return (uint64(cy)*hashMul>>c.shift + uint64(cx)) & c.mask
}

// build replaces the content of cs with boxes, using base cell side s. It
// is a counting sort of the boxes by global bucket: one pass to classify,
// one to count, a prefix sum, and a backward scatter that leaves each
// bucket's boxes in ascending index order. All buffers are reused.
func (cs *cellSet) build(boxes []components.AABB, s float64) {
	for _, c := range cs.classes {
		cs.classIx[int(c.lx)*numLevels+int(c.ly)] = 0
	}
	cs.classes = cs.classes[:0]
	cs.scale = s
	n := len(boxes)
	cs.cls = grow(cs.cls, n)
	cs.bucket = grow(cs.bucket, n)

	// Pass 1: classify, and gather member counts and largest extents.
	for i := range boxes {
		b := &boxes[i]
		if hasNaN(b) {
			cs.cls[i] = noClass
			continue
		}
		// Inverted boxes (and Inf-Inf = NaN) get extent 0: their Min is
		// then above their Max, which keeps Min >= Max - extent true.
		ex, ey := b.Max.X-b.Min.X, b.Max.Y-b.Min.Y
		if !(ex >= 0) {
			ex = 0
		}
		if !(ey >= 0) {
			ey = 0
		}
		lx, ly := 0, 0
		if ex > s || ey > s {
			switch cs.mode {
			case hierAniso:
				lx, ly = levelOf(ex, s), levelOf(ey, s)
			case hierIso:
				lx = levelOf(math.Max(ex, ey), s)
				ly = lx
			}
		}
		k := lx*numLevels + ly
		ci := cs.classIx[k]
		if ci == 0 {
			cs.classes = append(cs.classes, class{lx: uint8(lx), ly: uint8(ly)})
			ci = uint16(len(cs.classes))
			cs.classIx[k] = ci
		}
		c := &cs.classes[ci-1]
		c.n++
		if ex > c.maxX {
			c.maxX = ex
		}
		if ey > c.maxY {
			c.maxY = ey
		}
		cs.cls[i] = ci - 1
	}

	cs.smallFirst()

	// Lay the classes out one after the other, in members and in buckets.
	var off, nb int32
	for i := range cs.classes {
		c := &cs.classes[i]
		m := 1 << bits.Len(uint(bucketsPerBox*c.n-1)) // n >= 1, so m >= 2
		c.off, c.base = off, nb
		c.mask = uint64(m - 1)
		c.shift = uint(64 - bits.TrailingZeros(uint(m)))
		c.invW = 1 / cellSide(s, c.lx)
		c.invH = 1 / cellSide(s, c.ly)
		off += c.n
		nb += int32(m)
	}
	cs.members.resize(int(off))
	cs.starts = grow(cs.starts, int(nb)+1)
	clear(cs.starts)

	// Pass 2: bucket of each box, and bucket sizes.
	st := cs.starts
	for i := range boxes {
		ci := cs.cls[i]
		if ci == noClass {
			continue
		}
		c := &cs.classes[cs.order[ci]]
		b := &boxes[i]
		g := c.base + int32(c.rowStart(cellOf(b.Min.X, c.invW), cellOf(b.Min.Y, c.invH)))
		cs.bucket[i] = g
		st[g]++
	}
	// Inclusive prefix sum: starts[g] becomes the end of bucket g ...
	var sum int32
	for g := range nb {
		sum += st[g]
		st[g] = sum
	}
	st[nb] = sum
	// ... and the backward scatter decrements it down to the start. Its
	// stores land in bucket order, all over the members, which the last
	// tick's queries read (on 2 workers, on both cores): each waited for
	// its line. Write prefetches of the whole array first, in memory order,
	// let the lines come together. The scatter went from 0.055 to 0.046 ms
	// a step of large_pyramid on 1 worker and from 0.09 to 0.07 on 2 (at
	// a 1 us round trip), mixed_pile's from 0.115 to 0.095 and 0.17 to
	// 0.15, and at 40 000 bodies (1.6 MB of members) from 0.41-0.44 to
	// 0.35-0.36.
	m := &cs.members
	m.prefetch()
	for i := n - 1; i >= 0; i-- {
		if cs.cls[i] == noClass {
			continue
		}
		g := cs.bucket[i]
		p := st[g] - 1
		st[g] = p
		m.set(p, &boxes[i], i)
	}
}

// smallFirst puts the classes of at most smallClass members before the
// others, each group in the order pass 1 found them, and records in order
// where each went, and in small and smallEntries how many classes and
// members the small ones are. The order of the classes changes no pair:
// every member is still met once, by its class's scan or cells.
func (cs *cellSet) smallFirst() {
	n := len(cs.classes)
	cs.order = grow(cs.order, n)
	cs.scratch = append(cs.scratch[:0], cs.classes...)
	cs.classes = cs.classes[:0]
	cs.smallEntries = 0
	for pass := range 2 {
		for i := range cs.scratch {
			c := &cs.scratch[i]
			if small := c.n <= smallClass; small == (pass == 0) {
				cs.order[i] = uint16(len(cs.classes))
				cs.classes = append(cs.classes, *c)
				if small {
					cs.smallEntries += c.n
				}
			}
		}
		if pass == 0 {
			cs.small = int32(len(cs.classes))
		}
	}
}

// query appends Pair{A, id+add} for every member of the set whose box
// overlaps a and whose id is at least minID, in no particular order and
// with possible repeats (see queryClass): the small classes' members as one
// run, then each other class by its cells.
func (cs *cellSet) query(a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	if cs.smallEntries > 0 {
		dst = cs.members.scan(0, cs.smallEntries, a, A, minID, add, dst)
	}
	for k := cs.small; k < int32(len(cs.classes)); k++ {
		dst = cs.queryClass(&cs.classes[k], a, A, minID, add, dst)
	}
	return dst
}

// grow returns s with length n, reallocating only when its capacity is too
// small (at twice n, so a slowly growing set reallocates a logarithmic
// number of times).
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n, 2*n)
}
