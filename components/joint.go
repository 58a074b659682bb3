package components

import "math"

// JointKind says which constraint a joint holds.
type JointKind uint8

const (
	// JointRevolute pins an anchor of body B to an anchor of body A: they
	// may turn about it relative to each other, within optional angle
	// limits, driven by an optional motor and pulled by an optional
	// torsion spring towards SpringTarget (Box2D's revolute joint).
	JointRevolute JointKind = iota + 1
	// JointDistance keeps the anchors of the two bodies Length apart: a
	// rigid rod, or with EnableSpring a spring (Hertz, DampingRatio) whose
	// length EnableLimit may bound between Lower and Upper (a rope is a
	// spring of Hertz 0 with Lower 0 and Upper its length).
	JointDistance
	// JointWeld glues body B to body A at the anchors, at the relative angle
	// ReferenceAngle; EnableSpring softens it (Hertz, DampingRatio).
	// (SpringTarget does not apply: it holds at ReferenceAngle.)
	JointWeld
	// JointPrismatic lets B's anchor slide along the line through A's
	// anchor in direction LocalAxisA, and keeps their relative angle at
	// ReferenceAngle: a piston, an elevator. The translation along the axis
	// (0 where the anchors meet) may be limited (EnableLimit), sprung
	// towards SpringTarget (EnableSpring) and driven (EnableMotor,
	// MotorSpeed in m/s, MaxMotorForce).
	JointPrismatic
	// JointWheel holds B's anchor on the line through A's anchor along
	// LocalAxisA, lets B turn freely, and suspends it along the line on a
	// spring (EnableSpring) towards translation SpringTarget (by default
	// 0): a car's wheel. The
	// translation may be limited (EnableLimit), and the motor (EnableMotor)
	// turns B relative to A (MotorSpeed in rad/s, MaxMotorTorque).
	JointWheel
	// JointMouse pulls B's anchor towards A's on a spring of Hertz and
	// DampingRatio with at most MaxForce (0: no cap), leaving B free to
	// turn: dragging a body with the mouse. With A the zero entity (the
	// world), LocalAnchorA is the target in world coordinates; move it
	// between ticks to drag.
	JointMouse
	// JointMotor drives B's anchor towards A's and B's angle relative to
	// A's towards ReferenceAngle, with at most MaxForce (N) and
	// MaxMotorTorque (N m): on springs of Hertz and DampingRatio, or, at
	// Hertz 0, by taking away their relative motion alone (Box2D's motor
	// joint). Move LocalAnchorA and ReferenceAngle between ticks to lead
	// B along a path; with A the world and Hertz 0 it is top-down
	// friction, slowing B at up to MaxForce and MaxMotorTorque. A zero cap
	// leaves that part free.
	JointMotor
)

// String returns the kind's name ("revolute", "distance", "weld",
// "prismatic", "wheel", "mouse", "motor"), or "invalid".
func (k JointKind) String() string {
	switch k {
	case JointRevolute:
		return "revolute"
	case JointDistance:
		return "distance"
	case JointWeld:
		return "weld"
	case JointPrismatic:
		return "prismatic"
	case JointWheel:
		return "wheel"
	case JointMouse:
		return "mouse"
	case JointMotor:
		return "motor"
	}
	return "invalid"
}

