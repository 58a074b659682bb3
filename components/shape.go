package components

import "math"

// ShapeKind says which member of the [Shape] union is in use.
type ShapeKind uint8

const (
	// ShapeCircle is a disc of radius Shape.Radius centred on the body origin.
	ShapeCircle ShapeKind = iota + 1
	// ShapeBox is a rectangle of half extents Shape.Half centred on the body
	// origin and rotated with the body.
	ShapeBox
)

// String returns "circle", "box" or "invalid".
func (k ShapeKind) String() string {
	switch k {
	case ShapeCircle:
		return "circle"
	case ShapeBox:
		return "box"
	}
	return "invalid"
}

// Shape is a fixed-size union of the collision shapes, centred on the body
// origin. Build it with [Circle] or [Box].
type Shape struct {
	Kind   ShapeKind
	Radius float64 // circle radius (m)
	Half   Vec2    // box half extents (m)
}

// Circle returns a circle shape of radius r.
func Circle(r float64) Shape { return Shape{Kind: ShapeCircle, Radius: r} }

// Box returns a box shape of half extents hx and hy.
func Box(hx, hy float64) Shape { return Shape{Kind: ShapeBox, Half: Vec2{hx, hy}} }

// AABB returns the tight world bounding box of s at pose xf.
func (s Shape) AABB(xf Transform) AABB {
	var e Vec2
	if s.Kind == ShapeCircle {
		e = Vec2{s.Radius, s.Radius}
	} else {
		// Extent of a rotated box: |R| * h, column by column.
		c, sn := math.Abs(xf.R.C), math.Abs(xf.R.S)
		e = Vec2{c*s.Half.X + sn*s.Half.Y, sn*s.Half.X + c*s.Half.Y}
	}
	return AABB{xf.P.Sub(e), xf.P.Add(e)}
}

// Area returns the area of s in square metres.
func (s Shape) Area() float64 {
	if s.Kind == ShapeCircle {
		return math.Pi * s.Radius * s.Radius
	}
	return 4 * s.Half.X * s.Half.Y
}

// MassData returns the mass and the rotational inertia about the centre of a
// shape of uniform density (kg/m^2): m r^2 / 2 for a disc, m (w^2 + h^2) / 12
// for a w x h rectangle.
func (s Shape) MassData(density float64) (mass, inertia float64) {
	mass = density * s.Area()
	return mass, s.UnitInertia() * mass
}

// UnitInertia returns the rotational inertia per kilogram of mass.
func (s Shape) UnitInertia() float64 {
	if s.Kind == ShapeCircle {
		return 0.5 * s.Radius * s.Radius
	}
	w, h := 2*s.Half.X, 2*s.Half.Y
	return (w*w + h*h) / 12
}

// MaxExtent returns the largest distance from the body origin to a point of s.
func (s Shape) MaxExtent() float64 {
	if s.Kind == ShapeCircle {
		return s.Radius
	}
	return s.Half.Len()
}
