package systems

import (
	"math"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// frozenRows are the static bodies, the kinematic bodies at rest, the
// sleeping bodies and the bodies the tick leaves out for a bad value where
// their pose and shape are usable (addLeftOut): the broad phase pairs them
// with moving bodies only, and their grid is rebuilt only when their hash
// (entities, poses and shapes) changes. A kinematic body at rest is a
// static body for as long as it rests: nothing moves it, and it wakes and
// pushes what a static would when the game moves it, creates it or removes
// it (see disturbed), or sets it moving, which takes it out of the frozen
// rows.
type frozenRows struct {
	ents     []arche.Entity
	proxies  []bodyProxy
	mats     []components.Material
	aabbs    []components.AABB
	sleeping []bool
	// bad marks the rows of bodies the tick leaves out for a bad value
	// (check) that are kept solid (solidLeftOut); bads counts them. Kept
	// as they were (keep), such a row is reported again (keptBad).
	bad     []bool
	bads    int
	statics int     // rows that are not sleeping bodies (static, resting kinematic, left out)
	sensors []int32 // the rows of sensors, in order
	hash    uint64
	built   bool

	// src holds, for each row, the components it was made from. A gather
	// walks the frozen bodies in the query order of the last one: while
	// each is the next row's entity with the same components (next counts
	// them), its row, its hash and every decision about it (valid, asleep,
	// not to be woken) are what they were, and nothing is rebuilt. At the
	// first body that differs, the rows from there on are made anew
	// (diverge). See begin.
	src   []frozenSrc
	next  int
	dirty bool
	// gen counts the gathers that changed the rows (finish): the query
	// index keeps its copy of them while it stays the same.
	gen uint64

	// The rows as of the last change of hash (the last grid rebuild), to
	// find what changed.
	prevEnts     []arche.Entity
	prevAABBs    []components.AABB
	prevXfs      []components.Transform
	prevSleeping []bool
	prevRules    []contactRule
	index        []int32
	changed      []changedBox
}

// keepRows remembers this tick's frozen rows for the next diff.
func (f *frozenRows) keepRows() {
	f.prevEnts = append(f.prevEnts[:0], f.ents...)
	f.prevAABBs = append(f.prevAABBs[:0], f.aabbs...)
	f.prevSleeping = append(f.prevSleeping[:0], f.sleeping...)
	f.prevXfs, f.prevRules = f.prevXfs[:0], f.prevRules[:0]
	for i := range f.proxies {
		f.prevXfs = append(f.prevXfs, f.proxies[i].xf)
		f.prevRules = append(f.prevRules, ruleOf(&f.mats[i]))
	}
}

// rememberSleeper adds body e of shape s, which fell asleep at pose xf in
// the tick that just ended, to the rows of the last rebuild, with the box
// add gives it. It was awake then, so without this disturbed would not see
// a game move it, change its shape or remove it before the next tick: a box
// lifted 4.5 m in that gap hung there asleep.
func (f *frozenRows) rememberSleeper(e arche.Entity, xf components.Transform, s *components.Shape, mat *components.Material, margin float64) {
	f.prevEnts = append(f.prevEnts, e)
	f.prevRules = append(f.prevRules, ruleOf(mat))
	f.prevAABBs = append(f.prevAABBs, frozenBox(xf, s, margin))
	f.prevXfs = append(f.prevXfs, xf)
	f.prevSleeping = append(f.prevSleeping, true)
}

// contactRule is what of a body's material decides whom it may touch: its
// filter, and whether it is a sensor.
type contactRule struct {
	filter components.Filter
	sensor bool
}

func ruleOf(m *components.Material) contactRule { return contactRule{m.Filter, m.Sensor} }

// touches reports whether a body of rule r may collide with one of rule o.
func (r contactRule) touches(o contactRule) bool {
	return !r.sensor && !o.sensor && r.filter.Collides(o.filter)
}

// changedBox is the box of a frozen row that changed (disturbed), with the
// body's contact rules before and after: a sleeper that collides with it
// under neither never touched it and is not woken by it.
type changedBox struct {
	box      components.AABB
	old, now contactRule
}

// disturbed appends to dst the sleeping bodies that must wake because the
// frozen rows changed since the last rebuild (w tells which entities are no
// longer bodies, and bodies where the woken ones are now):
//   - a sleeping body the game moved by writing its Transform, or reshaped
//     by writing its Shape (Box2D v3's b2Body_SetTransform wakes the body),
//     or whose filter it changed (b2Shape_SetFilter wakes it), and the
//     sleepers that overlap it;
//   - the sleeping bodies that overlap a static body whose filter changed:
//     a floor that stops holding them, or that starts pushing them out;
//   - the sleeping bodies that overlap a static body (or a kinematic body at
//     rest) that was removed, moved or added, or a sleeping body that was
//     removed or moved (even if a command woke it at once), at its old place
//     or its new one: what rested on it, or is now pushed by it
//     (b2DestroyBody and b2Body_SetTransform wake the touching islands). A
//     sleeper is not always in the sleeping island of what it rests on:
//     bodies created asleep belong to none, and a stack created asleep
//     stayed in the air when its bottom box was removed. A resting
//     kinematic set moving leaves the frozen rows, so what sleeps on
//     it wakes in the tick it starts, and rides or falls with it.
//
// Each of these wakes only the sleepers that collide with the body that
// changed, under its filter before the change or after it: a body that
// ignores a sleeping pile moves through it, appears in it or leaves it
// without waking it.
func (f *frozenRows) disturbed(w *arche.World, bodies *bodyMap, dst []arche.Entity) []arche.Entity {
	cur := len(f.ents)
	// Index the current rows by entity ID, then walk the previous ones.
	maxID := uint32(0)
	for _, e := range f.ents {
		maxID = max(maxID, e.ID())
	}
	for _, e := range f.prevEnts {
		maxID = max(maxID, e.ID())
	}
	f.index = resize(f.index, int(maxID)+1)
	for i := range f.index {
		f.index[i] = -1
	}
	for i, e := range f.ents {
		f.index[e.ID()] = int32(i)
	}
	f.changed = f.changed[:0]
	for k, e := range f.prevEnts {
		i := f.index[e.ID()]
		same := i >= 0 && f.ents[i] == e
		if f.prevSleeping[k] {
			switch {
			case same && f.sleeping[i] && (f.proxies[i].xf != f.prevXfs[k] || f.aabbs[i] != f.prevAABBs[k] ||
				ruleOf(&f.mats[i]) != f.prevRules[k]):
				dst = append(dst, e)
				old, now := f.prevRules[k], ruleOf(&f.mats[i])
				f.changed = append(f.changed, changedBox{f.prevAABBs[k], old, now}, changedBox{f.aabbs[i], old, now})
			case !same && !ecs.IsBody(w, e):
				f.changed = append(f.changed, changedBox{f.prevAABBs[k], f.prevRules[k], f.prevRules[k]})
			case !same:
				// Awake now: a game command (ecs.SetTransform) woke it at
				// once, and may have moved it away.
				if t, _, _, mat, _, _, _ := bodies.Get(e); t != nil && *t != f.prevXfs[k] {
					f.changed = append(f.changed, changedBox{f.prevAABBs[k], f.prevRules[k], ruleOf(mat)})
				}
			}
			continue
		}
		old, now := f.prevRules[k], f.prevRules[k]
		if same {
			now = ruleOf(&f.mats[i])
		}
		if !same || f.sleeping[i] || f.aabbs[i] != f.prevAABBs[k] || now != old {
			f.changed = append(f.changed, changedBox{f.prevAABBs[k], old, now})
		}
		if same && !f.sleeping[i] {
			f.index[e.ID()] = -2 // matched
			if f.aabbs[i] != f.prevAABBs[k] {
				f.changed = append(f.changed, changedBox{f.aabbs[i], old, now}) // moved: where it is now too
			}
		}
	}
	for i := 0; i < cur; i++ {
		if !f.sleeping[i] && f.index[f.ents[i].ID()] >= 0 {
			r := ruleOf(&f.mats[i])
			f.changed = append(f.changed, changedBox{f.aabbs[i], r, r}) // new static
		}
	}
	if len(f.changed) == 0 {
		return dst
	}
	for i := 0; i < cur; i++ {
		if !f.sleeping[i] {
			continue
		}
		r := ruleOf(&f.mats[i])
		for _, c := range f.changed {
			if c.box.Overlaps(f.aabbs[i]) && (c.old.touches(r) || c.now.touches(r)) {
				dst = append(dst, f.ents[i])
				break
			}
		}
	}
	return dst
}

// growAxes returns b grown on both sides by h and then by gx along x and gy
// along y (subtracted in that order, so the rounding is the same for every
// caller).
func growAxes(b components.AABB, h, gx, gy float64) components.AABB {
	return components.AABB{Min: components.V(b.Min.X-h-gx, b.Min.Y-h-gy), Max: components.V(b.Max.X+h+gx, b.Max.Y+h+gy)}
}

// axisSpeeds returns the speeds (m/s) along x and along y, forwards or
// backwards, at which the points of a body moving at v and turning a point
// of its shape at spin can move: times a step, how far its box must grow
// (growAxes).
func axisSpeeds(v components.Vec2, spin float64) (sx, sy float64) {
	return math.Abs(v.X) + spin, math.Abs(v.Y) + spin
}

// resize returns s with length n, reallocated at twice that when it is too
// small, so that buffers growing tick by tick (a wave waking a pile, a rain
// landing) allocate a logarithmic number of times, and in all at most twice
// their final size: with a quarter to spare, circle_rain allocated 110 MB
// over 300 steps, five times its final buffers, and ran 6 GC cycles.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}

// rebuildFrozen makes every gather rebuild the frozen rows, as before keep
// existed; tests set it to check that keeping them changes nothing.
var rebuildFrozen = false

// frozenSrc is the seven body components of a frozen row, as they were
// when the row was made (after check).
type frozenSrc struct {
	t   components.Transform
	v   components.Velocity
	s   components.Shape
	mat components.Material
	b   components.Body
	m   components.Mass
	f   components.Force
}

// same reports whether the components hold the bits r was made from. Bits,
// not values: a row made from 0 is not kept for -0, so a kept row is always
// the row a rebuild would make, and a NaN that check does not look at (a
// static body's mass, say) compares equal to itself instead of rebuilding
// the rows from there on every tick.
func (r *frozenSrc) same(t *components.Transform, v *components.Velocity, s *components.Shape,
	mat *components.Material, b *components.Body, m *components.Mass, f *components.Force) bool {
	eq := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	return eq(r.t.P.X, t.P.X) && eq(r.t.P.Y, t.P.Y) && eq(r.t.R.C, t.R.C) && eq(r.t.R.S, t.R.S) &&
		eq(r.v.Lin.X, v.Lin.X) && eq(r.v.Lin.Y, v.Lin.Y) && eq(r.v.Ang, v.Ang) &&
		r.s.Kind == s.Kind && eq(r.s.Radius, s.Radius) && eq(r.s.Half.X, s.Half.X) && eq(r.s.Half.Y, s.Half.Y) &&
		eq(r.mat.Friction, mat.Friction) && eq(r.mat.Restitution, mat.Restitution) && r.mat.Filter == mat.Filter && r.mat.Sensor == mat.Sensor &&
		r.b.Type == b.Type && eq(r.b.GravityScale, b.GravityScale) &&
		eq(r.b.LinearDamping, b.LinearDamping) && eq(r.b.AngularDamping, b.AngularDamping) &&
		eq(r.m.Mass, m.Mass) && eq(r.m.Inertia, m.Inertia) && eq(r.m.InvMass, m.InvMass) && eq(r.m.InvInertia, m.InvInertia) &&
		eq(r.f.F.X, f.F.X) && eq(r.f.F.Y, f.F.Y) && eq(r.f.Torque, f.Torque)
}

// begin starts a gather: the rows stay as the last gather left them, to be
// kept (keep) or made anew (diverge, add).
//
// Rebuilding every frozen row each tick cost 38-42 ns a sleeping box
// (BenchmarkStepAsleep, 10 000 and 100 000 boxes and nothing awake), most
// of it in check, add and computeHash. Comparing each body's components with
// those its row was made from leaves the walk of the query and the
// comparison: 17-27 ns. The comparison is by bits (frozenSrc.same).
func (f *frozenRows) begin() {
	f.next, f.dirty = 0, !f.built || rebuildFrozen
	if f.dirty {
		f.truncate(0)
	}
}

// keep reports whether frozen body e (asleep or not), with these
// components, is the next row unchanged, and moves past it. The first time
// it is not, the rows from there on are dropped, to be made anew by add.
func (f *frozenRows) keep(e arche.Entity, sleeping bool, t *components.Transform, v *components.Velocity,
	s *components.Shape, mat *components.Material, b *components.Body, m *components.Mass, fo *components.Force) bool {
	if !f.dirty {
		j := f.next
		if j < len(f.ents) && f.ents[j] == e && f.sleeping[j] == sleeping {
			if f.src[j].same(t, v, s, mat, b, m, fo) {
				f.next++
				return true
			}
		}
		f.diverge()
	}
	return false
}

// nextIs reports whether e's row is the next of the walk.
func (f *frozenRows) nextIs(e arche.Entity) bool {
	return !f.dirty && f.next < len(f.ents) && f.ents[f.next] == e
}

// keptBad reports whether the row keep kept last is a body left out for a
// bad value (see bad).
func (f *frozenRows) keptBad() bool { return f.bad[f.next-1] }

// diverge drops the rows from next on: a body differs from its row, or is
// not the next one.
func (f *frozenRows) diverge() {
	if !f.dirty {
		f.dirty = true
		f.truncate(f.next)
	}
}

// finish ends the walk: rows past the last body kept belong to bodies that
// are no longer frozen (or gone). It reports whether the rows changed.
func (f *frozenRows) finish() bool {
	if f.next < len(f.ents) {
		f.diverge()
	}
	if f.dirty {
		f.gen++
	}
	return f.dirty
}

func (f *frozenRows) truncate(n int) {
	f.ents, f.proxies, f.mats = f.ents[:n], f.proxies[:n], f.mats[:n]
	f.aabbs, f.sleeping, f.src, f.bad = f.aabbs[:n], f.sleeping[:n], f.src[:n], f.bad[:n]
	for len(f.sensors) > 0 && f.sensors[len(f.sensors)-1] >= int32(n) {
		f.sensors = f.sensors[:len(f.sensors)-1]
	}
	f.statics, f.bads = 0, 0
	for i, sl := range f.sleeping {
		if !sl {
			f.statics++
		}
		if f.bad[i] {
			f.bads++
		}
	}
}

// mix folds x into the FNV-1a style hash h.
func mix(h, x uint64) uint64 { return (h ^ x) * 0x100000001b3 }

// add appends the row of frozen body e, made from src (see diverge: only
// after the walk has diverged).
func (f *frozenRows) add(e arche.Entity, src *frozenSrc, sleeping bool, margin float64) {
	f.addMat(e, src, &src.mat, sleeping, false, margin)
}

// addMat is add with the material mat for the contacts, and bad marking a
// body left out for a bad value (see bad).
func (f *frozenRows) addMat(e arche.Entity, src *frozenSrc, mat *components.Material, sleeping, bad bool, margin float64) {
	if mat.Sensor {
		f.sensors = append(f.sensors, int32(len(f.ents)))
	}
	f.ents = append(f.ents, e)
	f.proxies = appendProxy(f.proxies, e, &src.t, &src.s, solver.KindStatic, 0, sleeping, rulesOf(mat))
	f.mats = append(f.mats, *mat)
	f.aabbs = append(f.aabbs, frozenBox(src.t, &src.s, margin))
	f.sleeping = append(f.sleeping, sleeping)
	f.bad = append(f.bad, bad)
	f.src = append(f.src, *src)
	if !sleeping {
		f.statics++
	}
	if bad {
		f.bads++
	}
}

// addLeftOut adds awake body e, which the tick leaves out for a bad value,
// as a frozen row where its pose and shape are usable (solidLeftOut): what
// rests on it or runs into it meets a static body until the game mends the
// value, instead of sinking into it. Its contacts take a friction and a
// restitution of 0 where its own are bad.
func (f *frozenRows) addLeftOut(e arche.Entity, src *frozenSrc, margin float64) {
	if !solidLeftOut(&src.t, &src.s) {
		return
	}
	mat := src.mat
	if !(mat.Friction >= 0) || !components.IsFinite(mat.Friction) {
		mat.Friction = 0
	}
	if !(mat.Restitution >= 0) || !(mat.Restitution <= 1) {
		mat.Restitution = 0
	}
	f.diverge()
	f.addMat(e, src, &mat, false, true, margin)
}

// solidLeftOut reports whether a body with pose t and shape s can stand as
// a static body while the tick leaves it out: whether check accepts that
// pose and shape, asked with components that pass every other test (a
// static body at rest, of the zero material), so that the two never
// disagree on what a usable pose or shape is. As check does, it
// renormalises a rotation off unit length by less than 1e-3.
func solidLeftOut(t *components.Transform, s *components.Shape) bool {
	field, _ := check(t, &components.Velocity{}, s, &components.Body{Type: components.Static},
		&components.Mass{}, &components.Material{}, &components.Force{})
	return field == ""
}

// frozenBox is the box of a frozen row: the shape's at pose xf, grown by
// margin.
func frozenBox(xf components.Transform, s *components.Shape, margin float64) components.AABB {
	return s.AABB(xf).Expand(margin)
}

func (f *frozenRows) computeHash() uint64 {
	h := uint64(0xcbf29ce484222325)
	for i, e := range f.ents {
		h = mix(h, uint64(e.ID())<<32|uint64(e.Generation()))
		a := f.aabbs[i]
		h = mix(h, math.Float64bits(a.Min.X))
		h = mix(h, math.Float64bits(a.Min.Y))
		h = mix(h, math.Float64bits(a.Max.X))
		h = mix(h, math.Float64bits(a.Max.Y))
		r := f.proxies[i].xf.R
		h = mix(h, math.Float64bits(r.C))
		h = mix(h, math.Float64bits(r.S))
		if m := &f.mats[i]; m.Filter != (components.Filter{}) || m.Sensor {
			h = mix(h, m.Filter.Category)
			h = mix(h, m.Filter.Ignore)
			h = mix(h, uint64(uint32(m.Filter.Group)))
			if m.Sensor {
				h = mix(h, 2)
			}
		}
		if f.sleeping[i] {
			h = mix(h, 1)
		}
	}
	return h
}

// check returns the reason a body cannot be simulated, or "" if it can. A
// rotation off unit length by less than 1e-3 (a game's accumulated rounding)
// is renormalised in place.
func check(t *components.Transform, v *components.Velocity, s *components.Shape, b *components.Body,
	m *components.Mass, mat *components.Material, f *components.Force) (field, reason string) {
	if !t.P.IsFinite() {
		return "Transform.P", "is NaN or infinite"
	}
	if !components.IsFinite(t.R.C) || !components.IsFinite(t.R.S) {
		return "Transform.R", "is NaN or infinite"
	}
	// The length test takes the root of the sum of squares, not math.Hypot
	// (a tenth of the gather's time). R is renormalised only when it is off
	// by more than rounding: Normalize is not idempotent (for about 5 % of
	// angles it moves R by an ulp on every call), and a sleeping body whose
	// R changed looks moved by the game, so a resting disc woke 38 times in
	// 20 s.
	// A squared length within 1.9e-12 of 1 puts the length within 0.95e-12
	// (+ an ulp) of 1: renormalised by neither test below, and the usual
	// case (a rotation the solver normalised), so its root is not taken.
	if q := t.R.C*t.R.C + t.R.S*t.R.S; !(math.Abs(q-1) <= 1.9e-12) {
		if off := math.Abs(math.Sqrt(q) - 1); !(off <= 1e-3) {
			return "Transform.R", "is not a unit rotation (use components.NewRot)"
		} else if off > 1e-12 {
			t.R = t.R.Normalize()
		}
	}
	// x*0 is 0 for finite x and NaN otherwise: one test for the six values
	// on the path every body takes, the slow tests only to name the field.
	if v.Lin.X*0+v.Lin.Y*0+v.Ang*0+f.F.X*0+f.F.Y*0+f.Torque*0 != 0 {
		if !v.Lin.IsFinite() || !components.IsFinite(v.Ang) {
			return "Velocity", "is NaN or infinite"
		}
		return "Force", "is NaN or infinite"
	}
	switch s.Kind {
	case components.ShapeCircle:
		if !(s.Radius > 0) || !components.IsFinite(s.Radius) {
			return "Shape.Radius", "must be > 0 and finite"
		}
	case components.ShapeBox:
		if !(s.Half.X > 0) || !(s.Half.Y > 0) || !s.Half.IsFinite() {
			return "Shape.Half", "must be > 0 and finite"
		}
	default:
		return "Shape.Kind", "is not a circle or a box"
	}
	if b.Type > components.Kinematic {
		return "Body.Type", "is not dynamic, static or kinematic"
	}
	if !components.IsFinite(b.GravityScale) || !(b.LinearDamping >= 0) || !(b.AngularDamping >= 0) ||
		!components.IsFinite(b.LinearDamping) || !components.IsFinite(b.AngularDamping) {
		return "Body", "has a NaN, infinite or negative setting"
	}
	if b.Type == components.Dynamic {
		if !(m.InvMass > 0) || !components.IsFinite(m.InvMass) || !(m.InvInertia >= 0) || !components.IsFinite(m.InvInertia) {
			return "Mass", "is not usable: a dynamic body needs a finite mass > 0 (use ecs.SetMass)"
		}
	}
	if !(mat.Friction >= 0) || !components.IsFinite(mat.Friction) || !(mat.Restitution >= 0) || !(mat.Restitution <= 1) {
		return "Material", "needs friction >= 0 and restitution in [0, 1]"
	}
	return "", ""
}

// gather reads every body once into the moving and frozen rows. It returns
// true if it woke bodies (a game woke one member of a sleeping island, or
// gave a sleeping body a velocity or force), in which case the caller gathers
// again so that the woken bodies are simulated this tick.
func (p *Physics) gather(w *arche.World) (woke bool) {
	p.errs = p.errs[:0]
	p.ents, p.proxies, p.mats, p.aabbs, p.reach = p.ents[:0], p.proxies[:0], p.mats[:0], p.aabbs[:0], p.reach[:0]
	p.sensor.moving = p.sensor.moving[:0]
	p.motion = p.motion[:0]
	p.s.Bodies, p.s.Sims = p.s.Bodies[:0], p.s.Sims[:0]
	p.frozen.begin()
	half := 0.5 * p.cfg.SpeculativeDistance
	dt := p.cfg.Dt
	wake := p.sleep.wakeNow[:0]

	q := p.awakeFilter.Query(w)
	seen := q.Count()
	ahead := p.ahead()
	for q.Next() {
		t, v, s, mat, b, m, f := q.Get()
		e := q.Entity()
		frozen := b.Type == components.Static || b.Type == components.Kinematic && v.Lin == (components.Vec2{}) && v.Ang == 0
		// A moving body's row is next only if the tick left it out for a
		// bad value (addLeftOut): kept as it was, it is reported again, and
		// the rows after it are kept too. Dropped and made anew every tick,
		// one such body had a level of 20 000 sleeping boxes rebuilt every
		// tick, 2.3 times as long (a review's probe).
		if (frozen || p.frozen.bads > 0 && p.frozen.nextIs(e)) && p.frozen.keep(e, false, t, v, s, mat, b, m, f) {
			if p.frozen.keptBad() {
				if field, reason := check(t, v, s, b, m, mat, f); field != "" {
					p.errs = append(p.errs, ecs.BodyError{Entity: e, Field: field, Reason: reason})
				}
			}
			continue
		}
		if field, reason := check(t, v, s, b, m, mat, f); field != "" {
			p.errs = append(p.errs, ecs.BodyError{Entity: e, Field: field, Reason: reason})
			p.frozen.addLeftOut(e, &frozenSrc{*t, *v, *s, *mat, *b, *m, *f}, half)
			continue
		}
		if frozen {
			p.frozen.add(e, &frozenSrc{*t, *v, *s, *mat, *b, *m, *f}, false, half)
			continue
		}
		if p.sleep.inSet(e) {
			wake = append(wake, e)
		}
		kind := solver.KindDynamic
		if b.Type == components.Kinematic {
			kind = solver.KindKinematic
		}
		// A dynamic body moves at most at the speeds the solver caps it to,
		// whatever the game set: the margins below follow the capped motion.
		lin, ang := v.Lin, v.Ang
		if kind == solver.KindDynamic && (lin.LenSq() > p.capSpeedSq || math.Abs(ang) > p.capSpin) {
			lin, ang = p.params.CapSpeeds(lin, ang)
		}
		ext := s.MaxExtent()
		spin := ext * math.Abs(ang)
		speed := lin.Len() + spin
		if n := len(p.ents); ahead && n%aheadRun == 0 {
			p.prefetchGather(n + aheadRows)
		}
		p.ents = append(p.ents, e)
		p.motion = append(p.motion, motion{v: lin, spin: spin})
		if mat.Sensor {
			p.sensor.moving = append(p.sensor.moving, int32(len(p.proxies)))
		}
		p.proxies = appendProxy(p.proxies, e, t, s, kind, speed, false, rulesOf(mat))
		p.mats = append(p.mats, *mat)
		// Grow the box by half the speculative distance and, on each axis,
		// by the distance the body can cover along it in a step, forwards
		// or backwards, plus its spin: two moving bodies that can touch
		// this step have overlapping boxes, since along each axis their
		// gap closes by at most the sum of the two growths. Against the
		// frozen set (static and sleeping bodies) the box reaches twice as
		// far, so a sleeping body is woken one step before anything
		// reaches it. Growing every side by the full speed made each body
		// of a rain overlap its side neighbours' boxes, and growing by
		// twice the distance for moving pairs too made circle_rain's grid
		// test a third more candidates than needed.
		sx, sy := axisSpeeds(lin, spin)
		dx, dy := dt*sx, dt*sy
		box := s.AABB(*t)
		p.aabbs = append(p.aabbs, growAxes(box, half, dx, dy))
		p.reach = append(p.reach, growAxes(box, half, 2*dx, 2*dy))
		// The solver rows are written field by field in place, as
		// appendProxy writes its row: appended as literals, each went
		// through a stack temporary (see storeTask.Run), and the gather of
		// large_pyramid took 0.30-0.33 ms a step on one worker against
		// 0.24-0.26 (alternating runs).
		p.s.Bodies = append(p.s.Bodies, solver.BodyState{})
		st := &p.s.Bodies[len(p.s.Bodies)-1]
		st.V, st.W, st.DQ = v.Lin, v.Ang, components.Identity
		p.s.Sims = append(p.s.Sims, solver.BodySim{})
		sim := &p.s.Sims[len(p.s.Sims)-1]
		sim.X, sim.InvMass, sim.InvInertia = *t, m.InvMass, m.InvInertia
		sim.Force, sim.Torque, sim.GravityScale = f.F, f.Torque, b.GravityScale
		sim.LinearDamping, sim.AngularDamping, sim.MaxExtent = b.LinearDamping, b.AngularDamping, ext
		sim.Turn, sim.Kind, sim.Round = components.Identity, kind, s.Kind == components.ShapeCircle
	}

	inSets := 0
	q = p.sleepingFilter.Query(w)
	seen += q.Count()
	for q.Next() {
		t, v, s, mat, b, m, f := q.Get()
		e := q.Entity()
		if p.sleep.inSet(e) {
			inSets++
		}
		if p.frozen.keep(e, true, t, v, s, mat, b, m, f) {
			continue
		}
		if field, reason := check(t, v, s, b, m, mat, f); field != "" {
			// Woken, it is reported among the awake bodies until the game
			// mends it, and simulated from then on, wherever the game put
			// it: left asleep, a box given a NaN position and then moved
			// stayed asleep in the air.
			p.errs = append(p.errs, ecs.BodyError{Entity: e, Field: field, Reason: reason})
			wake = append(wake, e)
			continue
		}
		if v.Lin != (components.Vec2{}) || v.Ang != 0 || f.F != (components.Vec2{}) || f.Torque != 0 || b.Type != components.Dynamic {
			wake = append(wake, e)
		}
		p.frozen.add(e, &frozenSrc{*t, *v, *s, *mat, *b, *m, *f}, true, half)
	}
	if qb := p.anyBody.Query(w); qb.Count() > seen {
		p.reportIncomplete(qb)
	} else {
		qb.Close()
	}
	if inSets < p.sleep.members {
		wake = p.sleep.brokenSets(w, p.sleepingID, wake)
	}
	if !p.frozen.finish() {
		// Every row as the last gather left it: the hash too.
	} else if h := p.frozen.computeHash(); !p.frozen.built || h != p.frozen.hash {
		if p.frozen.built {
			wake = p.frozen.disturbed(w, &p.bodies, wake)
		}
		p.frozen.keepRows()
		p.grid.SetFrozen(p.frozen.aabbs)
		p.frozen.hash, p.frozen.built = h, true
	}
	wake = p.gatherJoints(w, wake)
	p.sleep.wakeNow = wake
	if len(wake) > 0 {
		p.sleep.wake(w, wake, p.sleepingIDs)
		return true
	}
	return false
}

// reportIncomplete reports, from q (the entities with a Body component,
// which it closes), those that lack another of the seven body components:
// a game removed one itself, and the physics queries no longer see them.
func (p *Physics) reportIncomplete(q generic.Query1[components.Body]) {
	for q.Next() {
		if c := ecs.MissingBodyComponent(p.world, q.Entity()); c != "" {
			p.errs = append(p.errs, ecs.BodyError{Entity: q.Entity(), Field: c,
				Reason: "is missing: the seven body components go together (ecs.NewBody adds them, ecs.RemoveBody removes them)"})
		}
	}
}
