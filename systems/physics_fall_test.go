package systems_test

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsFreeFallClosedForm checks that a body flying free follows the
// exact discrete solution of the engine's integrator.
//
// Each substep of h = dt/n is symplectic Euler,
//
//	v_{k+1} = v_k + h g s        (s the gravity scale)
//	x_{k+1} = x_k + h v_{k+1},
//
// so after K = N n substeps (N ticks of n substeps)
//
//	v_K = v_0 + K h g s
//	x_K = x_0 + h sum_{k=1..K} v_k = x_0 + h sum_{k=1..K} (v_0 + k h g s)
//	    = x_0 + K h v_0 + h^2 g s K (K + 1) / 2.
//
// (The continuous parabola would have K^2/2 in place of K(K+1)/2: the
// difference, h^2 g K/2 = h g t/2, is the first-order error of the method and
// is what makes this test tell the integrators apart.) The angular velocity
// is constant. Tolerance: 1e-9 relative to the size of the displacement (and
// of the velocity), far above the ~1e-15 per-operation round-off of the K
// additions and far below the h g t / 2 gap to the continuous formula
// (~1e-3 relative here).
func TestPhysicsFreeFallClosedForm(t *testing.T) {
	cases := []struct {
		name     string
		substeps int
		ticks    int
		gravity  components.Vec2
		scale    float64
		v0       components.Vec2
		w0       float64
		circle   bool
	}{
		{"fall from rest", 4, 60, components.V(0, -10), 1, components.V(0, 0), 0, true},
		{"projectile", 4, 90, components.V(0, -10), 1, components.V(3, 7), 0, false},
		{"projectile spinning box", 4, 45, components.V(0, -9.81), 1, components.V(-2.5, 4), 3, false},
		{"8 substeps, gravity scale 0.5", 8, 60, components.V(0, -10), 0.5, components.V(1, 2), -1, true},
		{"1 substep, slanted gravity", 1, 120, components.V(2, -5), 1, components.V(0, 1), 0, false},
		{"gravity scale 0, drift", 4, 60, components.V(0, -10), 0, components.V(1.5, -0.5), 0.25, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, func(c *systems.Config) {
				c.SubSteps = tc.substeps
				c.Gravity = tc.gravity
				c.Workers = 1
			})
			x0 := components.V(1, 100)
			var d = dynBox(x0.X, x0.Y, 0.5, 0.25)
			if tc.circle {
				d = dynCircle(x0.X, x0.Y, 0.5)
			}
			d.LinearVelocity = tc.v0
			d.AngularVelocity = tc.w0
			d.GravityScale = tc.scale
			e := s.add(d)

			h := s.cfg.Dt / float64(tc.substeps)
			g := tc.gravity.Scale(tc.scale)
			worst := 0.0
			for n := 1; n <= tc.ticks; n++ {
				s.run(1)
				K := float64(n * tc.substeps)
				wantV := tc.v0.MulAdd(K*h, g)
				wantX := x0.MulAdd(K*h, tc.v0).MulAdd(h*h*K*(K+1)/2, g)
				gotX, gotV := s.pos(e), s.v(e)

				// Scales: the displacement and the velocity magnitudes
				// (at least 1e-3 so a zero component compares absolutely).
				dx := math.Max(wantX.Sub(x0).Len(), 1e-3)
				dv := math.Max(math.Max(wantV.Len(), tc.v0.Len()), 1e-3)
				for _, c := range []struct {
					what            string
					got, want, norm float64
				}{
					{"x", gotX.X, wantX.X, dx}, {"y", gotX.Y, wantX.Y, dx},
					{"vx", gotV.Lin.X, wantV.X, dv}, {"vy", gotV.Lin.Y, wantV.Y, dv},
					{"w", gotV.Ang, tc.w0, math.Max(math.Abs(tc.w0), 1e-3)},
				} {
					r := relErr(c.got, c.want, c.norm)
					worst = math.Max(worst, r)
					if r > 1e-9 {
						t.Fatalf("tick %d: %s = %.17g, closed form %.17g: relative error %.3g > 1e-9",
							n, c.what, c.got, c.want, r)
					}
				}
			}
			t.Logf("largest relative error over %d ticks: %.3g (tolerance 1e-9)", tc.ticks, worst)
			// Sanity: the discrete answer is not the continuous one, so the
			// test would notice an integrator of another order.
			T := float64(tc.ticks) * s.cfg.Dt
			cont := x0.MulAdd(T, tc.v0).MulAdd(T*T/2, g)
			if g != (components.Vec2{}) && s.pos(e).Sub(cont).Len() < 1e-6 {
				t.Errorf("position %v equals the continuous parabola %v: expected the symplectic Euler offset h g t/2", s.pos(e), cont)
			}
			if s.asleep(e) {
				t.Errorf("a moving body fell asleep")
			}
		})
	}
}

