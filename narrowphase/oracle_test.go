package narrowphase

import (
	"math"
	"math/rand/v2"

	"github.com/tumble2d/tumble/components"
)

// This file holds the brute-force oracle the property tests compare the
// kernels against. It works in world coordinates on explicit vertex lists and
// shares no code with the kernels beyond components.Transform.Apply.

type vec = components.Vec2

// worldBox returns the counter-clockwise world vertices of a box.
func worldBox(h vec, xf components.Transform) [4]vec {
	return [4]vec{
		xf.Apply(vec{X: -h.X, Y: -h.Y}),
		xf.Apply(vec{X: h.X, Y: -h.Y}),
		xf.Apply(vec{X: h.X, Y: h.Y}),
		xf.Apply(vec{X: -h.X, Y: h.Y}),
	}
}

// pointSegDist is the Euclidean distance from p to segment a-b.
func pointSegDist(p, a, b vec) float64 {
	ab := b.Sub(a)
	u := 0.0
	if l := ab.LenSq(); l > 0 {
		u = math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l))
	}
	return p.Sub(a.Add(ab.Scale(u))).Len()
}

// polySD is the signed distance from p to the convex CCW polygon v
// (negative inside): plus or minus the distance to the nearest edge.
func polySD(v [4]vec, p vec) float64 {
	inside := true
	d := math.Inf(1)
	for i := range 4 {
		a, b := v[i], v[(i+1)%4]
		if b.Sub(a).Cross(p.Sub(a)) < 0 {
			inside = false
		}
		d = math.Min(d, pointSegDist(p, a, b))
	}
	if inside {
		return -d
	}
	return d
}

// faceSep returns the largest separation over the edge normals of polygon p
// against polygon q: max_i min_j (q_j - p_i) . n_i, with the normals computed
// from the world edges.
func faceSep(p, q [4]vec) float64 {
	best := math.Inf(-1)
	for i := range 4 {
		e := p[(i+1)%4].Sub(p[i])
		n, _ := vec{X: e.Y, Y: -e.X}.Normalize()
		s := math.Inf(1)
		for j := range 4 {
			s = math.Min(s, q[j].Sub(p[i]).Dot(n))
		}
		best = math.Max(best, s)
	}
	return best
}

// boxBoxOracle returns the true signed distance between two boxes (the
// distance when separated, minus the penetration depth when overlapping) and
// the best face separations of A and B. For convex polygons the separating
// axis theorem makes the penetration depth exactly -max(sA, sB) (the minimum
// translation is along a face normal); for disjoint ones the distance is
// attained between a vertex and an edge, so the minimum over all 32 pairs is
// exact.
func boxBoxOracle(ha vec, xfA components.Transform, hb vec, xfB components.Transform) (sd, sA, sB float64) {
	pa, pb := worldBox(ha, xfA), worldBox(hb, xfB)
	sA, sB = faceSep(pa, pb), faceSep(pb, pa)
	s := math.Max(sA, sB)
	if s <= 0 {
		return s, sA, sB
	}
	d := math.Inf(1)
	for i := range 4 {
		for j := range 4 {
			d = math.Min(d, pointSegDist(pa[i], pb[j], pb[(j+1)%4]))
			d = math.Min(d, pointSegDist(pb[i], pa[j], pa[(j+1)%4]))
		}
	}
	return d, sA, sB
}

// shapeSD is the signed distance from p to a shape at pose xf.
func shapeSD(s components.Shape, xf components.Transform, p vec) float64 {
	if s.Kind == components.ShapeCircle {
		return p.Sub(xf.P).Len() - s.Radius
	}
	return polySD(worldBox(s.Half, xf), p)
}

// pairSD is the true signed distance between two shapes.
func pairSD(a components.Shape, xfA components.Transform, b components.Shape, xfB components.Transform) float64 {
	switch {
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeCircle:
		return xfB.P.Sub(xfA.P).Len() - a.Radius - b.Radius
	case a.Kind == components.ShapeBox && b.Kind == components.ShapeCircle:
		return polySD(worldBox(a.Half, xfA), xfB.P) - b.Radius
	case a.Kind == components.ShapeCircle && b.Kind == components.ShapeBox:
		return polySD(worldBox(b.Half, xfB), xfA.P) - a.Radius
	}
	sd, _, _ := boxBoxOracle(a.Half, xfA, b.Half, xfB)
	return sd
}

// randShape returns a circle or box of size (diameter or side) 0.1..5 m.
func randShape(r *rand.Rand, kind components.ShapeKind) components.Shape {
	size := func() float64 { return 0.1 + 4.9*r.Float64() }
	if kind == components.ShapeCircle {
		return components.Circle(size() / 2)
	}
	return components.Box(size()/2, size()/2)
}

// randPair places b near a: A anywhere in a 20 m square at any angle, B at a
// random direction from A at a distance spread over deep overlap, touching
// and separated by up to about a metre.
func randPair(r *rand.Rand, a, b components.Shape) (components.Transform, components.Transform) {
	xfA := components.NewTransform(20*r.Float64()-10, 20*r.Float64()-10, 2*math.Pi*r.Float64()-math.Pi)
	reach := a.MaxExtent() + b.MaxExtent()
	dist := reach * (0.1 + 1.1*r.Float64())
	if r.IntN(4) == 0 {
		dist = reach * r.Float64() * 0.3
	}
	ang := 2 * math.Pi * r.Float64()
	xfB := components.NewTransform(xfA.P.X+dist*math.Cos(ang), xfA.P.Y+dist*math.Sin(ang), 2*math.Pi*r.Float64()-math.Pi)
	return xfA, xfB
}
