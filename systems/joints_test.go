package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// joint creates j and fails the test if it is refused.
func (s *sim) joint(j ecs.Joint, err error) arche.Entity {
	s.t.Helper()
	if err != nil {
		s.t.Fatalf("joint: %v", err)
	}
	e, err := ecs.NewJoint(s.w, j)
	if err != nil {
		s.t.Fatalf("NewJoint(%+v): %v", j, err)
	}
	return e
}

func (s *sim) jointReport() []ecs.JointError {
	r := generic.NewResource[ecs.Report](s.w)
	return r.Get().Joints
}

// pendulum makes a world without sleep holding a 0.1 m ball hung 1 m to
// the right of a pivot at (0, 5) on a revolute joint, runs it 10 ticks,
// and returns it, the ball and the joint.
func pendulum(t *testing.T) (s *sim, bob, je arche.Entity) {
	t.Helper()
	s = newSim(t, func(c *systems.Config) { c.Sleep = false })
	pivot := s.add(staticBox(0, 5, 0.1, 0.1, 0))
	bob = s.add(dynCircle(1, 5, 0.1))
	je = s.joint(ecs.RevoluteJoint(s.w, pivot, bob, components.V(0, 5)))
	s.run(10)
	return s, bob, je
}

// anchorGap returns the distance between the two anchors of joint je.
func (s *sim) anchorGap(je arche.Entity) float64 {
	j, err := ecs.JointOf(s.w, je)
	if err != nil {
		s.t.Fatal(err)
	}
	ta := components.Transform{R: components.Identity} // the world
	if !j.A.IsZero() {
		ta = s.transform(j.A)
	}
	return s.transform(j.B).Apply(j.LocalAnchorB).Sub(ta.Apply(j.LocalAnchorA)).Len()
}

// period runs s until x() has risen through 0 n+1 times and returns the
// mean period between those crossings, each placed within its step by
// linear interpolation; each, if not nil, runs after every step.
func period(s *sim, n int, x func() float64, each func()) float64 {
	var first, last float64
	crossings, prev := 0, x()
	for step := 1; crossings <= n; step++ {
		if step > 100000 {
			s.t.Fatalf("crossed 0 going up %d times in %d steps", crossings, step)
		}
		s.run(1)
		if each != nil {
			each()
		}
		v := x()
		if prev < 0 && v >= 0 {
			tc := (float64(step) - 1 + -prev/(v-prev)) * s.cfg.Dt
			if crossings == 0 {
				first = tc
			}
			last, crossings = tc, crossings+1
		}
		prev = v
	}
	return (last - first) / float64(n)
}

// A disc of radius r on a revolute joint L below a static pivot, let go at
// a small angle, swings with the period of a physical pendulum:
// T = 2 pi sqrt((r^2/2 + L^2) / (g L)) (1 + theta0^2 / 16).
func TestRevolutePendulumPeriod(t *testing.T) {
	for _, L := range []float64{0.5, 2, 5} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = false })
		pivot := s.add(staticBox(0, 0.2, 0.2, 0.2, 0))
		const r, theta0 = 0.05, 0.1
		bob := s.add(dynCircle(L*math.Sin(theta0), -L*math.Cos(theta0), r))
		j := s.joint(ecs.RevoluteJoint(s.w, pivot, bob, components.V(0, 0)))
		g := 10.0
		want := 2 * math.Pi * math.Sqrt((r*r/2+L*L)/(g*L)) * (1 + theta0*theta0/16)
		gap := 0.0
		got := period(s, 5, func() float64 { return s.pos(bob).X }, func() { gap = math.Max(gap, s.anchorGap(j)) })
		t.Logf("L %g: period %.5f s, want %.5f (%+.2f %%); anchors at most %.2g m apart", L, got, want, 100*(got-want)/want, gap)
		if relErr(got, want, want) > 1e-3 {
			t.Errorf("L %g: period %.4f s, want %.4f", L, got, want)
		}
		if gap > 1e-3 {
			t.Errorf("L %g: the anchors came %.2g m apart", L, gap)
		}
	}
}

