package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsGlancingBallsLeaveAlongTheLineOfCentres: a ball of radius 0.25
// m at speed v strikes an equal ball at rest, off centre by b = 0.5, 0.9 or
// 0.99 of a diameter, with e = 1 (and no restitution threshold, so that
// every hit is elastic), no friction and no gravity. The struck ball must
// leave along the line of centres at the moment of impact, at angle
// -asin(b) (the impulse acts along the normal then), with no energy lost.
// Its direction is held to 0.5 degrees and the energy to 1e-9, at 2 to 40
// m/s (up to 0.67 m a tick). The speculative contact used to take its normal at the start of
// the tick, where the balls are still apart: at an offset of 0.9 the struck
// ball left 1.6 degrees off at 2 m/s, 11 at 5 and 30 at 20.
func TestPhysicsGlancingBallsLeaveAlongTheLineOfCentres(t *testing.T) {
	const r = 0.25
	for _, off := range []float64{0.5, 0.9, 0.99} {
		for _, v := range []float64{2, 5, 20, 40} {
			s := elasticSim(t)
			striker := dynCircle(-3, off*2*r, r)
			striker.LinearVelocity = components.V(v, 0)
			striker.Restitution, striker.Friction = 1, 0
			target := dynCircle(0, 0, r)
			target.Restitution, target.Friction = 1, 0
			a, b := s.add(striker), s.add(target)
			s.run(int(math.Ceil(60 * 4 / v)))
			vb := s.v(b).Lin
			if vb.Len() < 1e-6 {
				t.Fatalf("off %.2f at %g m/s: the balls never touched", off, v)
			}
			want := -math.Asin(off) // the line of centres at impact, from the striker to the target
			got := math.Atan2(vb.Y, vb.X)
			ka, kb := s.v(a).Lin.LenSq(), vb.LenSq()
			t.Logf("off %.2f at %2g m/s: target leaves at %.3f deg (want %.3f), energy %.6f of the start",
				off, v, got*180/math.Pi, want*180/math.Pi, (ka+kb)/(v*v))
			if math.Abs(got-want) > 0.5*math.Pi/180 || math.Abs((ka+kb)/(v*v)-1) > 1e-9 {
				t.Errorf("off %.2f at %g m/s: the struck ball leaves at %.2f degrees (want %.2f within 0.5), with %.6f of the energy (want 1)",
					off, v, got*180/math.Pi, want*180/math.Pi, (ka+kb)/(v*v))
			}
		}
	}
}

// TestPhysicsBallOffBoxCornerAndFace: a ball of radius 0.25 m at 2 to 40
// m/s bounces off a static 2 x 2 m box with e = 1, no friction, no gravity
// and no restitution threshold. It leaves as reflected about the normal at
// the impact, to 0.5 degrees, with all its speed:
//   - grazing the top-left corner on a horizontal path 1.125 m up: the
//     corner's normal at the impact is (-cos 30, sin 30), and the ball
//     leaves at 120 degrees;
//   - coming down at 45 degrees onto the top face from above the corner,
//     where the corner, not the face, is nearest: it leaves at 45 degrees.
//
// The speculative contact took the normal from the box's nearest feature at
// the start of the tick, from where the ball still was: the ball left the
// corner at up to 139 degrees, and the face at up to 51.
func TestPhysicsBallOffBoxCornerAndFace(t *testing.T) {
	cases := []struct {
		name      string
		from, dir components.Vec2
		wantDeg   float64
	}{
		{"corner", components.V(-4, 1.125), components.V(1, 0), 120},
		{"face", components.V(-1.5, 2).MulAdd(-2, components.V(math.Sqrt2/2, -math.Sqrt2/2)), components.V(math.Sqrt2/2, -math.Sqrt2/2), 45},
	}
	for _, tc := range cases {
		for _, v := range []float64{2, 5, 20, 40} {
			s := elasticSim(t)
			box := staticBox(0, 0, 1, 1, 0)
			box.Restitution, box.Friction = 1, 0
			s.add(box)
			ball := dynCircle(tc.from.X, tc.from.Y, 0.25)
			ball.LinearVelocity = tc.dir.Scale(v)
			ball.Restitution, ball.Friction = 1, 0
			b := s.add(ball)
			s.run(int(math.Ceil(60*6/v)) + 2)
			out := s.v(b).Lin
			got := math.Atan2(out.Y, out.X) * 180 / math.Pi
			t.Logf("%s at %2g m/s: leaves at %.3f deg (want %.1f) at %.6f of its speed", tc.name, v, got, tc.wantDeg, out.Len()/v)
			if math.Abs(got-tc.wantDeg) > 0.5 || math.Abs(out.Len()/v-1) > 1e-9 {
				t.Errorf("%s at %g m/s: the ball leaves at %.2f degrees (want %.1f within 0.5) with %.6f of its speed (want 1)",
					tc.name, v, got, tc.wantDeg, out.Len()/v)
			}
		}
	}
}

// elasticSim is a one-worker world without gravity or sleep and without a
// restitution threshold, so that every approach bounces.
func elasticSim(t *testing.T) *sim {
	return newSim(t, func(c *systems.Config) {
		c.Gravity = components.Vec2{}
		c.Sleep = false
		c.Workers = 1
		c.RestitutionThreshold = 0
	})
}

