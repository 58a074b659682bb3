package systems

import (
	"cmp"
	"math"
	"slices"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
)

// The walk of a ray through the query index.
//
// Cutting a ray into pieces of a few body sizes and asking the grid for
// each piece's box cost a grid lookup per piece, in empty space too: a
// 5 km ray past 10 000 bodies of 5 cm took 0.86 ms, and one past a cluster
// of 1 000 bodies of 2 mm, 28 ms (a review's probes). So a ray walks a
// loose pyramid of coarse cells from the top down (Amanatides and Woo's
// traversal at each level): level 0 has cells of eight median body sizes,
// each level above cells eight times as wide. Each body has a home level,
// the lowest at which its box reaches at most 2 x 2 cells; those cells are
// marked home, and every cell above them marked below. A cell is a key of
// a hash set with its marks, and a cell above level 0 with the rows homed
// in it. In a level-0 home cell the walk looks, in the fine grid, at the
// part of the ray in the cell; in a higher one it tests the rows homed
// there, and goes down into a cell marked below. It stops at the first
// cell that ends beyond the nearest hit found (a hit point lies in the box
// of its body, so in a cell the walk has visited). Asking the fine grid
// about the part of a ray in a high home cell (a 200 m ground's, 307 m
// wide) met every body near the ray: a ray took 15 us instead of 2.
// Large bodies home high up, so a long ground among small boxes costs a
// few marks, not thousands: with one level for all, bodies of 1.1 m among
// circles of 1 cm marked 225 cells each (a review's probe: 419 MB of
// marks). The static and sleeping bodies' marks are a set of their own,
// made anew only with their rows; the moving bodies' in each tick that
// casts a ray.

// rayLevels is the number of levels of the pyramid: from cells of eight
// median body sizes to cells 8^15 times as wide.
const rayLevels = 16

// walkSteps bounds the cells one level's walk visits before it asks the
// fine grid about the rest of its part of the ray at once.
const walkSteps = 1 << 16

// The marks of a cell.
const (
	cellHome  uint8 = 1 // a body homed at this level reaches it: look here
	cellBelow uint8 = 2 // a body homed below reaches it: go down
)

// cellKey is a cell: its level, column and row.
type cellKey struct {
	ix, iy int64
	level  int64
}

// cellMarks is an open-addressing hash set of cells with their marks, and,
// for the home cells above level 0, the rows homed there.
type cellMarks struct {
	keys  []cellKey
	marks []uint8    // 0: an empty slot
	spans [][2]int32 // rows[span[0]:span[1]] are homed in the slot's cell above level 0
	rows  []int32
	n     int
	mask  uint64
	homes []cellRow // scratch: the homes above level 0, to sort into rows
}

// cellRow is a row homed in a cell above level 0.
type cellRow struct {
	k   cellKey
	row int32
}

// reset empties the set and sizes it for about hint cells, or keeps the
// size it grew to: sized afresh, it grew again, into new arrays, each time.
func (s *cellMarks) reset(hint int) {
	size := 16
	for size < 2*hint {
		size *= 2
	}
	if cap(s.marks) >= size {
		size = cap(s.marks)
	} else {
		s.keys, s.marks, s.spans = make([]cellKey, size), make([]uint8, size), make([][2]int32, size)
	}
	s.keys, s.marks, s.spans = s.keys[:size], s.marks[:size], s.spans[:size]
	clear(s.marks)
	clear(s.spans)
	s.n, s.mask = 0, uint64(size-1)
	s.rows, s.homes = s.rows[:0], s.homes[:0]
}

func (s *cellMarks) slot(k cellKey) uint64 {
	h := uint64(k.ix)*0x9E3779B97F4A7C15 ^ uint64(k.iy)*0xC2B2AE3D27D4EB4F ^ uint64(k.level)*0x165667B19E3779F9
	return (h ^ h>>29) & s.mask
}

// find returns the slot of cell k, or -1.
func (s *cellMarks) find(k cellKey) int {
	for i := s.slot(k); s.marks[i] != 0; i = (i + 1) & s.mask {
		if s.keys[i] == k {
			return int(i)
		}
	}
	return -1
}

// home lists row as homed in cell k, above level 0; list files them.
func (s *cellMarks) home(k cellKey, row int32) { s.homes = append(s.homes, cellRow{k, row}) }

