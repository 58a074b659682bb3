package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// kinematicPlatform is a 4 m x 0.5 m kinematic box at (x, y) moving at v.
func kinematicPlatform(x, y float64, v components.Vec2) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Type = components.Kinematic
	d.Position = components.V(x, y)
	d.Shape = components.Box(2, 0.25)
	d.LinearVelocity = v
	return d
}

// TestPhysicsKinematicCarries: a 0.5 m box rests on a kinematic platform
// moving at (1, 0) m/s, friction 0.6 on both (mixed 0.6), for 2 s.
//
//   - Box moving with the platform from the start: its x displacement equals
//     the platform's 2 m within 2 %, and it is still on the platform (centre
//     within the platform's half width, 0.25 m above its top within 1 cm).
//   - Box at rest at the start: friction mu g = 6 m/s^2 accelerates it to
//     1 m/s in 1/6 s while the platform slides 1/12 m under it, so its
//     displacement is 2 - v^2 / (2 mu g) = 1.9167 m: within 2 % of that.
//
// The platform's own motion is exact: x = x0 + N dt v within 1e-9 relative,
// and a kinematic body in contact never falls asleep.
func TestPhysicsKinematicCarries(t *testing.T) {
	for _, comoving := range []bool{true, false} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		plat := s.add(kinematicPlatform(0, 0, components.V(1, 0)))
		d := dynBox(0, 0.25+0.25, 0.25, 0.25)
		if comoving {
			d.LinearVelocity = components.V(1, 0)
		}
		b := s.add(d)
		p0, b0 := s.pos(plat), s.pos(b)
		s.run(120)
		dp := s.pos(plat).X - p0.X
		db := s.pos(b).X - b0.X
		want := 2.0
		if !comoving {
			want = 2 - 1/(2*0.6*10)
		}
		t.Logf("comoving %v: platform moved %.6f m, box %.4f m (want %.4f), box height above the platform %.5f, asleep %v/%v",
			comoving, dp, db, want, s.pos(b).Y-s.pos(plat).Y, s.asleep(b), s.asleep(plat))
		if r := relErr(dp, 2, 2); r > 1e-9 {
			t.Errorf("platform moved %.12f m in 2 s at 1 m/s, want 2 within 1e-9 relative", dp)
		}
		if r := relErr(db, want, want); r > 0.02 {
			t.Errorf("comoving %v: box moved %.4f m, want %.4f within 2 %% (error %.2f %%)", comoving, db, want, 100*r)
		}
		if rel := s.pos(b).Sub(s.pos(plat)); math.Abs(rel.X) > 2 || math.Abs(rel.Y-0.5) > 0.01 {
			t.Errorf("comoving %v: box is no longer on the platform: offset %v from its centre", comoving, rel)
		}
		if v := s.v(plat); v.Lin != components.V(1, 0) || v.Ang != 0 {
			t.Errorf("the platform's velocity changed to %+v", v)
		}
		if s.asleep(b) || s.asleep(plat) {
			t.Errorf("a body on a moving platform fell asleep (box %v, platform %v)", s.asleep(b), s.asleep(plat))
		}
	}
}

// TestPhysicsKinematicLifts: a kinematic platform moving up at 0.5 m/s lifts
// a box resting on it: after 2 s the box rose 1 m within 2 % and still sits on
// top (0.5 m above the platform centre within 1 cm).
func TestPhysicsKinematicLifts(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	plat := s.add(kinematicPlatform(0, 0, components.V(0, 0.5)))
	b := s.add(dynBox(0.3, 0.5, 0.25, 0.25))
	y0 := s.pos(b).Y
	s.run(120)
	dy := s.pos(b).Y - y0
	gap := s.pos(b).Y - s.pos(plat).Y
	t.Logf("platform rose %.6f m, box %.4f m, box centre %.5f above the platform centre, box v %+v", s.pos(plat).Y, dy, gap, s.v(b))
	if r := relErr(dy, 1, 1); r > 0.02 {
		t.Errorf("box rose %.4f m, want 1 m (the platform's rise) within 2 %%", dy)
	}
	if math.Abs(gap-0.5) > 0.01 {
		t.Errorf("box centre is %.4f m above the platform centre, want 0.5 within 1 cm", gap)
	}
	if r := relErr(s.pos(plat).Y, 1, 1); r > 1e-9 {
		t.Errorf("platform at height %.12f after 2 s at 0.5 m/s, want 1", s.pos(plat).Y)
	}
}

