package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsSquareHitLeavesNoSpin throws a 0.2 m box flat-on at a static
// wall, in zero gravity with restitution 0, at 10 and 40 m/s, with friction
// 0 and 0.6. By symmetry it stops at the wall without turning. The
// substeps solve the two points of the manifold one after the other, and
// in the substep where the gap closes the first takes more of the impact:
// the box left the wall spinning at 2 to 8 rad/s, and with friction it
// tumbled along the wall (turned 0.8 rad at 10 m/s; turned over at 100).
// The restitution pass now solves such two-point impacts together at e = 0
// too, and the next tick starts the contact cold. Wanted after the hit, at
// the end of every tick: spin below 0.01 rad/s and normal velocity below
// 1e-9 m/s (it neither bounces nor sinks; measured: 4e-14 and 5e-15). The
// tilt is not zero: within the tick of the impact the sequential passes
// still turn the box before the restitution pass stops it, by up to 0.017
// rad at 10 m/s and 0.068 at 40 (wanted: below 0.05 and 0.15), and with
// friction that turn leaves it sliding along the wall (0.9 m/s at 40 m/s);
// the README lists this among the known limits.
func TestPhysicsSquareHitLeavesNoSpin(t *testing.T) {
	for _, v := range []float64{10, 40} {
		for _, mu := range []float64{0, 0.6} {
			s := newSim(t, func(c *systems.Config) { c.Workers = 1; c.Gravity = components.Vec2{} })
			wall := staticBox(5.5, 0, 0.5, 5, 0) // face at x = 5
			wall.Friction = mu
			s.add(wall)
			d := dynBox(5-0.1-v/60*2.5, 0, 0.1, 0.1) // two and a half ticks from the face
			d.Friction = mu
			d.LinearVelocity = components.Vec2{X: v}
			b := s.add(d)
			maxW, maxTilt, maxVn := 0.0, 0.0, 0.0
			hit := false
			for i := 0; i < 120; i++ {
				s.run(1)
				vel := s.v(b)
				if !hit && vel.Lin.X < v/2 {
					hit = true
				}
				if hit {
					maxW = math.Max(maxW, math.Abs(vel.Ang))
					maxVn = math.Max(maxVn, math.Abs(vel.Lin.X))
				}
				maxTilt = math.Max(maxTilt, math.Abs(s.angle(b)))
			}
			t.Logf("%3.0f m/s, friction %.1f: spin after the hit up to %.3g rad/s, normal speed %.3g m/s, tilt %.3g rad, slides along the wall at %.3g m/s",
				v, mu, maxW, maxVn, maxTilt, s.v(b).Lin.Y)
			if !hit {
				t.Fatalf("%.0f m/s: the box never reached the wall", v)
			}
			if maxTilt0 := 0.05 * v / 10; maxW > 0.01 || maxVn > 1e-9 || maxTilt > min(maxTilt0, 0.15) {
				t.Errorf("%.0f m/s, friction %.1f: after the hit: spin %.3g rad/s (want < 0.01), normal speed %.3g m/s (want < 1e-9), tilt %.3g rad (want < %.2g)",
					v, mu, maxW, maxVn, maxTilt, min(maxTilt0, 0.15))
			}
		}
	}
}
