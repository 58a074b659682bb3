package components

// BodyType says how a body moves.
type BodyType uint8

const (
	// Dynamic bodies have mass and respond to gravity, forces and contacts.
	Dynamic BodyType = iota
	// Static bodies never move; they have infinite mass.
	Static
	// Kinematic bodies move by their velocity only; contacts push other bodies
	// but never push them.
	Kinematic
)

// String returns "dynamic", "static" or "kinematic".
func (t BodyType) String() string {
	switch t {
	case Dynamic:
		return "dynamic"
	case Static:
		return "static"
	case Kinematic:
		return "kinematic"
	}
	return "invalid"
}

// Velocity is a body's linear velocity (m/s) of its centre of mass and its
// angular velocity (rad/s, counter-clockwise).
type Velocity struct {
	Lin Vec2
	Ang float64
}

// Body holds how a body moves: its type and its per-body integration settings.
type Body struct {
	Type         BodyType
	GravityScale float64 // multiplies the world gravity; 1 is normal
	// Damping, 1/s: each substep of h = dt/SubSteps multiplies the linear
	// velocity by 1/(1 + h*LinearDamping) and the angular one by
	// 1/(1 + h*AngularDamping), close to exp(-c t) over time.
	LinearDamping  float64
	AngularDamping float64
}

// Mass holds a body's mass properties. It is engine-computed from the shape
// and density (or the explicit mass) at creation; change it with the ecs
// package's SetMass, which keeps the inverses consistent. The solver reads
// the inverses only: written directly, fields that disagree are not
// reported, and InvMass and InvInertia decide. Static and kinematic bodies
// have all four fields zero.
type Mass struct {
	Mass, Inertia       float64 // kg, kg m^2
	InvMass, InvInertia float64 // 1/kg, 1/(kg m^2)
}

// Material holds the contact properties of a body. The pair values used by a
// contact come from the world's mixing rules (by default friction
// sqrt(f1 f2) and restitution max(e1, e2), as Box2D does).
//
// Filter says which bodies it collides with (by default, all), and Sensor
// makes it a sensor. They sit with friction and restitution because, like
// them, they are properties of the body's contacts, as in Box2D's shape
// definition.
type Material struct {
	Friction    float64 // Coulomb coefficient, >= 0
	Restitution float64 // in [0, 1]: 0 inelastic, 1 elastic
	Filter      Filter
	// Sensor makes the body a sensor (Box2D v3.1's sensor shapes): it
	// collides with nothing, and each tick lists the bodies whose shapes
	// overlap its own, as the step left them, in ecs.SensorEvents and
	// systems.Physics.SensorOverlaps. It sees bodies of every type,
	// asleep or awake, that its Filter lets it collide with, and no other
	// sensor.
	Sensor bool
}

// Force accumulates the force (N, applied at the centre of mass) and torque
// (N m) on a body for the next step. The engine clears it after each step.
type Force struct {
	F      Vec2
	Torque float64
}

// Sleeping marks a body that is asleep: it is not simulated until something
// wakes it. The engine adds and removes this tag; games wake bodies through
// the ecs package.
type Sleeping struct{}
