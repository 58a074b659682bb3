package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestMotorJointFriction: top-down friction. Without gravity, a 1 x 1 m box
// of 1 kg sliding at 5 m/s and spinning at 3 rad/s, held to the world by a
// motor joint of Hertz 0 with at most 2 N and 0.25 N m, slows at 2 m/s^2
// and 0.25 / I = 1.5 rad/s^2 (to 1 %), as Coulomb friction would, and
// stays at rest once stopped.
func TestMotorJointFriction(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
	d := dynBox(0, 0, 0.5, 0.5)
	d.LinearVelocity, d.AngularVelocity = components.V(3, 4), 3
	box := s.add(d)
	j, err := ecs.MotorJoint(s.w, arche.Entity{}, box, 2, 0.25)
	s.joint(j, err)
	inertia := s.mass.Get(box).Inertia
	s.run(60)
	if v, want := s.v(box).Lin.Len(), 5-2.0; math.Abs(v-want) > 0.01*want {
		t.Errorf("speed after 1 s: %.4f m/s, want %.4f", v, want)
	}
	if v := s.v(box).Lin; math.Abs(v.X*4-v.Y*3) > 1e-9 {
		t.Errorf("velocity %v turned off its line", v)
	}
	if w, want := s.v(box).Ang, 3-0.25/inertia; math.Abs(w-want) > 0.01*math.Abs(want) {
		t.Errorf("spin after 1 s: %.4f rad/s, want %.4f (I = %.4f)", w, want, inertia)
	}
	s.run(180)
	p := s.pos(box)
	s.run(60)
	if v := s.v(box); v.Lin.Len() > 1e-9 || math.Abs(v.Ang) > 1e-9 || s.pos(box).Sub(p).Len() > 1e-9 {
		t.Errorf("still moving after it stopped: %+v, moved %.3g m", v, s.pos(box).Sub(p).Len())
	}
}

// TestMotorJointLeads: a box on a critically damped motor joint to the
// world comes to a new target place and angle set through JointOf, to 1
// mm and 1 mrad, and with its force capped below what the spring asks it
// never gains speed faster than the cap allows.
func TestMotorJointLeads(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
	box := s.add(dynBox(0, 0, 0.5, 0.5))
	j, err := ecs.MotorJoint(s.w, arche.Entity{}, box, 1000, 1000)
	j.Hertz, j.DampingRatio = 3, 1
	je := s.joint(j, err)
	s.run(1)
	jp, err := ecs.JointOf(s.w, je)
	if err != nil {
		t.Fatal(err)
	}
	jp.LocalAnchorA, jp.ReferenceAngle = components.V(2, 1), 0.8
	s.run(180)
	if d := s.pos(box).Sub(components.V(2, 1)).Len(); d > 1e-3 {
		t.Errorf("%.4f m from its target", d)
	}
	if a := s.angle(box); math.Abs(a-0.8) > 1e-3 {
		t.Errorf("angle %.4f, want 0.8", a)
	}
	// Capped: 1 kg at most 0.5 N, asked to move 10 m away.
	jp.MaxForce, jp.LocalAnchorA = 0.5, components.V(12, 1)
	for i := 1; i <= 60; i++ {
		s.run(1)
		if v, most := s.v(box).Lin.Len(), 0.5*float64(i)*s.cfg.Dt; v > most*(1+1e-9) {
			t.Fatalf("tick %d: %.4f m/s, faster than a 0.5 N cap allows (%.4f)", i, v, most)
		}
	}
	if v := s.v(box).Lin.X; v < 0.49 {
		t.Errorf("the capped pull gave %.4f m/s in 1 s, want about 0.5", v)
	}
}

// TestMotorJointCapsOff: a puck slowed by top-down friction glides on at
// its speed and spin, unchanged, once the game sets both caps to 0 (a
// review found the last friction impulse still applied at every warm
// start, slowing it on through zero and back).
func TestMotorJointCapsOff(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
	d := dynBox(0, 0, 0.5, 0.5)
	d.LinearVelocity, d.AngularVelocity = components.V(5, 0), 3
	puck := s.add(d)
	je := s.joint(ecs.MotorJoint(s.w, arche.Entity{}, puck, 2, 0.25))
	s.run(30)
	jp, err := ecs.JointOf(s.w, je)
	if err != nil {
		t.Fatal(err)
	}
	jp.MaxForce, jp.MaxMotorTorque = 0, 0
	s.run(1)
	v := s.v(puck)
	s.run(120)
	if got := s.v(puck); got != v {
		t.Errorf("velocity %+v became %+v with both caps off", v, got)
	}
}
