package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsFreeSpinTurnsByOmegaT spins a free box and a free disk with no
// gravity: the angular velocity stays w and the body turns by w t. The
// rotation update of a substep h (components.Rot.Integrate) turns by
// da = w h up to an error of 2 da^7/945 (the first term its series for
// da/tan(da) leaves out), so after K substeps the angle is within
// K 2 da^7/945 of w t (taken at 1.5 times that, plus 1e-12 rad for the
// rounding of K normalisations). Box2D v3's update, which turns by atan(da),
// was 5 % short at 100 rad/s, and 6e-4 short at 10 rad/s. The angle is
// unwrapped tick by tick: no tick turns by more than half a turn.
func TestPhysicsFreeSpinTurnsByOmegaT(t *testing.T) {
	for _, w := range []float64{0.5, 10, 100, -150} {
		for _, circle := range []bool{false, true} {
			s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{}; c.Workers = 1 })
			d := dynBox(0, 0, 0.5, 0.25)
			if circle {
				d = dynCircle(0, 0, 0.5)
			}
			d.AngularVelocity = w
			e := s.add(d)
			const ticks = 60
			angle, prev := 0.0, s.transform(e).R
			for n := 0; n < ticks; n++ {
				s.run(1)
				r := s.transform(e).R
				angle += prev.InvMul(r).Angle() // the turn of this tick
				prev = r
				if got := s.v(e).Ang; got != w {
					t.Fatalf("w = %v, circle %v: angular velocity %v after %d ticks", w, circle, got, n+1)
				}
			}
			h := s.cfg.Dt / float64(s.cfg.SubSteps)
			K := float64(ticks * s.cfg.SubSteps)
			da := math.Abs(w * h)
			tol := 1.5*K*2*math.Pow(da, 7)/945 + 1e-12
			want := w * ticks * s.cfg.Dt
			if err := math.Abs(angle - want); err > tol {
				t.Errorf("w = %v, circle %v: turned %.12g rad in %d ticks, want w t = %.12g (error %.3g > %.3g)",
					w, circle, angle, ticks, want, err, tol)
			} else {
				t.Logf("w = %v, circle %v: angle error %.3g rad over %.3g rad (bound %.3g)", w, circle, err, math.Abs(want), tol)
			}
		}
	}
}
