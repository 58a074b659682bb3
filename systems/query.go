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
// and the shapes it simulated (before the first Update, the bodies as the
// game created them). Its index is built at the first query after
// an Update from the step's own rows (the moving rows' final poses, and the
// static and sleeping rows), in a grid of its own, and serves every query
// until the next Update: building it costs about what the broad phase's
// grid does, once a tick, and only in ticks that query. A body the game
// moves, reshapes or creates after the Update is found where, and as, the
// Update left it (or not at all) until the next Update, as Rapier's query
// pipeline is updated with the step; a body removed since is left out.
// Box2D v3 moves a proxy when the game sets a transform, which arche's
// components, written directly, do not allow.

// RayHit is where a ray first meets a body.
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
	bounds components.AABB // of all the boxes
	extent float64         // the sum of max(width, height) over the boxes
}

func (r *queryRows) reset() {
	r.ents, r.xfs, r.shapes, r.aabbs = r.ents[:0], r.xfs[:0], r.shapes[:0], r.aabbs[:0]
	r.bounds = components.AABB{Min: components.V(math.Inf(1), math.Inf(1)), Max: components.V(math.Inf(-1), math.Inf(-1))}
	r.extent = 0
}

func (r *queryRows) add(e arche.Entity, xf components.Transform, s components.Shape) {
	if !xf.IsValid() {
		return // a body the step could not move (see scatter)
	}
	box := s.AABB(xf)
	r.ents = append(r.ents, e)
	r.xfs = append(r.xfs, xf)
	r.shapes = append(r.shapes, s)
	r.aabbs = append(r.aabbs, box)
	r.bounds = r.bounds.Union(box)
	sz := box.Size()
	r.extent += max(sz.X, sz.Y)
}

// queryIndex is the index of the bodies for the queries of one tick: the
// moving rows, made anew in each tick that queries, and the frozen ones
// (static and sleeping bodies), made anew only when the step's frozen rows
// change, in the two sets of one grid. A level of 100 000 sleeping boxes
// pays for its index once, not in every tick that casts a ray.
type queryIndex struct {
	built    bool
	mov, frz queryRows
	frzHash  uint64 // the frozen rows' hash that frz was made from
	frzBuilt bool
	bounds   components.AABB
	piece    float64 // the length of a ray's pieces (see CastRay)
	grid     *broadphase.Grid
	pairs    []broadphase.Pair
}

// row returns the pose and shape of row i of the grid: a moving row, or
// frozen row i - len(mov.ents).
func (q *queryIndex) row(i int32) (*queryRows, int) {
	if n := int32(len(q.mov.ents)); i >= n {
		return &q.frz, int(i - n)
	}
	return &q.mov, int(i)
}

// index returns the query index of the last Update, building it first if
// this is the tick's first query.
func (p *Physics) index() *queryIndex {
	q := &p.query
	if q.built {
		return q
	}
	q.built = true
	if q.grid == nil {
		q.grid = broadphase.NewGrid(p.cfg.CellSize)
	}
	q.mov.reset()
	if !p.stepped {
		// No step yet: the bodies as the game created them.
		for _, f := range [2]*bodyFilter{p.awakeFilter, p.sleepingFilter} {
			qw := f.Query(p.world)
			for qw.Next() {
				t, v, sh, mat, b, m, f := qw.Get()
				if field, _ := check(t, v, sh, b, m, mat, f); field == "" {
					q.mov.add(qw.Entity(), *t, *sh)
				}
			}
		}
		q.frz.reset()
		q.frzBuilt = false
		q.grid.SetFrozen(nil)
	} else {
		for i, e := range p.ents {
			q.mov.add(e, solver.FinalPose(&p.s.Sims[i], &p.s.Bodies[i], p.cfg.Dt), p.proxies[i].shapeOf())
		}
		if !q.frzBuilt || q.frzHash != p.frozen.hash {
			q.frz.reset()
			for i, e := range p.frozen.ents {
				q.frz.add(e, p.frozen.proxies[i].xf, p.frozen.proxies[i].shapeOf())
			}
			q.frzHash, q.frzBuilt = p.frozen.hash, true
			q.grid.SetFrozen(q.frz.aabbs)
		}
	}
	q.grid.Update(q.mov.aabbs)
	q.bounds = q.mov.bounds.Union(q.frz.bounds)
	// A ray is cut into pieces of about four mean body sizes: each piece's
	// box meets the bodies near it, not those of the whole ray's box.
	q.piece = 4 * (q.mov.extent + q.frz.extent) / float64(max(1, len(q.mov.ents)+len(q.frz.ents)))
	return q
}

