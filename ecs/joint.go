package ecs

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
)

// Joint is the component of a joint entity: it constrains bodies A and B as
// its spec says. A may be the zero entity, the world: its anchor is then a
// point in world coordinates. It lives in this package rather than in components because
// it names entities. Create it with [NewJoint] (or the constructors below,
// which place the anchors from world points); change its spec between ticks
// through [JointOf]; remove it with arche's World.RemoveEntity.
//
// A joint whose body is removed stays, is listed in [Report] every tick
// until the game removes it or points it elsewhere, and is not simulated.
// Bodies joined by a joint are one island: they fall asleep and wake
// together.
type Joint struct {
	A, B arche.Entity
	components.JointSpec
	// Impulse is written by the physics after every tick: the impulses of
	// the step's last substep, which also warm start the next step.
	// Divided by the substep, Config.Dt / Config.SubSteps, they are the
	// joint's force and torque (Box2D's b2Joint_GetConstraintForce). Zero
	// it to start the joint cold.
	Impulse components.JointImpulse
}

// JointError names a joint the last tick left out and why.
type JointError struct {
	Entity arche.Entity
	Field  string
	Reason string
}

// Error returns a message naming the joint entity and the field.
func (e JointError) Error() string {
	return "tumble: joint " + entityString(e.Entity) + ": " + e.Field + " " + e.Reason
}

// CheckJoint returns the first field of j that keeps it from being
// simulated in w and why, or "" and "": its spec ([components.JointSpec.Check]),
// an Impulse that is NaN or infinite,
// A (unless it is the zero entity, the world) or B not a live body, A the
// same as B, or two bodies neither of which is dynamic.
func CheckJoint(w *arche.World, j *Joint) (field, reason string) {
	if field, reason = j.CheckValues(); field != "" {
		return field, reason
	}
	dynamic := false
	for _, side := range [...]struct {
		name string
		e    arche.Entity
	}{{"A", j.A}, {"B", j.B}} {
		if side.name == "A" && side.e.IsZero() {
			continue // the world
		}
		if !IsBody(w, side.e) {
			return side.name, fmt.Sprintf("(%s) is not a live body", entityString(side.e))
		}
		_, _, _, _, b, _, _ := schemaOf(w).bodies.Get(side.e)
		dynamic = dynamic || b.Type == components.Dynamic
	}
	if !dynamic {
		return "A", "and B are both static or kinematic: a joint needs a dynamic body"
	}
	return "", ""
}

// CheckValues returns the first field of j that is wrong whatever the world
// holds, and why, or "" and "": its spec ([components.JointSpec.Check]), an
// Impulse that is NaN or infinite ([components.JointImpulse.Check]), or A
// the same as B. [CheckJoint] runs it first; the physics runs it on every
// joint each tick, and then checks the bodies against its own rows.
func (j *Joint) CheckValues() (field, reason string) {
	if field, reason = j.JointSpec.Check(); field != "" {
		return field, reason
	}
	if field, reason = j.Impulse.Check(); field != "" {
		return field, reason
	}
	if j.A == j.B {
		return "B", "is the same body as A"
	}
	return "", ""
}

// NewJoint checks j with [CheckJoint] and creates a joint entity holding
// it. A refused joint returns a [*DefError] naming the field, and w is left
// unchanged.
func NewJoint(w *arche.World, j Joint) (arche.Entity, error) {
	if field, reason := CheckJoint(w, &j); field != "" {
		return arche.Entity{}, &DefError{Index: -1, Field: field, Reason: reason, Joint: true}
	}
	if w.IsLocked() {
		return arche.Entity{}, fmt.Errorf("tumble: NewJoint: %w", ErrWorldLocked)
	}
	m := generic.NewMap1[Joint](w)
	e := m.New()
	*m.Get(e) = j
	return e, nil
}

// JointOf returns the Joint component of joint entity e, valid until the
// next structural change of w, or an error if e is not a live joint.
func JointOf(w *arche.World, e arche.Entity) (*Joint, error) {
	m := generic.NewMap1[Joint](w)
	if !Alive(w, e) || !w.Has(e, arche.ComponentID[Joint](w)) {
		return nil, fmt.Errorf("tumble: %s is not a live joint", entityString(e))
	}
	return m.Get(e), nil
}

// anchors returns the poses of bodies a (the world's identity for the zero
// entity) and b, or an error if either is not a live body.
func anchors(w *arche.World, a, b arche.Entity) (ta, tb components.Transform, err error) {
	ta = components.Transform{R: components.Identity}
	if !a.IsZero() && !IsBody(w, a) {
		return ta, tb, fmt.Errorf("tumble: %s: %w", entityString(a), ErrNotBody)
	}
	if !IsBody(w, b) {
		return ta, tb, fmt.Errorf("tumble: %s: %w", entityString(b), ErrNotBody)
	}
	sc := schemaOf(w)
	if !a.IsZero() {
		pa, _, _, _, _, _, _ := sc.bodies.Get(a)
		ta = *pa
	}
	pb, _, _, _, _, _, _ := sc.bodies.Get(b)
	return ta, *pb, nil
}

