package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// spunDisc makes, without gravity, a disc pinned at its centre to the
// world by a revolute joint made at angle 0.5 (so its ReferenceAngle is
// 0.5), with a torsion spring of hz and damping ratio zeta towards target;
// mod, if not nil, changes the joint before it is made.
func spunDisc(t *testing.T, hz, zeta, target float64, mod func(*ecs.Joint)) (*sim, arche.Entity, arche.Entity) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.Vec2{} })
	d := dynCircle(0, 0, 0.5)
	d.Angle = 0.5
	disc := s.add(d)
	j, err := ecs.RevoluteJoint(s.w, arche.Entity{}, disc, components.V(0, 0))
	j.EnableSpring, j.Hertz, j.DampingRatio, j.SpringTarget = true, hz, zeta, target
	if mod != nil {
		mod(&j)
	}
	return s, disc, s.joint(j, err)
}

// TestRevoluteSpringFrequency: a disc on an undamped revolute spring,
// turned 0.5 rad from its target, swings about the target at the spring's
// frequency (to 2 %, as the distance and prismatic springs).
func TestRevoluteSpringFrequency(t *testing.T) {
	for _, hz := range []float64{0.5, 2, 5} {
		// Relative angle = angle - 0.5; the target -0.5 rests at angle 0.
		s, disc, _ := spunDisc(t, hz, 0, -0.5, nil)
		got := period(s, 4, func() float64 { return s.angle(disc) }, nil)
		t.Logf("%g Hz: period %.5f s (%+.2f %%)", hz, got, 100*(got*hz-1))
		if relErr(got, 1/hz, 1/hz) > 0.02 {
			t.Errorf("%g Hz: period %.4f s, want %.4f", hz, got, 1/hz)
		}
	}
}

// TestRevoluteSpringTarget: critically damped, the disc comes to rest at
// its target; towards a target across +-pi it turns the short way (0.28
// rad through pi), never through 0; a target beyond the joint's limit
// leaves it resting on the limit, with the spring's torque reported; and
// the spring's torque is the joint's reaction torque.
func TestRevoluteSpringTarget(t *testing.T) {
	ref := 0.5
	rel := func(s *sim, disc arche.Entity) float64 { return components.NewRot(s.angle(disc) - ref).Angle() }
	s, disc, je := spunDisc(t, 2, 1, 0.3, nil)
	s.run(180)
	if got := rel(s, disc); math.Abs(got-0.3) > 1e-3 {
		t.Errorf("rests at a relative angle of %.4f, want the target 0.3", got)
	}
	ref = 0.5 + 3
	s, disc, _ = spunDisc(t, 2, 1, 3, func(j *ecs.Joint) { j.ReferenceAngle = ref })
	// Relative angle -3 at the start: the target 3 lies 0.28 rad away
	// through pi, and 6 rad away through 0.
	for i := 0; i < 180; i++ {
		s.run(1)
		if a := rel(s, disc); math.Abs(a) < 2.5 {
			t.Fatalf("tick %d: relative angle %.3f, turning the long way", i, a)
		}
	}
	if got := rel(s, disc); math.Abs(got-3) > 1e-3 {
		t.Errorf("across pi: rests at %.4f, want 3", got)
	}
	ref = 0.5
	s, disc, je = spunDisc(t, 2, 1, 1, func(j *ecs.Joint) { j.EnableLimit, j.Lower, j.Upper = true, -0.2, 0.2 })
	s.run(180)
	if got := rel(s, disc); math.Abs(got-0.2) > 0.01 {
		t.Errorf("target beyond the limit: rests at %.4f, want the upper limit 0.2", got)
	}
	j, err := ecs.JointOf(s.w, je)
	if err != nil {
		t.Fatal(err)
	}
	h := s.cfg.Dt / float64(s.cfg.SubSteps)
	if _, torque := j.Reaction(&j.Impulse, h); torque > 1e-6 {
		t.Errorf("at rest on the limit, the joint reports a net torque of %.3g N m, want 0 (spring and limit cancel)", torque)
	}
	if spring := math.Abs(j.Impulse.Axial) / h; spring < 0.1 {
		t.Errorf("the spring pulls %.3g N m against the limit, want its torque there", spring)
	}
}