// candidates returns the grid rows whose boxes overlap box.
func (q *queryIndex) candidates(box components.AABB) []broadphase.Pair {
	q.pairs = q.grid.Overlaps(&box, q.pairs[:0])
	return q.pairs
}

// CastRay returns the first body that the segment from origin to origin +
// translation meets, and where, as the last Update left the bodies (see
// the package documentation of queries in query.go). Bodies for which
// accept, if not nil, returns false are passed through, and so is any body
// the segment starts inside (as in Box2D v3: a ray cast from within a body
// leaves it). Of two bodies met at the same fraction, the one first in the
// step's rows is returned, the same one for any worker count. It reports
// false for no hit, or a non-finite origin or translation. Call it between
// Updates, on the goroutine that calls them.
func (p *Physics) CastRay(origin, translation components.Vec2, accept func(arche.Entity) bool) (RayHit, bool) {
	var best RayHit
	if !origin.IsFinite() || !translation.IsFinite() || translation == (components.Vec2{}) {
		return best, false
	}
	q := p.index()
	if len(q.mov.ents)+len(q.frz.ents) == 0 {
		return best, false
	}
	// The part of the segment within the bounds of all the bodies
	// (Liang-Barsky): nothing lies outside it.
	u0, u1 := 0.0, 1.0
	for axis := 0; axis < 2; axis++ {
		o, d, lo, hi := origin.X, translation.X, q.bounds.Min.X, q.bounds.Max.X
		if axis == 1 {
			o, d, lo, hi = origin.Y, translation.Y, q.bounds.Min.Y, q.bounds.Max.Y
		}
		if d == 0 {
			if o < lo || o > hi {
				return best, false
			}
			continue
		}
		a, b := (lo-o)/d, (hi-o)/d
		if a > b {
			a, b = b, a
		}
		u0, u1 = max(u0, a), min(u1, b)
	}
	if u0 > u1 {
		return best, false
	}
	// Piece by piece from the origin: the first hit lies in the box of the
	// piece that holds it, so once a piece ends beyond the best hit so far,
	// no later piece can hold a nearer one.
	pieces := 1
	if q.piece > 0 {
		pieces = max(1, int(math.Min(1e6, math.Ceil((u1-u0)*translation.Len()/q.piece))))
	}
	found, bestRow := false, int32(-1)
	for k := 0; k < pieces; k++ {
		a := u0 + (u1-u0)*float64(k)/float64(pieces)
		b := u0 + (u1-u0)*float64(k+1)/float64(pieces)
		pa, pb := origin.Add(translation.Scale(a)), origin.Add(translation.Scale(b))
		box := components.AABB{Min: pa.Min(pb), Max: pa.Max(pb)}
		for _, pr := range q.candidates(box) {
			i := pr.B
			if found && (i == bestRow) {
				continue
			}
			rows, j := q.row(i)
			t, n, ok := narrowphase.RayCast(rows.shapes[j], rows.xfs[j], origin, translation)
			if !ok || found && (t > best.Fraction || t == best.Fraction && i > bestRow) {
				continue
			}
			e := rows.ents[j]
			if !ecs.IsBody(p.world, e) || accept != nil && !accept(e) {
				continue
			}
			found, bestRow = true, i
			best = RayHit{Entity: e, Point: origin.Add(translation.Scale(t)), Normal: n, Fraction: t}
		}
		if found && best.Fraction <= b {
			break
		}
	}
	return best, found
}

// OverlapAABB appends to dst the bodies whose shapes overlap box (touching
// counts), as the last Update left them (see CastRay), and returns it.
// Bodies for which accept, if not nil, returns false are left out. The
// order is that of the step's rows, the same for any worker count. An
// empty, inverted or non-finite box overlaps nothing.
func (p *Physics) OverlapAABB(box components.AABB, accept func(arche.Entity) bool, dst []arche.Entity) []arche.Entity {
	if !box.Min.IsFinite() || !box.Max.IsFinite() || box.Min.X > box.Max.X || box.Min.Y > box.Max.Y {
		return dst
	}
	q := p.index()
	if len(q.mov.ents)+len(q.frz.ents) == 0 {
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
