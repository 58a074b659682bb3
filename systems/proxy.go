package systems

import (
	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/solver"
)

// bodyProxy is one body as the narrow phase sees it: everything a candidate
// pair needs to be ordered, skipped or collided, in one 64-byte row. The
// pairs visit their bodies in grid order, which is random in row order, so
// each lookup is a cache miss; gathered from the entity, solver, shape and
// speed rows (BodySim alone spans two lines) a body cost five or six misses,
// and about a fifth of circle_rain's time went to them. The material and the
// full entity are left out: only pairs whose manifold has points, a small
// share of the candidates, need them.
//
// A shape is a circle or a box, never both (check rejects any other kind), so
// one vector holds the box half extents or, in X, the circle radius; shape
// rebuilds the components.Shape the kernels read, bit for bit. The slice is
// pointer-free, so Go allocates it without a header at a multiple of its
// size class, and every size class a multiple of 64 bytes lands on is
// itself a multiple of 64: rows start on a cache line. That is the allocator's
// behaviour in Go 1.26, not a promise; a misaligned slice is slower, not wrong.
type bodyProxy struct {
	xf    components.Transform
	half  components.Vec2 // box half extents, or the circle radius in X
	speed float64         // |v| + r_max |w|, m/s; 0 for frozen rows
	id    uint32          // entity ID, to order the two bodies of a pair
	shape components.ShapeKind
	// kind is KindStatic for every frozen row: a sleeping body does not move
	// this tick and has no solver row.
	kind     solver.Kind
	sleeping bool
	// rules holds ruleFiltered when the body's filter is not plain
	// (components.Filter.Plain), and ruleSensor for a sensor: only then
	// does a pair read the two materials.
	rules uint8
}

// The bits of bodyProxy.rules.
const (
	ruleFiltered uint8 = 1 << iota
	ruleSensor
)

// rulesOf returns the bodyProxy.rules of a body of material m.
func rulesOf(m *components.Material) uint8 {
	var r uint8
	if !m.Filter.Plain() {
		r |= ruleFiltered
	}
	if m.Sensor {
		r |= ruleSensor
	}
	return r
}

// appendProxy appends the proxy of entity e to dst. It writes the new row
// field by field in place: built as a literal and appended, the row was
// assembled in a stack temporary and copied with 16-byte loads that waited
// for the temporary's narrower stores (see storeTask.Run).
func appendProxy(dst []bodyProxy, e arche.Entity, xf *components.Transform, s *components.Shape, kind solver.Kind,
	speed float64, sleeping bool, rules uint8) []bodyProxy {
	dst = append(dst, bodyProxy{})
	x := &dst[len(dst)-1]
	x.xf = *xf
	if s.Kind == components.ShapeCircle {
		x.half.X = s.Radius
	} else {
		x.half = s.Half
	}
	x.speed, x.id = speed, e.ID()
	x.shape, x.kind, x.sleeping, x.rules = s.Kind, kind, sleeping, rules
	return dst
}

// shapeOf returns the shape the proxy was made from, with exactly the fields
// the narrow-phase kernel of its kind reads.
func (x *bodyProxy) shapeOf() components.Shape {
	if x.shape == components.ShapeCircle {
		return components.Shape{Kind: components.ShapeCircle, Radius: x.half.X}
	}
	return components.Shape{Kind: components.ShapeBox, Half: x.half}
}

// motion is the velocity of a moving row at the start of the step: its
// linear velocity and spin, the largest speed (m/s) at which rotation moves a
// point of its shape. Kept apart from bodyProxy, which is one full cache
// line; 24-byte rows stay in cache for thousands of bodies.
type motion struct {
	v    components.Vec2
	spin float64
}
