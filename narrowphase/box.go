package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// CollideBoxes returns the manifold of a box of half extents ha at pose xfA
// against a box of half extents hb at pose xfB. It follows Box2D v3
// b2CollidePolygons / b2ClipPolygons and Catto's "Contact Manifolds" (GDC
// 2007):
//
//  1. Separating axes. For two convex polygons the minimum translation
//     distance, and for separated ones a separating axis, is found among the
//     face normals. Each box's best face is the one whose plane has the
//     largest signed distance to the other box's deepest vertex. If either is
//     above margin the boxes are farther apart than margin (a face
//     separation is a lower bound on the distance) and the result is empty.
//  2. Reference face: A's best face unless B's separation is larger by more
//     than 0.1 * linear slop (0.0005 m), so the role does not flip-flop on a
//     resting stack where both are zero up to round-off.
//  3. Incident edge: the edge of the other box whose normal is most
//     anti-parallel to the reference normal. It holds the other box's
//     deepest vertex along that normal.
//  4. Separated pairs (reference separation > 0) whose closest features, the
//     closest points between the reference and incident edges, are two
//     corners offset along the reference face get one corner-to-corner point
//     with the corner-to-corner normal, as in Box2D v3; clipping would
//     otherwise miss them or overstate their distance. Corners straight
//     across the gap (an aligned column) are left to clipping, so a box
//     hovering over another gets the same two points as a resting one.
//  5. Otherwise the incident edge is clipped (Sutherland-Hodgman) against
//     the two side planes of the reference face; each clipped end whose
//     separation from the reference plane is at most margin becomes a point
//     (and then the other end too if it is within twice margin),
//     moved half its separation back along the normal so it lies midway
//     between the surfaces. A separated pair whose clip keeps nothing falls
//     back to the closest pair of step 4.
//
// All the work happens in the reference box's frame: aligned configurations
// (a box stacked on another, side-by-side neighbours) then give exactly zero
// separations and axis-aligned normals. If the reference face is on B, the
// normal is negated so it still points from A to B.
//
// Guarantees, with d the true signed distance (the gap, or minus the
// penetration depth) and tol = 0.1 * linear slop = 0.0005 m:
//   - No phantom contacts: every reported separation is >= d when d > 0 (a
//     clipped point is a surface point of one box inside the other's side
//     planes, so its plane distance is its distance to that box; a corner
//     point is a real distance), hence Count > 0 implies d <= margin.
//   - Depth: every separation is >= d - tol when d <= 0, because the
//     reference face's separation is within tol of the best one and the
//     incident points lie no deeper than the other box's deepest vertex.
//   - Exactness, verified on random pairs by the property tests (not proved
//     in general): the minimum separation equals d, and Count > 0 whenever
//     d <= margin, except that when A's and B's best face separations are
//     within tol of each other the minimum separation may be off by up to
//     tol (the hysteresis keeps A's face, and clipping may cut the deepest
//     vertex).
//
// Feature ids: see the bit layout beside idClipEnd in manifold.go.
func CollideBoxes(ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform, margin float64) Manifold {
	var m Manifold
	collideBoxes(&m, ha, xfA, hb, xfB, margin)
	return m
}

// collideBoxes is CollideBoxes writing into m, which must be zero. The box
// kernels build the manifold in place: returning the 88-byte Manifold by
// value through each level cost a third of a resting pair's time.
func collideBoxes(m *Manifold, ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform, margin float64) {
	relB := relative(xfA, xfB) // B in A's frame
	edgeA, sepA := maxSeparation(ha, hb, relB)
	if !(sepA <= margin) {
		return
	}
	relA := relative(xfB, xfA) // A in B's frame
	edgeB, sepB := maxSeparation(hb, ha, relA)
	if !(sepB <= margin) {
		return
	}
	if sepB > sepA+referenceTolerance {
		faceManifold(m, hb, xfB, ha, relA, edgeB, sepB, margin, true)
		return
	}
	// faceManifold(..., false) written out: a call more on every pair cost
	// the kernel 5-10 % in alternating benchmark runs.
	var w [4]components.Vec2
	boxVertices(&w, hb, relB)
	refManifold(m, ha, xfA, edgeA, sepA, &w, relB.R, margin)
}

