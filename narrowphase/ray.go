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
// A circle solves |m + t d|^2 = r^2 with m the origin relative to the
// centre: t = (-m.d - sqrt((m.d)^2 - |d|^2 (|m|^2 - r^2))) / |d|^2, the
// smaller root. A box clips the segment, in its own frame, between the two
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

func rayCircle(r float64, c, origin, d components.Vec2) (float64, components.Vec2, bool) {
	m := origin.Sub(c)
	cc := m.Dot(m) - r*r
	b := m.Dot(d)
	if cc < 0 || b >= 0 { // starts inside, or moves away from the centre
		return 0, components.Vec2{}, false
	}
	a := d.Dot(d)
	disc := b*b - a*cc
	if disc < 0 {
		return 0, components.Vec2{}, false
	}
	t := (-b - math.Sqrt(disc)) / a
	if !(t >= 0 && t <= 1) {
		return 0, components.Vec2{}, false
	}
	n := m.Add(d.Scale(t))
	if l := n.Len(); l > 0 {
		n = n.Scale(1 / l)
	} else {
		n = d.Scale(-1 / math.Sqrt(a)) // a zero radius, met at its centre
	}
	return t, n, true
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
