package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// A box on a prismatic joint to the world along a 30 degree slope slides
// down it at g sin 30 (no friction: nothing touches), stays on the line
// and keeps its angle, and stops at the joint's upper limit.
func TestPrismaticSlidesAndStops(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	box := s.add(dynBox(0, 10, 0.3, 0.2))
	down := components.V(math.Cos(-math.Pi/6), math.Sin(-math.Pi/6))
	j, err := ecs.PrismaticJoint(s.w, arche.Entity{}, box, components.V(0, 10), down)
	j.EnableLimit, j.Lower, j.Upper = true, -1, 3
	s.joint(j, err)
	worstOff, worstAngle := 0.0, 0.0
	var at30 float64
	for step := 1; step <= 180; step++ {
		s.run(1)
		d := s.pos(box).Sub(components.V(0, 10))
		worstOff = math.Max(worstOff, math.Abs(d.Cross(down)))
		worstAngle = math.Max(worstAngle, math.Abs(s.angle(box)))
		if step == 30 {
			at30 = d.Dot(down)
		}
	}
	// Symplectic Euler over 120 substeps of h: x = a h^2 n (n + 1) / 2.
	h := s.cfg.Dt / float64(s.cfg.SubSteps)
	n := 30.0 * float64(s.cfg.SubSteps)
	want := 5 * h * h * n * (n + 1) / 2
	t.Logf("at 0.5 s %.5f m along the slope (free slide %.5f); off the line %.2g m, turned %.2g rad; at rest %.4f m",
		at30, want, worstOff, worstAngle, s.pos(box).Sub(components.V(0, 10)).Dot(down))
	if relErr(at30, want, want) > 1e-3 {
		t.Errorf("at 0.5 s the box slid %.5f m, want %.5f", at30, want)
	}
	if worstOff > 1e-3 || worstAngle > 1e-3 {
		t.Errorf("the box left its line by %.3g m or turned by %.3g rad", worstOff, worstAngle)
	}
	if got := s.pos(box).Sub(components.V(0, 10)).Dot(down); math.Abs(got-3) > 0.01 {
		t.Errorf("the box rests at %.4f m along the slope, want its limit, 3", got)
	}
}

// An elevator: a prismatic motor lifts a platform at its speed when its
// force exceeds the weight, and cannot when it does not.
func TestPrismaticMotorLifts(t *testing.T) {
	for _, force := range []float64{2, 0.5} { // times the platform's weight
		s := newSim(t, func(c *systems.Config) { c.Sleep = false })
		car := s.add(dynBox(0, 1, 1, 0.1))
		weight := 10 * s.mass.Get(car).Mass
		j, err := ecs.PrismaticJoint(s.w, arche.Entity{}, car, components.V(0, 1), components.V(0, 1))
		j.EnableMotor, j.MotorSpeed, j.MaxMotorForce = true, 1.5, force*weight
		s.joint(j, err)
		s.run(120)
		v := s.v(car).Lin.Y
		if force > 1 && math.Abs(v-1.5) > 1e-3 {
			t.Errorf("force %g weights: the car rises at %.4f m/s, want 1.5", force, v)
		}
		// Too weak: it sinks at (F - m g) / m.
		if want := -10 * (1 - force) * 2; force < 1 && math.Abs(v-want) > 0.01 {
			t.Errorf("force %g weights: the car moves at %.4f m/s after 2 s, want %.4f", force, v, want)
		}
	}
}

// A prismatic spring of f Hz oscillates at f along its line.
func TestPrismaticSpringFrequency(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
	box := s.add(dynBox(0.5, 0, 0.2, 0.2))
	j, err := ecs.PrismaticJoint(s.w, arche.Entity{}, box, components.V(0.5, 0), components.V(1, 0))
	j.LocalAnchorA = components.Vec2{} // rest at x = 0: it starts 0.5 m out
	j.EnableSpring, j.Hertz = true, 1.5
	s.joint(j, err)
	got := period(s, 4, func() float64 { return s.pos(box).X }, nil)
	t.Logf("period %.5f s, want %.5f", got, 1/1.5)
	if relErr(got, 1/1.5, 1/1.5) > 0.02 {
		t.Errorf("period %.5f s, want %.5f", got, 1/1.5)
	}
}

