package components

import "math"

// Vec2 is a 2D vector or point in metres (or metres per second).
type Vec2 struct{ X, Y float64 }

// V returns the vector (x, y).
func V(x, y float64) Vec2 { return Vec2{x, y} }

// Add returns a + b.
func (a Vec2) Add(b Vec2) Vec2 { return Vec2{a.X + b.X, a.Y + b.Y} }

// Sub returns a - b.
func (a Vec2) Sub(b Vec2) Vec2 { return Vec2{a.X - b.X, a.Y - b.Y} }

// Scale returns s * a.
func (a Vec2) Scale(s float64) Vec2 { return Vec2{s * a.X, s * a.Y} }

// Neg returns -a.
func (a Vec2) Neg() Vec2 { return Vec2{-a.X, -a.Y} }

// MulAdd returns a + s*b.
func (a Vec2) MulAdd(s float64, b Vec2) Vec2 { return Vec2{a.X + s*b.X, a.Y + s*b.Y} }

// Dot returns the dot product a . b.
func (a Vec2) Dot(b Vec2) float64 { return a.X*b.X + a.Y*b.Y }

// Cross returns the z component of the 3D cross product a x b.
func (a Vec2) Cross(b Vec2) float64 { return a.X*b.Y - a.Y*b.X }

// CrossSV returns s x a for a scalar (z axis) s: the velocity of point a on a
// body spinning at angular velocity s.
func CrossSV(s float64, a Vec2) Vec2 { return Vec2{-s * a.Y, s * a.X} }

// Perp returns a rotated by +90 degrees (the left perpendicular).
func (a Vec2) Perp() Vec2 { return Vec2{-a.Y, a.X} }

// RightPerp returns a rotated by -90 degrees.
func (a Vec2) RightPerp() Vec2 { return Vec2{a.Y, -a.X} }

// Len returns the Euclidean length of a.
func (a Vec2) Len() float64 { return math.Sqrt(a.X*a.X + a.Y*a.Y) }

// LenSq returns the squared length of a.
func (a Vec2) LenSq() float64 { return a.X*a.X + a.Y*a.Y }

// Normalize returns a / |a| and |a|; a zero vector gives (0, 0) and 0.
func (a Vec2) Normalize() (Vec2, float64) {
	l := a.Len()
	if l < 1e-300 {
		return Vec2{}, 0
	}
	inv := 1 / l
	return Vec2{a.X * inv, a.Y * inv}, l
}

// Abs returns the component-wise absolute value of a.
func (a Vec2) Abs() Vec2 { return Vec2{math.Abs(a.X), math.Abs(a.Y)} }

// Min returns the component-wise minimum of a and b.
func (a Vec2) Min(b Vec2) Vec2 { return Vec2{math.Min(a.X, b.X), math.Min(a.Y, b.Y)} }

// Max returns the component-wise maximum of a and b.
func (a Vec2) Max(b Vec2) Vec2 { return Vec2{math.Max(a.X, b.X), math.Max(a.Y, b.Y)} }

// IsFinite reports whether both components are neither NaN nor infinite.
func (a Vec2) IsFinite() bool { return IsFinite(a.X) && IsFinite(a.Y) }

// IsFinite reports whether x is neither NaN nor infinite: whether its
// exponent field is not all ones (IEEE 754), one test where math.IsNaN and
// math.IsInf make three.
func IsFinite(x float64) bool { return math.Float64bits(x)&(0x7ff<<52) != 0x7ff<<52 }
