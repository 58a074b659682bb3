package systems

import (
	"math"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/broadphase"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// Ray and region queries (Physics.CastRay, Physics.OverlapAABB).
//
// A query sees the bodies as the last Update left them: the poses it wrote
// and the shapes it simulated. Its index is built at the first query after
// an Update from the step's own rows (the moving rows' final poses, and the
// static and sleeping rows), in a grid of its own, and serves every query
// until the next Update: building it costs about what the broad phase's
// grid does, once a tick, and only in ticks that query. A body the game
// moves, reshapes or creates after the Update is found where, and as, the
// Update left it (or not at all) until the next Update, as Rapier's query
// pipeline is updated with the step; a body removed since is left out.
// Box2D v3 moves a proxy when the game sets a transform, which arche's
// components, written directly, do not allow. Before the first Update
// there are no rows: each query reads the components, so that a game
// building a level sees each body it has made.

// RayHit is where a ray first meets a body: Entity, met at
// origin + Fraction*translation.
type RayHit struct {
	Entity arche.Entity
	// Point is origin + Fraction*translation, on the body's boundary, and
	// Normal the boundary's outward unit normal there.
	Point, Normal components.Vec2
	Fraction      float64
}

// queryRows are bodies of the query index: entity, pose, shape and box.
type queryRows struct {
	ents   []arche.Entity
	xfs    []components.Transform
	shapes []components.Shape
	aabbs  []components.AABB
	// src is each row's row in the step: a moving row, or a frozen row's
	// index among the frozen rows (-1 before the first Update).
	src    []int32
	bounds components.AABB // of all the boxes
}

func (r *queryRows) reset() {
	r.ents, r.xfs, r.shapes, r.aabbs, r.src = r.ents[:0], r.xfs[:0], r.shapes[:0], r.aabbs[:0], r.src[:0]
	r.bounds = components.AABB{Min: components.V(math.Inf(1), math.Inf(1)), Max: components.V(math.Inf(-1), math.Inf(-1))}
}

func (r *queryRows) add(e arche.Entity, xf components.Transform, s components.Shape, src int32) {
	if !xf.IsValid() {
		return // a body the step could not move (see scatter)
	}
	box := s.AABB(xf)
	r.ents = append(r.ents, e)
	r.xfs = append(r.xfs, xf)
	r.shapes = append(r.shapes, s)
	r.aabbs = append(r.aabbs, box)
	r.src = append(r.src, src)
	r.bounds = r.bounds.Union(box)
}

// queryIndex is the index of the bodies for the queries of one tick: the
// moving rows, made anew in each tick that queries, and the frozen ones
// (static and sleeping bodies), made anew only when the step's frozen rows
// change, in the two sets of one grid. A level of 100 000 sleeping boxes
// pays for its index once, not in every tick that casts a ray.
type queryIndex struct {
	built    bool
	mov, frz queryRows
	frzGen   uint64 // the frozen rows' generation that frz was made from
	frzBuilt bool
	// frzBuilds counts the builds of frz, for the rays' marks (raygrid.go).
	frzBuilds uint64
	bounds    components.AABB
	grid      *broadphase.Grid
	rays      rayGrid // built at the tick's first ray (raygrid.go)
	// scratch holds the candidates of each level of nested queries (an
	// accept function may itself query).
	scratch [][]broadphase.Pair
	depth   int
}

// row returns the pose and shape of row i of the grid: a moving row, or
// frozen row i - len(mov.ents).
func (q *queryIndex) row(i int32) (*queryRows, int) {
	if n := int32(len(q.mov.ents)); i >= n {
		return &q.frz, int(i - n)
	}
	return &q.mov, int(i)
}

// rows returns the number of rows.
func (q *queryIndex) rows() int { return len(q.mov.ents) + len(q.frz.ents) }

// index returns the query index of the last Update, building it first if
// this is the tick's first query (before the first Update, at every query
// but a nested one).
func (p *Physics) index() *queryIndex {
	q := &p.query
	if q.built && (p.stepped || q.depth > 0) {
		return q
	}
	q.built = true
	q.rays.built = false
	if q.grid == nil {
		q.grid = broadphase.NewGrid(p.cfg.CellSize)
	}
	q.mov.reset()
	if !p.stepped {
		for _, f := range [2]*bodyFilter{p.awakeFilter, p.sleepingFilter} {
			qw := f.Query(p.world)
			for qw.Next() {
				t, v, sh, mat, b, m, f := qw.Get()
				// A body the tick will leave out for a bad value stands
				// where its pose and shape are usable (addLeftOut), and
				// the queries after an Update find it there too.
				if field, _ := check(t, v, sh, b, m, mat, f); field == "" || solidLeftOut(t, sh) {
					q.mov.add(qw.Entity(), *t, *sh, -1)
				}
			}
		}
		if q.frzBuilt || len(q.frz.ents) > 0 {
			q.frz.reset()
			q.frzBuilt = false
			q.frzBuilds++
			q.grid.SetFrozen(nil)
		}
	} else {
		for i, e := range p.ents {
			q.mov.add(e, solver.FinalPose(&p.s.Sims[i], &p.s.Bodies[i], p.cfg.Dt), p.proxies[i].shapeOf(), int32(i))
		}
		if !q.frzBuilt || q.frzGen != p.frozen.gen {
			q.frz.reset()
			for i, e := range p.frozen.ents {
				q.frz.add(e, p.frozen.proxies[i].xf, p.frozen.proxies[i].shapeOf(), int32(i))
			}
			q.frzGen, q.frzBuilt = p.frozen.gen, true
			q.frzBuilds++
			q.grid.SetFrozen(q.frz.aabbs)
		}
	}
	q.grid.Update(q.mov.aabbs)
	q.bounds = q.mov.bounds.Union(q.frz.bounds)
	return q
}

// enter and leave bracket a query, for the scratch of nested ones.
func (q *queryIndex) enter() {
	if q.depth == len(q.scratch) {
		q.scratch = append(q.scratch, nil)
	}
	q.depth++
}

func (q *queryIndex) leave() { q.depth-- }

// candidates returns the grid rows whose boxes overlap box, in the
// scratch of the current query level.
func (q *queryIndex) candidates(box components.AABB) []broadphase.Pair {
	buf := q.grid.Overlaps(&box, q.scratch[q.depth-1][:0])
	q.scratch[q.depth-1] = buf
	return buf
}

// slack is the relative margin by which the queries widen the boxes they
// look in, so that a segment through a corner, or along the edge of a
// piece, does not miss a body by a rounding.
const slack = 0x1p-40

// widen returns b grown by slack times its coordinates' size.
func widen(b components.AABB) components.AABB {
	m := slack * (math.Abs(b.Min.X) + math.Abs(b.Min.Y) + math.Abs(b.Max.X) + math.Abs(b.Max.Y) + 1)
	return b.Expand(m)
}

// CastRay returns the first body that the segment from origin to origin +
// translation meets, and where, as the last Update left the bodies (see
// above). Bodies for which accept, if not nil, returns false are passed
// through, and so is any body the segment starts inside (as in Box2D v3: a
// ray cast from within a body leaves it). Of two bodies met at the same
// fraction, the one first in the step's rows is returned, the same one for
// any worker count. Sensors are hit too: an accept that looks up the
// body's components.Material can pass them through. It reports false for no hit, a non-finite origin or
// translation, or a system set not initialised (or finalised). Call it
// between Updates, on the goroutine that calls them; accept may itself
// query.
func (p *Physics) CastRay(origin, translation components.Vec2, accept func(arche.Entity) bool) (RayHit, bool) {
	if !origin.IsFinite() || !translation.IsFinite() || translation == (components.Vec2{}) || p.world == nil {
		return RayHit{}, false
	}
	q := p.index()
	q.enter()
	defer q.leave()
	c := rayCast{p: p, q: q, origin: origin, translation: translation, accept: accept, bestRow: -1}
	if q.rows() > 0 {
		c.run()
	}
	return c.best, c.found
}

// OverlapAABB appends to dst the bodies whose shapes overlap box (touching
// counts), as the last Update left them (see CastRay), and returns it.
// Bodies for which accept, if not nil, returns false are left out; sensors
// are not, unless accept leaves them out. The
// order is that of the step's rows, the same for any worker count. An
// inverted or non-finite box overlaps nothing, and so does any box of a
// system set not initialised (or finalised).
func (p *Physics) OverlapAABB(box components.AABB, accept func(arche.Entity) bool, dst []arche.Entity) []arche.Entity {
	if !box.Min.IsFinite() || !box.Max.IsFinite() || box.Min.X > box.Max.X || box.Min.Y > box.Max.Y || p.world == nil {
		return dst
	}
	q := p.index()
	q.enter()
	defer q.leave()
	if q.rows() == 0 {
		return dst
	}
	// Cut to the bodies' bounds, a metre wide of them: a box of +-MaxFloat64
	// overflowed its own size, and the distance test found nothing in it.
	b := q.bounds.Expand(1)
	box = components.AABB{Min: box.Min.Max(b.Min), Max: box.Max.Min(b.Max)}
	if box.Min.X > box.Max.X || box.Min.Y > box.Max.Y {
		return dst
	}
	half := box.Size().Scale(0.5)
	region, at := components.Box(half.X, half.Y), components.Transform{P: box.Min.Add(half), R: components.Identity}
	for _, pr := range q.candidates(box) {
		rows, j := q.row(pr.B)
		if d, _ := narrowphase.Distance(region, at, rows.shapes[j], rows.xfs[j]); d > 0 {
			continue
		}
		e := rows.ents[j]
		if !ecs.IsBody(p.world, e) || accept != nil && !accept(e) {
			continue
		}
		dst = append(dst, e)
	}
	return dst
}