// faceManifold builds into m (zero) the manifold with face ref, of
// separation sep, of the box href at pose xfRef as the reference, against
// the box of half extents ho at pose rel in the reference frame. If the
// reference box is B (refIsB), the normal is negated to point from A to B
// and the IDs are marked.
func faceManifold(m *Manifold, href components.Vec2, xfRef components.Transform, ho components.Vec2, rel components.Transform,
	ref int, sep, margin float64, refIsB bool) {
	var w [4]components.Vec2
	boxVertices(&w, ho, rel)
	refManifold(m, href, xfRef, ref, sep, &w, rel.R, margin)
	if !refIsB || m.Count == 0 {
		return
	}
	m.Normal = m.Normal.Neg()
	for i := 0; i < m.Count; i++ {
		m.Points[i].ID |= idRefIsB
	}
}

// cornerOffset (m) is the offset along the reference face below which a
// separated corner pair counts as lying straight across the gap. It only has
// to exceed round-off in the reference frame (~1e-15 m for metre-sized
// scenes), so that exactly aligned columns do not alternate between one and
// two points.
const cornerOffset = 1e-9

// boxVertices writes the vertices of a box of half extents h at pose xf,
// counter-clockwise from (-hx, -hy).
func boxVertices(v *[4]components.Vec2, h components.Vec2, xf components.Transform) {
	ux := xf.R.X().Scale(h.X)
	uy := xf.R.Y().Scale(h.Y)
	v[0] = xf.P.Sub(ux).Sub(uy)
	v[1] = xf.P.Add(ux).Sub(uy)
	v[2] = xf.P.Add(ux).Add(uy)
	v[3] = xf.P.Sub(ux).Add(uy)
}

// faceNormal returns the outward normal of edge i of an axis-aligned box.
func faceNormal(i int) components.Vec2 {
	switch i & 3 {
	case 0:
		return components.Vec2{X: 0, Y: -1}
	case 1:
		return components.Vec2{X: 1, Y: 0}
	case 2:
		return components.Vec2{X: 0, Y: 1}
	}
	return components.Vec2{X: -1, Y: 0}
}

// boxVertex returns vertex i of an axis-aligned box of half extents h.
func boxVertex(h components.Vec2, i int) components.Vec2 {
	switch i & 3 {
	case 0:
		return components.Vec2{X: -h.X, Y: -h.Y}
	case 1:
		return components.Vec2{X: h.X, Y: -h.Y}
	case 2:
		return components.Vec2{X: h.X, Y: h.Y}
	}
	return components.Vec2{X: -h.X, Y: h.Y}
}

// maxSeparation returns the face of the axis-aligned box h (in its own frame)
// with the largest separation from the box of half extents ho at pose rel in
// that frame, and that separation. The separation of face i is
// min_j (w_j - v_i) . n_i over the other box's vertices w_j (Box2D
// b2FindMaxSeparation); for axis-aligned faces that is an extreme coordinate
// of the other box, its centre minus its projected half extent
// |R| ho (the same extent formula as a rotated box's AABB). Ties keep the
// lowest edge index.
func maxSeparation(h, ho components.Vec2, rel components.Transform) (int, float64) {
	c, s := math.Abs(rel.R.C), math.Abs(rel.R.S)
	ex := c*ho.X + s*ho.Y
	ey := s*ho.X + c*ho.Y
	best, sep := 0, -rel.P.Y-ey-h.Y
	if v := rel.P.X - ex - h.X; v > sep {
		best, sep = 1, v
	}
	if v := rel.P.Y - ey - h.Y; v > sep {
		best, sep = 2, v
	}
	if v := -rel.P.X - ex - h.X; v > sep {
		best, sep = 3, v
	}
	return best, sep
}

// incidentEdge returns the edge of the other box, rotated by r into the
// reference frame, whose outward normal is most anti-parallel to n. Ties keep
// the lowest index.
func incidentEdge(r components.Rot, n components.Vec2) int {
	best, minDot := 0, math.Inf(1)
	for j := 0; j < 4; j++ {
		if d := r.Rotate(faceNormal(j)).Dot(n); d < minDot {
			best, minDot = j, d
		}
	}
	return best
}