// RevoluteJoint returns a revolute joint of bodies a and b pinned at the
// world point anchor as they stand now, with its angle zero at their present
// relative angle, and no limit or motor.
func RevoluteJoint(w *arche.World, a, b arche.Entity, anchor components.Vec2) (Joint, error) {
	ta, tb, err := anchors(w, a, b)
	if err != nil {
		return Joint{}, err
	}
	return Joint{A: a, B: b, JointSpec: components.JointSpec{Kind: components.JointRevolute,
		LocalAnchorA: ta.InvApply(anchor), LocalAnchorB: tb.InvApply(anchor),
		ReferenceAngle: tb.R.Angle() - ta.R.Angle()}}, nil
}

// WeldJoint returns a weld joint that holds bodies a and b as they stand
// now, anchored at the world point anchor.
func WeldJoint(w *arche.World, a, b arche.Entity, anchor components.Vec2) (Joint, error) {
	j, err := RevoluteJoint(w, a, b, anchor)
	j.Kind = components.JointWeld
	return j, err
}

// DistanceJoint returns a rigid distance joint between the world point
// anchorA on body a and anchorB on body b, its length their present
// distance.
func DistanceJoint(w *arche.World, a, b arche.Entity, anchorA, anchorB components.Vec2) (Joint, error) {
	ta, tb, err := anchors(w, a, b)
	if err != nil {
		return Joint{}, err
	}
	return Joint{A: a, B: b, JointSpec: components.JointSpec{Kind: components.JointDistance,
		LocalAnchorA: ta.InvApply(anchorA), LocalAnchorB: tb.InvApply(anchorB),
		Length: anchorB.Sub(anchorA).Len()}}, nil
}

// PrismaticJoint returns a prismatic joint that lets body b slide along the
// world direction axis through the world point anchor, relative to body a,
// as they stand now, at their present relative angle; translation 0 is
// where they stand.
func PrismaticJoint(w *arche.World, a, b arche.Entity, anchor, axis components.Vec2) (Joint, error) {
	j, err := RevoluteJoint(w, a, b, anchor)
	if err != nil {
		return j, err
	}
	ta, _, _ := anchors(w, a, b)
	j.Kind, j.LocalAxisA = components.JointPrismatic, ta.R.InvRotate(axis)
	return j, nil
}

// WheelJoint returns a wheel joint that holds body b's centre on the line
// through it along the world direction axis (the suspension's, usually
// up) relative to body a, a spring of hertz and dampingRatio along it.
func WheelJoint(w *arche.World, a, b arche.Entity, axis components.Vec2, hertz, dampingRatio float64) (Joint, error) {
	_, tb, err := anchors(w, a, b)
	if err != nil {
		return Joint{}, err
	}
	j, err := PrismaticJoint(w, a, b, tb.P, axis)
	j.Kind = components.JointWheel
	j.EnableSpring, j.Hertz, j.DampingRatio = true, hertz, dampingRatio
	return j, err
}

// MouseJoint returns a mouse joint that pulls the point of body b now at
// the world point target towards target (the zero entity's anchor, a
// world point), on a 5 Hz spring of damping ratio 0.7 with at most 1 000
// times b's weight under the world's gravity (10 m/s^2 if it has none),
// Box2D's sample settings. Move the target by setting LocalAnchorA
// through [JointOf] each tick.
func MouseJoint(w *arche.World, b arche.Entity, target components.Vec2) (Joint, error) {
	_, tb, err := anchors(w, arche.Entity{}, b)
	if err != nil {
		return Joint{}, err
	}
	_, _, _, _, _, m, _ := schemaOf(w).bodies.Get(b)
	g := GetGravity(w).Len()
	if g == 0 {
		g = 10
	}
	return Joint{B: b, JointSpec: components.JointSpec{Kind: components.JointMouse,
		LocalAnchorA: target, LocalAnchorB: tb.InvApply(target),
		Hertz: 5, DampingRatio: 0.7, MaxForce: 1000 * g * m.Mass}}, nil
}

// MotorJoint returns a motor joint that holds body b where it stands now
// relative to body a (or the world, for the zero entity): B's anchor at
// its centre, A's at that point, the reference angle their present
// relative angle, with at most maxForce (N) and maxTorque (N m), and no
// spring (Hertz 0), so that it takes away their relative motion alone:
// top-down friction against the world. Set Hertz (and DampingRatio) to
// pull B back to its targets, and move LocalAnchorA and ReferenceAngle
// through [JointOf] to lead it.
func MotorJoint(w *arche.World, a, b arche.Entity, maxForce, maxTorque float64) (Joint, error) {
	ta, tb, err := anchors(w, a, b)
	if err != nil {
		return Joint{}, err
	}
	return Joint{A: a, B: b, JointSpec: components.JointSpec{Kind: components.JointMotor,
		LocalAnchorA: ta.InvApply(tb.P), ReferenceAngle: tb.R.Angle() - ta.R.Angle(),
		MaxForce: maxForce, MaxMotorTorque: maxTorque}}, nil
}
