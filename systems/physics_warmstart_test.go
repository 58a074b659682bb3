package systems_test

import (
	"math"
	"testing"

	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// The warm start carries last tick's impulses into this one. These tests
// give it what a game can do between ticks, within what the engine
// accepts, and want the next ticks to be sound: masses far beyond float32,
// a step that went beyond float64, and a joint impulse the game wrote.

// TestPhysicsSetMassBeyondFloat32: a ball resting on the ground under a box
// is given 1e50 kg (or 1e300) with ecs.SetMass, and 1 kg back a half second
// later. The box must stay where it rests. The contacts kept the sum of the
// inverse masses as a float32, which is 0 for 1e-50: they were not rescaled
// when the mass came back, and the box took the warm start that had held
// up a 1e50 kg ball and left at 1e46 m.
func TestPhysicsSetMassBeyondFloat32(t *testing.T) {
	for _, big := range []float64{1e50, 1e300} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		ball := s.add(dynCircle(0, 0.5, 0.5))
		top := s.add(dynBox(0, 1.4, 0.4, 0.4))
		s.run(30)
		m := *s.mass.Get(ball)
		if err := ecs.SetMass(s.w, ball, big, big); err != nil {
			t.Fatal(err)
		}
		s.run(30)
		if err := ecs.SetMass(s.w, ball, m.Mass, m.Inertia); err != nil {
			t.Fatal(err)
		}
		fastest := 0.0
		for range 60 {
			s.run(1)
			fastest = math.Max(fastest, s.v(top).Lin.Len())
		}
		if p := s.pos(top); fastest > 0.5 || math.Abs(p.Y-1.4) > 0.05 || math.Abs(p.X) > 0.05 {
			t.Errorf("%g kg and back: the box on the ball moved at up to %.3g m/s and ended at %v (want near (0, 1.4))",
				big, fastest, p)
		}
		if r := s.report(); len(r) != 0 {
			t.Errorf("%g kg and back: report %v", big, r)
		}
	}
}

// spoiled runs 10 ticks of a world a test has just given a value beyond
// float64's reach, calling check after each, and fails the test if no tick
// reported a body: the test would no longer test the recovery.
func spoiled(t *testing.T, s *sim, check func()) {
	t.Helper()
	reported := false
	for range 10 {
		s.run(1)
		reported = reported || len(s.report()) > 0
		check()
	}
	if !reported {
		t.Fatal("no step went beyond float64: the test no longer tests the recovery")
	}
}

// TestPhysicsUnsoundStepForgotten: the top one of two boxes resting on the
// ground is made 1e200 m wide (finite, so accepted). Its contacts then go
// beyond float64 and its steps are kept back and reported, as they should
// be. Once the game mends the shape and puts both boxes back, they must be
// simulated again, and stay. The impulses of such a step are NaN, or finite
// and as wrong (1e175 N s): warm-started as they were, they kept the boxes
// left out or threw them to 1e151 m. forgetImpulses drops them
// (TestUnsoundStepForgetsImpulses tests it alone).
func TestPhysicsUnsoundStepForgotten(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	low := s.add(dynBox(0, 0.5, 0.5, 0.5))
	top := s.add(dynBox(0, 1.4, 0.4, 0.4))
	s.run(5)
	shapes := generic.NewMap[components.Shape](s.w)
	sh, xLow, xTop := *shapes.Get(top), s.transform(low), s.transform(top)
	*shapes.Get(top) = components.Box(1e200, 1e200)
	spoiled(t, s, func() {
		if !s.finiteBody(low) || !s.finiteBody(top) {
			t.Fatal("a body was written NaN or infinite")
		}
	})
	*shapes.Get(top) = sh
	*s.xf.Get(low), *s.xf.Get(top) = xLow, xTop
	*s.vel.Get(low), *s.vel.Get(top) = components.Velocity{}, components.Velocity{}
	s.run(60)
	if r := s.report(); len(r) != 0 {
		t.Fatalf("mended and put back, the boxes are still left out: %v", r)
	}
	if pl, pt := s.pos(low), s.pos(top); math.Abs(pl.Y-0.5) > 0.05 || math.Abs(pt.Y-1.4) > 0.05 {
		t.Errorf("the boxes ended at %v and %v, want near y = 0.5 and 1.4", pl, pt)
	}
}

