package narrowphase

import "github.com/tumble2d/tumble/components"

// LinearSlop is the engine's contact position tolerance in metres (Box2D v3's
// B2_LINEAR_SLOP). It sizes the reference-face hysteresis,
// referenceTolerance, and the engine stops a swept fast body this far short
// of what it would hit (see TimeOfImpact).
const LinearSlop = 0.005

// referenceTolerance is the margin (m) by which box B's best face separation
// must exceed box A's before [CollideBoxes] takes its reference face from B.
//
// Without it, two faces whose separations are equal up to round-off (a box
// resting flat on another has both at zero) would swap the reference role
// from tick to tick as the solver jiggles the stack by nanometres; every swap
// changes the feature IDs, discards the warm-starting impulses and makes the
// stack creep. Box2D v3 uses the same 0.1 * linear slop (b2CollidePolygons).
// The price is that the reported depth may be up to this much deeper than the
// true one when the two separations are that close.
const referenceTolerance = 0.1 * LinearSlop

// Point is one contact point of a manifold.
type Point struct {
	P          components.Vec2 // world point, midway between the two surfaces
	Separation float64         // signed distance along Normal; negative when overlapping
	ID         uint32          // feature id: stable from tick to tick while the same features touch
}

// Manifold is the contact between two shapes. Normal is a unit vector
// pointing from shape A to shape B. Count is 0, 1 or 2; Points[:Count] are
// valid. When Count is 0 the other fields are zero.
type Manifold struct {
	Normal components.Vec2
	Points [2]Point
	Count  int
}

// Feature-id layout for box-box points. IDs only need to be equal for the
// same touching features of the same pair on consecutive ticks (the solver
// matches them within one pair), so they are small bit fields:
//
//	bits 0-1  reference edge index (clip points) or reference vertex (corner points)
//	bits 2-3  incident edge index (clip points) or incident vertex (corner points)
//	bit  4    clip end: 0 for the end nearer the incident edge's first vertex, 1 for the other
//	bit  5    the reference face belongs to box B
//	bit  6    corner-to-corner point of a separated pair (no clipping)
//
// Box edge i runs from vertex i to vertex i+1 (mod 4), counter-clockwise, with
// vertex 0 at (-hx, -hy): edge 0 is the -y face, 1 is +x, 2 is +y, 3 is -x,
// the order of Box2D's b2MakeBox. Circle contacts have one point and use
// ID 0: a circle has no features, so the only question the solver asks (is
// this still the same contact?) is answered by the pair itself.
const (
	idClipEnd   = 1 << 4
	idRefIsB    = 1 << 5
	idCornerPts = 1 << 6
)

// Collide returns the manifold of shape a at pose xfA against shape b at pose
// xfB, dispatching on the shape kinds (circle-circle, circle-box, box-circle,
// box-box). Points whose separation exceeds margin (the speculative margin,
// >= 0) are dropped, except the second end of a clipped box edge whose first
// end is within margin, which is kept up to twice margin (see clipManifold);
// a pair farther apart than margin gives Count == 0. An invalid shape kind
// also gives Count == 0.
//
// Circle A against box B runs the box-circle kernel with the roles swapped
// and negates the normal: separations and points are symmetric in A and B,
// only the normal's direction depends on the order.
func Collide(a components.Shape, xfA components.Transform, b components.Shape, xfB components.Transform, margin float64) Manifold {
	var m Manifold
	CollideInto(&m, a, xfA, b, xfB, margin)
	return m
}

// CollideInto is [Collide] writing the manifold into *dst, all of it (a
// Count of 0 leaves the other fields zero). The engine's narrow phase calls
// it with a manifold on its stack: the kernels then build the result in
// place rather than returning 88 bytes by value through each call level.
func CollideInto(dst *Manifold, a components.Shape, xfA components.Transform, b components.Shape, xfB components.Transform, margin float64) {
	*dst = Manifold{}
	switch {
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeCircle:
		collideCircles(dst, a.Radius, xfA, b.Radius, xfB, margin)
	case a.Kind == components.ShapeBox && b.Kind == components.ShapeCircle:
		collideBoxCircle(dst, a.Half, xfA, b.Radius, xfB, margin)
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeBox:
		collideBoxCircle(dst, b.Half, xfB, a.Radius, xfA, margin)
		if dst.Count > 0 {
			dst.Normal = dst.Normal.Neg()
		}
	case a.Kind == components.ShapeBox && b.Kind == components.ShapeBox:
		collideBoxes(dst, a.Half, xfA, b.Half, xfB, margin)
	}
}

// relative returns the pose of frame 2 expressed in frame 1: xf1^-1 * xf2.
func relative(xf1, xf2 components.Transform) components.Transform {
	return components.Transform{
		P: xf1.R.InvRotate(xf2.P.Sub(xf1.P)),
		R: xf1.R.InvMul(xf2.R),
	}
}
