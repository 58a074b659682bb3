package systems

import (
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
// pyramid of coarse grids instead, from the top down (Amanatides and Woo's
// traversal at each level): level 0 has cells of eight median body sizes,
// each level above cells eight times as wide, up to a level of a few cells
// across the bodies' bounds. A cell is marked, in one hash set of (level,
// column, row), if some body's box reaches it; the walk goes down only
// into marked cells, and at level 0 asks the fine grid about the part of
// the ray in the cell. A body whose box reaches more than bigCells level-0
// cells (a long ground) is not marked but kept in a list that every ray
// tests first. The walk stops at the first cell that ends beyond the
// nearest hit found: a hit point lies in the box of its body, so in a
// marked cell the walk has already visited.

// bigCells is the number of level-0 cells from which a body is tested by
// every ray rather than marked in each cell it reaches.
const bigCells = 256

// rayLevels bounds the levels of the pyramid.
const rayLevels = 16

// walkSteps bounds the cells one level's walk visits before it asks the
// fine grid about the rest of its part of the ray at once.
const walkSteps = 1 << 16

// cellKey is a marked cell: its level, column and row.
type cellKey struct {
	ix, iy int64
	level  int64
}

// rayGrid is the pyramid of the rays of one tick.
type rayGrid struct {
	built  bool
	levels int
	cell   [rayLevels]float64 // side of a cell at each level
	inv    [rayLevels]float64
	big    []int32 // rows of the bodies every ray tests
	keys   []cellKey
	used   []bool
	mask   uint64
	fresh  [2][]cellKey // the cells a level marked, to mark their parents
	scale  []float64    // scratch for the median
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

func (g *rayGrid) slot(k cellKey) uint64 {
	h := uint64(k.ix)*0x9E3779B97F4A7C15 ^ uint64(k.iy)*0xC2B2AE3D27D4EB4F ^ uint64(k.level)*0x165667B19E3779F9
	return (h ^ h>>29) & g.mask
}

// mark marks cell k and reports whether it was not marked yet.
func (g *rayGrid) mark(k cellKey) bool {
	i := g.slot(k)
	for g.used[i] {
		if g.keys[i] == k {
			return false
		}
		i = (i + 1) & g.mask
	}
	g.used[i], g.keys[i] = true, k
	return true
}

func (g *rayGrid) marked(k cellKey) bool {
	for i := g.slot(k); g.used[i]; i = (i + 1) & g.mask {
		if g.keys[i] == k {
			return true
		}
	}
	return false
}

// span returns the level-0 cells box reaches, widened by the queries'
// slack.
func (g *rayGrid) span(box components.AABB) (x0, y0, x1, y1 int64) {
	box = widen(box)
	return g.cellOf(box.Min.X, 0), g.cellOf(box.Min.Y, 0), g.cellOf(box.Max.X, 0), g.cellOf(box.Max.Y, 0)
}

// build marks the cells of the index's rows: level 0 from the boxes, each
// level above from the cells newly marked below it.
func (g *rayGrid) build(q *queryIndex) {
	g.built = true
	n := q.rows()
	// The median of max(width, height) over up to 255 rows, evenly strided.
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
	g.levels = 1
	g.cell[0], g.inv[0] = c, 1/c
	for g.levels < rayLevels && g.cell[g.levels-1] < world/4 {
		g.cell[g.levels] = 8 * g.cell[g.levels-1]
		g.inv[g.levels] = 1 / g.cell[g.levels]
		g.levels++
	}
	// Count level 0's marks (the levels above have fewer), size the set at
	// a load of at most a half, and mark.
	g.big = g.big[:0]
	marks := 0
	for i := range n {
		rows, j := q.row(int32(i))
		x0, y0, x1, y1 := g.span(rows.aabbs[j])
		if cells := float64(x1-x0+1) * float64(y1-y0+1); cells > bigCells {
			g.big = append(g.big, int32(i))
		} else {
			marks += int(cells)
		}
	}
	size := 16
	for size < 2*marks*g.levels {
		size *= 2
	}
	if cap(g.used) < size {
		g.used, g.keys = make([]bool, size), make([]cellKey, size)
	}
	g.used, g.keys = g.used[:size], g.keys[:size]
	clear(g.used)
	g.mask = uint64(size - 1)
	fresh := g.fresh[0][:0]
	bi := 0
	for i := range n {
		if bi < len(g.big) && g.big[bi] == int32(i) {
			bi++
			continue
		}
		rows, j := q.row(int32(i))
		x0, y0, x1, y1 := g.span(rows.aabbs[j])
		for ix := x0; ix <= x1; ix++ {
			for iy := y0; iy <= y1; iy++ {
				if k := (cellKey{ix, iy, 0}); g.mark(k) {
					fresh = append(fresh, k)
				}
			}
		}
	}
	// A cell's parent holds it: floor(i / 8) of its column and row, which
	// an arithmetic shift gives for negative ones too.
	up := g.fresh[1][:0]
	for l := 1; l < g.levels; l++ {
		up = up[:0]
		for _, k := range fresh {
			if p := (cellKey{k.ix >> 3, k.iy >> 3, int64(l)}); g.mark(p) {
				up = append(up, p)
			}
		}
		fresh, up = up, fresh
	}
	g.fresh[0], g.fresh[1] = fresh, up
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

// look tests the rows whose boxes reach the part of the ray between
// fractions a and b.
func (c *rayCast) look(a, b float64) {
	pa, pb := c.origin.Add(c.translation.Scale(a)), c.origin.Add(c.translation.Scale(b))
	for _, pr := range c.q.candidates(widen(components.AABB{Min: pa.Min(pb), Max: pa.Max(pb)})) {
		c.test(pr.B)
	}
}

// run finds the first hit: the big bodies, then the walk.
func (c *rayCast) run() {
	q := c.q
	if !q.rays.built {
		q.rays.build(q)
	}
	g := &q.rays
	for _, i := range g.big {
		c.test(i)
	}
	// The part of the segment within the bodies' bounds (Liang-Barsky):
	// nothing lies outside it.
	bounds := widen(q.bounds)
	u0, u1 := 0.0, 1.0
	o, d := c.origin, c.translation
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
	c.walk(g.levels-1, u0, u1)
}

// walk walks the part of the ray between fractions a and b through the
// cells of level l, down into the marked ones. It reports true once the
// nearest hit is found.
func (c *rayCast) walk(l int, a, b float64) bool {
	g := &c.q.rays
	o, d := c.origin, c.translation
	// (ix, iy) is the cell at fraction t, and tx, ty the fractions at which
	// the ray crosses into the next column and row.
	p := o.Add(d.Scale(a))
	ix, iy := g.cellOf(p.X, l), g.cellOf(p.Y, l)
	side := g.cell[l]
	stepX, stepY := int64(1), int64(1)
	tx, ty, dtx, dty := math.Inf(1), math.Inf(1), math.Inf(1), math.Inf(1)
	if d.X != 0 {
		dtx = side / math.Abs(d.X)
		edge := float64(ix+1) * side
		if d.X < 0 {
			stepX, edge = -1, float64(ix)*side
		}
		tx = (edge - o.X) / d.X
	}
	if d.Y != 0 {
		dty = side / math.Abs(d.Y)
		edge := float64(iy+1) * side
		if d.Y < 0 {
			stepY, edge = -1, float64(iy)*side
		}
		ty = (edge - o.Y) / d.Y
	}
	t := a
	for steps := 0; ; steps++ {
		next := min(tx, ty, b)
		if next <= t && next < b || steps == walkSteps {
			// The cells are finer than the fractions can tell apart (a
			// ray of 4e13 m through cells of 2e-6), or too many: the
			// rest of the part at once.
			c.look(t, b)
			return c.found && c.best.Fraction <= b
		}
		if g.marked(cellKey{ix, iy, int64(l)}) {
			if l == 0 {
				c.look(t, next)
			} else if c.walk(l-1, t, next) {
				return true
			}
		}
		if c.found && c.best.Fraction <= next {
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
