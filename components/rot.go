package components

import "math"

// Rot is a rotation stored as the unit complex number (C, S) = (cos a, sin a).
// The zero value is not a rotation; use [Identity] or [NewRot].
type Rot struct{ C, S float64 }

// Identity is the rotation by zero radians.
var Identity = Rot{C: 1}

// NewRot returns the rotation by angle radians (counter-clockwise).
func NewRot(angle float64) Rot { return Rot{math.Cos(angle), math.Sin(angle)} }

// Angle returns the rotation angle in (-pi, pi].
func (q Rot) Angle() float64 { return math.Atan2(q.S, q.C) }

// Rotate returns v rotated by q.
func (q Rot) Rotate(v Vec2) Vec2 { return Vec2{q.C*v.X - q.S*v.Y, q.S*v.X + q.C*v.Y} }

// InvRotate returns v rotated by the inverse of q.
func (q Rot) InvRotate(v Vec2) Vec2 { return Vec2{q.C*v.X + q.S*v.Y, -q.S*v.X + q.C*v.Y} }

// Mul returns the rotation q * r (r applied first, then q).
func (q Rot) Mul(r Rot) Rot { return Rot{q.C*r.C - q.S*r.S, q.S*r.C + q.C*r.S} }

// InvMul returns the rotation q^-1 * r.
func (q Rot) InvMul(r Rot) Rot { return Rot{q.C*r.C + q.S*r.S, q.C*r.S - q.S*r.C} }

// Normalize returns q scaled back to unit length; a degenerate q gives [Identity].
func (q Rot) Normalize() Rot {
	m := math.Sqrt(q.C*q.C + q.S*q.S)
	if m < 1e-300 {
		return Identity
	}
	inv := 1 / m
	return Rot{q.C * inv, q.S * inv}
}

// Integrate advances q by the angle da (radians). It turns q by the
// direction (a, da) normalised, where a = da/tan(da) is replaced by its series
// 1 - da^2/3 - da^4/45, so that the substep loop needs no sin or cos. Box2D
// v3 (b2IntegrateRotation) takes a = 1, which turns by atan(da): 5 % short
// at da = 0.42 (100 rad/s in a 240 Hz substep) and 0.06 % at 10 rad/s. The
// series leaves an error of 2 da^7/945 per call: 4e-4 rad at the solver's
// cap of an eighth of a turn, 5e-6 rad at 100 rad/s. Past that cap a stays
// at its value there, so the turn grows with da but stays under a quarter
// turn, as Box2D's does: contacts solved after the cap can still spin a
// body faster, and the series itself turns negative past 1.5 rad, where it
// flipped bodies over in a substep (a random pile of 200 bodies then threw
// one at 3 300 m/s). q must be a unit rotation.
func (q Rot) Integrate(da float64) Rot {
	d2 := min(da*da, math.Pi*math.Pi/16)
	a := 1 - d2*(1.0/3+d2*(1.0/45))
	c, s := a*q.C-da*q.S, a*q.S+da*q.C
	// Normalize without its guard for a zero length, which (a, da) never
	// has: with the guard the function no longer inlines into the substep
	// loop.
	inv := 1 / math.Sqrt(c*c+s*s)
	return Rot{c * inv, s * inv}
}

// X returns the rotated x axis (the first column of the rotation matrix).
func (q Rot) X() Vec2 { return Vec2{q.C, q.S} }

// Y returns the rotated y axis (the second column of the rotation matrix).
func (q Rot) Y() Vec2 { return Vec2{-q.S, q.C} }

// Transform is a rigid pose: position P of the body origin (its centre of
// mass) and rotation R.
type Transform struct {
	P Vec2
	R Rot
}

// NewTransform returns the pose at (x, y) rotated by angle radians.
func NewTransform(x, y, angle float64) Transform {
	return Transform{P: Vec2{x, y}, R: NewRot(angle)}
}

// Apply maps the body-local point v to world coordinates.
func (t Transform) Apply(v Vec2) Vec2 { return t.R.Rotate(v).Add(t.P) }

// InvApply maps the world point v to body-local coordinates.
func (t Transform) InvApply(v Vec2) Vec2 { return t.R.InvRotate(v.Sub(t.P)) }

// Angle returns the rotation angle of t in (-pi, pi].
func (t Transform) Angle() float64 { return t.R.Angle() }

// IsValid reports whether t is finite and its rotation has unit length
// (within 1e-6).
func (t Transform) IsValid() bool {
	if !t.P.IsFinite() || !IsFinite(t.R.C) || !IsFinite(t.R.S) {
		return false
	}
	return math.Abs(t.R.C*t.R.C+t.R.S*t.R.S-1) < 1e-6
}
