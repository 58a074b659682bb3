package components

// AABB is an axis-aligned bounding box. Min <= Max in both axes for a valid box.
type AABB struct{ Min, Max Vec2 }

// Overlaps reports whether a and b intersect (touching counts).
func (a AABB) Overlaps(b AABB) bool {
	return a.Min.X <= b.Max.X && b.Min.X <= a.Max.X && a.Min.Y <= b.Max.Y && b.Min.Y <= a.Max.Y
}

// Union returns the smallest box holding a and b.
func (a AABB) Union(b AABB) AABB { return AABB{a.Min.Min(b.Min), a.Max.Max(b.Max)} }

// Expand returns a grown by m on every side.
func (a AABB) Expand(m float64) AABB {
	return AABB{Vec2{a.Min.X - m, a.Min.Y - m}, Vec2{a.Max.X + m, a.Max.Y + m}}
}

// Contains reports whether p lies inside a or on its boundary.
func (a AABB) Contains(p Vec2) bool {
	return p.X >= a.Min.X && p.X <= a.Max.X && p.Y >= a.Min.Y && p.Y <= a.Max.Y
}

// Size returns the width and height of a.
func (a AABB) Size() Vec2 { return a.Max.Sub(a.Min) }