// TestPhysicsKinematicNotPushed drops a heavy box (density 100, 1 m, from
// 1 m up) onto a kinematic body (at rest, and moving at (0.3, 0.1) m/s with
// spin 0.2 rad/s). The kinematic body's velocity is exactly unchanged
// (bit-identical) and its pose follows x0 + N dt v within 1e-9; the heavy box
// comes to rest on it rather than pushing it.
func TestPhysicsKinematicNotPushed(t *testing.T) {
	for _, kv := range []components.Velocity{{}, {Lin: components.V(0.3, 0.1), Ang: 0.2}} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		d := kinematicPlatform(0, 0, kv.Lin)
		d.AngularVelocity = kv.Ang
		k := s.add(d)
		heavy := dynBox(0, 2, 0.5, 0.5)
		heavy.Density = 100
		h := s.add(heavy)
		x0 := s.pos(k)
		touched := false
		for i := 1; i <= 90; i++ {
			s.run(1)
			touched = touched || s.profile().Contacts > 0
			if v := s.v(k); v != kv {
				t.Fatalf("tick %d: kinematic velocity %+v, want %+v unchanged", i, v, kv)
			}
		}
		want := x0.MulAdd(90*s.cfg.Dt, kv.Lin)
		if e := s.pos(k).Sub(want).Len(); e > 1e-9*math.Max(1, want.Len()) {
			t.Errorf("kinematic body at %v, want %v (moved only by its own velocity)", s.pos(k), want)
		}
		if wantA := 90 * s.cfg.Dt * kv.Ang; math.Abs(s.angle(k)-wantA) > 1e-9 {
			t.Errorf("kinematic body angle %.12f, want %.12f", s.angle(k), wantA)
		}
		if !touched {
			t.Errorf("the heavy box never touched the kinematic body: scene broken")
		}
		if y := s.pos(h).Y - s.pos(k).Y; kv.Ang == 0 && (y < 0.74 || y > 0.76) {
			t.Errorf("heavy box centre %.4f m above the kinematic centre, want 0.75 (resting on it)", y)
		}
		t.Logf("kinematic v %+v: unchanged; heavy box at %v, kinematic at %v", kv, s.pos(h), s.pos(k))
	}
}

// TestPhysicsKinematicStartsUnderSleeper: a 0.5 m box falls asleep on a
// kinematic platform at rest, and the game then sets the platform moving,
// up at 5 m/s or down at 3 m/s. The box must behave as an awake one does,
// from the first tick: carried up, it never sinks more than 1 cm into the
// platform and leaves no faster than the platform (5 m/s within 1 %);
// left behind, it falls freely (its first tick's velocity is -g dt within
// 1e-9). Before, it woke only a tick later: the platform had pushed 8 cm
// into it and threw it off at 5.45 m/s, or it hung in the air for a tick.
func TestPhysicsKinematicStartsUnderSleeper(t *testing.T) {
	for _, vy := range []float64{5, -3} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		plat := s.add(kinematicPlatform(0, 0, components.Vec2{}))
		b := s.add(dynBox(0.3, 0.5, 0.25, 0.25))
		s.run(60)
		if !s.asleep(b) {
			t.Fatalf("platform %+.0f m/s: the box is not asleep after 1 s on the platform", vy)
		}
		if err := ecs.SetVelocity(s.w, plat, components.V(0, vy), 0); err != nil {
			t.Fatal(err)
		}
		s.run(1)
		first := s.v(b).Lin.Y
		minGap, maxVy := math.Inf(1), math.Inf(-1)
		for i := 0; i < 20; i++ {
			minGap = math.Min(minGap, s.pos(b).Y-s.pos(plat).Y)
			maxVy = math.Max(maxVy, s.v(b).Lin.Y)
			s.run(1)
		}
		t.Logf("platform %+.0f m/s: first tick's velocity %.6f m/s, smallest centre gap %.4f m (touching: 0.5), fastest %.4f m/s",
			vy, first, minGap, maxVy)
		if vy > 0 {
			if minGap < 0.49 || maxVy > 1.01*vy {
				t.Errorf("carried up at %.0f m/s: sank to a centre gap of %.4f m (want >= 0.49) and reached %.4f m/s (want <= %.2f)",
					vy, minGap, maxVy, 1.01*vy)
			}
			continue
		}
		if want := -10.0 / 60; math.Abs(first-want) > 1e-9 {
			t.Errorf("left behind by a platform moving down: first tick's velocity %.9f m/s, want free fall %.9f", first, want)
		}
	}
}

// TestPhysicsBallOnSpinningKinematicWheel: a frictionless ball of radius
// 0.2 m rests on top of a kinematic wheel of radius 1 m spinning at 0, 10
// 20 or 40 rad/s. Turning a circle moves no point of its outline, so the
// spin must not change how the ball rests: it stays within 0.5 mm of
// touching. The solver turned the wheel's contact anchor with it within the
// step, as if the outline turned away under the ball: it sank 4.0 mm at 10
// rad/s, 5.4 at 20 and 16.6 at 40.
func TestPhysicsBallOnSpinningKinematicWheel(t *testing.T) {
	for _, w := range []float64{0, 10, 20, 40} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		wheel := ecs.DefaultBodyDef()
		wheel.Type = components.Kinematic
		wheel.Shape = components.Circle(1)
		wheel.AngularVelocity = w
		s.add(wheel)
		ball := dynCircle(0, 1.2, 0.2)
		ball.Friction = 0
		b := s.add(ball)
		deepest := 0.0
		for i := 0; i < 60; i++ {
			s.run(1)
			deepest = math.Max(deepest, 1.2-s.pos(b).Len())
		}
		t.Logf("wheel at %g rad/s: the ball sank %.3f mm into it", w, deepest*1000)
		if deepest > 5e-4 {
			t.Errorf("wheel at %g rad/s: the ball sank %.2f mm into it", w, deepest*1000)
		}
	}
}
