package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsSpinCap drops a box spinning at 5000 rad/s onto the ground.
// The spin is capped at an eighth of a turn (pi/4) per substep, as in Box2D v3, and
// from then on the box must never hold more energy than it had with the
// capped spin: an inelastic landing can turn spin into a hop, never add to
// it. Without the cap, its corners turned most of a revolution per substep,
// its contacts' linearised separations were far off, and it flew 150 m up.
func TestPhysicsSpinCap(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	d := dynBox(0, 1, 0.25, 0.25)
	d.AngularVelocity = 5000
	b := s.add(d)
	h := s.cfg.Dt / float64(s.cfg.SubSteps)
	limit := 0.25 * math.Pi / h
	m := s.mass.Get(b)
	e0 := 0.5*m.Inertia*limit*limit - m.Mass*s.cfg.Gravity.Dot(s.pos(b))
	maxW, maxE, maxY := 0.0, 0.0, 0.0
	for range 300 {
		s.run(1)
		maxW = math.Max(maxW, math.Abs(s.v(b).Ang))
		maxE = math.Max(maxE, s.energy([]arche.Entity{b}, s.cfg.Gravity))
		maxY = math.Max(maxY, s.pos(b).Y)
	}
	if maxW > limit*(1+1e-12) {
		t.Errorf("spin reached %.1f rad/s, above an eighth of a turn (pi/4) per substep (%.1f)", maxW, limit)
	}
	if maxE > e0*(1+1e-9) {
		t.Errorf("energy rose to %.1f J, above the %.1f J of the capped spin", maxE, e0)
	}
	t.Logf("highest centre %.2f m, largest energy %.0f%% of the capped start", maxY, 100*maxE/e0)
}

// TestPhysicsSpeedCapHuge sets speeds whose square overflows a float64: the
// cap must still leave MaxLinearSpeed along the same direction, not zero.
func TestPhysicsSpeedCapHuge(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	b := s.add(dynCircle(0, 0, 0.1))
	if err := ecs.SetVelocity(s.w, b, components.V(3e160, -4e160), 0); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	want := components.V(0.6, -0.8).Scale(s.cfg.MaxLinearSpeed)
	if v := s.v(b).Lin; relErr(v.X, want.X, want.Len()) > 1e-12 || relErr(v.Y, want.Y, want.Len()) > 1e-12 {
		t.Errorf("velocity (3e160, -4e160) capped to %v, want %v", v, want)
	}
}