// A car of a chassis on two wheel joints settles on its springs without
// touching the ground, and its rear motor drives it with the wheels
// rolling: speed = spin x radius.
func TestWheelJointCar(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	chassis := s.add(dynBox(0, 1, 1.2, 0.2))
	var wheels [2]arche.Entity
	for i, x := range []float64{-0.8, 0.8} {
		wd := dynCircle(x, 0.4, 0.35)
		wd.Friction = 1
		wheels[i] = s.add(wd)
		j, err := ecs.WheelJoint(s.w, chassis, wheels[i], components.V(0, 1), 4, 0.7)
		j.EnableLimit, j.Lower, j.Upper = true, -0.3, 0.3
		if i == 0 {
			j.EnableMotor, j.MotorSpeed, j.MaxMotorTorque = true, -6, 40 // clockwise: forwards
		}
		s.joint(j, err)
	}
	s.run(300)
	c := s.transform(chassis)
	v, spin := s.v(chassis).Lin.X, s.v(wheels[1]).Ang
	t.Logf("after 5 s: chassis at %v, turned %.3f rad, moving %.3f m/s; front wheel spins %.3f rad/s (rolling: %.3f m/s)",
		c.P, c.Angle(), v, spin, -spin*0.35)
	if c.P.Y-0.2 < 0.05 || math.Abs(c.Angle()) > 0.1 {
		t.Errorf("the chassis sits at %v turned %.3f rad: want clear of the ground and level", c.P, c.Angle())
	}
	if math.Abs(v-6*0.35) > 0.05 || math.Abs(-spin*0.35-v) > 0.02 {
		t.Errorf("the car moves at %.3f m/s with its front wheel at %.3f rad/s: want 2.1 m/s, rolling", v, spin)
	}
}

// A mouse joint drags a resting box to a target in the air and holds it
// there, and does not lift a box heavier than its force allows.
func TestMouseJointDrags(t *testing.T) {
	for _, heavy := range []bool{false, true} {
		s := newSim(t, nil)
		s.add(ground())
		d := dynBox(0, 0.5, 0.5, 0.5)
		if heavy {
			d.Density = 2000
		}
		box := s.add(d)
		s.run(60) // it falls asleep: moving the target must wake it
		// Grip it by its top right corner.
		j, err := ecs.MouseJoint(s.w, box, components.V(0.5, 1))
		if heavy {
			j.MaxForce = 10 * 1 * 1 // 1 kg at 10 m/s^2: a hundredth of its weight
		}
		je := s.joint(j, err)
		target := components.V(2, 3)
		for i := 0; i < 180; i++ {
			// Move the target there over a second, as a mouse would.
			mj, _ := ecs.JointOf(s.w, je)
			f := math.Min(1, float64(i)/60)
			mj.LocalAnchorA = components.V(0.5, 1).Add(target.Sub(components.V(0.5, 1)).Scale(f))
			s.run(1)
		}
		mj, _ := ecs.JointOf(s.w, je)
		grip := s.transform(box).Apply(mj.LocalAnchorB)
		t.Logf("heavy %v: grip point at %v, target %v", heavy, grip, target)
		if !heavy && grip.Sub(target).Len() > 0.05 {
			t.Errorf("the dragged box's grip is at %v, want near %v", grip, target)
		}
		if heavy && s.pos(box).Y > 0.6 {
			t.Errorf("a box heavier than the joint's force rose to %v", s.pos(box))
		}
	}
}

// A joint to the world (A the zero entity) acts as a joint to a static
// body at the same place.
func TestJointToTheWorld(t *testing.T) {
	swing := func(world bool) components.Transform {
		s := newSim(t, func(c *systems.Config) { c.Sleep = false })
		var a arche.Entity
		if !world {
			a = s.add(staticBox(0, 0, 0.1, 0.1, 0))
		}
		bob := s.add(dynBox(1.5, 0, 0.2, 0.1))
		s.joint(ecs.RevoluteJoint(s.w, a, bob, components.V(0, 0)))
		s.run(200)
		return s.transform(bob)
	}
	if w, b := swing(true), swing(false); w.P.Sub(b.P).Len() > 1e-12 || math.Abs(w.Angle()-b.Angle()) > 1e-12 {
		t.Errorf("pinned to the world the bob is at %v, pinned to a static box at %v", w, b)
	}
}