// JointSpec is what a joint constrains, apart from which two bodies it
// joins. Anchors are in each body's own frame (metres from its centre of
// mass, unrotated), or in the world's for a side that is the world;
// angles are in radians, counter-clockwise.
type JointSpec struct {
	Kind                       JointKind
	LocalAnchorA, LocalAnchorB Vec2
	// LocalAxisA is the direction, in A's frame, of a prismatic or wheel
	// joint's line; it need not be of unit length, but not zero.
	LocalAxisA Vec2
	// ReferenceAngle is the angle of B minus the angle of A at which a
	// revolute joint's angle is zero and a weld or prismatic joint holds;
	// it is taken modulo 2 pi.
	ReferenceAngle float64
	// Length is the rest length of a distance joint, > 0.
	Length float64
	// EnableSpring makes a distance or weld joint a damped spring of
	// natural frequency Hertz (>= 0; 0: no spring force, so a distance
	// joint is free between its limits) and damping ratio DampingRatio,
	// and springs a revolute joint's angle, or a prismatic or wheel
	// joint's translation, towards SpringTarget. A mouse joint is always
	// a spring, of Hertz > 0.
	EnableSpring        bool
	Hertz, DampingRatio float64
	// SpringTarget is the angle (revolute, in [-pi, pi]) or translation
	// (prismatic, wheel) at which the spring pulls nothing; 0 by default
	// (Box2D v3.1's targetAngle and targetTranslation). A revolute
	// spring pulls the short way round.
	SpringTarget float64
	// EnableLimit bounds a revolute joint's angle, a springy distance
	// joint's length, or a prismatic or wheel joint's translation, to
	// [Lower, Upper]. Angles lie in [-pi, pi].
	EnableLimit  bool
	Lower, Upper float64
	// EnableMotor drives a revolute or wheel joint's relative spin (B's
	// minus A's) to MotorSpeed rad/s with at most MaxMotorTorque N m, or a
	// prismatic joint's translation speed to MotorSpeed m/s with at most
	// MaxMotorForce N.
	EnableMotor                               bool
	MotorSpeed, MaxMotorTorque, MaxMotorForce float64
	// MaxForce caps a mouse joint's pull, N, where 0 leaves it uncapped,
	// and a motor joint's, where 0 leaves B's anchor free. A motor
	// joint's torque is capped by MaxMotorTorque.
	MaxForce float64
	// ForceThreshold and TorqueThreshold, when > 0, report the joint in
	// ecs.JointEvents in every tick whose force (N) or torque (N m) on B
	// exceeds them while its island is awake: a joint the game may break
	// (Box2D v3.1's joint events). 0 reports nothing.
	ForceThreshold, TorqueThreshold float64
	// CollideConnected lets the two bodies collide with each other; by
	// default they do not, as in Box2D.
	CollideConnected bool
}

// JointImpulse holds the impulses a joint applied in the last substep (N s,
// and N m s for the angular ones), which also warm start the next step:
// the point constraint's (revolute, weld, mouse, motor; for a prismatic or wheel
// joint, Linear.X is the impulse across its line), the axial one (a
// distance joint's rod or spring, a revolute, prismatic or wheel joint's
// spring),
// the angular one (weld, prismatic, motor), the lower and upper limits', and the
// motor's. Divided by the substep (the step over the substeps) they give
// the joint's reaction force and torque.
type JointImpulse struct {
	Linear                              Vec2
	Axial, Angular, Lower, Upper, Motor float64
}

// IsFinite reports whether every impulse of im is neither NaN nor infinite.
func (im *JointImpulse) IsFinite() bool {
	// x*0 is 0 for finite x and NaN otherwise.
	return im.Linear.X*0+im.Linear.Y*0+im.Axial*0+im.Angular*0+im.Lower*0+im.Upper*0+im.Motor*0 == 0
}

// Check returns "Impulse" and why a joint cannot warm start from im, or ""
// and "" if it can: im holds a NaN or an infinity, which a game wrote (the
// physics never stores one).
func (im *JointImpulse) Check() (field, reason string) {
	if !im.IsFinite() {
		return "Impulse", "is NaN or infinite: zero it to start the joint cold"
	}
	return "", ""
}