// TestPhysicsFreeFallDamping checks the damping law of a free body with no
// gravity: each substep multiplies the velocity by 1/(1 + h c), so after K
// substeps v = v0 / (1 + h c)^K. Tolerance 1e-9 relative.
func TestPhysicsFreeFallDamping(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{}; c.Sleep = false })
	d := dynCircle(0, 0, 0.5)
	d.LinearVelocity = components.V(4, -3)
	d.AngularVelocity = 2
	d.LinearDamping = 0.5
	d.AngularDamping = 2
	e := s.add(d)
	s.run(60)
	h := s.cfg.Dt / float64(s.cfg.SubSteps)
	K := float64(60 * s.cfg.SubSteps)
	wantV := d.LinearVelocity.Scale(math.Pow(1/(1+h*d.LinearDamping), K))
	wantW := d.AngularVelocity * math.Pow(1/(1+h*d.AngularDamping), K)
	got := s.v(e)
	for _, c := range []struct {
		what      string
		got, want float64
	}{{"vx", got.Lin.X, wantV.X}, {"vy", got.Lin.Y, wantV.Y}, {"w", got.Ang, wantW}} {
		if r := relErr(c.got, c.want, math.Abs(c.want)); r > 1e-9 {
			t.Errorf("%s = %.17g, want %.17g: relative error %.3g > 1e-9", c.what, c.got, c.want, r)
		}
	}
}

// TestPhysicsForceAndTorque pushes a free box (2 m x 1 m, density 2: m = 4
// kg, I = m (w^2 + h^2) / 12 = 5/3 kg m^2) and a free disk (radius 0.5,
// density 1: m = pi/4, I = m r^2 / 2) with no gravity. For N ticks a force
// F = (3, 1) N is applied at the point 0.5 m above the centre, adding the
// torque r x F = (0, 0.5) x (3, 1) = -1.5 N m, plus 0.7 N m of torque.
// The accumulators hold for one tick, so a constant push is the closed form
// of TestPhysicsFreeFallClosedForm with a = F / m:
//
//	v = K h F / m,   x = x0 + h^2 (F / m) K (K + 1) / 2,   w = K h tau / I
//
// after K = N n substeps. Then the body coasts: nothing applied, nothing
// changes. Tolerance 1e-9 relative.
func TestPhysicsForceAndTorque(t *testing.T) {
	for _, circle := range []bool{false, true} {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{}; c.Workers = 1 })
		x0 := components.V(2, 3)
		d := dynBox(x0.X, x0.Y, 1, 0.5)
		d.Density = 2
		mass, inertia := 4.0, 5.0/3
		if circle {
			d = dynCircle(x0.X, x0.Y, 0.5)
			mass = math.Pi / 4
			inertia = mass * 0.25 / 2
		}
		e := s.add(d)
		m := s.mass.Get(e)
		if relErr(m.Mass, mass, mass) > 1e-12 || relErr(m.Inertia, inertia, inertia) > 1e-12 {
			t.Fatalf("circle %v: mass %v inertia %v, want %v and %v", circle, m.Mass, m.Inertia, mass, inertia)
		}
		f := components.V(3, 1)
		tau := -1.5 + 0.7
		const N = 30
		for i := 0; i < N; i++ {
			if err := ecs.ApplyForce(s.w, e, f, s.pos(e).Add(components.V(0, 0.5))); err != nil {
				t.Fatal(err)
			}
			if err := ecs.ApplyTorque(s.w, e, 0.7); err != nil {
				t.Fatal(err)
			}
			s.run(1)
		}
		h := s.cfg.Dt / float64(s.cfg.SubSteps)
		K := float64(N * s.cfg.SubSteps)
		a := f.Scale(1 / mass)
		wantV, wantX, wantW := a.Scale(K*h), x0.MulAdd(h*h*K*(K+1)/2, a), K*h*tau/inertia
		check := func(when string) {
			got := s.v(e)
			for _, c := range []struct {
				what            string
				got, want, norm float64
			}{
				{"vx", got.Lin.X, wantV.X, wantV.Len()}, {"vy", got.Lin.Y, wantV.Y, wantV.Len()},
				{"x", s.pos(e).X, wantX.X, wantX.Sub(x0).Len()}, {"y", s.pos(e).Y, wantX.Y, wantX.Sub(x0).Len()},
				{"w", got.Ang, wantW, math.Abs(wantW)},
			} {
				if r := relErr(c.got, c.want, c.norm); r > 1e-9 {
					t.Errorf("circle %v, %s: %s = %.12g, want %.12g", circle, when, c.what, c.got, c.want)
				}
			}
		}
		check("after the push")
		s.run(10)
		wantX = wantX.MulAdd(10*s.cfg.Dt, wantV)
		check("coasting 10 ticks after it")
	}
}
