package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// RayCast intersects the segment from origin to origin + translation with
// shape s at pose xf. It returns the fraction t in [0, 1] of the first
// point of the segment on the shape's boundary, origin + t translation, and
// the shape's outward unit normal there. A segment that starts inside the
// shape misses it, as in Box2D v3 ("initial overlap is treated as a
// miss"), so a ray cast from within a body leaves it instead of stopping
// at once; so does a zero or non-finite translation.
//
// A circle is met where the segment, at its closest to the centre, is
// still within the radius (see rayCircle). A box clips the segment, in its own frame, between the two
// lines of each pair of faces (the slab test): the segment enters the box
// at the latest of the two entry fractions, through that face.
func RayCast(s components.Shape, xf components.Transform, origin, translation components.Vec2) (t float64, normal components.Vec2, ok bool) {
	if !(translation.X*0 == 0 && translation.Y*0 == 0 && origin.X*0 == 0 && origin.Y*0 == 0) ||
		translation == (components.Vec2{}) {
		return 0, components.Vec2{}, false
	}
	switch s.Kind {
	case components.ShapeCircle:
		return rayCircle(s.Radius, xf.P, origin, translation)
	case components.ShapeBox:
		t, n, ok := rayBox(s.Half, xf.InvApply(origin), xf.R.InvRotate(translation))
		return t, xf.R.Rotate(n), ok
	}
	return 0, components.Vec2{}, false
}

// rayCircle works along the unit direction u, as Box2D v3's
// b2RayCastCircle does: the segment comes closest to the centre at
// distance tc along it, at offset q from the centre, and enters the
// circle h = sqrt(r^2 - |q|^2) before that. The textbook quadratic in the
// fraction, b^2 - |d|^2 (|m|^2 - r^2), loses r^2 next to |m|^2 when the
// origin is far: a segment of 2e6 m passing 1.2 radii beside a 1 cm circle
// hit it.
func rayCircle(r float64, c, origin, d components.Vec2) (float64, components.Vec2, bool) {
	m := origin.Sub(c)
	if m.Dot(m) < r*r {
		return 0, components.Vec2{}, false // starts inside
	}
	length := d.Len()
	if !(length > 1e-150 && length < 1e150) {
		// |d| through d scaled to about 1: its square overflows past 1e154
		// and underflows below 1e-160.
		sc := max(math.Abs(d.X), math.Abs(d.Y))
		length = sc * d.Scale(1/sc).Len()
	}
	u := d.Scale(1 / length)
	tc := -m.Dot(u)
	q := m.Add(u.Scale(tc))
	h := r*r - q.Dot(q)
	if h < 0 {
		return 0, components.Vec2{}, false
	}
	t := tc - math.Sqrt(h)
	if !(t >= 0 && t <= length) {
		return 0, components.Vec2{}, false
	}
	n := m.Add(u.Scale(t))
	if l := n.Len(); l > 0 {
		n = n.Scale(1 / l)
	} else {
		n = u.Neg() // a zero radius, met at its centre
	}
	return t / length, n, true
}

// rayBox is the slab test in the box's frame: o and d are the origin and
// translation there, h the half extents. The segment enters the box at the
// latest of the fractions at which it enters each slab, through that face,
// if that comes before the earliest exit; an entry before the origin means
// the origin is inside.
func rayBox(h, o, d components.Vec2) (float64, components.Vec2, bool) {
	enter, exit := math.Inf(-1), math.Inf(1)
	var n components.Vec2
	for axis := 0; axis < 2; axis++ {
		oi, di, hi := o.X, d.X, h.X
		if axis == 1 {
			oi, di, hi = o.Y, d.Y, h.Y
		}
		if di == 0 {
			if math.Abs(oi) > hi {
				return 0, components.Vec2{}, false // parallel to the slab, outside it
			}
			continue
		}
		side := -1.0 // moving up the axis, it enters through the face at -h
		if di < 0 {
			side = 1
		}
		if t := (side*hi - oi) / di; t > enter {
			enter = t
			n = components.Vec2{}
			if axis == 0 {
				n.X = side
			} else {
				n.Y = side
			}
		}
		exit = min(exit, (-side*hi-oi)/di)
	}
	if !(enter >= 0 && enter <= 1 && enter <= exit) {
		return 0, components.Vec2{}, false
	}
	return enter, n, true
}