// A rigid distance joint is a massless rod: a bob let go level with its
// pivot keeps its distance and swings without gaining or losing much
// energy. The soft correction of the rod's stretch gives back a little of
// what the stretch took (0.3 % of m g L at most here), as in Box2D.
func TestDistanceRodSwing(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	pivot := s.add(staticBox(0, 0, 0.1, 0.1, 0))
	const L = 3.0
	bob := s.add(dynCircle(L, 0, 0.05))
	j := s.joint(ecs.DistanceJoint(s.w, pivot, bob, components.V(0, 0), components.V(L, 0)))
	g := components.V(0, -10)
	e0 := s.energy([]arche.Entity{bob}, g)
	worstLen, maxE := 0.0, e0
	for i := 0; i < 600; i++ {
		s.run(1)
		worstLen = math.Max(worstLen, math.Abs(s.anchorGap(j)-L))
		maxE = math.Max(maxE, s.energy([]arche.Entity{bob}, g))
	}
	if worstLen > 2e-3 {
		t.Errorf("the rod's length strayed by %.3g m", worstLen)
	}
	mgl := 10 * L * s.mass.Get(bob).Mass
	t.Logf("length off by %.3g m at most; energy at most %+.3f %% of m g L above its start, %+.3f %% at the end",
		worstLen, 100*(maxE-e0)/mgl, 100*(s.energy([]arche.Entity{bob}, g)-e0)/mgl)
	if maxE > e0+5e-3*mgl {
		t.Errorf("energy rose from %.6f to %.6f J", e0, maxE)
	}
	if e := s.energy([]arche.Entity{bob}, g); e < e0-0.05*mgl {
		t.Errorf("energy fell from %.4f to %.4f J in 10 s: more than 5 %% of m g L", e0, e)
	}
}

// A distance joint with a spring of f Hz and no damping oscillates at f,
// whatever the mass: the spring's stiffness is the effective mass times
// (2 pi f)^2, as in Box2D.
func TestDistanceSpringFrequency(t *testing.T) {
	for _, hz := range []float64{0.5, 2, 5} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
		pivot := s.add(staticBox(0, 0, 0.1, 0.1, 0))
		bob := s.add(dynCircle(-1.5, 0, 0.2))
		jd, err := ecs.DistanceJoint(s.w, pivot, bob, components.V(0, 0), components.V(-1.5, 0))
		jd.Length = 1 // stretched by 0.5 m: it swings through x = -1
		jd.EnableSpring, jd.Hertz = true, hz
		s.joint(jd, err)
		// Through the rest length, at x = -1.
		got := period(s, 4, func() float64 { return s.pos(bob).X + 1 }, nil)
		t.Logf("%g Hz: period %.5f s (%+.2f %%)", hz, got, 100*(got*hz-1))
		if relErr(got, 1/hz, 1/hz) > 0.02 {
			t.Errorf("%g Hz: period %.4f s, want %.4f", hz, got, 1/hz)
		}
	}
}

