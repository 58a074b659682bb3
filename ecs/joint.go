package ecs

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
)

// Joint is the component of a joint entity: it constrains bodies A and B as
// its spec says. It lives in this package rather than in components because
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
	// the step, which also warm start the next. Zero it to start the joint
	// cold.
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
// A or B not a live body, A the same as B, or two bodies neither of which is
// dynamic.
func CheckJoint(w *arche.World, j *Joint) (field, reason string) {
	if field, reason = j.JointSpec.Check(); field != "" {
		return field, reason
	}
	if j.A == j.B {
		return "B", "is the same body as A"
	}
	dynamic := false
	for _, side := range [...]struct {
		name string
		e    arche.Entity
	}{{"A", j.A}, {"B", j.B}} {
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

// NewJoint checks j with [CheckJoint] and creates a joint entity holding
// it. A refused joint returns a [*DefError] naming the field, and w is left
// unchanged.
func NewJoint(w *arche.World, j Joint) (arche.Entity, error) {
	if field, reason := CheckJoint(w, &j); field != "" {
		return arche.Entity{}, &DefError{Index: -1, Field: field, Reason: reason}
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
	if !w.Alive(e) || !w.Has(e, arche.ComponentID[Joint](w)) {
		return nil, fmt.Errorf("tumble: %s is not a live joint", entityString(e))
	}
	return m.Get(e), nil
}

// anchors returns the poses of bodies a and b, or an error if either is not
// a live body.
func anchors(w *arche.World, a, b arche.Entity) (ta, tb components.Transform, err error) {
	for _, e := range [...]arche.Entity{a, b} {
		if !IsBody(w, e) {
			return ta, tb, fmt.Errorf("tumble: %s: %w", entityString(e), ErrNotBody)
		}
	}
	sc := schemaOf(w)
	pa, _, _, _, _, _, _ := sc.bodies.Get(a)
	pb, _, _, _, _, _, _ := sc.bodies.Get(b)
	return *pa, *pb, nil
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
