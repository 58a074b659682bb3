package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// Distance returns the distance d between shape a at pose xfA and shape b at
// pose xfB, and the unit normal n, pointing from a to b, along which the two
// closest points lie. The time-of-impact search advances along n.
//
// For shapes that do not overlap, d is the exact Euclidean distance. For
// overlapping shapes d <= 0: minus the penetration depth for circles and
// box-circle pairs, and the larger face separation for two boxes (minus the
// depth too, by the separating axis theorem), with n the axis it was
// measured on. An invalid shape kind gives +Inf.
//
// Two disjoint convex polygons are closest between a vertex of one and an
// edge of the other, so two boxes need the distances of eight vertices to
// the other box, after a separating-axis test rules out overlap (two boxes
// crossed like a plus sign overlap with no vertex inside the other).
func Distance(a components.Shape, xfA components.Transform, b components.Shape, xfB components.Transform) (d float64, n components.Vec2) {
	switch {
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeCircle:
		d, n = pointDistance(xfA.P, xfB.P)
		return d - a.Radius - b.Radius, n
	case a.Kind == components.ShapeBox && b.Kind == components.ShapeCircle:
		d, n = pointBoxDistance(a.Half, xfA.InvApply(xfB.P))
		return d - b.Radius, xfA.R.Rotate(n)
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeBox:
		d, n = pointBoxDistance(b.Half, xfB.InvApply(xfA.P))
		return d - a.Radius, xfB.R.Rotate(n).Neg()
	case a.Kind == components.ShapeBox && b.Kind == components.ShapeBox:
		return boxDistance(a.Half, xfA, b.Half, xfB)
	}
	return math.Inf(1), components.Vec2{Y: 1}
}

// pointDistance returns the distance from p to q and the unit direction from
// p to q (+y for coincident points, as in CollideCircles).
func pointDistance(p, q components.Vec2) (float64, components.Vec2) {
	dv := q.Sub(p)
	l := dv.Len()
	if l == 0 {
		return 0, components.Vec2{Y: 1}
	}
	return l, dv.Scale(1 / l)
}

// pointBoxDistance returns the signed distance from the axis-aligned box of
// half extents h to the point c in the box's frame, and the outward unit
// normal at the closest point of the surface. Inside, the distance is minus
// the depth below the nearest face. The cases and their ties follow
// collideBoxCircle, which also needs the closest point and keeps its
// division for pairs within its margin: the x faces first, then the
// positive side, and "inside" whenever the squared offset from the box is
// 0 (also when it underflows, where a normal would be NaN).
func pointBoxDistance(h, c components.Vec2) (float64, components.Vec2) {
	q := components.Vec2{X: max(-h.X, min(c.X, h.X)), Y: max(-h.Y, min(c.Y, h.Y))}
	dv := c.Sub(q)
	if distSq := dv.LenSq(); distSq > 0 {
		l := math.Sqrt(distSq)
		return l, dv.Scale(1 / l)
	}
	dx, dy := h.X-math.Abs(c.X), h.Y-math.Abs(c.Y)
	if dx <= dy {
		if c.X < 0 {
			return -dx, components.Vec2{X: -1}
		}
		return -dx, components.Vec2{X: 1}
	}
	if c.Y < 0 {
		return -dy, components.Vec2{Y: -1}
	}
	return -dy, components.Vec2{Y: 1}
}

// boxDistance is Distance for two boxes.
func boxDistance(ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform) (float64, components.Vec2) {
	relB := relative(xfA, xfB) // B in A's frame
	relA := relative(xfB, xfA) // A in B's frame
	edgeA, sepA := maxSeparation(ha, hb, relB)
	edgeB, sepB := maxSeparation(hb, ha, relA)
	if sepA <= 0 && sepB <= 0 {
		if sepA >= sepB {
			return sepA, xfA.R.Rotate(faceNormal(edgeA))
		}
		return sepB, xfB.R.Rotate(faceNormal(edgeB)).Neg()
	}
	// Separated: every vertex lies outside the other box, where the
	// point-box distance is the Euclidean one.
	var w [4]components.Vec2
	best := math.Inf(1)
	var n components.Vec2
	boxVertices(&w, hb, relB)
	for _, v := range w {
		if d, m := pointBoxDistance(ha, v); d < best {
			best, n = d, xfA.R.Rotate(m)
		}
	}
	boxVertices(&w, ha, relA)
	for _, v := range w {
		if d, m := pointBoxDistance(hb, v); d < best {
			best, n = d, xfB.R.Rotate(m).Neg()
		}
	}
	return best, n
}
