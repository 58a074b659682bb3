package broadphase

import "github.com/tumble2d/tumble/components"

// Grid is a uniform-grid broad phase with hashed cells over an unbounded
// world, holding a moving set (rebuilt by every Update) and a frozen set
// (rebuilt by SetFrozen). Each set is a hierarchy of hashed grids: boxes
// larger than the base cell go to coarser levels, chosen separately for
// width and height, so huge or long boxes never fill many cells.
//
// Once its buffers have grown to the scene's size, Update and PairsRange
// allocate nothing (PairsRange appends into the caller's dst).
//
// Indices are int32: NumMoving plus the frozen count must stay below 2^31.
//
// A Grid is not safe for concurrent use, except that PairsRange may run in
// several goroutines at once between two calls of Update or SetFrozen.
type Grid struct {
	cellSize float64 // fixed base cell side, or <= 0 for automatic

	moving []components.AABB
	reach  []components.AABB // query boxes against the frozen set, or nil for moving
	mov    cellSet
	frz    cellSet
	frozen []components.AABB // own copy, to rebuild at a new scale
	scale  float64           // base cell side used by the last Update

	sample []float64 // scratch for autoCellSize
}

// NewGrid returns an empty grid whose base cells have side cellSize (world
// units). cellSize <= 0 means automatic: every Update sets the side to 2.5
// times (2 where no assembly kernel runs: see autoFactor) the median of
// max(width, height) over up to 255 evenly strided moving
// boxes (1 if none has a positive finite extent), and the frozen set is
// rebuilt with the moving side whenever the two differ by more than 2x, so
// that static grounds are hashed at the scale of the boxes that query them.
// Before the first Update the frozen set uses the same rule on its own
// boxes. The cell size only affects speed: the pairs are always exact.
func NewGrid(cellSize float64) *Grid {
	if !(cellSize > 0) { // NaN too
		cellSize = 0
	}
	return &Grid{cellSize: cellSize}
}

// SetFrozen replaces the frozen set (static and sleeping bodies) with a copy
// of boxes and rebuilds its structure. Its box k has index NumMoving()+k in
// the pairs. Call it only when the set changes: it costs about one Update
// of the same size.
func (g *Grid) SetFrozen(boxes []components.AABB) {
	g.frozen = append(g.frozen[:0], boxes...)
	s := g.cellSize
	if s <= 0 {
		s = g.scale
	}
	if s <= 0 {
		s, g.sample = autoCellSize(g.frozen, g.sample)
	}
	if s <= 0 {
		s = fallbackCell
	}
	g.frz.build(g.frozen, s)
}

// Update rebuilds the moving structure from moving, the boxes of the awake
// bodies for this tick. The grid keeps a reference to moving (PairsRange
// reads the query boxes from it) until the next Update, so the caller must
// not change it before then.
func (g *Grid) Update(moving []components.AABB) {
	g.UpdateReach(moving, nil)
}

// UpdateReach is Update with separate boxes for the queries against the
// frozen set: moving box i meets frozen boxes with reach[i] (len(reach) must
// be len(moving)), and other moving boxes with moving[i]. The engine grows
// reach twice as far as moving, so that a sleeping body is found, and woken,
// a step before anything can reach it, while moving bodies only meet the
// neighbours they can touch this step. nil reach is Update. The grid keeps
// a reference to both until the next update.
func (g *Grid) UpdateReach(moving, reach []components.AABB) {
	if reach != nil && len(reach) != len(moving) {
		panic("broadphase: UpdateReach: reach and moving differ in length")
	}
	g.moving, g.reach = moving, reach
	s := g.cellSize
	if s <= 0 {
		s, g.sample = autoCellSize(moving, g.sample)
		if s <= 0 { // empty: keep the previous scale
			s = g.scale
		}
		if s <= 0 {
			s = fallbackCell
		}
		if len(g.frozen) > 0 && (s > 2*g.frz.scale || 2*s < g.frz.scale) {
			g.frz.build(g.frozen, s)
		}
	}
	g.scale = s
	g.mov.build(moving, s)
}

// NumMoving returns the number of moving boxes given to the last Update,
// which is also the index of the first frozen box in the pairs.
func (g *Grid) NumMoving() int { return len(g.moving) }