// refManifold builds, into m (zero on entry), the manifold with the
// reference face ref of the box href at pose xfRef against the other box,
// whose vertices w are given in the reference frame and whose rotation
// relative to it is r. sepRef is the reference face's separation. The normal
// points from the reference box to the other one; IDs carry no
// reference-side bit.
func refManifold(m *Manifold, href components.Vec2, xfRef components.Transform, ref int, sepRef float64, w *[4]components.Vec2, r components.Rot, margin float64) {
	n := faceNormal(ref)
	inc := incidentEdge(r, n)
	v11, v12 := boxVertex(href, ref), boxVertex(href, ref+1)
	w21, w22 := w[inc], w[(inc+1)&3]

	if sepRef > 0 {
		// Separated: sepRef > 0 makes n a separating axis. If the closest
		// features of the two edges are two corners offset along the
		// reference face, the face normal is not the closest direction and
		// the corner-to-corner normal is used instead (Box2D v3). A corner
		// pair lying straight across the gap (an aligned column of
		// equal boxes) keeps the two clipped points, so a hovering box gets
		// the same manifold, and the same IDs, as a resting one.
		c := closestEdges(v11, v12, w21, w22)
		if c.corner && math.Abs(c.c2.Sub(c.c1).Dot(n.Perp())) > cornerOffset {
			cornerManifold(m, xfRef, &c, ref, inc, margin)
			return
		}
		clipManifold(m, xfRef, n, v11, v12, w21, w22, ref, inc, margin)
		if m.Count == 0 {
			// The incident edge lies beyond a side plane, or its clipped
			// ends lie beyond margin while a closer pair exists: report
			// the closest pair (empty if it too is beyond margin).
			cornerManifold(m, xfRef, &c, ref, inc, margin)
		}
		return
	}
	clipManifold(m, xfRef, n, v11, v12, w21, w22, ref, inc, margin)
	if m.Count == 0 {
		// Overlapping, yet the incident edge misses the reference face's
		// side planes entirely. The random-pair tests never reach this; it
		// is a safety net so an overlapping pair is never reported as
		// untouched: keep the deeper incident vertex.
		p, s := w21, w21.Sub(v11).Dot(n)
		if s2 := w22.Sub(v11).Dot(n); s2 < s {
			p, s = w22, s2
		}
		if s <= margin {
			m.Normal = xfRef.R.Rotate(n)
			m.Points[0] = Point{P: xfRef.Apply(p.MulAdd(-0.5*s, n)), Separation: s, ID: uint32(ref | inc<<2)}
			m.Count = 1
		}
	}
}

// clipManifold clips the incident edge w21-w22 against the side planes of the
// reference edge v11-v12 (outward normal n, all in the reference frame) and
// keeps, in m (zero on entry), the clipped ends within margin of the
// reference plane, and when one is, the other too if it is within twice
// margin.
//
// The second end matters to a box that lands nearly flat. The margin grows
// with the closing speed (a step of it, plus the speculative distance), and
// the end just beyond it is the corner that lands a moment after the first:
// a 1 m box tilted by 1 mrad, falling at 4.2 m/s, had one corner within its
// 9.9 cm margin and the other 1 mm beyond it in 5 of 400 placements of the
// impact within the step (57 of 400 at 10 mrad), bounced on the first corner
// alone, and left spinning at up to 5.7 rad/s (e = 1). With both, the
// restitution takes them together (solver.bouncesTogether). Twice margin
// (two steps of approach and twice the speculative distance) holds every
// corner that can land within a substep of the first; a corner farther up
// (a box on its corner) stays out, as in Box2D. The extra point is
// speculative: the solver pushes on it only if it closes its gap, and the
// restitution decides from the two gaps whether the corners land together.
//
// The side planes are t . (p - v11) >= 0 and t . (p - v12) <= 0 with t the
// reference edge direction. Clipping a segment against two parallel planes
// (Sutherland-Hodgman) keeps the parameter interval [u0, u1] of
// p(u) = (1-u) w21 + u w22; the ends are written in that lerp form so that
// u = 0 and u = 1 reproduce the vertices exactly (exact zero separations for
// aligned stacks). A degenerate interval (u0 == u1, the edge only grazes a
// side plane) gives a single point rather than two coincident ones, which
// would make a block solver's 2x2 system singular.
func clipManifold(m *Manifold, xfRef components.Transform, n, v11, v12, w21, w22 components.Vec2, ref, inc int, margin float64) {
	t := n.Perp()
	upper := v12.Sub(v11).Dot(t)
	a := w21.Sub(v11).Dot(t)
	b := w22.Sub(v11).Dot(t)
	u0, u1 := 0.0, 1.0
	if den := b - a; den != 0 {
		ta, tb := -a/den, (upper-a)/den
		if ta > tb {
			ta, tb = tb, ta
		}
		u0 = max(u0, ta)
		u1 = min(u1, tb)
		if !(u0 <= u1) {
			return
		}
	} else if a < 0 || a > upper {
		return
	}
	id := uint32(ref | inc<<2)
	p0, s0 := clipEnd(n, v11, w21, w22, u0)
	if !(u1 > u0) {
		clipPoint(m, xfRef, n, p0, s0, margin, id)
	} else {
		p1, s1 := clipEnd(n, v11, w21, w22, u1)
		reach := margin
		if min(s0, s1) <= margin {
			reach = 2 * margin // the other end too, if it is within twice margin
		}
		clipPoint(m, xfRef, n, p0, s0, reach, id)
		clipPoint(m, xfRef, n, p1, s1, reach, id|idClipEnd)
	}
	if m.Count > 0 {
		m.Normal = xfRef.R.Rotate(n)
	}
}