// Check returns the first field of s that a joint cannot work with and why,
// or "" if there is none: an unknown kind, a value that is NaN or infinite,
// a distance joint's Length <= 0, a zero LocalAxisA on a prismatic or wheel
// joint, a negative Hertz, DampingRatio, MaxMotorTorque, MaxMotorForce,
// MaxForce or threshold, limits with Lower > Upper (or a negative Lower on a distance
// joint, or angles outside [-pi, pi] on a revolute one).
func (s *JointSpec) Check() (field, reason string) {
	switch s.Kind {
	case JointRevolute, JointDistance, JointWeld, JointPrismatic, JointWheel, JointMouse, JointMotor:
	default:
		return "Kind", "is not a joint kind"
	}
	if !s.LocalAnchorA.IsFinite() {
		return "LocalAnchorA", "is NaN or infinite"
	}
	if !s.LocalAnchorB.IsFinite() {
		return "LocalAnchorB", "is NaN or infinite"
	}
	if !s.LocalAxisA.IsFinite() {
		return "LocalAxisA", "is NaN or infinite"
	}
	if (s.Kind == JointPrismatic || s.Kind == JointWheel) && !(s.LocalAxisA.LenSq() > 0) {
		return "LocalAxisA", "is zero: a prismatic or wheel joint needs a direction"
	}
	for _, f := range [...]struct {
		name string
		v    float64
		min  float64
	}{
		{"ReferenceAngle", s.ReferenceAngle, math.Inf(-1)},
		{"Length", s.Length, math.Inf(-1)},
		{"Hertz", s.Hertz, 0},
		{"DampingRatio", s.DampingRatio, 0},
		{"SpringTarget", s.SpringTarget, math.Inf(-1)},
		{"Lower", s.Lower, math.Inf(-1)},
		{"Upper", s.Upper, math.Inf(-1)},
		{"MotorSpeed", s.MotorSpeed, math.Inf(-1)},
		{"MaxMotorTorque", s.MaxMotorTorque, 0},
		{"MaxMotorForce", s.MaxMotorForce, 0},
		{"MaxForce", s.MaxForce, 0},
		{"ForceThreshold", s.ForceThreshold, 0},
		{"TorqueThreshold", s.TorqueThreshold, 0},
	} {
		if !IsFinite(f.v) {
			return f.name, "is NaN or infinite"
		}
		if f.v < f.min {
			return f.name, "is negative"
		}
	}
	if s.Kind == JointDistance && s.Length <= 0 {
		return "Length", "must be > 0 for a distance joint"
	}
	if s.Kind == JointRevolute && math.Abs(s.SpringTarget) > math.Pi {
		return "SpringTarget", "must lie in [-pi, pi] for a revolute joint"
	}
	if s.Kind == JointMouse && s.Hertz == 0 {
		return "Hertz", "must be > 0 for a mouse joint: it pulls on a spring"
	}
	if s.EnableLimit {
		if s.Lower > s.Upper {
			return "Lower", "is above Upper"
		}
		if s.Kind == JointDistance && s.Lower < 0 {
			return "Lower", "is a negative length"
		}
		if s.Kind == JointRevolute && (s.Lower < -math.Pi || s.Upper > math.Pi) {
			return "Lower", "and Upper must lie in [-pi, pi]"
		}
	}
	return "", ""
}

// Reaction returns the size of the force (N) and torque (N m) that the
// impulses im of a joint of this spec applied to B over a substep of h
// seconds (Config.Dt / Config.SubSteps): the limits', motor's and spring's
// along with the constraint's own.
func (s *JointSpec) Reaction(im *JointImpulse, h float64) (force, torque float64) {
	switch s.Kind {
	case JointRevolute:
		return im.Linear.Len() / h, math.Abs(im.Axial+im.Motor+im.Lower-im.Upper) / h
	case JointWeld:
		return im.Linear.Len() / h, math.Abs(im.Angular) / h
	case JointMouse:
		return im.Linear.Len() / h, 0
	case JointMotor:
		return im.Linear.Len() / h, math.Abs(im.Angular) / h
	case JointDistance:
		return math.Abs(im.Axial+im.Lower-im.Upper) / h, 0
	case JointPrismatic:
		return math.Hypot(im.Linear.X, im.Axial+im.Lower-im.Upper+im.Motor) / h, math.Abs(im.Angular) / h
	case JointWheel:
		return math.Hypot(im.Linear.X, im.Axial+im.Lower-im.Upper) / h, math.Abs(im.Motor) / h
	}
	return 0, 0
}