// TestPrismaticSpringTarget: a box on a vertical prismatic spring of f Hz,
// critically damped, rests at its target less the static sag g / (2 pi
// f)^2 under gravity, and at the target itself without gravity.
func TestPrismaticSpringTarget(t *testing.T) {
	for _, g := range []float64{0, 10} {
		const hz, target = 2, 0.4
		s := newSim(t, func(c *systems.Config) { c.Sleep = false; c.Gravity = components.V(0, -g) })
		box := s.add(dynBox(0, 0, 0.2, 0.2))
		j, err := ecs.PrismaticJoint(s.w, arche.Entity{}, box, components.V(0, 0), components.V(0, 1))
		j.EnableSpring, j.Hertz, j.DampingRatio, j.SpringTarget = true, hz, 1, target
		s.joint(j, err)
		s.run(240)
		w := 2 * math.Pi * hz
		want := target - g/(w*w)
		if got := s.pos(box).Y; math.Abs(got-want) > 0.01*target {
			t.Errorf("gravity %g: rests at y = %.4f, want %.4f", g, got, want)
		}
	}
}

// TestJointPartsTurnedOff: a beam pinned at one end to the world, held
// level by a revolute spring, or by a motor braking at speed 0, swings
// down once the game turns the spring (EnableSpring, or Hertz 0) or the
// motor off; a box held up by a prismatic spring falls once it is off; and
// each reports no force from the part turned off (a review found the last
// impulse of such a part applied at every warm start, holding the beam
// for ever).
func TestJointPartsTurnedOff(t *testing.T) {
	for _, c := range []string{"spring off", "spring at 0 Hz", "motor off"} {
		s := newSim(t, func(cfg *systems.Config) { cfg.Sleep = false })
		beam := s.add(dynBox(1, 5, 1, 0.1))
		j, err := ecs.RevoluteJoint(s.w, arche.Entity{}, beam, components.V(0, 5))
		if c == "motor off" {
			j.EnableMotor, j.MaxMotorTorque = true, 1000
		} else {
			j.EnableSpring, j.Hertz, j.DampingRatio = true, 4, 1
		}
		je := s.joint(j, err)
		s.run(120)
		if a := s.angle(beam); a < -0.1 {
			t.Fatalf("%s: the beam hangs at %.3f rad before the change", c, a)
		}
		jp, err := ecs.JointOf(s.w, je)
		if err != nil {
			t.Fatal(err)
		}
		switch c {
		case "spring off":
			jp.EnableSpring = false
		case "spring at 0 Hz":
			jp.Hertz = 0
		case "motor off":
			jp.EnableMotor = false
		}
		s.run(30)
		if a := s.angle(beam); a > -0.5 {
			t.Errorf("%s: the beam is at %.3f rad half a second later, want it swinging down", c, a)
		}
		if _, torque := jp.Reaction(&jp.Impulse, s.cfg.Dt/float64(s.cfg.SubSteps)); torque != 0 {
			t.Errorf("%s: the joint reports %.3g N m", c, torque)
		}
	}
	s := newSim(t, func(cfg *systems.Config) { cfg.Sleep = false })
	box := s.add(dynBox(0, 5, 0.2, 0.2))
	j, err := ecs.PrismaticJoint(s.w, arche.Entity{}, box, components.V(0, 5), components.V(0, 1))
	j.EnableSpring, j.Hertz, j.DampingRatio = true, 3, 1
	je := s.joint(j, err)
	s.run(120)
	y := s.pos(box).Y
	jp, err := ecs.JointOf(s.w, je)
	if err != nil {
		t.Fatal(err)
	}
	jp.EnableSpring = false
	s.run(30)
	if fell := y - s.pos(box).Y; math.Abs(fell-10*0.5*0.5/2) > 0.05 {
		t.Errorf("the box fell %.3f m in 0.5 s once its spring was off, want about g t^2 / 2 = 1.25", fell)
	}
}