// Without gravity, joints are internal forces: two bodies joined at an
// offset point and sent spinning and drifting keep their linear and
// angular momentum to rounding, springs, limits and motors included (see
// solver.solvePoint for the angular part).
func TestJointsConserveMomentum(t *testing.T) {
	for _, kind := range []components.JointKind{components.JointRevolute, components.JointDistance, components.JointWeld,
		components.JointPrismatic, components.JointWheel, components.JointMotor} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
		da := dynBox(0, 0, 0.5, 0.2)
		da.LinearVelocity, da.AngularVelocity = components.V(1, 0.5), 2
		db := dynCircle(1.2, 0.3, 0.3)
		db.LinearVelocity, db.AngularVelocity = components.V(-0.5, 2), -1
		db.Density = 3
		a, b := s.add(da), s.add(db)
		var j ecs.Joint
		var err error
		switch kind {
		case components.JointRevolute:
			j, err = ecs.RevoluteJoint(s.w, a, b, components.V(0.6, 0.1))
			j.EnableSpring, j.Hertz, j.DampingRatio, j.SpringTarget = true, 3, 0.2, 1
		case components.JointWeld:
			j, err = ecs.WeldJoint(s.w, a, b, components.V(0.6, 0.1))
		case components.JointDistance:
			j, err = ecs.DistanceJoint(s.w, a, b, components.V(0.4, 0.1), components.V(1.2, 0.3))
		case components.JointPrismatic:
			j, err = ecs.PrismaticJoint(s.w, a, b, components.V(0.6, 0.1), components.V(1, 1))
			j.EnableSpring, j.Hertz, j.EnableLimit, j.Lower, j.Upper = true, 2, true, -0.2, 0.2
		case components.JointWheel:
			j, err = ecs.WheelJoint(s.w, a, b, components.V(1, 1), 2, 0.1)
			j.EnableMotor, j.MotorSpeed, j.MaxMotorTorque = true, 3, 0.5
		case components.JointMotor:
			j, err = ecs.MotorJoint(s.w, a, b, 3, 0.4) // capped: the pull saturates
			j.Hertz, j.DampingRatio, j.ReferenceAngle = 2, 0.3, j.ReferenceAngle+1
		}
		s.joint(j, err)
		momentum := func() (p components.Vec2, l float64) {
			for _, e := range []arche.Entity{a, b} {
				m, v, x := s.mass.Get(e), s.v(e), s.pos(e)
				p = p.MulAdd(m.Mass, v.Lin)
				l += m.Inertia*v.Ang + m.Mass*x.Cross(v.Lin)
			}
			return p, l
		}
		p0, l0 := momentum()
		for i := 0; i < 300; i++ {
			s.run(1)
			if !s.finiteBody(a) || !s.finiteBody(b) {
				t.Fatalf("%v: not finite at step %d", kind, i)
			}
		}
		p1, l1 := momentum()
		t.Logf("%v: linear momentum off by %.2g, angular by %.2g of it", kind, p1.Sub(p0).Len()/p0.Len(), math.Abs(l1-l0)/math.Abs(l0))
		if d := p1.Sub(p0).Len(); d > 1e-9*p0.Len() {
			t.Errorf("%v: linear momentum %v became %v", kind, p0, p1)
		}
		if math.Abs(l1-l0) > 1e-12*math.Abs(l0) {
			t.Errorf("%v: angular momentum %.12g became %.12g", kind, l0, l1)
		}
	}
}

// chain hangs n boxes of 0.5 x 0.1 m in a row to the right of a static
// pivot, each pinned to the next at their touching ends, and returns the
// links and the joints.
func chain(s *sim, n int, kind components.JointKind) (links, joints []arche.Entity) {
	pivot := s.add(staticBox(0, 0, 0.1, 0.1, 0))
	prev := pivot
	for i := 0; i < n; i++ {
		x := 0.25 + 0.5*float64(i)
		link := s.add(dynBox(x, 0, 0.25, 0.05))
		at := components.V(x-0.25, 0)
		var j ecs.Joint
		var err error
		if kind == components.JointWeld {
			j, err = ecs.WeldJoint(s.w, prev, link, at)
		} else {
			j, err = ecs.RevoluteJoint(s.w, prev, link, at)
		}
		joints = append(joints, s.joint(j, err))
		links = append(links, link)
		prev = link
	}
	return links, joints
}

// A chain of 20 links let go level swings down and hangs: its joints hold
// to a few centimetres while it whips about at up to 12 m/s (3 mm once it
// hangs), it ends hanging straight below the pivot, and all of it falls
// asleep.
func TestChainHangsAndSleeps(t *testing.T) {
	s := newSim(t, func(c *systems.Config) {})
	links, joints := chain(s, 20, components.JointRevolute)
	for _, l := range links {
		s.body.Get(l).AngularDamping = 1 // so that the swing dies down within the test
		s.body.Get(l).LinearDamping = 1
	}
	worst := 0.0
	for i := 0; i < 3000 && !s.asleep(links[0]); i++ {
		s.run(1)
		for _, j := range joints {
			worst = math.Max(worst, s.anchorGap(j))
		}
		if i == 0 {
			if got := s.profile().Islands; got != 1 {
				t.Errorf("the chain makes %d islands, want 1", got)
			}
			if got := s.profile().Joints; got != 20 {
				t.Errorf("the profile counts %d joints, want 20", got)
			}
		}
	}
	t.Logf("asleep after %d steps; joints opened by %.3g m at most", s.step, worst)
	if worst > 0.025 {
		t.Errorf("a joint of the swinging chain opened by %.3g m", worst)
	}
	for i, l := range links {
		if !s.asleep(l) {
			t.Fatalf("link %d is awake after %d steps", i, s.step)
		}
	}
	end := s.pos(links[len(links)-1])
	if math.Abs(end.X) > 0.05 || end.Y > -9.5 {
		t.Errorf("the last link hangs at %v, want straight below the pivot near (0, -9.75)", end)
	}
	// A push on the bottom link wakes the whole chain in the next tick.
	if err := ecs.ApplyLinearImpulse(s.w, links[len(links)-1], components.V(0.1, 0), end); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	for i, l := range links {
		if s.asleep(l) {
			t.Errorf("link %d still sleeps after a push on the chain", i)
		}
	}
}

