package ecs

import (
	"fmt"

	"github.com/tumble2d/tumble/components"
)

// BodyDef describes a body to create. Start from [DefaultBodyDef]: its zero
// value has no shape and is refused.
type BodyDef struct {
	Type            components.BodyType
	Position        components.Vec2 // centre of mass, m
	Angle           float64         // radians, counter-clockwise
	LinearVelocity  components.Vec2 // m/s
	AngularVelocity float64         // rad/s
	Shape           components.Shape
	// Density in kg/m^2 gives mass and inertia from the shape. Ignored when
	// Mass > 0.
	Density float64
	// Mass, when > 0, sets the mass in kg directly; inertia follows from the
	// shape as for a uniform body of that mass.
	Mass        float64
	Friction    float64 // >= 0
	Restitution float64 // in [0, 1]
	// Filter says which bodies this one collides with; the zero Filter
	// collides with all (see components.Filter).
	Filter components.Filter
	// Sensor makes the body a sensor: it collides with nothing and
	// reports what overlaps it (see components.Material).
	Sensor         bool
	LinearDamping  float64 // >= 0, 1/s
	AngularDamping float64 // >= 0, 1/s
	GravityScale   float64 // multiplies the world gravity
	// StartAsleep creates a dynamic body asleep: it is not simulated until
	// touched by an awake body or woken with [Wake].
	StartAsleep bool
}

// DefaultBodyDef returns a dynamic body definition with density 1, friction
// 0.6, restitution 0, gravity scale 1 and no shape yet.
func DefaultBodyDef() BodyDef {
	return BodyDef{Type: components.Dynamic, Density: 1, Friction: 0.6, GravityScale: 1}
}

// DefError is the error for a refused [BodyDef], or [Joint] if Joint is
// set: Field names the offending field, Reason says what is wrong with it.
type DefError struct {
	Index  int // position in the batch, or -1 for a single body
	Field  string
	Reason string
	Joint  bool // a joint was refused ([NewJoint])
}

// Error returns a message naming the field.
func (e *DefError) Error() string {
	what := "body"
	if e.Joint {
		what = "joint"
	}
	if e.Index >= 0 {
		return fmt.Sprintf("tumble: %s definition %d: %s %s", what, e.Index, e.Field, e.Reason)
	}
	return fmt.Sprintf("tumble: %s definition: %s %s", what, e.Field, e.Reason)
}

func defErr(field, reason string) error { return &DefError{Index: -1, Field: field, Reason: reason} }

// Validate checks d and returns a [*DefError] for the first bad field: NaN or
// Inf anywhere, an unknown type or shape, a zero or negative size, a negative
// density or mass, a dynamic body without mass, friction < 0, restitution
// outside [0, 1], or negative damping.
func (d *BodyDef) Validate() error {
	if d.Type > components.Kinematic {
		return defErr("Type", "is not dynamic, static or kinematic")
	}
	// Checked one by one, not through a table: Validate runs once per body
	// in batches of thousands and must not allocate.
	switch {
	case !d.Position.IsFinite():
		return defErr("Position", "is NaN or infinite")
	case !components.IsFinite(d.Angle):
		return defErr("Angle", "is NaN or infinite")
	case !d.LinearVelocity.IsFinite():
		return defErr("LinearVelocity", "is NaN or infinite")
	case !components.IsFinite(d.AngularVelocity):
		return defErr("AngularVelocity", "is NaN or infinite")
	case !components.IsFinite(d.Shape.Radius):
		return defErr("Shape.Radius", "is NaN or infinite")
	case !d.Shape.Half.IsFinite():
		return defErr("Shape.Half", "is NaN or infinite")
	case !components.IsFinite(d.Density):
		return defErr("Density", "is NaN or infinite")
	case !components.IsFinite(d.Mass):
		return defErr("Mass", "is NaN or infinite")
	case !components.IsFinite(d.Friction):
		return defErr("Friction", "is NaN or infinite")
	case !components.IsFinite(d.Restitution):
		return defErr("Restitution", "is NaN or infinite")
	case !components.IsFinite(d.LinearDamping):
		return defErr("LinearDamping", "is NaN or infinite")
	case !components.IsFinite(d.AngularDamping):
		return defErr("AngularDamping", "is NaN or infinite")
	case !components.IsFinite(d.GravityScale):
		return defErr("GravityScale", "is NaN or infinite")
	}
	switch d.Shape.Kind {
	case components.ShapeCircle:
		if d.Shape.Radius <= 0 {
			return defErr("Shape.Radius", "must be > 0")
		}
	case components.ShapeBox:
		if d.Shape.Half.X <= 0 || d.Shape.Half.Y <= 0 {
			return defErr("Shape.Half", "must be > 0 in both axes")
		}
	default:
		return defErr("Shape.Kind", "is not set: use components.Circle or components.Box")
	}
	if d.Density < 0 {
		return defErr("Density", "must be >= 0")
	}
	if d.Mass < 0 {
		return defErr("Mass", "must be >= 0")
	}
	if d.Type == components.Dynamic && d.Mass == 0 && d.Density == 0 {
		return defErr("Density", "is zero and Mass is zero: a dynamic body needs mass")
	}
	if d.Type == components.Dynamic {
		// The solver works with 1/m and 1/I: a subnormal mass would make
		// them infinite.
		if m, i := d.massData(); !usable(m) || !usable(i) {
			field := "Density"
			if d.Mass > 0 {
				field = "Mass"
			}
			return defErr(field, "gives a mass or inertia too small or too large to invert")
		}
	}
	if d.Friction < 0 {
		return defErr("Friction", "must be >= 0")
	}
	if d.Restitution < 0 || d.Restitution > 1 {
		return defErr("Restitution", "must be in [0, 1]")
	}
	if d.LinearDamping < 0 {
		return defErr("LinearDamping", "must be >= 0")
	}
	if d.AngularDamping < 0 {
		return defErr("AngularDamping", "must be >= 0")
	}
	if d.StartAsleep && d.Type != components.Dynamic {
		return defErr("StartAsleep", "applies to dynamic bodies only")
	}
	return nil
}

func (d *BodyDef) massData() (mass, inertia float64) {
	if d.Mass > 0 {
		return d.Mass, d.Mass * d.Shape.UnitInertia()
	}
	return d.Shape.MassData(d.Density)
}

// mass returns the Mass component for d (all zero unless dynamic).
func (d *BodyDef) mass() components.Mass {
	if d.Type != components.Dynamic {
		return components.Mass{}
	}
	m, i := d.massData()
	return components.Mass{Mass: m, Inertia: i, InvMass: 1 / m, InvInertia: 1 / i}
}

// components fills the seven body components from d.
func (d *BodyDef) fill(t *components.Transform, v *components.Velocity, s *components.Shape,
	mat *components.Material, b *components.Body, m *components.Mass, f *components.Force) {
	*t = components.NewTransform(d.Position.X, d.Position.Y, d.Angle)
	*v = components.Velocity{Lin: d.LinearVelocity, Ang: d.AngularVelocity}
	if d.Type == components.Static {
		*v = components.Velocity{}
	}
	*s = d.Shape
	*mat = components.Material{Friction: d.Friction, Restitution: d.Restitution, Filter: d.Filter, Sensor: d.Sensor}
	*b = components.Body{Type: d.Type, GravityScale: d.GravityScale,
		LinearDamping: d.LinearDamping, AngularDamping: d.AngularDamping}
	*m = d.mass()
	*f = components.Force{}
}

// usable reports whether x is a positive finite value with a finite inverse.
func usable(x float64) bool {
	return x > 0 && components.IsFinite(x) && components.IsFinite(1/x)
}