// TestPhysicsBoxPassesCornerUntouched: a 0.5 m box moves at 2 to 40 m/s
// past a corner of a static box, 5 mm or 2 cm clear of it, with no gravity:
// down past a ledge's side, and sideways over a block's top, at several
// phases of the ticks against the corner. Nothing touches, so its velocity
// must not change at all. The speculative contact took the corner-to-corner
// normal while the box was still beside the corner, and stopped it there: at
// 5 m/s it left at half its speed spinning at 6.6 rad/s, at 20 m/s spinning
// at up to 28 rad/s.
func TestPhysicsBoxPassesCornerUntouched(t *testing.T) {
	for _, v := range []float64{2, 5, 20, 40} {
		for _, clear := range []float64{0.005, 0.02} {
			for _, phase := range []float64{0, 0.07, 0.15, 0.23} {
				for _, down := range []bool{true, false} {
					s := elasticSim(t)
					s.add(staticBox(0, 0, 1, 0.5, 0)) // top face at y = 0.5, sides at x = -1 and 1
					box := dynBox(1+clear+0.25, 1.05+phase, 0.25, 0.25)
					box.LinearVelocity = components.V(0, -v)
					if !down {
						box = dynBox(-1.55-phase, 0.75+clear, 0.25, 0.25)
						box.LinearVelocity = components.V(v, 0)
					}
					b := s.add(box)
					want := box.LinearVelocity
					for range int(math.Ceil(60*3.5/v)) + 2 {
						s.run(1)
						if got := s.v(b); got.Lin != want || got.Ang != 0 {
							t.Fatalf("%g m/s, %g m clear, phase %g, down %v: velocity %v, spin %.3g after %d ticks; want %v untouched",
								v, clear, phase, down, got.Lin, got.Ang, s.step, want)
						}
					}
				}
			}
		}
	}
}

// TestPhysicsBoxStrikesFaceBesideCorner: a 0.5 m box moving down and to the
// right at 45 degrees, at 2 to 40 m/s, strikes the left face of a static 2 x
// 2 m box with its bottom-right corner, 5 cm below the face's top corner,
// with e = 1, no friction and no gravity. The impact's impulse acts along the
// face normal: in the tick of the impact the box's vertical velocity must not
// change (to 1e-9), its horizontal one must drop, and no energy may be
// gained. (Spinning, the box then swings its right face onto the corner,
// whose normal is the box's own face, so later ticks are not checked.)
// Taken at the start of the tick, while the box's corner was still above the
// face, the normal ran corner to corner, and the impact threw the box up.
func TestPhysicsBoxStrikesFaceBesideCorner(t *testing.T) {
	for _, v := range []float64{2, 5, 20, 40} {
		for _, phase := range []float64{0, 0.3, 0.6} {
			s := elasticSim(t)
			wall := staticBox(0, 0, 1, 1, 0)
			wall.Restitution, wall.Friction = 1, 0
			s.add(wall)
			d := 2 + phase*v/60 // path length to the impact, m
			corner := components.V(-1-d/math.Sqrt2, 0.95+d/math.Sqrt2)
			box := dynBox(corner.X-0.25, corner.Y+0.25, 0.25, 0.25)
			box.LinearVelocity = components.V(v/math.Sqrt2, -v/math.Sqrt2)
			box.Restitution, box.Friction = 1, 0
			b := s.add(box)
			m := s.mass.Get(b)
			before := s.v(b)
			for s.v(b) == before && s.step < int(math.Ceil(60*d/v))+3 {
				s.run(1)
			}
			got := s.v(b)
			if got == before {
				t.Fatalf("%g m/s, phase %.1f: the box never struck the wall", v, phase)
			}
			e0 := 0.5 * m.Mass * v * v
			e1 := 0.5*m.Mass*got.Lin.LenSq() + 0.5*m.Inertia*got.Ang*got.Ang
			t.Logf("%2g m/s, phase %.1f: tick %d, leaves at (%.4f, %.4f) m/s spinning at %.3f rad/s, energy %.9f of the start",
				v, phase, s.step, got.Lin.X, got.Lin.Y, got.Ang, e1/e0)
			if math.Abs(got.Lin.Y-before.Lin.Y) > 1e-9*v || !(got.Lin.X < before.Lin.X) || e1 > e0*(1+1e-9) {
				t.Errorf("%g m/s, phase %.1f: the box leaves the impact at %v spinning at %.3g with %.9f of the energy; want vy %.4f, vx below %.4f, energy <= 1",
					v, phase, got.Lin, got.Ang, e1/e0, before.Lin.Y, before.Lin.X)
			}
		}
	}
}

// TestPhysicsSpinningThinBoxIntoBox: a 0.05 x 2 m box moving at 20 m/s and
// turning at 35 rad/s strikes a resting 0.5 m box, in zero gravity. The two
// must never overlap by more than 2 cm. Aimed on its translation alone, the
// contact took the spinning box's impact where its turn did not bring it,
// and the boxes overlapped by 5.5 cm for five ticks; a box that turns as
// fast as half its translation is not aimed (see collidePair).
func TestPhysicsSpinningThinBoxIntoBox(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{}; c.Sleep = false; c.Workers = 1 })
	target := s.add(dynBox(0, 0, 0.25, 0.25))
	d := dynBox(-2, 0, 0.025, 1)
	d.LinearVelocity, d.AngularVelocity, d.Angle = components.V(20, 0), 35, 24*math.Pi/36
	mover := s.add(d)
	worst := 0.0
	for range 14 {
		s.run(1)
		m := narrowphase.CollideBoxes(components.V(0.25, 0.25), s.transform(target), components.V(0.025, 1), s.transform(mover), 0)
		for i := 0; i < m.Count; i++ {
			worst = max(worst, -m.Points[i].Separation)
		}
	}
	if worst > 0.02 {
		t.Errorf("the spinning box went %.4f m into the other, want at most 0.02", worst)
	}
}