// list sorts the homes above level 0 by cell into rows, and gives each
// cell its span of them.
func (s *cellMarks) list() {
	slices.SortFunc(s.homes, func(a, b cellRow) int {
		switch {
		case a.k.level != b.k.level:
			return cmp.Compare(a.k.level, b.k.level)
		case a.k.ix != b.k.ix:
			return cmp.Compare(a.k.ix, b.k.ix)
		case a.k.iy != b.k.iy:
			return cmp.Compare(a.k.iy, b.k.iy)
		}
		return cmp.Compare(a.row, b.row)
	})
	for i := 0; i < len(s.homes); {
		j := i
		for j < len(s.homes) && s.homes[j].k == s.homes[i].k {
			s.rows = append(s.rows, s.homes[j].row)
			j++
		}
		s.spans[s.find(s.homes[i].k)] = [2]int32{int32(len(s.rows) - (j - i)), int32(len(s.rows))}
		i = j
	}
}

// mark adds marks m to cell k and reports whether k was not in the set.
func (s *cellMarks) mark(k cellKey, m uint8) bool {
	if 2*(s.n+1) > len(s.marks) {
		s.grow()
	}
	i := s.slot(k)
	for s.marks[i] != 0 {
		if s.keys[i] == k {
			s.marks[i] |= m
			return false
		}
		i = (i + 1) & s.mask
	}
	s.keys[i], s.marks[i] = k, m
	s.n++
	return true
}

// grow doubles the set (before list gives the spans).
func (s *cellMarks) grow() {
	keys, marks := s.keys, s.marks
	s.keys, s.marks, s.spans = make([]cellKey, 2*len(keys)), make([]uint8, 2*len(marks)), make([][2]int32, 2*len(marks))
	s.mask = uint64(len(s.marks) - 1)
	for i, m := range marks {
		if m != 0 {
			j := s.slot(keys[i])
			for s.marks[j] != 0 {
				j = (j + 1) & s.mask
			}
			s.keys[j], s.marks[j] = keys[i], m
		}
	}
}

// rayGrid is the pyramid of the rays: its levels' cell sizes, and the
// marks of the frozen and of the moving rows.
type rayGrid struct {
	built    bool // the moving rows' marks are this tick's
	levels   int  // the levels a walk starts below: enough to span the bounds
	cell     [rayLevels]float64
	inv      [rayLevels]float64
	frz, mov cellMarks
	// frzBuild is the query index's frozen build that frz marks (see
	// queryIndex.frzBuilds); frzOK is false until one is marked.
	frzBuild uint64
	frzOK    bool
	frzMarks int // how many times the frozen marks were made (for tests)
	// The rows too big for the top level, which every ray tests: moving
	// rows, and frozen rows by their index among the frozen ones.
	big, bigFrz []int32
	// The highest home level of the frozen and of the moving rows: the walk
	// starts at or above both.
	topFrz, topMov int
	fresh          [rayLevels][]cellKey // scratch: the cells newly marked, by level
	scale          []float64            // scratch for the median
}

// cellOf returns the cell of coordinate v at level l, clamped as the broad
// phase's cells are.
func (g *rayGrid) cellOf(v float64, l int) int64 {
	f := math.Floor(v * g.inv[l])
	if !(f >= -(1 << 50)) {
		return -(1 << 50)
	}
	return int64(min(f, 1<<50))
}

// home returns the home level of box and the cells it reaches there, or
// level -1 for a box too big (or too far) for the top level.
func (g *rayGrid) home(box components.AABB) (l int, x0, y0, x1, y1 int64) {
	box = widen(box)
	for l = 0; l < rayLevels; l++ {
		x0, y0 = g.cellOf(box.Min.X, l), g.cellOf(box.Min.Y, l)
		x1, y1 = g.cellOf(box.Max.X, l), g.cellOf(box.Max.Y, l)
		// Not where a cell is clamped: a box beyond 2^50 cells sat in the
		// corner cell, and the marks above it were far from the box.
		if x1-x0 < 2 && y1-y0 < 2 && max(-x0, -y0, x1, y1) < 1<<50 {
			return l, x0, y0, x1, y1
		}
	}
	return -1, 0, 0, 0, 0
}

