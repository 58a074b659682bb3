package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// CollideCircles returns the manifold of a circle of radius ra at pose xfA
// against a circle of radius rb at pose xfB (Box2D v3 b2CollideCircles).
//
// With d the centre distance and n the unit centre-to-centre direction, the
// separation is d - ra - rb and the point lies midway between the surface
// points cA + ra n and cB - rb n, that is at cA + (ra + sep/2) n. Coincident
// centres have no direction; the normal is then +y, an arbitrary but fixed
// choice, so the result is never NaN. The single point has ID 0.
func CollideCircles(ra float64, xfA components.Transform, rb float64, xfB components.Transform, margin float64) Manifold {
	var m Manifold
	collideCircles(&m, ra, xfA, rb, xfB, margin)
	return m
}

// collideCircles is CollideCircles writing into m, which must be zero.
func collideCircles(m *Manifold, ra float64, xfA components.Transform, rb float64, xfB components.Transform, margin float64) {
	d := xfB.P.Sub(xfA.P)
	distSq := d.LenSq()
	dist := math.Sqrt(distSq)
	sep := dist - ra - rb
	if !(sep <= margin) {
		return
	}
	n := components.Vec2{X: 0, Y: 1}
	if distSq > 0 {
		// distSq > 0 guarantees dist > 0 (sqrt of a positive double is
		// positive), so the division is finite.
		n = d.Scale(1 / dist)
	}
	m.Normal = n
	m.Points[0] = Point{P: xfA.P.MulAdd(ra+0.5*sep, n), Separation: sep}
	m.Count = 1
}

// CollideBoxCircle returns the manifold of a box of half extents half at pose
// xfA against a circle of radius r at pose xfB (Box2D v3
// b2CollidePolygonAndCircle, specialised to a box, for which the closest
// point is a clamp).
//
// In the box frame, let c be the circle centre and q = clamp(c, -half, half)
// the closest point of the solid box to c. If c is outside the box, the
// normal is (c - q)/|c - q| and the separation |c - q| - r. If c is inside
// (q == c) the closest boundary point lies on the face of least penetration,
// the face whose plane is nearest to c: that face's outward normal is the
// contact normal, q is c projected onto it and the separation is -(plane
// distance) - r. This is the exact signed distance from the rounded box
// (box Minkowski-summed with the disc) to the centre, so it is the minimum
// translation that separates the shapes. The point lies midway between the
// box surface point q and the circle surface point c - r n, at q + (sep/2) n.
// The single point has ID 0.
func CollideBoxCircle(half components.Vec2, xfA components.Transform, r float64, xfB components.Transform, margin float64) Manifold {
	var m Manifold
	collideBoxCircle(&m, half, xfA, r, xfB, margin)
	return m
}

// collideBoxCircle is CollideBoxCircle writing into m, which must be zero.
func collideBoxCircle(m *Manifold, half components.Vec2, xfA components.Transform, r float64, xfB components.Transform, margin float64) {
	c := xfA.InvApply(xfB.P)
	q := clampToBox(c, half)
	d := c.Sub(q)
	distSq := d.LenSq()
	var n components.Vec2
	var sep float64
	if distSq > 0 {
		// Centre outside the box (distSq > 0 implies dist > 0, no NaN).
		dist := math.Sqrt(distSq)
		sep = dist - r
		if !(sep <= margin) {
			return
		}
		n = d.Scale(1 / dist)
	} else {
		// Centre inside or on the boundary: least-penetration face. Ties
		// (the centre on a diagonal) prefer the x faces, then the positive
		// side, so the choice is deterministic.
		dx := half.X - math.Abs(c.X)
		dy := half.Y - math.Abs(c.Y)
		if dx <= dy {
			sx := 1.0
			if c.X < 0 {
				sx = -1
			}
			n = components.Vec2{X: sx, Y: 0}
			q = components.Vec2{X: sx * half.X, Y: c.Y}
			sep = -dx - r
		} else {
			sy := 1.0
			if c.Y < 0 {
				sy = -1
			}
			n = components.Vec2{X: 0, Y: sy}
			q = components.Vec2{X: c.X, Y: sy * half.Y}
			sep = -dy - r
		}
		if !(sep <= margin) {
			return
		}
	}
	m.Normal = xfA.R.Rotate(n)
	m.Points[0] = Point{P: xfA.Apply(q.MulAdd(0.5*sep, n)), Separation: sep}
	m.Count = 1
}

// clampToBox returns the point of the solid box of half extents half,
// centred at the origin of its frame, nearest to p (in that frame).
func clampToBox(p, half components.Vec2) components.Vec2 {
	return components.Vec2{X: max(-half.X, min(p.X, half.X)), Y: max(-half.Y, min(p.Y, half.Y))}
}