// A weld holds a beam of 5 links (2.5 m) out from a wall: its tip sags
// under its own weight and stays there. Soft joints give in proportion to
// the load they carry over their effective mass, so the sag grows fast
// with the beam's length (see docs/guide.md, "Joints").
func TestWeldedBeamHolds(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	links, _ := chain(s, 5, components.JointWeld)
	tip := links[len(links)-1]
	s.run(240)
	y1 := s.pos(tip).Y
	s.run(240)
	y2 := s.pos(tip).Y
	t.Logf("tip at %.4f m after 4 s, %.4f after 8", y1, y2)
	if y2 < -0.15 || math.Abs(y2-y1) > 2e-3 {
		t.Errorf("the beam's tip is at %.4f m after 4 s and %.4f after 8: want a sag under 0.15 m that holds", y1, y2)
	}
}

// A motor drives a wheel pinned to a static axle to its speed, and a limit
// holds a pendulum within its angles.
func TestRevoluteMotorAndLimit(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	axle := s.add(staticBox(0, 5, 0.1, 0.1, 0))
	wheel := s.add(dynCircle(0, 5, 0.5))
	jm, err := ecs.RevoluteJoint(s.w, axle, wheel, components.V(0, 5))
	jm.EnableMotor, jm.MotorSpeed, jm.MaxMotorTorque = true, 3, 50
	s.joint(jm, err)

	pivot := s.add(staticBox(10, 5, 0.1, 0.1, 0))
	bob := s.add(dynBox(12, 5, 0.2, 0.2)) // level with the pivot: it falls
	jl, err := ecs.RevoluteJoint(s.w, pivot, bob, components.V(10, 5))
	jl.EnableLimit, jl.Lower, jl.Upper = true, -0.5, 0.5
	s.joint(jl, err)

	worst := 0.0
	for i := 0; i < 300; i++ {
		s.run(1)
		worst = math.Min(worst, s.angle(bob))
	}
	if w := s.v(wheel).Ang; relErr(w, 3, 3) > 1e-3 {
		t.Errorf("the motor turns the wheel at %.4f rad/s, want 3", w)
	}
	if worst < -0.5-0.02 {
		t.Errorf("the limited pendulum reached %.3f rad, below its limit of -0.5", worst)
	}
	if a := s.angle(bob); math.Abs(a+0.5) > 0.01 {
		t.Errorf("the pendulum rests at %.3f rad, want on its limit, -0.5", a)
	}
}

// By default two joined bodies do not collide; with CollideConnected they
// do.
func TestJointCollideConnected(t *testing.T) {
	for _, collide := range []bool{false, true} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
		a := s.add(dynBox(0, 0, 0.5, 0.5))
		b := s.add(dynBox(0.6, 0, 0.5, 0.5)) // 0.4 m into a
		j, err := ecs.RevoluteJoint(s.w, a, b, components.V(0.3, 0))
		j.CollideConnected = collide
		s.joint(j, err)
		s.run(30)
		contacts := s.profile().Contacts
		if !collide && contacts != 0 {
			t.Errorf("joined bodies that may not collide have %d contacts", contacts)
		}
		if collide && contacts == 0 {
			t.Errorf("joined bodies that may collide have no contact")
		}
	}
}
