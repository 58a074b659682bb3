package systems_test

import (
	"math"
	"testing"
)

// TestPhysicsRollingBallStaysOnTheGround: balls of radius 0.1 and 0.5 m
// rolling at 2 to 18 m/s (up to 180 rad/s, just under the spin cap of an
// eighth of a turn per substep) stay on the ground: never more than 1 mm
// into it or off it, with no vertical speed over 0.05 m/s, and keep
// rolling. A circle's contact point does not move as it turns; when the
// solver turned the anchor with the ball, the contact went speculative
// within each step and the ball fell freely for the rest of it: a 0.1 m
// ball at 10 m/s sank 9 mm into the ground and left every step falling at
// 0.125 m/s.
func TestPhysicsRollingBallStaysOnTheGround(t *testing.T) {
	for _, r := range []float64{0.1, 0.5} {
		for _, speed := range []float64{2, 5, 10, 18} {
			s := newSim(t, nil)
			g := staticBox(0, -0.5, 1000, 0.5, 0)
			s.add(g)
			d := dynCircle(0, r, r)
			d.LinearVelocity.X = speed
			d.AngularVelocity = -speed / r
			b := s.add(d)
			for i := range 120 {
				s.run(1)
				y, vy := s.pos(b).Y, s.v(b).Lin.Y
				if math.Abs(y-r) > 1e-3 || math.Abs(vy) > 0.05 {
					t.Fatalf("r %v speed %v: step %d: centre %.5f m above the ground (radius %v), vertical speed %.4f m/s",
						r, speed, i, y, r, vy)
				}
			}
			if v := s.v(b); math.Abs(v.Lin.X-speed) > 0.01*speed || math.Abs(v.Ang+speed/r) > 0.01*speed/r {
				t.Fatalf("r %v speed %v: after 2 s rolling at %.4f m/s, %.3f rad/s: it should keep rolling freely",
					r, speed, v.Lin.X, v.Ang)
			}
		}
	}
}
