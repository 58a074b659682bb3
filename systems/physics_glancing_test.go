package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
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