// clipEnd returns the point at parameter u of the incident edge w21-w22 and
// its separation from the reference plane through v11 (normal n).
func clipEnd(n, v11, w21, w22 components.Vec2, u float64) (components.Vec2, float64) {
	p := w21.Scale(1 - u).Add(w22.Scale(u))
	return p, p.Sub(v11).Dot(n)
}

// clipPoint appends to m the clipped end p of separation s, moved half its
// separation back along n, if s is at most reach.
func clipPoint(m *Manifold, xfRef components.Transform, n, p components.Vec2, s, reach float64, id uint32) {
	if s <= reach {
		m.Points[m.Count] = Point{P: xfRef.Apply(p.MulAdd(-0.5*s, n)), Separation: s, ID: id}
		m.Count++
	}
}

// edgePair is the closest pair of points between a reference edge and an
// incident edge.
type edgePair struct {
	c1, c2   components.Vec2 // closest points on the reference and incident edges
	dist     float64         // |c2 - c1|
	distSq   float64         // squared distance used while searching
	corner   bool            // both closest points are vertices
	interior bool            // the minimising projection fell inside its segment
	v1, v2   int             // which vertex (0 first, 1 second) of each edge, when corner
}

// closestEdges returns the closest points between segments p1-q1 and p2-q2,
// which must not intersect (they belong to separated boxes). For disjoint
// segments in the plane, one closest point is always an endpoint, so the
// minimum of the four endpoint-to-segment distances is exact; the pair is a
// corner pair when the minimising projection clamps to an endpoint. Ties keep
// the first candidate, which makes exactly-aligned corner pairs corner pairs.
func closestEdges(p1, q1, p2, q2 components.Vec2) edgePair {
	best := edgePair{distSq: math.Inf(1)}
	try := func(p, a, b components.Vec2, pOnRef bool, pv int) {
		ab := b.Sub(a)
		den := ab.LenSq()
		u := 0.0
		if den > 0 {
			u = max(0, min(1, p.Sub(a).Dot(ab)/den))
		}
		c := a.Scale(1 - u).Add(b.Scale(u))
		dsq := p.Sub(c).LenSq()
		if !(dsq < best.distSq) {
			return
		}
		best.distSq = dsq
		best.interior = u > 0 && u < 1
		qv := 0
		if u >= 1 {
			qv = 1
		}
		if pOnRef {
			best.c1, best.c2, best.v1, best.v2 = p, c, pv, qv
		} else {
			best.c1, best.c2, best.v1, best.v2 = c, p, qv, pv
		}
	}
	try(p1, p2, q2, true, 0)
	try(q1, p2, q2, true, 1)
	try(p2, p1, q1, false, 0)
	try(q2, p1, q1, false, 1)
	best.corner = !best.interior
	// Hypot rather than sqrt(distSq): distSq may underflow for nearly
	// touching corners, Hypot keeps a positive distance whenever the points
	// differ.
	d := best.c2.Sub(best.c1)
	best.dist = math.Hypot(d.X, d.Y)
	return best
}

// cornerManifold writes into m (zero on entry) the single-point manifold of
// a separated closest pair c: normal from c.c1 (reference box) to c.c2,
// point at the midpoint, separation the distance (Box2D v3
// b2CollidePolygons, vertex-vertex case).
func cornerManifold(m *Manifold, xfRef components.Transform, c *edgePair, ref, inc int, margin float64) {
	if !(c.dist <= margin) || !(c.dist > 0) {
		return
	}
	d := c.c2.Sub(c.c1)
	n := components.Vec2{X: d.X / c.dist, Y: d.Y / c.dist}
	m.Normal = xfRef.R.Rotate(n)
	m.Points[0] = Point{
		P:          xfRef.Apply(c.c1.Add(c.c2).Scale(0.5)),
		Separation: c.dist,
		ID:         uint32((ref+c.v1)&3|((inc+c.v2)&3)<<2) | idCornerPts,
	}
	m.Count = 1
}