// markRows marks in s the homes of rows [lo, hi) of the index, and the
// cells above them, lists in big those too big (by row - lo), and returns
// the highest home level.
func (g *rayGrid) markRows(s *cellMarks, q *queryIndex, lo, hi int, big []int32) ([]int32, int) {
	s.reset(hi - lo)
	top := 0
	for l := range g.fresh {
		g.fresh[l] = g.fresh[l][:0]
	}
	for i := lo; i < hi; i++ {
		rows, j := q.row(int32(i))
		l, x0, y0, x1, y1 := g.home(rows.aabbs[j])
		if l < 0 {
			big = append(big, int32(i-lo))
			continue
		}
		top = max(top, l)
		for ix := x0; ix <= x1; ix++ {
			for iy := y0; iy <= y1; iy++ {
				k := cellKey{ix, iy, int64(l)}
				if s.mark(k, cellHome) {
					g.fresh[l] = append(g.fresh[l], k)
				}
				if l > 0 {
					s.home(k, int32(i-lo))
				}
			}
		}
	}
	// A cell's parent holds it: floor(i / 8) of its column and row, which
	// an arithmetic shift gives for negative ones too. Only the cells new
	// to the set need their parents marked: the others' already are.
	for l := 0; l+1 < rayLevels; l++ {
		for _, k := range g.fresh[l] {
			if p := (cellKey{k.ix >> 3, k.iy >> 3, int64(l + 1)}); s.mark(p, cellBelow) {
				g.fresh[l+1] = append(g.fresh[l+1], p)
			}
		}
	}
	s.list()
	return big, top
}

// build makes the tick's moving marks, and the frozen marks if the frozen
// rows or the cell sizes changed. The cell size follows the median body,
// but is kept while that stays within a factor of 2 of it, so that the
// frozen marks are kept with it.
func (g *rayGrid) build(q *queryIndex) {
	g.built = true
	n := q.rows()
	g.scale = g.scale[:0]
	stride := max(1, n/255)
	for i := 0; i < n; i += stride {
		rows, j := q.row(int32(i))
		sz := rows.aabbs[j].Size()
		g.scale = append(g.scale, max(sz.X, sz.Y))
	}
	slices.Sort(g.scale)
	sz := q.bounds.Size()
	world := max(sz.X, sz.Y)
	c := 8 * g.scale[len(g.scale)/2]
	if !(c > 0) || math.IsInf(c, 0) || !(world < math.Inf(1)) {
		c = max(world, 1) / 1024
	}
	if !g.frzOK || !(c <= 2*g.cell[0] && 2*c >= g.cell[0]) {
		g.frzOK = false
		for l := range rayLevels {
			g.cell[l] = c * math.Pow(8, float64(l))
			g.inv[l] = 1 / g.cell[l]
		}
	}
	nm := len(q.mov.ents)
	if !g.frzOK || g.frzBuild != q.frzBuilds {
		g.bigFrz, g.topFrz = g.markRows(&g.frz, q, nm, n, g.bigFrz[:0])
		g.frzBuild, g.frzOK = q.frzBuilds, true
		g.frzMarks++
	}
	g.big, g.topMov = g.markRows(&g.mov, q, 0, nm, g.big[:0])
	// The walk starts where a cell spans a quarter of the bounds, or at the
	// highest home, whichever is higher: below a home, the walk would not
	// see it.
	g.levels = max(g.topFrz, g.topMov) + 1
	for g.levels < rayLevels && g.cell[g.levels-1] < world/4 {
		g.levels++
	}
}

// rayCast is one CastRay.
type rayCast struct {
	p                   *Physics
	q                   *queryIndex
	origin, translation components.Vec2
	accept              func(arche.Entity) bool
	best                RayHit
	found               bool
	bestRow             int32
	// The walk goes along the part of the segment within the bounds, from
	// start by span, at fractions s of it: u0 + s (u1 - u0) of the whole.
	start, span components.Vec2
	u0, du      float64
	margin      float64 // the rounding of a point of the segment
}

// test tests row i against the ray.
func (c *rayCast) test(i int32) {
	if c.found && i == c.bestRow {
		return
	}
	rows, j := c.q.row(i)
	t, n, ok := narrowphase.RayCast(rows.shapes[j], rows.xfs[j], c.origin, c.translation)
	if !ok || c.found && (t > c.best.Fraction || t == c.best.Fraction && i > c.bestRow) {
		return
	}
	e := rows.ents[j]
	if !ecs.IsBody(c.p.world, e) || c.accept != nil && !c.accept(e) {
		return
	}
	c.found, c.bestRow = true, i
	c.best = RayHit{Entity: e, Point: c.origin.Add(c.translation.Scale(t)), Normal: n, Fraction: t}
}

// look tests the rows whose boxes reach the part of the walk between its
// fractions a and b.
func (c *rayCast) look(a, b float64) {
	pa, pb := c.start.Add(c.span.Scale(a)), c.start.Add(c.span.Scale(b))
	box := widen(components.AABB{Min: pa.Min(pb), Max: pa.Max(pb)}).Expand(c.margin)
	for _, pr := range c.q.candidates(box) {
		c.test(pr.B)
	}
}

// done reports whether the nearest hit is found once the walk has passed
// its fraction s.
func (c *rayCast) done(s float64) bool {
	return c.found && c.best.Fraction <= c.u0+s*c.du
}