// TestJointImpulseWrittenNaN: a game that writes NaN into a joint's Impulse
// (the field it may zero to start the joint cold) gets the joint reported
// by that field and left out, as for a bad spec, until it mends it. Before,
// nothing named the joint: its bob was reported as a body whose step went
// beyond float64, and stayed frozen.
func TestJointImpulseWrittenNaN(t *testing.T) {
	s, bob, je := pendulum(t)
	j, _ := ecs.JointOf(s.w, je)
	j.Impulse.Angular = math.NaN()
	if f, _ := ecs.CheckJoint(s.w, j); f != "Impulse" {
		t.Errorf("CheckJoint names %q, want Impulse", f)
	}
	s.run(1)
	if r := s.jointReport(); len(r) != 1 || r[0].Entity != je || r[0].Field != "Impulse" {
		t.Fatalf("joint report %v, want the joint's Impulse", r)
	}
	if r := s.report(); len(r) != 0 {
		t.Errorf("body report %v, want none: the bob is sound", r)
	}
	j, _ = ecs.JointOf(s.w, je)
	j.Impulse = components.JointImpulse{}
	j.LocalAnchorB = s.transform(bob).InvApply(components.V(0, 5)) // pin it where it is now
	s.run(60)
	if r := s.jointReport(); len(r) != 0 {
		t.Errorf("a mended joint is still reported: %v", r)
	}
	if g := s.anchorGap(je); g > 1e-3 {
		t.Errorf("the mended joint's anchors are %.3g m apart", g)
	}
}

// TestJointedOverflowMended: a box held by a pivot, resting on the ground
// under another, is made a disc of radius 1e300 m (finite, so accepted): its steps
// go beyond float64 and are kept back and reported. The joint must never be
// given a NaN impulse, and once the game mends the box, both are simulated
// again. The NaN impulse of such a step was written to Joint.Impulse and
// warm-started every later step, so the box stayed left out after the game
// had mended it.
func TestJointedOverflowMended(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	s.add(ground())
	pivot := s.add(staticBox(3, 3, 0.1, 0.1, 0))
	bob := s.add(dynBox(0, 0.5, 0.5, 0.5))
	top := s.add(dynBox(0, 1.4, 0.4, 0.4))
	je := s.joint(ecs.RevoluteJoint(s.w, pivot, bob, components.V(3, 3)))
	s.run(5)
	shapes := generic.NewMap[components.Shape](s.w)
	sh, xf, xTop := *shapes.Get(bob), s.transform(bob), s.transform(top)
	*shapes.Get(bob) = components.Circle(1e300)
	spoiled(t, s, func() {
		if j, _ := ecs.JointOf(s.w, je); !j.Impulse.IsFinite() {
			t.Fatalf("the joint was given the impulse %+v", j.Impulse)
		}
	})
	*shapes.Get(bob), *s.xf.Get(bob), *s.vel.Get(bob) = sh, xf, components.Velocity{}
	*s.xf.Get(top), *s.vel.Get(top) = xTop, components.Velocity{}
	s.run(60)
	if r, jr := s.report(), s.jointReport(); len(r) != 0 || len(jr) != 0 {
		t.Fatalf("mended, the bob or its joint is still left out: %v %v", r, jr)
	}
	if g := s.anchorGap(je); g > 1e-3 {
		t.Errorf("the mended joint's anchors are %.3g m apart", g)
	}
}

// TestJointAtTheCapKeepsItsForce: a flywheel on a pivot whose motor drives
// it at 400 rad/s, past the angular speed cap (an eighth of a turn a
// substep, 188 rad/s), is held at the cap every step. That is not a
// runaway: the joint keeps its impulses, which Joint.Impulse shows and its
// torque threshold reads, every step. When every capped island forgot its
// joints' impulses, Impulse showed zeros in 109 of 120 steps and the
// threshold fired in 11 (a review's probe).
func TestJointAtTheCapKeepsItsForce(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	pivot := s.add(staticBox(0, 5, 0.1, 0.1, 0))
	wheel := s.add(dynCircle(0, 5, 0.5))
	j, err := ecs.RevoluteJoint(s.w, pivot, wheel, components.V(0, 5))
	j.EnableMotor, j.MotorSpeed, j.MaxMotorTorque, j.TorqueThreshold = true, 400, 40, 1
	je := s.joint(j, err)
	events := generic.NewResource[ecs.JointEvents](s.w)
	s.run(30)
	if w := s.v(wheel).Ang; w < 180 {
		t.Fatalf("the wheel turns at %.1f rad/s: not held at the cap", w)
	}
	h := s.cfg.Dt / float64(s.cfg.SubSteps)
	weight := s.mass.Get(wheel).Mass * 10 * h
	for i := range 120 {
		s.run(1)
		jc, _ := ecs.JointOf(s.w, je)
		if m := jc.Impulse.Motor; math.Abs(m-40*h) > 1e-9 || math.Abs(jc.Impulse.Linear.Y-weight) > 1e-3*weight {
			t.Fatalf("step %d: the joint shows %+v, want the motor's 40 N m and the wheel's weight over the substep", i, jc.Impulse)
		}
		if ev := events.Get().Exceeded; len(ev) != 1 || ev[0].Joint != je {
			t.Fatalf("step %d: threshold events %v, want the joint's", i, ev)
		}
	}
}