// PairsRange appends to dst all overlapping pairs whose smaller index A is a
// moving box in [lo, hi), sorted by (A, B) ascending, without duplicates,
// and returns the extended slice. lo and hi are clamped to [0, NumMoving()].
// The pairs are exactly those a brute-force Overlaps test over all
// moving-moving (i < j) and moving-frozen combinations gives (with the reach
// boxes of UpdateReach for the latter), whatever the cell size; so
// concatenating the results for consecutive ranges gives the global sorted
// list. It only reads the grid: calls with disjoint ranges and their own
// dst may run concurrently after Update. Sorting and dedup
// happen in place at the end of dst, so no other scratch space is needed;
// the candidates are written there too, so dst's spare capacity beyond the
// returned pairs may be overwritten.
func (g *Grid) PairsRange(lo, hi int, dst []Pair) []Pair {
	return g.PairsRangeMarked(lo, hi, dst, nil)
}

// PairsRangeMarked is PairsRange that also marks, in the bitset near (bit i
// of word i/64, at least (NumMoving()+63)/64 words), each moving box i in
// [lo, hi) that met a frozen box. It sets those bits and clears the others
// of the range; nil near marks nothing. Calls that run at once must not
// share a word of near: give them ranges that start and end at multiples of
// 64 (or at NumMoving).
func (g *Grid) PairsRangeMarked(lo, hi int, dst []Pair, near []uint64) []Pair {
	n := len(g.moving)
	lo = max(lo, 0)
	hi = min(hi, n)
	add := int32(n)
	for i := lo; i < hi; i++ {
		a, q := &g.moving[i], &g.moving[i]
		if g.reach != nil {
			q = &g.reach[i]
		}
		A := int32(i)
		start := len(dst)
		if !hasNaN(a) { // NaN overlaps nothing
			dst = g.mov.query(a, A, A+1, 0, dst)
		}
		mid := len(dst)
		if !hasNaN(q) {
			dst = g.frz.query(q, A, 0, add, dst)
		}
		if near != nil {
			bit := uint64(1) << (i & 63)
			if len(dst) > mid {
				near[i>>6] |= bit
			} else {
				near[i>>6] &^= bit
			}
		}
		dst = sortDedupFrom(dst, start)
	}
	return dst
}

// hasNaN reports whether a coordinate of b is NaN: such a box overlaps
// nothing, as a query and as a member.
func hasNaN(b *components.AABB) bool {
	return b.Min.X != b.Min.X || b.Min.Y != b.Min.Y || b.Max.X != b.Max.X || b.Max.Y != b.Max.Y
}

// FindPairs is Update(moving) followed by PairsRange(0, len(moving), dst[:0]).
func (g *Grid) FindPairs(moving []components.AABB, dst []Pair) []Pair {
	g.Update(moving)
	return g.PairsRange(0, len(moving), dst[:0])
}

// Overlaps appends to dst every box of the grid, moving or frozen, that
// overlaps box, as pairs {0, k} with k its index in the pairs (NumMoving()+k
// for frozen box k), sorted by k without duplicates. It only reads the
// grid, like PairsRange. The engine's ray and region queries ask it.
func (g *Grid) Overlaps(box *components.AABB, dst []Pair) []Pair {
	if hasNaN(box) {
		return dst
	}
	start := len(dst)
	dst = g.mov.query(box, 0, 0, 0, dst)
	add := int32(len(g.moving))
	dst = g.frz.query(box, 0, 0, add, dst)
	dst = sortDedupFrom(dst, start)
	return dst
}

// FrozenOverlaps appends to dst the frozen boxes that overlap box, as pairs
// {A, k} with k the index of the frozen box given to SetFrozen, sorted by k
// without duplicates. It only reads the grid, like PairsRange. The engine's
// sweep of fast bodies asks it for the static bodies along a path.
func (g *Grid) FrozenOverlaps(box *components.AABB, A int32, dst []Pair) []Pair {
	if hasNaN(box) {
		return dst
	}
	start := len(dst)
	dst = g.frz.query(box, A, 0, 0, dst)
	dst = sortDedupFrom(dst, start)
	return dst
}