// run finds the first hit: the big bodies, then the walk.
func (c *rayCast) run() {
	q := c.q
	g := &q.rays
	if !g.built {
		g.build(q)
	}
	for _, i := range g.big {
		c.test(i)
	}
	nm := int32(len(q.mov.ents))
	for _, j := range g.bigFrz {
		c.test(nm + j)
	}
	// The part of the segment within the bodies' bounds (Liang-Barsky):
	// nothing lies outside it. A point of the segment is off by about its
	// coordinates' size times the rounding, which a ray from 1000 km away
	// makes larger than the bounds' own: both widen the bounds.
	o, d := c.origin, c.translation
	c.margin = slack * (math.Abs(o.X) + math.Abs(o.Y) + math.Abs(d.X) + math.Abs(d.Y))
	bounds := widen(q.bounds).Expand(c.margin)
	u0, u1 := 0.0, 1.0
	for axis := 0; axis < 2; axis++ {
		oi, di, lo, hi := o.X, d.X, bounds.Min.X, bounds.Max.X
		if axis == 1 {
			oi, di, lo, hi = o.Y, d.Y, bounds.Min.Y, bounds.Max.Y
		}
		if di == 0 {
			if oi < lo || oi > hi {
				return
			}
			continue
		}
		a, b := (lo-oi)/di, (hi-oi)/di
		if a > b {
			a, b = b, a
		}
		u0, u1 = max(u0, a), min(u1, b)
	}
	if u0 > u1 || c.found && c.best.Fraction < u0 {
		return
	}
	// The walk starts at the bounds, so that its fractions tell cells
	// apart however far the origin is: counted along the whole segment from
	// 3e17 m away, they stopped moving.
	c.u0, c.du = u0, u1-u0
	c.start, c.span = o.Add(d.Scale(u0)), d.Scale(u1-u0)
	c.walk(g.levels-1, 0, 1)
}

// walk walks the part of the walk between its fractions a and b through
// the cells of level l: it looks at the home cells and goes down into the
// others that are marked. It reports true once the nearest hit is found.
func (c *rayCast) walk(l int, a, b float64) bool {
	g := &c.q.rays
	o, d := c.start, c.span
	// (ix, iy) is the cell at fraction t, and tx, ty the fractions at which
	// the walk crosses into the next column and row.
	p := o.Add(d.Scale(a))
	ix, iy := g.cellOf(p.X, l), g.cellOf(p.Y, l)
	stepX, tx, dtx := crossing(ix, g.cell[l], o.X, d.X)
	stepY, ty, dty := crossing(iy, g.cell[l], o.Y, d.Y)
	t := a
	for steps := 0; ; steps++ {
		next := min(tx, ty, b)
		if next <= t && next < b || steps == walkSteps {
			// The cells are finer than the fractions can tell apart, or
			// too many: the rest of the part at once.
			c.look(t, b)
			return c.done(b)
		}
		k := cellKey{ix, iy, int64(l)}
		fi, mi := g.frz.find(k), g.mov.find(k)
		var m uint8
		if fi >= 0 {
			m = g.frz.marks[fi]
		}
		if mi >= 0 {
			m |= g.mov.marks[mi]
		}
		switch {
		case m == 0:
		case l == 0:
			c.look(t, next) // home cells only: the fine grid holds their bodies
		default:
			// The rows homed here, then the cells below.
			if fi >= 0 {
				nm := int32(len(c.q.mov.ents))
				sp := g.frz.spans[fi]
				for _, r := range g.frz.rows[sp[0]:sp[1]] {
					c.test(nm + r)
				}
			}
			if mi >= 0 {
				sp := g.mov.spans[mi]
				for _, r := range g.mov.rows[sp[0]:sp[1]] {
					c.test(r)
				}
			}
			if m&cellBelow != 0 && c.walk(l-1, t, next) {
				return true
			}
		}
		if c.done(next) {
			return true
		}
		if next >= b {
			return false
		}
		if tx < ty {
			ix, t, tx = ix+stepX, tx, tx+dtx
		} else {
			iy, t, ty = iy+stepY, ty, ty+dty
		}
	}
}

// crossing returns, for a walk along one axis from o by d through cells of
// the given side, now in cell i: the step to the next cell, the fraction
// at which the walk crosses into it, and the fraction a cell takes (+Inf
// for a walk that does not move along the axis).
func crossing(i int64, side, o, d float64) (step int64, t, dt float64) {
	if d == 0 {
		return 1, math.Inf(1), math.Inf(1)
	}
	edge, step := float64(i+1)*side, int64(1)
	if d < 0 {
		edge, step = float64(i)*side, -1
	}
	return step, (edge - o) / d, side / math.Abs(d)
}
